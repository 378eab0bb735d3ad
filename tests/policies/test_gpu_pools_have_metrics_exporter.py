"""gpu-pools-have-metrics-exporter: a dcgm-exporter, or the cloud's managed one, per GPU pool."""

from __future__ import annotations

import pytest

from gpu_facts.scheduling import DEVICE_PLUGIN_CONFIG_LABEL, GPU_PRESENT_LABEL, POOL_LABEL
from gpu_platform.plan.chart_values import gpu_node_affinity

from .cloud_fixtures import EKS_TAINT_TRUE, GKE_CLUSTER, TERWAY, ack_cluster, eks, gke
from .harness import Case, Res, assert_case, messages
from .platform_fixtures import (
    A100_MIG_SIZE,
    GPU_TOLERATION,
    MIG_POOL,
    T4_POOL,
    ack_pool,
    aks_pool,
    amd_pool,
    amd_tolerations,
    dev_like_stack,
    device_config,
    exporter_release,
    many_workloads_stack,
    sized,
)
from .stack_fixtures import CHART, exporter_daemonset, release, walks_once

EXPORTER = "gpu-pools-have-metrics-exporter"
NO_EXPORTER = "the stack runs no dcgm-exporter"
CONTROL_PLANE_ONLY = (
    "release 'gpu-metrics' (dcgm-exporter) does not tolerate its taint "
    "nvidia.com/gpu=present:NoSchedule (it tolerates node-role.kubernetes.io/control-plane "
    "Exists NoSchedule)"
)
ACK_MPS = ack_pool("a10", "mps")
"""An ACK pool ACK's own sharing serves: no nvidia.com/device-plugin.config label, no taint."""
ACK_GPU_TAINT = {"key": "nvidia.com/gpu", "value": "present", "effect": "NoSchedule"}
ACK_MPS_TAINTED = Res(ACK_MPS.type, ACK_MPS.name, {**ACK_MPS.props, "taints": [ACK_GPU_TAINT]})
"""The same pool tainted, as ours are (the ack-dev a10mps pool)."""
OURS_ON_A10 = gpu_node_affinity(["a10"])
"""Our DcgmExporter's node affinity with the ACK-shared pool ``a10`` (plan.metrics)."""
ARMS = {"name": "arms-prometheus"}
OPERATOR = "gpu-operator"
OPERATOR_VALUES = {"devicePlugin": {"enabled": True}}


def operator(**values: object) -> Res:
    return release("gpu-operator", "nvidia/gpu-operator", {**OPERATOR_VALUES, **values})


def labelled(pool: Res, **labels: str) -> Res:
    """An AKS pool with more node labels."""
    return sized(pool, nodeLabels={**pool.props["nodeLabels"], **labels})


AMD_EXPORTER_OFF = {"metricsExporter": {"enable": False}}


CASES: list[Case] = [
    Case(EXPORTER, "dev-like", dev_like_stack()),
    # AMD pools: AMD's exporter from a DeviceConfig that selects the pool and tolerates its taint.
    Case(EXPORTER, "amd-device-config", (amd_pool(), device_config())),
    Case(
        EXPORTER,
        "amd-and-nvidia-pools",
        (amd_pool(), T4_POOL, device_config(), exporter_release()),
    ),
    Case(
        EXPORTER,
        "amd-pool-with-only-dcgm-exporter",
        (amd_pool(), exporter_release()),
        ("'mi300x' (Standard_ND96isr_MI300X_v5) has no GPU metrics exporter: no DeviceConfig",),
    ),
    Case(
        EXPORTER,
        "amd-exporter-off",
        (amd_pool(), device_config(**AMD_EXPORTER_OFF)),
        ("no DeviceConfig of AMD's GPU Operator runs its metrics exporter",),
    ),
    Case(
        EXPORTER,
        "amd-exporter-without-the-amd-toleration",
        (amd_pool(), device_config(metricsExporter={"enable": True})),
        ("does not tolerate its taint amd.com/gpu=present:NoSchedule",),
    ),
    Case(
        EXPORTER,
        "amd-device-config-selects-another-pool",
        (amd_pool(), device_config(selector={POOL_LABEL: "other"})),
        ("keeps off its nodes: their labels fail its nodeSelector gpu-platform.io/pool=other",),
    ),
    Case(
        EXPORTER,
        "amd-exporter-own-selector",
        (
            amd_pool(),
            device_config(
                metricsExporter={
                    "enable": True,
                    "tolerations": amd_tolerations(),
                    "selector": {POOL_LABEL: "mi300x"},
                },
                selector={"unrelated": "x"},
            ),
        ),
    ),
    Case(
        EXPORTER,
        "nvidia-pool-with-only-amd-exporter",
        (T4_POOL, device_config("t4")),
        (NO_EXPORTER,),
    ),
    Case(EXPORTER, "no-gpu-pool-no-exporter-needed", (exporter_release(),)),
    Case(EXPORTER, "release-on-both-pools", (MIG_POOL, T4_POOL, exporter_release())),
    Case(EXPORTER, "v4-chart", (T4_POOL, exporter_release(type_=CHART))),
    # The chart's rendered DaemonSet belongs to the chart: judged through the chart's values.
    Case(
        EXPORTER,
        "v4-chart-and-its-rendered-daemonset",
        (T4_POOL, exporter_release(type_=CHART), exporter_daemonset(parent="gpu-metrics")),
    ),
    # As `pulumi preview` shows a v4 chart (outputs: only what it made): its DaemonSet is
    # judged itself, on its own tolerations.
    Case(
        EXPORTER,
        "v4-chart-seen-as-a-preview-sees-it-tolerating",
        (
            T4_POOL,
            Res(CHART, "gpu-metrics", {"resources": ["gpu-metrics:gpu-metrics/dcgm-exporter"]}),
            exporter_daemonset([GPU_TOLERATION], parent="gpu-metrics"),
        ),
    ),
    Case(
        EXPORTER,
        "v4-chart-seen-as-a-preview-sees-it-untolerating",
        (
            T4_POOL,
            Res(CHART, "gpu-metrics", {"resources": ["gpu-metrics:gpu-metrics/dcgm-exporter"]}),
            exporter_daemonset(parent="gpu-metrics"),
        ),
        ("DaemonSet 'dcgm-exporter'",),
    ),
    Case(EXPORTER, "daemonset-tolerating", (T4_POOL, exporter_daemonset([GPU_TOLERATION]))),
    Case(
        EXPORTER,
        "daemonset-tolerating-every-taint",
        (T4_POOL, exporter_daemonset([{"operator": "Exists"}])),
    ),
    Case(EXPORTER, "gpu-operator-defaults", (MIG_POOL, T4_POOL, operator())),
    Case(
        EXPORTER,
        "gpu-operator-own-tolerations",
        (T4_POOL, operator(daemonsets={"tolerations": [{"operator": "Exists"}]})),
    ),
    # A taint that only prefers other nodes keeps no pod off.
    Case(
        EXPORTER,
        "prefer-no-schedule-taint-needs-no-toleration",
        (
            sized(
                T4_POOL,
                nodeTaints=["nvidia.com/gpu=present:NoSchedule", "spot=yes:PreferNoSchedule"],
            ),
            exporter_release(),
        ),
    ),
    Case(EXPORTER, "exempt-pool", (T4_POOL,), config={"exemptNames": ["t4"]}),
    # An untainted ACK pool: ACK's own GPU exporter runs there (add-on, KubernetesAddon, chart).
    Case(EXPORTER, "ack-arms-add-on", (*ack_cluster((TERWAY, ARMS)), ACK_MPS, exporter_release())),
    Case(
        EXPORTER,
        "ack-arms-kubernetes-addon",
        (
            ACK_MPS,
            Res("alicloud:cs/kubernetesAddon:KubernetesAddon", "arms", {"name": "arms-prometheus"}),
        ),
    ),
    Case(EXPORTER, "ack-arms-chart", (ACK_MPS, release("arms", "ack-arms-prometheus"))),
    # The NVIDIA plugin's ACK pool (the ack-dev t4): our exporter runs there.
    Case(
        EXPORTER,
        "ack-plugin-pool-with-our-exporter",
        (
            Res(
                ACK_MPS.type,
                "pool-t4",
                {**ack_pool("t4", "disabled", config_label=True).props, "taints": [ACK_GPU_TAINT]},
            ),
            exporter_release(),
        ),
    ),
    # ACK's shared pools (ack-dev's a10mps): tainted, without the NVIDIA plugin's config label;
    # our exporter selects them by our pool label, with or without ACK's managed Prometheus.
    Case(
        EXPORTER,
        "ack-tainted-mps-pool-with-our-exporter",
        (*ack_cluster((TERWAY, ARMS)), ACK_MPS_TAINTED, exporter_release(affinity=OURS_ON_A10)),
    ),
    Case(
        EXPORTER,
        "ack-tainted-mps-pool-with-our-exporter-no-arms",
        (*ack_cluster(), ACK_MPS_TAINTED, exporter_release(affinity=OURS_ON_A10)),
    ),
    # GKE: Google's managed DCGM metrics, or an exporter tolerating the taint GKE adds.
    Case(
        EXPORTER,
        "gke-managed-dcgm",
        (
            *gke(),
            Res(
                GKE_CLUSTER,
                "gke",
                {"monitoringConfig": {"enableComponents": ["SYSTEM_COMPONENTS", "DCGM"]}},
            ),
        ),
    ),
    Case(EXPORTER, "gke-daemonset-tolerating", (*gke(), exporter_daemonset([GPU_TOLERATION]))),
    Case(
        EXPORTER,
        "gke-daemonset-selecting-the-accelerator",
        (
            *gke(),
            exporter_daemonset(
                [GPU_TOLERATION],
                node_selector={"cloud.google.com/gke-accelerator": "nvidia-tesla-t4"},
            ),
        ),
    ),
    # EKS: the team's taint value, tolerated as the scheduler matches it.
    Case(
        EXPORTER,
        "eks-taint-true-tolerated-equal-true",
        (
            *eks(taints=[EKS_TAINT_TRUE]),
            exporter_daemonset([{"key": "nvidia.com/gpu", "operator": "Equal", "value": "true"}]),
        ),
    ),
    # --- violations ---
    Case(
        EXPORTER,
        "pool-without-exporter",
        (T4_POOL,),
        (f"'t4' (Standard_NC4as_T4_v3) has no GPU metrics exporter: {NO_EXPORTER}",),
    ),
    Case(
        EXPORTER,
        "release-with-the-charts-tolerations",
        (T4_POOL, exporter_release(tolerations=None)),
        (CONTROL_PLANE_ONLY,),
    ),
    Case(
        EXPORTER,
        "release-selecting-another-pool",
        (MIG_POOL, T4_POOL, exporter_release(nodeSelector={POOL_LABEL: "a100mig"})),
        (
            "'t4' (Standard_NC4as_T4_v3) has no GPU metrics exporter: release 'gpu-metrics' "
            "(dcgm-exporter) keeps off its nodes: their labels fail its nodeSelector "
            "gpu-platform.io/pool=a100mig",
        ),
    ),
    Case(
        EXPORTER,
        "pool-without-the-plugin-config-label",
        (aks_pool("t4", config_label=False), exporter_release()),
        (f"their labels fail its required node affinity {DEVICE_PLUGIN_CONFIG_LABEL} Exists",),
    ),
    Case(
        EXPORTER,
        "one-of-two-pools-uncovered",
        (
            MIG_POOL,
            aks_pool("a100b", A100_MIG_SIZE, "MIG1g"),
            exporter_release(nodeSelector={POOL_LABEL: "a100b"}),
        ),
        ("GPU node pool 'a100mig'",),
    ),
    Case(
        EXPORTER,
        "another-taint-not-tolerated",
        (
            sized(T4_POOL, nodeTaints=["nvidia.com/gpu=present:NoSchedule", "sku=gpu:NoSchedule"]),
            exporter_release(),
        ),
        ("does not tolerate its taint sku=gpu:NoSchedule",),
    ),
    Case(
        EXPORTER,
        "daemonset-without-tolerations",
        (T4_POOL, exporter_daemonset()),
        (
            "DaemonSet 'dcgm-exporter' (nvcr.io/nvidia/k8s/dcgm-exporter:4.5.3-4.8.2-ubuntu22.04)"
            " does not tolerate its taint nvidia.com/gpu=present:NoSchedule (it tolerates nothing)",
        ),
    ),
    Case(
        EXPORTER,
        "eks-taint-true-tolerated-equal-present",
        (
            *eks(taints=[EKS_TAINT_TRUE]),
            exporter_daemonset(
                [{"key": "nvidia.com/gpu", "operator": "Equal", "value": "present"}]
            ),
        ),
        ("does not tolerate its taint nvidia.com/gpu=true:NoSchedule",),
    ),
    Case(
        EXPORTER,
        "gke-daemonset-without-the-gke-toleration",
        (*gke(), exporter_daemonset()),
        ("'t4' (n1-standard-8) has no GPU metrics exporter: DaemonSet 'dcgm-exporter'",),
    ),
    Case(
        EXPORTER,
        "gke-cluster-without-dcgm",
        (
            *gke(),
            Res(
                GKE_CLUSTER,
                "gke",
                {"monitoringConfig": {"enableComponents": ["SYSTEM_COMPONENTS"]}},
            ),
        ),
        ("monitoringConfig.enableComponents with DCGM",),
    ),
    Case(
        EXPORTER,
        "gpu-operator-exporter-off",
        (T4_POOL, operator(dcgmExporter={"enabled": False})),
        (NO_EXPORTER,),
    ),
    Case(
        EXPORTER,
        "gpu-operator-exporter-labelled-off-the-pool",
        (labelled(T4_POOL, **{"nvidia.com/gpu.deploy.dcgm-exporter": "false"}), operator()),
        ("required node affinity nvidia.com/gpu.deploy.dcgm-exporter NotIn [false]",),
    ),
    Case(
        EXPORTER,
        "gpu-operator-tolerations-without-the-gpu-taint",
        (T4_POOL, operator(daemonsets={"tolerations": []})),
        ("the GPU Operator's exporter (release 'gpu-operator' (gpu-operator)) does not tolerate",),
    ),
    # An ACK MPS pool with only an exporter that keeps to the NVIDIA plugin's pools.
    Case(
        EXPORTER,
        "ack-mps-pool-without-arms",
        (*ack_cluster(), ACK_MPS, exporter_release()),
        ("ACK's own GPU exporter (cluster add-on arms-prometheus) also does",),
    ),
    # ack-dev's MPS pool without our pool-label term: tainted, so ACK's exporter, which
    # tolerates no custom taint, keeps off it too (gpu_facts.ack.addons.ARMS_GPU_EXPORTER).
    Case(
        EXPORTER,
        "ack-tainted-mps-pool-with-arms",
        (*ack_cluster((TERWAY, ARMS)), ACK_MPS_TAINTED, exporter_release()),
        (
            "their labels fail its required node affinity nvidia.com/device-plugin.config "
            "Exists; ACK's GPU exporter (ack-prometheus-gpu-exporter, add-on arms-prometheus of "
            "'ack') does not tolerate its taint nvidia.com/gpu=present:NoSchedule (it tolerates "
            "nothing)",
        ),
    ),
    # Our exporter selecting other ACK pools by name, not this one.
    Case(
        EXPORTER,
        "ack-tainted-mps-pool-not-among-our-exporters-pools",
        (
            *ack_cluster((TERWAY, ARMS)),
            ACK_MPS_TAINTED,
            exporter_release(affinity=gpu_node_affinity(["a10cgpu", "a10share"])),
        ),
        (
            "release 'gpu-metrics' (dcgm-exporter) keeps off its nodes: their labels fail its "
            "required node affinity nvidia.com/device-plugin.config Exists or "
            "gpu-platform.io/pool In [a10cgpu, a10share]",
        ),
    ),
    # ACK's exporter is ACK's: it watches no other cloud's pool.
    Case(EXPORTER, "arms-on-an-aks-pool", (T4_POOL, *ack_cluster((TERWAY, ARMS))), (NO_EXPORTER,)),
    Case(
        EXPORTER,
        "ack-arms-add-on-disabled",
        (*ack_cluster((TERWAY, {**ARMS, "disabled": True})), ACK_MPS),
        (NO_EXPORTER,),
    ),
]
"""Every case of the policy, declared for the meta-test."""


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.id)
def test_case(case: Case) -> None:
    assert_case(case)


def test_message_names_the_pool_and_why_and_how_to_fix() -> None:
    (message,) = messages(Case(EXPORTER, "m", (T4_POOL, exporter_release(tolerations=None))))
    assert message == (
        f"GPU node pool 't4' (Standard_NC4as_T4_v3) has no GPU metrics exporter: "
        f"{CONTROL_PLANE_ONLY}. Its GPUs' utilization, memory and errors are not collected, and "
        "no namespace's GPU use on it can be seen. Fix: Run NVIDIA's dcgm-exporter on the pool "
        "(our DcgmExporter, or the dcgm-exporter chart) with tolerations: [{key: "
        "nvidia.com/gpu, operator: Exists, effect: NoSchedule}] and a nodeSelector / node "
        "affinity the pool's labels match; or exempt the pool by name when an exporter outside "
        "the stack watches it."
    )


def test_each_exporter_says_why_it_misses_the_pool() -> None:
    (message,) = messages(
        Case(
            EXPORTER,
            "m",
            (
                T4_POOL,
                exporter_release(tolerations=None),
                exporter_daemonset([GPU_TOLERATION], node_selector={GPU_PRESENT_LABEL: "false"}),
            ),
        )
    )
    assert CONTROL_PLANE_ONLY in message
    assert "; DaemonSet 'dcgm-exporter'" in message
    assert "their labels fail its nodeSelector nvidia.com/gpu.present=false" in message


def test_walks_the_resources_once() -> None:
    walks_once(EXPORTER, many_workloads_stack())
