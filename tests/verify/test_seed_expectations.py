"""readiness.seed_expectations: what the seeds' checks expect, per pool, from our stack files."""

from __future__ import annotations

from pathlib import Path

from gpu_facts.vendors import AMD, NVIDIA
from gpu_platform.settings import AksClusterSettings
from gpu_platform.stack_config import load_platform
from gpu_platform.verify.cli import load_stack
from gpu_platform.verify.seed_expectations import (
    MigLayout,
    MpsDaemon,
    NvmeDisks,
    SeedPool,
    node_os_channel,
    seed_expectations,
)
from tests.conftest import stack_raw

ROOT = Path(__file__).resolve().parents[2]
VERIFY = ROOT / "tests" / "data" / "verify"


def test_dev_stack_mig_pool_and_node_image_channel() -> None:
    seeds = seed_expectations(load_stack(ROOT, "dev", None))
    assert seeds.node_os_channel == "NodeImage"
    assert seeds.is_aks
    assert seeds.pools == (
        SeedPool("a100mig", 8, mig=MigLayout("1g.5gb", 7, 8)),  # BP-10: 56 per node
        SeedPool("t4", 1),  # time-sliced by the NVIDIA plugin, no NVMe on NC4as_T4_v3
    )


def test_ack_mps_pool_keeps_gpu_memory_books_and_runs_acks_daemon() -> None:
    seeds = seed_expectations(load_stack(ROOT, "x", VERIFY / "Pulumi.verify-ack.yaml"))
    assert seeds.pools == (SeedPool("a10mps", 1, gpu_mem_ledger=True, mps=MpsDaemon.ACK),)
    assert (seeds.cloud, seeds.node_os_channel, seeds.is_aks) == ("ack", None, False)


def test_nvme_pool_and_device_plugin_mps(tmp_path: Path) -> None:
    mps = tmp_path / "Pulumi.mps.yaml"
    mps.write_text((VERIFY / "Pulumi.verify-aks.yaml").read_text().replace("timeSlicing", "mps"))
    pools = {pool.name: pool for pool in seed_expectations(load_stack(ROOT, "x", mps)).pools}
    assert pools["h100nvl"] == SeedPool(
        "h100nvl", 1, mps=MpsDaemon.DEVICE_PLUGIN, nvme=NvmeDisks(1, 3576)
    )
    assert str(pools["h100nvl"].nvme) == "1 local NVMe disk, 3,576 GiB"


def test_the_cluster_node_image_channel_forces_node_image() -> None:
    raw = stack_raw("dev")
    raw["cluster"]["upgradeChannel"] = "node-image"
    raw["cluster"]["nodeOsUpgradeChannel"] = "Unmanaged"
    cluster = load_platform(raw).settings.cluster
    assert isinstance(cluster, AksClusterSettings)
    assert node_os_channel(cluster) == "NodeImage"


def test_amd_pools_are_seed_pools_too_with_their_vendor() -> None:
    """Node images and NVMe disks are checked on every pool; the NVIDIA-only checks ask
    ``nvidia_pools``."""
    seeds = seed_expectations(load_stack(ROOT, "amd-dev", None))
    assert seeds.pools == (
        SeedPool("mi300x", 8, nvme=NvmeDisks(8, 3500), vendor=AMD),
        SeedPool("t4", 1, vendor=NVIDIA),
    )
    assert str(seeds.pools[0].nvme) == "8 local NVMe disks, 28,000 GiB"
    assert [pool.name for pool in seeds.nvidia_pools] == ["t4"]
