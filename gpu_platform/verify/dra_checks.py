"""The checks of DRA pools: compare what the cluster shows with ``dra_expectations``. Pure.

Per node: its DRA kubelet plugin pod is Ready (``dra-plugin``); its ResourceSlices of NVIDIA's
driver publish as many devices as the pool promises, of its GPU family and MIG profile
(``resource-slices``); the driver version they report is new enough for the pool and NVIDIA's
DRA driver (``driver``, read from the devices' ``driverVersion`` attribute: no exec); and no
device-plugin pod runs there (``no-device-plugin``). For the cluster, each DeviceClass of the
driver exists (``device-class``); per workload namespace, its quota caps every GPU DeviceClass
as the stack says (``claim-quota``).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from gpu_facts.dra import (
    MIG_PROFILE_ATTRIBUTE,
    PRODUCT_NAME_ATTRIBUTE,
    TYPE_ATTRIBUTE,
    names_family,
)
from gpu_facts.nvidia.device_plugin_chart import CHART_NAME, GFD_CHART_NAME, PLUGIN_IMAGE_NAME

from .checks import effective_hard, node_labels, node_ready, node_taint, ready_pod_on_node
from .cluster import Obj
from .daemons import DaemonPods
from .dra_expectations import DraPoolExpectation
from .objects import entries, mapping, name_of, text, whole
from .results import CheckResult, many, outcome

PLUGIN_CHECK = "dra-plugin"
SLICES_CHECK = "resource-slices"
DRIVER_CHECK = "driver"
NO_PLUGIN_CHECK = "no-device-plugin"
CLASS_CHECK = "device-class"
QUOTA_CHECK = "claim-quota"
DRIVER_VERSION_ATTRIBUTE = "driverVersion"


def _attributes(device: Mapping[str, object]) -> dict[str, object]:
    """A device's attributes: ``resource.k8s.io/v1`` keeps them on the device, ``v1beta1``
    under ``basic``."""
    return mapping(device, "attributes") or mapping(device, "basic", "attributes")


def attribute(device: Mapping[str, object], name: str) -> str | None:
    """One attribute's value as text (``{"string": ...}``, ``{"version": ...}``, ...)."""
    value = _attributes(device).get(name)
    if not isinstance(value, Mapping):
        return None
    for kind in ("string", "version", "int", "bool"):
        if kind in value:
            return str(value[kind])
    return None


def node_devices(slices: Iterable[Obj], node: str, driver: str) -> list[Obj]:
    """Every device the driver's ResourceSlices publish for ``node``."""
    return [
        device
        for s in slices
        if text(s, "spec", "nodeName") == node and text(s, "spec", "driver") == driver
        for device in entries(s, "spec", "devices")
    ]


def _describe(device: Mapping[str, object]) -> str:
    kind = attribute(device, TYPE_ATTRIBUTE) or "?"
    product = attribute(device, PRODUCT_NAME_ATTRIBUTE) or "no productName"
    profile = attribute(device, MIG_PROFILE_ATTRIBUTE)
    return f"{kind} {product}" + (f" {profile}" if profile else "")


def _promised(pool: DraPoolExpectation, device: Mapping[str, object]) -> bool:
    if attribute(device, TYPE_ATTRIBUTE) != pool.device_type:
        return False
    if not names_family(attribute(device, PRODUCT_NAME_ATTRIBUTE) or "", pool.family):
        return False
    return pool.mig_profile is None or attribute(device, MIG_PROFILE_ATTRIBUTE) == pool.mig_profile


def resource_slices(pool: DraPoolExpectation, node: str, devices: list[Obj]) -> CheckResult:
    """The node publishes exactly the pool's devices, of its family and profile."""
    expected = pool.promise()
    matching = [d for d in devices if _promised(pool, d)]
    others = sorted({_describe(d) for d in devices if not _promised(pool, d)})
    if not devices:
        found = "no ResourceSlice publishes a device of this node"
    else:
        found = many(len(matching), "matching device")
        if len(matching) < pool.devices:
            found += f" ({pool.devices - len(matching)} short)"
        if others:
            found += f"; others: {', '.join(others)}"
    ok = len(matching) == pool.devices and not others
    return outcome(SLICES_CHECK, f"node/{node}", expected, found, ok)


def slice_driver(min_major: int, node: str, devices: list[Obj]) -> CheckResult:
    """The NVIDIA driver version the node's devices report (``driverVersion``)."""
    expected = f"driver major ≥ {min_major}"
    versions = sorted({v for d in devices if (v := attribute(d, DRIVER_VERSION_ATTRIBUTE))})
    if not versions:
        return outcome(DRIVER_CHECK, f"node/{node}", expected, "no device reports one", False)
    majors = [whole(v.split(".", 1)[0]) for v in versions]
    ok = all(m is not None and m >= min_major for m in majors)
    found = f"{', '.join(versions)} (ResourceSlice driverVersion)"
    if not ok:
        found = f"{', '.join(versions)} is older than {min_major}: upgrade the node image or driver"
    return outcome(DRIVER_CHECK, f"node/{node}", expected, found, ok)


def is_device_plugin_pod(pod: Obj) -> bool:
    """A pod of an NVIDIA device plugin or its GPU Feature Discovery, whoever installed it (our
    release, the GPU Operator, ACK, a static manifest): owned by a DaemonSet named after either,
    or running the plugin's image."""
    owned = any(
        owner.get("kind") == "DaemonSet"
        and (CHART_NAME in text(owner, "name") or GFD_CHART_NAME in text(owner, "name"))
        for owner in entries(pod, "metadata", "ownerReferences")
    )
    images = (
        text(c, "image").rsplit("/", 1)[-1]
        for c in (*entries(pod, "spec", "containers"), *entries(pod, "spec", "initContainers"))
    )
    return owned or any(image.startswith(PLUGIN_IMAGE_NAME) for image in images)


def no_device_plugin(node: str, pods: list[Obj]) -> CheckResult:
    """No device-plugin pod on a DRA node: NVIDIA's DRA driver must not run beside one."""
    found = sorted(
        f"{text(p, 'metadata', 'namespace')}/{name_of(p)}" for p in pods if is_device_plugin_pod(p)
    )
    shown = ", ".join(found) if found else "none"
    return outcome(NO_PLUGIN_CHECK, f"node/{node}", "no device-plugin pod", shown, not found)


def dra_node_rows(
    pool: DraPoolExpectation,
    node: Obj,
    *,
    plugin: list[Obj],
    pods: DaemonPods,
    devices: list[Obj],
    node_pods: list[Obj],
) -> list[CheckResult]:
    """Every row of one DRA node, in report order."""
    name = name_of(node)
    rows = [node_ready(node), node_labels(pool.pool, node), node_taint(pool.pool, node)]
    row, _ = ready_pod_on_node(PLUGIN_CHECK, "DRA kubelet plugin", plugin, pods, node)
    rows.append(row)
    rows.append(resource_slices(pool, name, devices))
    rows.append(slice_driver(pool.min_driver_major, name, devices))
    rows.append(no_device_plugin(name, node_pods))
    return rows


def device_class(name: str, found: Mapping[str, Obj]) -> CheckResult:
    ok = name in found
    shown = "exists" if ok else "not found: claims on it stay pending"
    return outcome(CLASS_CHECK, f"deviceclass/{name}", "exists", shown, ok)


def claim_quota(namespace: str, keys: Mapping[str, int], quotas: list[Obj]) -> CheckResult:
    """The namespace's quota caps each GPU DeviceClass as the stack says (the tightest hard
    limit per key is the effective one)."""
    expected = ", ".join(f"{k}: {v}" for k, v in sorted(keys.items()))
    effective = effective_hard(quotas, lambda key: key in keys)
    missing = [k for k in sorted(keys) if k not in effective]
    found = ", ".join(f"{k}: {v}" for k, v in sorted(effective.items())) or "no claim quota"
    if missing:
        found += f" (missing {', '.join(missing)}: claims on them are uncapped)"
    ok = all(effective.get(k) == v for k, v in keys.items())
    return outcome(QUOTA_CHECK, f"namespace/{namespace}", expected, found, ok)
