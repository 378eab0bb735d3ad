"""Every property of every component a program composes, given a value of the wrong kind
(None, a list, a map, text, a number, an Output where a plain value goes): one
``pulumi.InputPropertiesError`` naming the component and that property's path (or, for None
where a property may be left out, what its absence means), and nothing registered. Never a
``TypeError`` from deep inside. Generated from the args' TypedDicts and each component's good
inputs; plus the bounds the stack config holds, asked by the components too."""

from __future__ import annotations

from collections import defaultdict
from typing import Any

import pulumi
import pytest

from gpu_platform.component_provider import HOSTED_COMPONENTS
from gpu_platform.offline_preview.engine import PreviewMocks, RecordingMonitor
from tests.conftest import run

from .component_args import WrongType, construct, good_args, wrong_types

WRONG_TYPES = wrong_types()
BY_COMPONENT: dict[str, list[WrongType]] = defaultdict(list)
for _case in WRONG_TYPES:
    BY_COMPONENT[_case.component].append(_case)


def _outcome(case: WrongType) -> str:
    """``ok``, or what is wrong with the component's answer."""
    monitor = RecordingMonitor(PreviewMocks())
    try:
        run(construct(case.component, case.args()), monitor=monitor)
    except pulumi.InputPropertiesError as err:
        paths = [e["property_path"] for e in err.errors or []]
        if not str(err).startswith(f"{case.component} 'bad': "):
            return f"names no component: {err}"
        # The program's own provider (made before the component) aside, nothing registered.
        registered = [r for r in monitor.recorded if not r.type.startswith("pulumi:providers:")]
        if registered:
            return f"registered {len(registered)} resources first"
        named = any(
            p == case.property_path or p.startswith(case.property_path + ".") for p in paths
        )
        if named or (case.given == "None" and not case.required):
            return "ok"
        return f"names {paths}, not {case.property_path}"
    except BaseException as err:
        return f"{type(err).__name__}: {str(err)[:200]}"
    if case.given == "None" and not case.required:
        return "ok"  # left out: its default
    return "accepted"


# An Output a component refused is never awaited: when the run ends, Python warns that its
# coroutine was destroyed pending, as it would in a program the component refused.
@pytest.mark.filterwarnings("ignore::pytest.PytestUnraisableExceptionWarning")
@pytest.mark.parametrize("component", HOSTED_COMPONENTS)
def test_each_wrong_type_is_an_input_error_naming_the_property(component: str) -> None:
    wrong = [
        f"{case.name}: {outcome}"
        for case in BY_COMPONENT[component]
        if (outcome := _outcome(case)) != "ok"
    ]
    assert wrong == [], "\n".join(wrong)


def test_every_component_has_wrong_types_to_try() -> None:
    assert sorted(BY_COMPONENT) == sorted(HOSTED_COMPONENTS)


def _pool_args(component: str, **pool: Any) -> dict[str, Any]:
    args = good_args(component)
    args["pool"] = {**args["pool"], **pool}
    return args


BOUNDS = [
    ("AksGpuNodePool", {"count": 10**12}, "pool.count",
     "1000000000000 nodes; AKS allows at most 1000 in one node pool"),
    ("AksGpuNodePool", {"count": None, "autoscale": {"min": 0, "max": 1001}},
     "pool.autoscale.max", "1001 nodes; AKS allows at most 1000 in one node pool"),
    ("AksCpuNodePool", {"autoscale": {"min": 1, "max": 5000}}, "pool.autoscale.max",
     "5000 nodes; AKS allows at most 1000 in one node pool"),
    ("AckGpuNodePool", {"autoscale": {"min": 0, "max": 10**6}}, "pool.autoscale.max",
     "1000000 nodes; ACK allows at most 1000 in one node pool"),
]  # fmt: skip


@pytest.mark.parametrize(("component", "pool", "path", "reason"), BOUNDS)
def test_a_component_refuses_the_sizes_the_stack_config_refuses(
    component: str, pool: dict[str, Any], path: str, reason: str
) -> None:
    """The same ``plan.cloud_limits.pool_size_problems`` the stack config asks."""
    args = _pool_args(component, **pool)
    if pool.get("count", 0) is None:
        del args["pool"]["count"]
        args["pool"].pop("mig", None)  # MIG pools do not autoscale
    with pytest.raises(pulumi.InputPropertiesError) as err:
        run(construct(component, args))
    (found,) = [e for e in err.value.errors or [] if e["property_path"] == path]
    assert found["reason"].startswith(reason)
