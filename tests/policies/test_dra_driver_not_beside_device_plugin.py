"""dra-driver-not-beside-device-plugin: no GPU pool served both by NVIDIA's DRA driver and by
a device plugin."""

from __future__ import annotations

import pytest

from .harness import Case, Res, assert_case
from .platform_fixtures import GPU_NODES_AFFINITY, aks_pool, dra_release, plugin_release

POLICY = "dra-driver-not-beside-device-plugin"
BOTH = "is served by NVIDIA's DRA driver"


def operator() -> Res:
    return Res(
        "kubernetes:helm.sh/v3:Release",
        "gpu-operator",
        {"chart": "gpu-operator", "version": "v25.10.1", "values": {}},
    )


DRA_POOL = aks_pool("h100dra", config_label=False)
"""A DRA pool as the platform labels it: no device-plugin config label."""
OURS = plugin_release(affinity=GPU_NODES_AFFINITY)
"""The device plugin as the platform places it: nodes with a config label only."""

CASES: list[Case] = [
    Case(POLICY, "disjoint", (aks_pool("t4"), DRA_POOL, OURS, dra_release())),
    Case(POLICY, "dra-alone", (DRA_POOL, dra_release())),
    Case(POLICY, "new-chart-name-disjoint", (DRA_POOL, OURS, dra_release("dra-driver-nvidia-gpu"))),
    # The GPU side off: no GPU kubelet plugin at all.
    Case(
        POLICY,
        "gpus-off",
        (DRA_POOL, plugin_release(), dra_release(resources={"gpus": {"enabled": False}})),
    ),
    # The chart's default affinity matches NFD's labels: every GPU pool, the DRA one included.
    Case(POLICY, "plugin-default-affinity", (DRA_POOL, plugin_release(), dra_release()), (BOTH,)),
    Case(POLICY, "gpu-operator-plugin", (DRA_POOL, operator(), dra_release()), (BOTH,)),
    # A kubelet plugin placed on every GPU pool lands on the device plugin's too.
    Case(
        POLICY,
        "kubelet-plugin-everywhere",
        (
            aks_pool("t4"),
            DRA_POOL,
            OURS,
            dra_release(kubeletPlugin={"tolerations": [{"operator": "Exists"}]}),
        ),
        ("GPU node pool 't4' is served by NVIDIA's DRA driver",),
    ),
]
"""Every case of the policy, declared for the meta-test."""


@pytest.mark.parametrize("case", CASES, ids=lambda c: c.id)
def test_case(case: Case) -> None:
    assert_case(case)


def test_a_kubelet_plugin_that_tolerates_nothing_runs_on_no_tainted_pool() -> None:
    """Chart 25.12.0 tolerates nothing by default: without tolerations it serves no GPU pool."""
    untolerated = dra_release(kubeletPlugin={"affinity": {}})
    assert_case(Case(POLICY, "x", (DRA_POOL, plugin_release(), untolerated)))


def test_the_newer_chart_tolerates_the_gpu_taint_by_default() -> None:
    """dra-driver-nvidia-gpu (0.4.x) tolerates nvidia.com/gpu unless told otherwise: a release
    of it that sets no tolerations and keeps the default affinity runs on every GPU pool, the
    device plugin's t4 included; the older chart's runs on none."""
    for chart, expect in (("dra-driver-nvidia-gpu", (BOTH,)), ("nvidia-dra-driver-gpu", ())):
        release = dra_release(chart)
        release.props["values"]["kubeletPlugin"] = {}
        assert_case(Case(POLICY, chart, (aks_pool("t4"), DRA_POOL, OURS, release), expect))
