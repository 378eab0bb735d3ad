"""End to end on the offline preview: sample programs and our own stacks through the pack."""

from __future__ import annotations

import copy
import dataclasses
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from gpu_platform.offline_preview import ProgramRun, preview, run_policies
from gpu_platform.offline_preview.cli import EXIT_MANDATORY, EXIT_OK, main
from gpu_policies.registry import policies
from tests.conftest import stack_preview
from tests.reference import environment_notice

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "examples"
STACKS = sorted(p.name[len("Pulumi.") : -len(".yaml")] for p in ROOT.glob("Pulumi.*.yaml"))

BAD_EXPECTED = {
    "gpu-workloads-tolerate-gpu-taint": "mandatory",
    "gpu-limits-whole-numbers": "mandatory",
    "no-nvidia-visible-devices-env": "mandatory",
    "no-privileged-gpu-containers": "mandatory",
    "cuda-images-pinned": "advisory",
    "host-ipc-only-for-gpu-mem-pods": "mandatory",
    "gpu-pods-not-in-default-namespace": "advisory",
    "gpu-namespaces-deny-all-network-policy": "mandatory",
    "gpu-namespaces-have-gpu-quota": "advisory",
    "device-plugin-release-current-with-gfd": "mandatory",
    "single-device-plugin-owner": "mandatory",
    # Its releases' charts (an old device plugin, GFD, the GPU Operator) cannot be had offline:
    # each is judged by its chart, version and values, and the preview says so.
    "offline-preview": "advisory",
}


def test_bad_gpu_workload_fails_with_the_expected_policies() -> None:
    result = preview(EXAMPLES / "bad-gpu-workload")
    assert {v.policy: v.enforcement for v in result.violations} == BAD_EXPECTED
    assert result.exit_code == EXIT_MANDATORY
    trainer = next(r for r in result.run.resources if r.name == "trainer")
    assert {v.urn for v in result.violations if v.policy == "no-privileged-gpu-containers"} == {
        trainer.urn
    }
    plugin_messages = [
        v.message for v in result.violations if v.policy == "device-plugin-release-current-with-gfd"
    ]
    assert len(plugin_messages) == 3  # old version, no gfd, separate GFD release


def test_bad_gpu_workload_violations_follow_its_stack_config(tmp_path: Path) -> None:
    """A pinned image and a whole GPU in the stack config clear exactly those two policies."""
    config = tmp_path / "Pulumi.fixed.yaml"
    config.write_text(
        "config:\n"
        "  bad-gpu-workload:image: nvidia/cuda:12.1.1-base-ubuntu22.04\n"
        "  bad-gpu-workload:gpus: '1'\n"
    )
    result = preview(EXAMPLES / "bad-gpu-workload", config_file=config)
    expected = set(BAD_EXPECTED) - {"cuda-images-pinned", "gpu-limits-whole-numbers"}
    assert {v.policy for v in result.violations} == expected


def test_good_gpu_workload_passes_every_policy() -> None:
    """Every policy passes, the device plugin's release judged from its rendered objects (from
    the reference chart; without it and without network, only the notice that it could not be
    had remains, an advisory)."""
    result = preview(EXAMPLES / "good-gpu-workload")
    assert [v for v in result.violations if not environment_notice(v.policy, v.message)] == []
    assert result.exit_code == EXIT_OK
    kinds = {r.type.rsplit(":", 1)[-1] for r in result.run.resources}
    assert {"Deployment", "CronJob", "Namespace", "NetworkPolicy", "ResourceQuota"} <= kinds


def test_make_preview_exit_status(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--program", str(EXAMPLES / "bad-gpu-workload")]) == EXIT_MANDATORY
    assert "no-privileged-gpu-containers" in capsys.readouterr().out
    assert main(["--program", str(EXAMPLES / "good-gpu-workload")]) == EXIT_OK


@pytest.mark.slow
@pytest.mark.parametrize("stack", STACKS)
def test_our_stacks_pass_the_pack(stack: str) -> None:
    result = stack_preview(stack)
    # Not even advisory findings: every GPU pool, ACK MPS ones included, has its driver check
    # and its metrics exporter, which knows every resource name it can attribute; the releases
    # rendered from the reference charts (NVIDIA's device plugin and dcgm-exporter, AMD's GPU
    # Operator) are clean too; a release of ours whose chart is not at hand (ACK's,
    # cert-manager's) is judged by its values, quietly (offline_preview.rendered_releases).
    assert [(v.policy, v.message) for v in result.violations] == []
    assert len(policies()) >= 22


def _stack_run(stack: str) -> ProgramRun:
    return stack_preview(stack).run


def _mutated(stack: str, type_: str, change: Callable[[dict[str, Any]], None]) -> list[Any]:
    """The stack's recorded resources with ``change`` applied to every resource of ``type_``."""
    resources = []
    for res in _stack_run(stack).resources:
        if res.type == type_:
            inputs, outputs = copy.deepcopy(res.inputs), copy.deepcopy(res.outputs)
            change(inputs)
            change(outputs)
            res = dataclasses.replace(res, inputs=inputs, outputs=outputs)
        resources.append(res)
    return resources


def _mig_profile(profile: str) -> Callable[[dict[str, Any]], None]:
    """Change the profile of MIG pools only."""

    def change(props: dict[str, Any]) -> None:
        if props.get("gpuInstanceProfile"):
            props["gpuInstanceProfile"] = profile

    return change


def _t4_config(old: str, new: str) -> Callable[[dict[str, Any]], None]:
    """Edit the device plugin's ``t4`` config text (other releases are left alone)."""

    def change(props: dict[str, Any]) -> None:
        configs = props.get("values", {}).get("config", {}).get("map", {})
        if "t4" in configs:
            assert old in configs["t4"]
            configs["t4"] = configs["t4"].replace(old, new)

    return change


def _exporter_values(
    change: Callable[[dict[str, Any]], object],
) -> Callable[[dict[str, Any]], None]:
    """Change the values of the dcgm-exporter release only."""

    def apply(props: dict[str, Any]) -> None:
        if props.get("chart") == "dcgm-exporter":
            change(props["values"])

    return apply


def _drop_node_selector(props: dict[str, Any]) -> None:
    props["spec"]["template"]["spec"].pop("nodeSelector")


def _amd_taint_to_nvidia(props: dict[str, Any]) -> None:
    if props.get("nodeTaints") == ["amd.com/gpu=present:NoSchedule"]:
        props["nodeTaints"] = ["nvidia.com/gpu=present:NoSchedule"]


def _amd_exporter_off(props: dict[str, Any]) -> None:
    props["spec"]["metricsExporter"]["enable"] = False


def _tolerate_nvidia(props: dict[str, Any]) -> None:
    for toleration in props["spec"]["template"]["spec"]["tolerations"]:
        toleration["key"] = "nvidia.com/gpu"


def _ack_min_size(minimum: int) -> Callable[[dict[str, Any]], None]:
    """Set the minimum of autoscaled ACK pools."""

    def change(props: dict[str, Any]) -> None:
        if props.get("scalingConfig", {}).get("enable"):
            props["scalingConfig"]["minSize"] = minimum

    return change


def _drop(key: str) -> Callable[[dict[str, Any]], None]:
    return lambda props: props.pop(key, None)


def _set(key: str, value: Any) -> Callable[[dict[str, Any]], None]:
    return lambda props: props.__setitem__(key, value)


def _flavor_labels(props: dict[str, Any]) -> None:
    props["spec"]["nodeLabels"] = {"gpu-platform.io/pool": "a100-gone"}


def _double_quota(props: dict[str, Any]) -> None:
    for group in props["spec"]["resourceGroups"]:
        for flavor in group["flavors"]:
            for resource in flavor["resources"]:
                resource["nominalQuota"] *= 2


# (stack, resource type, one change to what our components produce, the policy that catches it)
COMPONENT_MUTATIONS = [
    # queues-dev: a flavour that selects no pool; quotas twice what the pools hold.
    (
        "queues-dev",
        "kubernetes:kueue.x-k8s.io/v1beta2:ResourceFlavor",
        _flavor_labels,
        "resource-flavors-select-gpu-pools",
    ),
    (
        "queues-dev",
        "kubernetes:kueue.x-k8s.io/v1beta2:ClusterQueue",
        _double_quota,
        "cluster-queue-quota-within-pools",
    ),
    (
        "dev",
        "azure-native:containerservice:AgentPool",
        _drop("nodeTaints"),
        "gpu-node-pools-tainted",
    ),
    (
        "dev",
        "azure-native:containerservice:AgentPool",
        _set("enableAutoScaling", True),
        "mig-pools-no-autoscaling-no-azure-linux",
    ),
    (
        "dev",
        "azure-native:containerservice:ManagedCluster",
        _set("networkProfile", {"networkPolicy": "none"}),
        "network-policy-engine-enabled",
    ),
    (
        "dev",
        "azure-native:containerservice:ManagedCluster",
        _set("autoUpgradeProfile", {"upgradeChannel": "patch", "nodeOSUpgradeChannel": "None"}),
        "node-os-upgrade-channel-set",
    ),
    (
        "dev",
        "kubernetes:networking.k8s.io/v1:NetworkPolicy",
        _set("spec", {"podSelector": {}, "policyTypes": ["Ingress"]}),
        "gpu-namespaces-deny-all-network-policy",
    ),
    (
        "dev",
        "kubernetes:core/v1:ResourceQuota",
        _set("spec", {"hard": {}}),
        "gpu-namespaces-have-gpu-quota",
    ),
    (
        "dev",
        "kubernetes:helm.sh/v3:Release",
        _set("values", {}),
        # Without its per-pool configs the plugin exposes whole GPUs only: the checks' MIG and
        # shared resources are gone too. The exporter, with the chart's own tolerations, keeps
        # off the tainted GPU nodes.
        (
            "device-plugin-release-current-with-gfd",
            "pod-gpu-resources-exposed-by-pools",
            "gpu-pools-have-metrics-exporter",
        ),
    ),
    (
        "dev",
        "kubernetes:helm.sh/v3:Release",
        _exporter_values(lambda values: values.pop("tolerations")),
        "gpu-pools-have-metrics-exporter",
    ),
    (
        "dev",
        "kubernetes:helm.sh/v3:Release",
        _exporter_values(lambda values: values.pop("extraEnv")),
        "gpu-metrics-exporter-resource-names",
    ),
    # existing declares no pool: the exporter is judged on every config of the plugin.
    (
        "existing",
        "kubernetes:helm.sh/v3:Release",
        _exporter_values(lambda values: values.pop("extraEnv")),
        "gpu-metrics-exporter-resource-names",
    ),
    (
        "dev",
        "kubernetes:batch/v1:Job",
        _set(
            "spec",
            {"template": {"spec": {"containers": [{"name": "c", "image": "nvidia/cuda:latest"}]}}},
        ),
        # The image, and the Jobs no longer check the pools' drivers.
        ("cuda-images-pinned", "gpu-pools-have-driver-check"),
    ),
    (
        "dev",
        "azure-native:containerservice:AgentPool",
        _mig_profile("MIG2g"),
        "pod-gpu-resources-exposed-by-pools",
    ),
    (
        "dev",
        "kubernetes:helm.sh/v3:Release",
        _t4_config("renameByDefault: true", "renameByDefault: false"),
        "shared-gpus-renamed-and-single-request",
    ),
    (
        "dev",
        "kubernetes:helm.sh/v3:Release",
        _t4_config("failRequestsGreaterThanOne: true", "failRequestsGreaterThanOne: false"),
        "shared-gpus-renamed-and-single-request",
    ),
    # Without its nodeSelector the check is an ordinary GPU Job, in a namespace without a
    # GPU quota (a driver check needs none: it is no workload type).
    (
        "dev",
        "kubernetes:batch/v1:Job",
        _drop_node_selector,
        ("gpu-pools-have-driver-check", "gpu-namespaces-have-gpu-quota"),
    ),
    (
        "ack-dev",
        "alicloud:cs/managedKubernetes:ManagedKubernetes",
        _set("clusterSpec", "ack.standard"),
        "ack-mps-pools-need-ack-pro",
    ),
    ("ack-dev", "alicloud:cs/nodePool:NodePool", _set("taints", []), "gpu-node-pools-tainted"),
    # Without the term naming ACK's shared pools, our exporter keeps to the NVIDIA plugin's
    # nodes, and ACK's own tolerates no GPU taint: the MPS pool would go unwatched.
    (
        "ack-dev",
        "kubernetes:helm.sh/v3:Release",
        _exporter_values(
            lambda values: values["affinity"]["nodeAffinity"][
                "requiredDuringSchedulingIgnoredDuringExecution"
            ]["nodeSelectorTerms"].pop()
        ),
        "gpu-pools-have-metrics-exporter",
    ),
    # ack-dev's GPU pools scale from zero, so they have no check Job and need none; once a
    # pool always has a node, it needs one.
    ("ack-dev", "alicloud:cs/nodePool:NodePool", _ack_min_size(1), "gpu-pools-have-driver-check"),
    # amd-dev: the MI300X pool tainted with NVIDIA's key (AMD's operands no longer tolerate it:
    # no exporter there, no plugin to expose amd.com/gpu); its DeviceConfig without the exporter;
    # its driver check tolerating NVIDIA's taint (no longer a check: an AMD pod like any other).
    (
        "amd-dev",
        "azure-native:containerservice:AgentPool",
        _amd_taint_to_nvidia,
        (
            "gpu-node-pools-tainted",
            "gpu-pools-have-metrics-exporter",
            "pod-gpu-resources-exposed-by-pools",
        ),
    ),
    (
        "amd-dev",
        "kubernetes:amd.com/v1alpha1:DeviceConfig",
        _amd_exporter_off,
        "gpu-pools-have-metrics-exporter",
    ),
    (
        "amd-dev",
        "kubernetes:batch/v1:Job",
        _tolerate_nvidia,
        (
            "gpu-pools-have-driver-check",
            "gpu-workloads-tolerate-gpu-taint",
            "gpu-namespaces-have-gpu-quota",
        ),
    ),
]


@pytest.mark.slow
@pytest.mark.parametrize(
    ("stack", "type_", "change", "policy"),
    [
        pytest.param(*m, id=f"{m[0]}-{m[3] if isinstance(m[3], str) else '+'.join(m[3])}")
        for m in COMPONENT_MUTATIONS
    ],
)
def test_one_change_to_our_components_output_is_caught(
    stack: str,
    type_: str,
    change: Callable[[dict[str, Any]], None],
    policy: str | tuple[str, ...],
) -> None:
    if stack not in STACKS:
        pytest.skip(f"no Pulumi.{stack}.yaml")
    assert any(r.type == type_ for r in _stack_run(stack).resources), type_
    # What the pack says of the unchanged stack (the preview ran it over the same resources).
    before = {(v.policy, v.message) for v in stack_preview(stack).violations}
    after = run_policies(_mutated(stack, type_, change), policies())
    found = {v.policy for v in after if (v.policy, v.message) not in before}
    assert found == ({policy} if isinstance(policy, str) else set(policy))


@pytest.mark.slow
def test_a_mig_pool_replaced_create_first_is_caught() -> None:
    """BP-11: the option a policy can see; dropping it from our MIG pool is caught."""
    resources = [
        dataclasses.replace(r, delete_before_replace=False)
        if r.type == "azure-native:containerservice:AgentPool"
        else r
        for r in _stack_run("dev").resources
    ]
    found = run_policies(resources, policies())
    assert [(v.policy, v.enforcement) for v in found] == [
        ("mig-pools-replaceable-on-profile-change", "mandatory")
    ]
    assert "'a100mig' (MIG1g)" in found[0].message
