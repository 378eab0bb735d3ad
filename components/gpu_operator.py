"""NvidiaGpuOperator: the NVIDIA GPU Operator owns drivers, toolkit, device plugin and GFD.

The alternative to cloud-managed drivers plus ``NvidiaDevicePlugin`` (config validation refuses
both). The same per-pool device-plugin configs go into ``devicePlugin.config``. The operator
passes ``mig.strategy`` to the plugin as an environment variable, which beats the config file,
so every MIG pool must use one strategy. Its MIG manager stays off: MIG partitions come from
the pool (AKS ``gpuInstanceProfile``), and the manager's default would undo them.
"""

from __future__ import annotations

from typing import Any, TypedDict

import pulumi

from gpu_facts.device_plugin_chart import (
    GPU_OPERATOR_CHART_NAME,
    GPU_OPERATOR_CHART_REPO,
    GPU_OPERATOR_KNOWN_VALUE_PATHS,
    unknown_value_paths,
)
from plan.device_plugin import DEFAULT_CONFIG_NAME, config_map, mig_strategy
from plan.pools import PoolFacts
from settings import GpuOperatorSettings

from .helm_release import pinned_release, system_namespace
from .nvidia_device_plugin import (
    NODE_CRITICAL,
    gpu_tolerations,
    nfd_worker_tolerations,
    system_tolerations,
)
from .outputs import known_after

PLUGIN_CONFIG_MAP = "device-plugin-configs"
"""Name of the ConfigMap the operator creates from ``devicePlugin.config.data``."""


class NvidiaGpuOperatorArgs(TypedDict):
    settings: GpuOperatorSettings
    """The validated ``gpuOperator`` stack config (version, namespace)."""
    pools: list[PoolFacts]
    """GPU pools; those the device plugin serves get a named config."""


class GpuOperatorValuesError(ValueError):
    """The pools cannot be served by one GPU Operator release."""


def operator_mig_strategy(pools: list[PoolFacts]) -> str:
    """The one ``mig.strategy`` for the cluster: the MIG pools' strategy, else ``single``."""
    strategies = {mig_strategy(p) for p in pools if p.mig_profile is not None}
    if len(strategies) > 1:
        raise GpuOperatorValuesError(
            "the GPU Operator sets one MIG strategy for the whole cluster; MIG pools use "
            f"{', '.join(sorted(strategies))}"
        )
    return strategies.pop() if strategies else "single"


def operator_values(pools: list[PoolFacts]) -> dict[str, Any]:
    """The GPU Operator release's values."""
    values: dict[str, Any] = {
        "driver": {"enabled": True},
        "toolkit": {"enabled": True},
        "devicePlugin": {
            "enabled": True,
            "config": {
                "create": True,
                "name": PLUGIN_CONFIG_MAP,
                "default": DEFAULT_CONFIG_NAME,
                "data": config_map(pools),
            },
        },
        "gfd": {"enabled": True},
        "mig": {"strategy": operator_mig_strategy(pools)},
        "migManager": {"enabled": False},
        "daemonsets": {"tolerations": gpu_tolerations(), "priorityClassName": NODE_CRITICAL},
        # AKS taints every non-GPU node CriticalAddonsOnly: the operator and the NFD master and
        # gc Deployments would stay Pending with the chart's tolerations.
        "operator": {"tolerations": system_tolerations()},
        "node-feature-discovery": {
            "worker": {"tolerations": nfd_worker_tolerations()},
            "master": {"tolerations": system_tolerations()},
            "gc": {"tolerations": system_tolerations()},
        },
    }
    unknown = unknown_value_paths(values, GPU_OPERATOR_KNOWN_VALUE_PATHS)
    if unknown:  # a guard on our own code: every key must be one we checked in the chart
        raise GpuOperatorValuesError(f"unknown GPU Operator chart keys: {', '.join(unknown)}")
    return values


class NvidiaGpuOperator(pulumi.ComponentResource):
    """The GPU Operator release and its (privileged) namespace."""

    namespace: pulumi.Output[str]
    """Namespace of the release."""
    configs: pulumi.Output[dict[str, str]]
    """Named device-plugin configs (name -> YAML)."""

    def __init__(
        self, name: str, args: NvidiaGpuOperatorArgs, opts: pulumi.ResourceOptions | None = None
    ) -> None:
        settings = args["settings"]
        values = operator_values(args["pools"])
        super().__init__("gpu-platform:gpu:NvidiaGpuOperator", name, None, opts)
        namespace = system_namespace(f"{name}-namespace", settings.namespace, self)
        pinned_release(
            f"{name}-release",
            chart=GPU_OPERATOR_CHART_NAME,
            repo=GPU_OPERATOR_CHART_REPO,
            version=settings.version,
            namespace=settings.namespace,
            after=namespace,
            values=values,
            parent=self,
        )
        self.namespace = known_after(settings.namespace, namespace)
        self.configs = pulumi.Output.from_input(values["devicePlugin"]["config"]["data"])
        self.register_outputs({"namespace": self.namespace, "configs": self.configs})
