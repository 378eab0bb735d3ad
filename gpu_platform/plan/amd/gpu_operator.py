"""What AMD's GPU Operator is given: the chart's values and one ``DeviceConfig`` per AMD pool.

Pure: ``components.amd.gpu_operator`` renders these into a Helm release and DeviceConfig
objects, the tests render the real chart with the same values. Decisions (docs/amd.md):

- **One DeviceConfig per AMD pool**, selecting exactly that pool's nodes by our pool label
  (``spec.selector`` is a map of labels: one selector names one pool). NFD's AMD labels would
  not do: Azure's GPUs are virtual functions, labelled ``amd-vgpu`` rather than ``amd-gpu``.
- **The operator's own NFD is off**, and its NFD rule too: nothing of ours selects on NFD's
  labels, and the one thing the operator derives from them (the VF ``modprobe`` parameter) we
  set ourselves (``gpu_facts.amd.gpu_operator.VF_MODPROBE_PARAMETERS``). NVIDIA's NFD stays on
  NVIDIA's nodes.
- **The driver is installed by the operator** (KMM builds it into ``driver.image`` and loads it):
  AKS creates AMD pools without a driver.
- **Device plugin, node labeller and metrics exporter on**, every one tolerating the AMD taint
  and nothing else; the plugin advertises whole GPUs (``resource_naming_strategy: single``).
- Controllers and webhooks (operator, KMM) tolerate the system pool's CriticalAddonsOnly.
- No default DeviceConfig, no remediation workflows (Argo), no DRA device class.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from gpu_facts.amd import gpu_operator as amd
from gpu_facts.nvidia.device_plugin_chart import unknown_value_paths
from gpu_facts.scheduling import POOL_LABEL
from gpu_facts.vendors import AMD
from gpu_platform.settings import AmdGpuOperatorSettings

from ..chart_values import system_tolerations, vendor_tolerations
from ..metrics import ScrapeMode, scrape_annotations, target_relabelings
from ..pools import PoolFacts
from .pools import amd_pools

RESOURCE_NAMING_STRATEGY = "single"
"""``amd.com/gpu`` per whole GPU (the capacity model)."""


class AmdOperatorValuesError(ValueError):
    """Our own values name a key the chart or the DeviceConfig CRD does not have."""


def amd_tolerations() -> list[dict[str, str]]:
    """Every AMD operand: the AMD GPU taint, whatever its value."""
    return vendor_tolerations(AMD.taint_key)


def operator_values(settings: AmdGpuOperatorSettings) -> dict[str, Any]:
    """The release's values."""
    system = system_tolerations()
    tag = settings.images.kmm_tag
    images = amd.KMM_IMAGES
    values: dict[str, Any] = {
        "node-feature-discovery": {"enabled": False},
        "installdefaultNFDRule": False,
        "crds": {"defaultCR": {"install": False}},
        "remediation": {"enabled": False, "installCRDs": False},
        "draDriver": {"deviceClass": {"create": False}},
        "controllerManager": {"manager": {"tolerations": system}},
        "kmm": {
            "enabled": True,
            "controller": {
                "manager": {
                    "tolerations": system,
                    "image": {"repository": images["controller"], "tag": tag},
                    "env": {
                        "relatedImageWorker": f"{images['worker']}:{tag}",
                        "relatedImageSign": f"{images['signer']}:{tag}",
                    },
                }
            },
            "webhookServer": {
                "webhookServer": {
                    "tolerations": system,
                    "image": {"repository": images["webhook"], "tag": tag},
                }
            },
        },
    }
    unknown = unknown_value_paths(values, amd.KNOWN_VALUE_PATHS)
    if unknown:  # a guard on our own code: every key must be one we checked in the chart
        raise AmdOperatorValuesError(f"unknown AMD GPU Operator chart keys: {', '.join(unknown)}")
    return values


def device_config_name(pool: PoolFacts) -> str:
    """A pool's DeviceConfig (its operands' DaemonSets are ``<name>-device-plugin``...)."""
    return pool.name


def device_config_spec(
    pool: PoolFacts, settings: AmdGpuOperatorSettings, scrape: ScrapeMode | None = None
) -> dict[str, Any]:
    """The DeviceConfig of one AMD pool. ``scrape``: how Prometheus finds the exporter (with
    ``annotations``, the exporter's pods carry ``prometheus.io/*``); None: metrics are off, the
    exporter still runs (the device plugin takes GPU health from it)."""
    tolerations = amd_tolerations()
    driver = settings.driver
    driver_spec: dict[str, Any] = {"enable": driver.enabled}
    if driver.enabled:
        driver_spec |= {
            "blacklist": driver.blacklist,
            "version": driver.version,
            "tolerations": tolerations,
        }
        if driver.image is not None:
            driver_spec["image"] = driver.image
        if driver.image_registry_secret is not None:
            driver_spec["imageRegistrySecret"] = {"name": driver.image_registry_secret}
        if pool.virtual_function_gpus:  # an Azure VM
            driver_spec["kernelModuleConfig"] = {"parameters": list(amd.VF_MODPROBE_PARAMETERS)}
    images = settings.images
    exporter: dict[str, Any] = {
        "enable": True,
        "image": images.metrics_exporter,
        "port": amd.METRICS_PORT,
        "serviceType": "ClusterIP",
        "tolerations": tolerations,
    }
    if scrape == "annotations":
        exporter["podAnnotations"] = scrape_annotations(amd.METRICS_PORT)
    spec = {
        "selector": {POOL_LABEL: pool.name},
        "driver": driver_spec,
        "devicePlugin": {
            "enableDevicePlugin": True,
            "devicePluginImage": images.device_plugin,
            "devicePluginArguments": {"resource_naming_strategy": RESOURCE_NAMING_STRATEGY},
            "devicePluginTolerations": tolerations,
            "enableNodeLabeller": True,
            "nodeLabellerImage": images.node_labeller,
            "nodeLabellerTolerations": tolerations,
        },
        "metricsExporter": exporter,
    }
    unknown = unknown_value_paths(spec, amd.DEVICE_CONFIG_PATHS)
    if unknown:
        raise AmdOperatorValuesError(f"unknown DeviceConfig fields: {', '.join(unknown)}")
    return spec


def device_configs(
    pools: Sequence[PoolFacts], settings: AmdGpuOperatorSettings, scrape: ScrapeMode | None
) -> dict[str, dict[str, Any]]:
    """DeviceConfig name -> spec, one per AMD pool."""
    return {
        device_config_name(pool): device_config_spec(pool, settings, scrape)
        for pool in amd_pools(pools)
    }


def exporter_pod_monitor_spec() -> dict[str, Any]:
    """A PodMonitor of every AMD metrics exporter pod in the namespace: the exporter's named
    port, its pod attribution kept (``plan.metrics.DROPPED_TARGET_LABELS``)."""
    return {
        "selector": {"matchLabels": {amd.EXPORTER_NAME_LABEL: amd.EXPORTER_NAME}},
        "podMetricsEndpoints": [
            {
                "port": amd.METRICS_PORT_NAME,
                "path": "/metrics",
                "honorLabels": True,
                "relabelings": target_relabelings(),
            }
        ],
    }
