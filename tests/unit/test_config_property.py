"""Property: every input either validates or yields one ConfigError; never a traceback."""

from __future__ import annotations

import copy
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gpu_platform.plan.platform import ResolvedPlatform
from gpu_platform.stack_config import ConfigError, load_platform
from tests.stack_config.test_load import BASE

json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-5, 100)
    | st.floats(allow_nan=False, allow_infinity=False, width=16)
    | st.sampled_from(
        [
            "",
            "aks",
            "existing",
            "ack",
            "azure",
            "alicloud",
            "MIG1g",
            "MIG9g",
            "mixed",
            "mps",
            "timeSlicing",
            "Standard_ND96asr_v4",
            "Standard_NC4as_T4_v3",
            "ecs.gn7i-c8g1.2xlarge",
            "0.20.0",
            "0.1",
            "gpu-training",
            "Bad Name",
            "nvidia.com/gpu",
            "1.29",
            "1.31",
            "system",
            "default",
            "kube-system",
            "nvidia-device-plugin",
            "10.0.0.1/8",
            "not-a-file.yaml",
        ]
    ),
    lambda children: (
        st.lists(children, max_size=3)
        | st.dictionaries(
            st.sampled_from(
                [
                    "name",
                    "count",
                    "mig",
                    "profile",
                    "strategy",
                    "sharing",
                    "mode",
                    "replicas",
                    "vmSize",
                    "instanceType",
                    "autoscale",
                    "min",
                    "max",
                    "gpuQuota",
                    "pools",
                    "version",
                    "enabled",
                    "bogus",
                    "values",
                    "config",
                    "map",
                    "default",
                    "gfd",
                    "namespace",
                    "apiServer",
                    "authorizedIpRanges",
                    "kubeconfigPath",
                ]
            ),
            children,
            max_size=4,
        )
    ),
    max_leaves=12,
)


def _paths(value: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    out = [prefix]
    if isinstance(value, dict):
        for k, v in value.items():
            out += _paths(v, (*prefix, k))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            out += _paths(v, (*prefix, i))
    return out


def _set(root: Any, path: tuple[Any, ...], value: Any) -> Any:
    if not path:
        return value
    node = root
    for part in path[:-1]:
        node = node[part]
    node[path[-1]] = value
    return root


def _outcome(raw: Any) -> None:
    try:
        result = load_platform(raw)
    except ConfigError as err:
        assert err.problems, "a ConfigError always names at least one problem"
        for path, message in err.problems:
            assert isinstance(path, str) and path
            assert isinstance(message, str) and message
    else:
        assert isinstance(result, ResolvedPlatform)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data(), value=json_values)
def test_mutated_configs_validate_or_fail_cleanly(data: st.DataObject, value: Any) -> None:
    raw = copy.deepcopy(BASE)
    path = data.draw(st.sampled_from(_paths(raw)[1:]))
    _outcome(_set(raw, path, value))


@settings(max_examples=100, deadline=None)
@given(
    raw=st.dictionaries(
        st.sampled_from(
            ["cloud", "cluster", "gpuPools", "workloads", "devicePlugin", "gpuOperator", "other"]
        ),
        json_values,
        max_size=6,
    )
)
def test_random_configs_validate_or_fail_cleanly(raw: dict[str, Any]) -> None:
    _outcome(raw)
