"""AckGpuSharing on the mock engine: chart names, pinned versions, the frozen ack-mps-control."""

from __future__ import annotations

from typing import Any

import pulumi
import pytest

from gpu_facts.ack.addons import (
    ACK_CHART_REPO,
    AI_INSTALLER_CHART,
    MPS_CONTROL_CHART,
    needs_ack_pro,
)
from gpu_platform.components.ack.gpu_sharing import (
    AckGpuSharing,
    AckGpuSharingArgs,
    ack_gpu_sharing_args,
)
from gpu_platform.components.pool_args import gpu_pool_args
from gpu_platform.offline_preview import ProgramRun, RecordedResource
from gpu_platform.plan.ack.gpu_sharing import MPS_CONTROL_UNPINNED
from gpu_platform.settings import AckClusterSettings
from gpu_platform.stack_config import load_platform
from tests.components import platforms
from tests.components.input_errors import paths, reasons, refused
from tests.conftest import by_type, one, run

RELEASE = "kubernetes:helm.sh/v3:Release"


def platform(mode: str | None = "mps", **pins: Any) -> Any:
    raw = platforms.ack_mps_and_whole_gpus()
    raw["ackGpuSharing"].update(pins)
    for workload in raw["workloads"]:
        workload["gpuQuota"] = 1
    if mode is None:
        raw["gpuPools"][0].pop("sharing")
        raw["workloads"][0].pop("pools")
    else:
        raw["gpuPools"][0]["sharing"] = {"mode": mode}
    return load_platform(raw)


def sharing_args(mode: str | None = "mps", **pins: Any) -> AckGpuSharingArgs:
    """The args the platform passes for ``platforms.ack_mps_and_whole_gpus`` with the first
    pool's sharing ``mode`` and ``pins`` (YAML keys)."""
    p = platform(mode, **pins)
    pools = [gpu_pool_args(pf) for pf in p.pools.values()]
    cluster = p.settings.cluster
    assert isinstance(cluster, AckClusterSettings)
    return ack_gpu_sharing_args(p.settings.ack_gpu_sharing, pools, cluster.cluster_spec)


def build(args: AckGpuSharingArgs) -> ProgramRun:
    def program() -> None:
        sharing = AckGpuSharing("sharing", args)
        pulumi.export("versions", sharing.versions)

    return run(program)


def build_for(mode: str | None = "mps", **pins: Any) -> ProgramRun:
    return build(sharing_args(mode, **pins))


def releases(result: ProgramRun) -> dict[str, RecordedResource]:
    return {r.inputs["chart"]: r for r in by_type(result, RELEASE)}


def test_mps_pools_get_both_components_from_the_ack_catalog() -> None:
    result = build_for("mps")
    found = releases(result)
    assert set(found) == {AI_INSTALLER_CHART, MPS_CONTROL_CHART}
    assert found[AI_INSTALLER_CHART].inputs["version"] == "1.8.2"
    assert found[MPS_CONTROL_CHART].inputs["version"] == "0.2.0"
    for chart, release in found.items():
        assert release.inputs["name"] == chart
        assert release.inputs["namespace"] == "kube-system"
        assert release.inputs["repositoryOpts"] == {"repo": ACK_CHART_REPO}
        assert "values" not in release.inputs or release.inputs["values"] == {}
    assert result.outputs["versions"] == {"ack-ai-installer": "1.8.2", "ack-mps-control": "0.2.0"}


def test_mps_control_is_protected_and_frozen_by_default() -> None:
    found = releases(build_for("mps"))
    mps = found[MPS_CONTROL_CHART]
    assert mps.protect is True
    assert set(mps.ignore_changes) == {"chart", "version", "values", "repositoryOpts"}
    installer = found[AI_INSTALLER_CHART]
    assert installer.protect is False
    assert installer.ignore_changes == []


def test_allow_mps_control_changes_lifts_the_protection() -> None:
    mps = releases(build_for("mps", allowMpsControlChanges=True))[MPS_CONTROL_CHART]
    assert mps.protect is False
    assert mps.ignore_changes == []


@pytest.mark.parametrize("mode", ["cgpu", "share"])
def test_other_ack_sharing_needs_only_the_ai_installer(mode: str) -> None:
    assert set(releases(build_for(mode))) == {AI_INSTALLER_CHART}


def test_nothing_without_ack_sharing() -> None:
    result = build_for(None)
    assert releases(result) == {}
    assert result.outputs["versions"] == {}


def test_unpinned_chart_is_refused_before_anything_is_created() -> None:
    args = sharing_args("mps")
    del args["mps_control_version"]
    err = refused(lambda: AckGpuSharing("sharing", args))
    # The stack config says the same under ackGpuSharing (plan.ack.gpu_sharing).
    assert reasons(err) == {"mpsControlVersion": MPS_CONTROL_UNPINNED}
    assert "AckGpuSharing 'sharing'" in str(err)


def test_bad_args_name_every_property_path() -> None:
    args: Any = {
        **sharing_args("cgpu"),
        "ai_installer_version": "latest",
        "allow_mps_control_changes": "yes",
    }
    args["pools"][1] = {**args["pools"][1], "sharing": {"mode": "magic"}}
    err = refused(lambda: AckGpuSharing("sharing", args))
    assert paths(err) == ["pools[1].sharing.mode", "allowMpsControlChanges"]
    args["allow_mps_control_changes"] = False
    err = refused(lambda: AckGpuSharing("sharing", args))
    assert paths(err) == ["pools[1].sharing.mode", "aiInstallerVersion"]


def test_plain_args_without_shared_pools_install_nothing() -> None:
    pool = {"name": "t4", "instance_type": "ecs.gn6i-c4g1.xlarge", "count": 1}
    result = build({"pools": [pool]})  # type: ignore[list-item]
    assert releases(result) == {}
    assert result.outputs["versions"] == {}


def test_releases_parented_to_the_component() -> None:
    result = build_for("mps")
    component = one(result, "gpu-platform:index:AckGpuSharing")
    releases = by_type(result, RELEASE)
    assert len(releases) == 2
    for release in releases:
        assert release.parent == component.urn
        assert release.name.startswith("sharing-")


def test_acks_own_sharing_without_ack_pro_is_refused_with_the_plans_message() -> None:
    args = {**sharing_args("mps"), "cluster_spec": "ack.standard"}
    err = refused(lambda: AckGpuSharing("sharing", args))  # type: ignore[arg-type]
    # plan.ack.gpu_sharing.ack_pro_problems: the stack config (under cluster) and the pack say
    # the same words.
    assert reasons(err) == {"clusterSpec": needs_ack_pro("mps")}
    build({**sharing_args("mps"), "cluster_spec": "ack.pro.small"})  # type: ignore[typeddict-item]
