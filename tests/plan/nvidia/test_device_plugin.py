"""Per-pool device-plugin configs (chart README 0.20.0 formats) and the shared-GPU warnings."""

from __future__ import annotations

from typing import Any

import pytest
import yaml

from gpu_facts.scheduling import DEVICE_PLUGIN_CONFIG_LABEL
from gpu_platform.plan.nvidia.device_plugin import (
    DEFAULT_CONFIG_NAME,
    DevicePluginConfigError,
    config_label,
    config_map,
    pool_config,
    render,
    shared_resource,
)
from gpu_platform.plan.platform import ResolvedPlatform, shared_gpu_warnings, shared_pool_namespaces
from gpu_platform.plan.pools import PoolFacts
from gpu_platform.stack_config import load_platform
from tests.conftest import stack_raw

ND96_A100 = "Standard_ND96asr_v4"
T4 = "Standard_NC4as_T4_v3"


def existing(pools: list[dict[str, Any]], **extra: Any) -> ResolvedPlatform:
    """A validated platform on an existing cluster with the given pools."""
    return load_platform(
        {"cloud": "existing", "cluster": {"name": "lab"}, "gpuPools": pools, **extra}
    )


def one_pool(**pool: Any) -> PoolFacts:
    platform = existing([{"name": "p", "count": 1, **pool}])
    return platform.pools["p"]


def test_plain_pool() -> None:
    assert pool_config(one_pool(vmSize=T4)) == {"version": "v1", "flags": {"migStrategy": "none"}}


def test_mig_single_pool() -> None:
    pool = one_pool(vmSize=ND96_A100, mig={"profile": "MIG1g", "strategy": "single"})
    assert pool_config(pool) == {"version": "v1", "flags": {"migStrategy": "single"}}


def test_mig_mixed_pool() -> None:
    pool = one_pool(vmSize=ND96_A100, mig={"profile": "MIG3g", "strategy": "mixed"})
    assert pool_config(pool) == {"version": "v1", "flags": {"migStrategy": "mixed"}}


def test_time_slicing_pool() -> None:
    pool = one_pool(vmSize=T4, sharing={"mode": "timeSlicing", "replicas": 4})
    assert pool_config(pool) == {
        "version": "v1",
        "flags": {"migStrategy": "none"},
        "sharing": {
            "timeSlicing": {
                "renameByDefault": True,
                "failRequestsGreaterThanOne": True,
                "resources": [{"name": "nvidia.com/gpu", "replicas": 4}],
            }
        },
    }


def test_mps_pool() -> None:
    pool = one_pool(
        vmSize=T4,
        sharing={"mode": "mps", "replicas": 2, "renameByDefault": False},
    )
    assert pool_config(pool) == {
        "version": "v1",
        "flags": {"migStrategy": "none"},
        "sharing": {
            "mps": {
                "renameByDefault": False,
                "failRequestsGreaterThanOne": True,
                "resources": [{"name": "nvidia.com/gpu", "replicas": 2}],
            }
        },
    }


def test_time_slicing_mixed_mig_shares_the_mig_resource() -> None:
    pool = one_pool(
        vmSize=ND96_A100,
        mig={"profile": "MIG1g", "strategy": "mixed"},
        sharing={"mode": "timeSlicing", "replicas": 2, "failRequestsGreaterThanOne": False},
    )
    assert pool_config(pool)["sharing"] == {
        "timeSlicing": {
            "renameByDefault": True,
            "failRequestsGreaterThanOne": False,
            "resources": [{"name": "nvidia.com/mig-1g.5gb", "replicas": 2}],
        }
    }


@pytest.mark.parametrize(
    "pool",
    [
        {"vmSize": T4, "sharing": {"mode": "timeSlicing", "replicas": 3}},
        {"vmSize": T4, "sharing": {"mode": "mps", "replicas": 5, "renameByDefault": False}},
        {
            "vmSize": ND96_A100,
            "mig": {"profile": "MIG2g", "strategy": "mixed"},
            "sharing": {"mode": "timeSlicing", "replicas": 2},
        },
        {
            "vmSize": ND96_A100,
            "mig": {"profile": "MIG7g", "strategy": "single"},
            "sharing": {"mode": "timeSlicing", "replicas": 2, "renameByDefault": False},
        },
    ],
)
def test_shared_resource_is_what_the_capacity_model_expects(pool: dict[str, Any]) -> None:
    facts = one_pool(**pool)
    assert [shared_resource(facts)] == list(facts.capacity.per_node)
    replicas = pool_config(facts)["sharing"][pool["sharing"]["mode"]]["resources"][0]["replicas"]
    assert replicas == pool["sharing"]["replicas"]


def test_render_is_the_yaml_the_plugin_reads_version_first() -> None:
    pool = one_pool(vmSize=T4, sharing={"mode": "timeSlicing", "replicas": 4})
    text = render(pool_config(pool))
    assert text.startswith("version: v1\n")
    assert yaml.safe_load(text) == pool_config(pool)


def test_config_map_has_the_default_and_one_config_per_pool() -> None:
    platform = load_platform(stack_raw("existing"))
    configs = config_map(list(platform.pools.values()))
    assert set(configs) == {DEFAULT_CONFIG_NAME, "a100", "t4"}
    assert yaml.safe_load(configs[DEFAULT_CONFIG_NAME]) == {
        "version": "v1",
        "flags": {"migStrategy": "none"},
    }
    # The existing stack: a100 is MIG mixed, t4 time-sliced four ways.
    assert configs["a100"] == "version: v1\nflags:\n  migStrategy: mixed\n"
    assert configs["t4"] == (
        "version: v1\n"
        "flags:\n"
        "  migStrategy: none\n"
        "sharing:\n"
        "  timeSlicing:\n"
        "    renameByDefault: true\n"
        "    failRequestsGreaterThanOne: true\n"
        "    resources:\n"
        "    - name: nvidia.com/gpu\n"
        "      replicas: 4\n"
    )
    # Pool names are letters and digits: the default can never collide with one.
    assert "-" in DEFAULT_CONFIG_NAME


def test_config_label_selects_the_pool_config() -> None:
    assert config_label(one_pool(vmSize=T4)) == {DEVICE_PLUGIN_CONFIG_LABEL: "p"}


def test_ack_mps_pools_get_no_plugin_config() -> None:
    platform = load_platform(stack_raw("ack-dev"))
    ack_mps = [p for p in platform.pools.values() if p.sharing == "ackMps"]
    assert ack_mps, "the ack-dev stack has an ACK MPS pool"
    configs = config_map(list(platform.pools.values()))
    assert not {p.name for p in ack_mps} & set(configs)
    assert {p.name for p in platform.pools.values() if p.uses_device_plugin} <= set(configs)
    with pytest.raises(DevicePluginConfigError, match="served by ACK's own components"):
        pool_config(ack_mps[0])
    assert shared_resource(ack_mps[0]) is None


def test_shared_pool_namespaces_and_warning() -> None:
    platform = existing(
        [
            {"name": "whole", "vmSize": T4, "count": 1},
            {
                "name": "ts",
                "vmSize": T4,
                "count": 1,
                "sharing": {"mode": "timeSlicing", "replicas": 4},
            },
            {"name": "mps", "vmSize": T4, "count": 1, "sharing": {"mode": "mps", "replicas": 2}},
        ],
        workloads=[
            {"name": "gpu-training", "type": "training", "gpuQuota": 1},
            {"name": "gpu-inference", "type": "inference", "gpuQuota": 4, "pools": ["ts"]},
            {"name": "gpu-batch", "type": "batch", "gpuQuota": 4, "pools": ["ts", "whole"]},
        ],
    )
    # Unlisted workloads get only unshared pools; nobody lists "mps".
    assert shared_pool_namespaces(platform) == {"ts": ["gpu-inference", "gpu-batch"], "mps": []}
    warnings = shared_gpu_warnings(platform)
    assert set(warnings) == {"ts", "mps"}
    assert "one trust domain" in warnings["ts"]
    assert "no memory or fault isolation" in warnings["ts"]
    assert "gpu-inference, gpu-batch" in warnings["ts"]
    assert "BP-15" in warnings["ts"]
    assert "no fault isolation" in warnings["mps"]
    assert "no workload namespace" in warnings["mps"]


def test_no_shared_pools_no_warnings() -> None:
    assert shared_gpu_warnings(existing([{"name": "whole", "vmSize": T4, "count": 1}])) == {}
