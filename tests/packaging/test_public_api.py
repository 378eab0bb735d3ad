"""The public API (``from gpu_platform import ...``): every component and args type is named in
``gpu_platform.components.__all__``, and a name loads only its own module, so a program pays for
the cloud SDK of the components it uses and no other."""

from __future__ import annotations

import inspect
import pkgutil
import subprocess
import sys
from importlib import import_module
from typing import is_typeddict

import pulumi
import pytest

import gpu_platform
from gpu_platform import components


def public_classes() -> set[str]:
    """Component classes and their args types (TypedDicts named ``*Args``) in the package."""
    found = set()
    for module in pkgutil.walk_packages(components.__path__, "gpu_platform.components."):
        loaded = import_module(module.name)
        for name, value in vars(loaded).items():
            if getattr(value, "__module__", None) != loaded.__name__:
                continue
            component = inspect.isclass(value) and issubclass(value, pulumi.ComponentResource)
            if component or (is_typeddict(value) and name.endswith("Args")):
                found.add(name)
    return found


def test_all_names_every_component_and_args_type() -> None:
    assert set(components.__all__) == public_classes()
    assert set(gpu_platform.__all__) == {"__version__", *components.__all__}


@pytest.mark.parametrize("name", components.__all__)
def test_each_name_resolves_from_the_package(name: str) -> None:
    assert getattr(gpu_platform, name) is getattr(components, name)


def test_an_unknown_name_is_an_attribute_error() -> None:
    with pytest.raises(AttributeError, match="NoSuchPool"):
        _ = gpu_platform.NoSuchPool  # type: ignore[attr-defined]


def imported_sdks(statement: str) -> set[str]:
    code = (
        f"import sys\n{statement}\n"
        "print(' '.join(m for m in ('pulumi_azure_native', 'pulumi_alicloud') if m in sys.modules))"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=120
    )
    return set(done.stdout.split())


@pytest.mark.slow
@pytest.mark.parametrize(
    ("statement", "sdks"),
    [
        ("from gpu_platform import AckGpuNodePool, AckCluster", {"pulumi_alicloud"}),
        ("from gpu_platform import AksGpuNodePool, AksCluster", {"pulumi_azure_native"}),
        ("from gpu_platform import GpuWorkloadNamespace, NvidiaDevicePlugin", set()),
        ("import gpu_platform", set()),
    ],
)
def test_a_component_imports_only_its_own_clouds_sdk(statement: str, sdks: set[str]) -> None:
    assert imported_sdks(statement) == sdks


def test_the_type_checkers_imports_are_the_public_list() -> None:
    """``components/__init__.py``'s imports for type checkers name what ``_PUBLIC`` names (the
    one list ``__all__`` and the lazy look-up derive from), module by module."""
    import ast
    from pathlib import Path

    tree = ast.parse(Path(components.__file__).read_text())
    imported: dict[str, set[str]] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.level == 1 and node.module:
            imported.setdefault(node.module, set()).update(a.name for a in node.names)
    assert imported == {m: set(names) for m, names in components._PUBLIC.items()}
