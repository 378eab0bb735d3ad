"""Every component a program composes refuses a property its args type does not have and
names each required one it lacks, with ``pulumi.InputPropertiesError``, before it registers
anything: a misspelt ``gpu_operater=True`` is not dropped in silence (AKS would install its
driver next to the operator's), and a missing ``resource_group_name`` is no ``KeyError``."""

from typing import Any

import pytest

import gpu_platform
from gpu_platform.component_provider import HOSTED_COMPONENTS
from gpu_platform.components.errors import property_path

from .input_errors import paths, reasons, refused


@pytest.mark.parametrize("component", HOSTED_COMPONENTS)
def test_unknown_and_missing_args_are_refused_by_name(component: str) -> None:
    cls = getattr(gpu_platform, component)
    args_type: Any = getattr(gpu_platform, f"{component}Args")
    err = refused(lambda: cls("shape", {"bogus_key": 1}))
    required = [property_path(key) for key in sorted(args_type.__required_keys__)]
    assert sorted(paths(err)) == sorted(["bogusKey", *required])
    assert reasons(err)["bogusKey"] == "unknown property"
    # "required" from the args' shape; "Field required" where the settings model reads them
    # all (AksCluster, AckCluster: with every other problem in the same error).
    assert all(reasons(err)[key] in ("required", "Field required") for key in required)
