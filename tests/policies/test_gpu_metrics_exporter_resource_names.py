"""gpu-metrics-exporter-resource-names: the exporter is told every resource its pools expose."""

from __future__ import annotations

import pytest

from gpu_facts.scheduling import POOL_LABEL
from gpu_platform.plan.chart_values import gpu_node_affinity

from .harness import Case, Res, assert_case, messages
from .platform_fixtures import (
    GPU_TOLERATION,
    MIG_POOL,
    T4_POOL,
    ack_pool,
    dev_like_stack,
    exporter_release,
    many_workloads_stack,
    plain,
    plugin_release,
    shared,
    t4_stack,
)
from .stack_fixtures import CHART, exporter_daemonset, release, walks_once
from .stack_fixtures import RELEASE as RELEASE_TYPE

NAMES = "gpu-metrics-exporter-resource-names"
SHARED = "nvidia.com/gpu.shared"
NAMES_ENV = [{"name": "NVIDIA_RESOURCE_NAMES", "value": SHARED}]
T4_SHARED = t4_stack(shared())
"""The time-sliced T4 pool, renamed: it exposes nvidia.com/gpu.shared."""
DEV_LIKE = [r for r in dev_like_stack() if r.name != "gpu-metrics"]
"""The dev-like stack without its exporter."""


def operator(configs: dict[str, str] | None, env: list[dict[str, str]] | None = None) -> Res:
    """A GPU Operator release whose device plugin reads ``configs`` (name -> YAML)."""
    values: dict[str, object] = {"devicePlugin": {"enabled": True}}
    if configs is not None:
        values["devicePlugin"] = {
            "enabled": True,
            "config": {"create": True, "name": "plugin-configs", "default": "t4", "data": configs},
        }
    if env is not None:
        values["dcgmExporter"] = {"enabled": True, "env": env}
    return release("gpu-operator", "gpu-operator", values)


T4_CONFIG = plugin_release({"t4": shared()}, default="t4").props["values"]["config"]["map"]
"""The T4 config as YAML text, as a release carries it."""


CASES: list[Case] = [
    Case(NAMES, "dev-like", dev_like_stack()),
    Case(NAMES, "mig-mixed-needs-no-names", (MIG_POOL, *T4_SHARED[1:], exporter_release(None))),
    # Not on the t4 pool: nothing of it to know (the other policy says it is unwatched).
    Case(
        NAMES,
        "exporter-kept-off-the-shared-pool",
        (*DEV_LIKE, exporter_release(None, nodeSelector={POOL_LABEL: "a100mig"})),
    ),
    Case(NAMES, "v4-chart", (*T4_SHARED, exporter_release(type_=CHART))),
    Case(
        NAMES,
        "flag-in-the-arguments",
        (*T4_SHARED, exporter_release(None, arguments=[f"--nvidia-resource-names={SHARED}"])),
    ),
    Case(
        NAMES,
        "flag-and-its-value-as-two-words",
        (*T4_SHARED, exporter_release(None, arguments=["--nvidia-resource-names", SHARED])),
    ),
    Case(NAMES, "daemonset-env", (*T4_SHARED, exporter_daemonset([GPU_TOLERATION], NAMES_ENV))),
    Case(
        NAMES,
        "daemonset-args",
        (
            *T4_SHARED,
            exporter_daemonset([GPU_TOLERATION], args=[f"--nvidia-resource-names={SHARED}"]),
        ),
    ),
    Case(NAMES, "gpu-operator-told", (T4_POOL, operator(T4_CONFIG, NAMES_ENV))),
    Case(NAMES, "gpu-operator-whole-gpus", (T4_POOL, operator(None))),
    # The operator's configs in a ConfigMap made elsewhere: not readable at preview.
    Case(
        NAMES,
        "gpu-operator-external-configs",
        (
            T4_POOL,
            release(
                "gpu-operator",
                "gpu-operator",
                {"devicePlugin": {"config": {"name": "made-elsewhere", "default": "t4"}}},
            ),
        ),
    ),
    Case(
        NAMES,
        "plugin-external-configs",
        (
            T4_POOL,
            release("device-plugin", "nvidia-device-plugin", {"config": {"name": "elsewhere"}}),
            exporter_release(None),
        ),
    ),
    # ACK's shared GPUs (aliyun.com/gpu-mem): the exporter runs there but cannot attribute
    # that name whatever it is told (gpu_facts.nvidia.dcgm_exporter_chart.UNATTRIBUTABLE_RESOURCES),
    # so nothing is owed: neither by a DaemonSet nor by our release, selecting the pool.
    Case(
        NAMES,
        "ack-gpu-mem-pool",
        (ack_pool("a10", "mps"), exporter_daemonset([GPU_TOLERATION])),
    ),
    Case(
        NAMES,
        "ack-gpu-mem-pool-with-our-exporter",
        (
            ack_pool("a10", "mps"),
            exporter_release(None, affinity=gpu_node_affinity(["a10"])),
        ),
    ),
    # An existing cluster (no pools declared): every config of the plugin counts.
    Case(NAMES, "no-pools-configs-known", (T4_SHARED[1], exporter_release())),
    Case(
        NAMES,
        "exporter-exempt",
        (*T4_SHARED, exporter_release(None)),
        config={"exemptNames": ["gpu-metrics"]},
    ),
    # By its release name too (the Pulumi name is "gpu-metrics").
    Case(
        NAMES,
        "exporter-exempt-by-release-name",
        (
            *T4_SHARED,
            Res(
                RELEASE_TYPE,
                "gpu-metrics",
                {**exporter_release(None).props, "name": "dcgm-exporter"},
            ),
        ),
        config={"exemptNames": ["dcgm-exporter"]},
    ),
    # --- violations ---
    Case(
        NAMES,
        "dev-like-without-names",
        (*DEV_LIKE, exporter_release(None)),
        (
            "release 'gpu-metrics' (dcgm-exporter) does not know nvidia.com/gpu.shared (pool "
            "t4): NVIDIA_RESOURCE_NAMES tells it nothing",
        ),
    ),
    Case(
        NAMES,
        "a-name-spelt-wrong",
        (*T4_SHARED, exporter_release("nvidia.com/gpu-shared")),
        ("NVIDIA_RESOURCE_NAMES tells it nvidia.com/gpu-shared,",),
    ),
    Case(
        NAMES,
        "per-resource-rename",
        (*t4_stack(shared(resource_rename="nvidia.com/t4.shared")), exporter_release()),
        ("does not know nvidia.com/t4.shared (pool t4)",),
    ),
    Case(
        NAMES,
        "mig-shared-not-renamed-by-default",
        (
            MIG_POOL,
            plugin_release(
                {
                    "plain-default": plain(),
                    "a100mig": shared(
                        rename=False,
                        resource="nvidia.com/mig-1g.5gb",
                        strategy="mixed",
                        resource_rename="nvidia.com/a100-slice",
                    ),
                }
            ),
            exporter_release(None),
        ),
        ("does not know nvidia.com/a100-slice (pool a100mig)",),
    ),
    Case(
        NAMES,
        "daemonset-without-names",
        (*T4_SHARED, exporter_daemonset([GPU_TOLERATION])),
        ("DaemonSet 'dcgm-exporter' (nvcr.io/nvidia/k8s/dcgm-exporter:4.5.3-4.8.2-ubuntu22.04)",),
    ),
    # The exporter's flag beats its env var.
    Case(
        NAMES,
        "flag-overrides-env",
        (
            *T4_SHARED,
            exporter_release(arguments=["--nvidia-resource-names=nvidia.com/other"]),
        ),
        ("--nvidia-resource-names tells it nvidia.com/other, and it attributes only",),
    ),
    Case(
        NAMES,
        "gpu-operator-not-told",
        (T4_POOL, operator(T4_CONFIG)),
        ("the GPU Operator's exporter (release 'gpu-operator' (gpu-operator)) does not know",),
    ),
    Case(
        NAMES,
        "no-pools-config-not-told",
        (T4_SHARED[1], exporter_release(None)),
        ("does not know nvidia.com/gpu.shared (config 't4' of 'device-plugin')",),
    ),
]
"""Every case of the policy, declared for the meta-test."""


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.id)
def test_case(case: Case) -> None:
    assert_case(case)


def test_message_and_fix_name_every_missing_resource() -> None:
    stack = (
        *DEV_LIKE,
        Res(T4_POOL.type, "pool-t4b", {**T4_POOL.props, "agentPoolName": "t4b"}),
        exporter_release("nvidia.com/keep"),
    )
    (message,) = messages(Case(NAMES, "m", stack))
    assert message == (
        "release 'gpu-metrics' (dcgm-exporter) does not know nvidia.com/gpu.shared (pool t4, "
        "pool t4b): NVIDIA_RESOURCE_NAMES tells it nvidia.com/keep, and it attributes only "
        "nvidia.com/gpu and nvidia.com/mig-* by itself, so pods on those GPUs get no pod or "
        "namespace label and their namespaces' GPU use is not seen. Fix: Set "
        "NVIDIA_RESOURCE_NAMES=nvidia.com/gpu.shared,nvidia.com/keep in the release's "
        "values.extraEnv."
    )


def test_a_flag_is_fixed_where_it_is_given() -> None:
    """The flag beats the env var: the fix changes the flag, else it would change nothing."""
    stack = (*T4_SHARED, exporter_release(arguments=["--nvidia-resource-names=nvidia.com/x"]))
    (message,) = messages(Case(NAMES, "m", stack))
    assert message.endswith(
        "Fix: Set --nvidia-resource-names=nvidia.com/gpu.shared,nvidia.com/x in the release's "
        "values.arguments."
    )


def test_gpu_operator_fix_names_its_values() -> None:
    (message,) = messages(Case(NAMES, "m", (T4_POOL, operator(T4_CONFIG))))
    assert message.endswith(
        "Fix: Set NVIDIA_RESOURCE_NAMES=nvidia.com/gpu.shared in the release's "
        "values.dcgmExporter.env."
    )


def test_walks_the_resources_once() -> None:
    walks_once(NAMES, many_workloads_stack())
