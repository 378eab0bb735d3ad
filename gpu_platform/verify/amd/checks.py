"""The checks of an AMD GPU pool: compare its nodes and AMD's operands with what the stack
promised. Pure functions of what was read (``verify.amd.verify`` reads it).

BP-05 on AMD nodes: the AMD taint, our labels, allocatable ``amd.com/gpu`` against the capacity
model, AMD's device plugin Ready, the amdgpu driver the node labeller saw
(``amd.com/gpu.driver-version``), no GPU the exporter marked unhealthy; BP-09: AMD's metrics
exporter Ready with one series per GPU, and each running AMD GPU pod on a series with its pod
and namespace.
"""

from __future__ import annotations

from gpu_facts.amd.gpu_operator import DRIVER_VERSION_LABEL
from gpu_facts.amd.metrics_exporter import (
    GFX_ACTIVITY,
    GPU_LABEL,
    HEALTH,
    UNHEALTHY,
    UNHEALTHY_LABEL_PREFIX,
    UNHEALTHY_LABEL_SUFFIX,
    unhealthy_gpus,
)

from ..checks import (
    allocatable,
    daemonset_status,
    node_labels,
    node_ready,
    node_taint,
    ready_pod_on_node,
)
from ..cluster import Obj
from ..daemons import DaemonPods
from ..exporter import Page
from ..objects import labels_of, name_of
from ..results import CheckResult, many, outcome
from .expectations import DEVICE_PLUGIN_TITLE, EXPORTER_TITLE, AmdPoolExpectation

READ_METRICS = frozenset({GFX_ACTIVITY, HEALTH})
"""The exporter's series these checks read."""


def driver_version(node: Obj) -> CheckResult:
    """The amdgpu driver the node labeller found loaded (it reads the module's version)."""
    subject = f"node/{name_of(node)}"
    expected = f"amdgpu loaded ({DRIVER_VERSION_LABEL} set by the node labeller)"
    labels = labels_of(node)
    if DRIVER_VERSION_LABEL not in labels:
        found = (
            f"no {DRIVER_VERSION_LABEL} label: the node labeller has not run on this node "
            "(see its DaemonSet)"
        )
        return outcome("driver", subject, expected, found, False)
    version = labels[DRIVER_VERSION_LABEL]
    if not version:
        found = (
            f"{DRIVER_VERSION_LABEL} is empty: the labeller found no amdgpu driver loaded; "
            "KMM has not built or loaded it (kubectl get modules,pods in the operator's "
            "namespace)"
        )
        return outcome("driver", subject, expected, found, False)
    return outcome("driver", subject, expected, f"amdgpu {version}", True)


def gpu_health(node: Obj) -> CheckResult:
    """No GPU of the node marked unhealthy by the exporter (the device plugin then withdraws it
    from allocatable)."""
    subject = f"node/{name_of(node)}"
    expected = "no GPU marked unhealthy by the metrics exporter"
    bad = unhealthy_gpus(labels_of(node))
    if not bad:
        return outcome("gpu-health", subject, expected, "none marked unhealthy", True)
    labels = ", ".join(
        f"{UNHEALTHY_LABEL_PREFIX}{g}{UNHEALTHY_LABEL_SUFFIX}={UNHEALTHY}" for g in bad
    )
    found = f"GPU {', '.join(bad)} unhealthy ({labels}): see the exporter's log and amd-smi"
    return outcome("gpu-health", subject, expected, found, False)


def amd_gpu_series(node: str, gpus: int, page: Page | None, skipped: str) -> CheckResult:
    """One ``gpu_gfx_activity`` series per GPU, and none reported unhealthy in ``gpu_health``."""
    subject, expected = f"node/{node}", f"{many(gpus, 'GPU')} in {GFX_ACTIVITY}"
    if skipped:
        return CheckResult("gpu-series", subject, expected, skipped, "skip")
    if page is None:
        found = f"unknown: no ready {EXPORTER_TITLE} pod on the node"
        return outcome("gpu-series", subject, expected, found, False)
    if page.error is not None:
        return outcome("gpu-series", subject, expected, page.error, False)
    shown = {s.labels.get(GPU_LABEL, "?") for s in page.samples if s.name == GFX_ACTIVITY}
    if not shown:
        found = f"no {GFX_ACTIVITY} series: the exporter's config leaves it out"
        return outcome("gpu-series", subject, expected, found, False)
    found = many(len(shown), "GPU")
    ok = len(shown) == gpus
    if len(shown) < gpus:
        found += (
            f" ({gpus - len(shown)} of {gpus} missing: a GPU lost from the VM, or the driver "
            "did not bind it; see amd-smi list)"
        )
    elif len(shown) > gpus:
        found += (
            f" ({len(shown) - gpus} more than the {gpus} the stack config promises: the GPUs "
            "are partitioned, or the VM size is not the pool's)"
        )
    failing = sorted(
        s.labels.get(GPU_LABEL, "?") for s in page.samples if s.name == HEALTH and s.value == 0
    )
    if failing:
        found += f"; {HEALTH} 0 (unhealthy) on GPU {', '.join(failing)}"
        ok = False
    return outcome("gpu-series", subject, expected, found, ok)


def operand_status(namespace: str, name: str, title: str, found: Obj | None) -> CheckResult:
    """One of a pool's operand DaemonSets: it exists (the operator reconciled the pool's
    DeviceConfig), and every pod it wants is ready."""
    if found is not None:
        return daemonset_status(title, found)
    return outcome(
        "daemonset",
        f"daemonset/{namespace}/{name}",
        f"{title} ready on every node",
        "not found: the operator has not reconciled the pool's DeviceConfig (see the "
        "DeviceConfig's status and the operator's log)",
        False,
    )


def amd_node_rows(
    pool: AmdPoolExpectation, node: Obj, sets: dict[str, Obj], pods: DaemonPods
) -> tuple[list[CheckResult], Obj | None]:
    """Every check of one AMD node, and its exporter pod when it is Ready."""
    plugin = [sets[pool.device_plugin]] if pool.device_plugin in sets else []
    exporter = [sets[pool.exporter]] if pool.exporter in sets else []
    expected = pool.pool
    rows = [
        node_ready(node),
        node_labels(expected, node),
        node_taint(expected, node),
        allocatable(expected, node),
        ready_pod_on_node("gpu-daemon", DEVICE_PLUGIN_TITLE, plugin, pods, node)[0],
        driver_version(node),
        gpu_health(node),
    ]
    row, pod = ready_pod_on_node("exporter", EXPORTER_TITLE, exporter, pods, node)
    rows.append(row)
    return rows, pod
