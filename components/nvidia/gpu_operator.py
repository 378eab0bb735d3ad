"""NvidiaGpuOperator: the NVIDIA GPU Operator owns drivers, toolkit, device plugin and GFD.

The alternative to cloud-managed drivers plus ``NvidiaDevicePlugin`` (config validation refuses
both). The same per-pool device-plugin configs go into ``devicePlugin.config``. The operator
passes ``mig.strategy`` to the plugin as an environment variable, which beats the config file,
so every MIG pool must use one strategy. Its dcgm-exporter is the platform's GPU metrics
exporter (no ``DcgmExporter`` then), told the pools' resource names. Its MIG manager stays off:
MIG partitions come from the pool (AKS ``gpuInstanceProfile``), and the manager's default would
undo them.
"""

from collections.abc import Sequence
from functools import cache
from typing import Any, NotRequired, TypedDict

import pulumi
from pulumi_kubernetes.meta.v1 import LabelSelectorArgs
from pulumi_kubernetes.networking import v1 as net
from pydantic import TypeAdapter, ValidationError

from gpu_facts.nvidia.device_plugin_chart import (
    GPU_OPERATOR_CHART_NAME,
    GPU_OPERATOR_CHART_REPO,
    GPU_OPERATOR_DCGM_EXPORTER_LABELS,
    GPU_OPERATOR_DCGM_EXPORTER_PORT,
    GPU_OPERATOR_DRIVER_DOWNLOAD_PORTS,
    GPU_OPERATOR_DRIVER_LABELS,
    GPU_OPERATOR_EXPORTER_ENV,
    GPU_OPERATOR_KNOWN_VALUE_PATHS,
    unknown_value_paths,
)
from gpu_platform.plan.chart_values import gpu_tolerations, system_tolerations
from gpu_platform.plan.metrics import exporter_env
from gpu_platform.plan.nvidia.device_plugin import (
    DEFAULT_CONFIG_NAME,
    config_map,
    mig_strategy,
    one_mig_strategy_problems,
)
from gpu_platform.plan.pools import PoolFacts
from gpu_platform.plan.problems import under
from gpu_platform.settings import GpuComponentResourcesSettings, GpuOperatorSettings
from gpu_platform.settings.base import DnsLabel

from ..errors import Problem, raise_if_any, shape_problems, validation_problems
from ..gpu_workload_namespace import dns_egress_rule
from ..outputs import known_after
from ..pool_args import DEFAULT_CLOUD, GpuPoolArgs, cloud_arg, validate_gpu_pools_args
from ..recorded_inputs import recorded_inputs
from ..system_charts import release_in_own_namespace, system_policies
from ..type_tokens import formerly, type_token
from .dcgm_exporter import SCRAPE_POLICY, scrape_policy_spec
from .device_plugin import NODE_CRITICAL, GpuComponentResourcesArgs, nfd_values

DRIVER_DOWNLOADS_POLICY = "allow-driver-downloads"
PLUGIN_CONFIG_MAP = "device-plugin-configs"
"""Name of the ConfigMap the operator creates from ``devicePlugin.config.data``."""


class NvidiaGpuOperatorArgs(TypedDict):
    """The GPU Operator release: chart version, namespace, GPU pools."""

    pools: list[GpuPoolArgs]
    """GPU pools of the cluster; those the device plugin serves get a named config. Every MIG
    pool must use one ``mig.strategy`` (the operator sets one for the cluster)."""
    cloud: NotRequired[str]
    """Cloud of the pools: ``aks``, ``ack`` or ``existing`` (default): decides what a
    pool's ``sharing.mode`` means."""
    version: NotRequired[str]
    """GPU Operator chart version (default: the version the platform is tested with)."""
    namespace: NotRequired[str]
    """Namespace of the release, created privileged (default ``gpu-operator``)."""
    resources: NotRequired[GpuComponentResourcesArgs]
    """Requests (and memory limits) of the operator's device plugin and GFD (``plugin``) and
    NFD pods (defaults: docs/device-plugin.md)."""
    scraper_namespaces: NotRequired[list[str]]
    """Namespaces whose pods may scrape the operator's dcgm-exporter (port 9400); none: the
    namespace's deny-all keeps every scraper out."""


class GpuOperatorValuesError(ValueError):
    """The pools cannot be served by one GPU Operator release."""


def operator_mig_strategy(pools: list[PoolFacts]) -> str:
    """The one ``mig.strategy`` for the cluster: the MIG pools' strategy, else ``single``."""
    strategies = {mig_strategy(p) for p in pools if p.mig_profile is not None}
    for _, problem in one_mig_strategy_problems(strategies):
        raise GpuOperatorValuesError(problem)
    return strategies.pop() if strategies else "single"


def operator_values(
    pools: list[PoolFacts], resources: GpuComponentResourcesSettings | None = None
) -> dict[str, Any]:
    """The GPU Operator release's values."""
    resources = resources or GpuComponentResourcesSettings()
    plugin = resources.plugin.as_values()
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
            "resources": plugin,
        },
        "gfd": {"enabled": True, "resources": plugin},
        # Its dcgm-exporter attributes every resource the pools expose to pods, as ours does;
        # our list replaces the chart's, so the chart's own variables come along.
        "dcgmExporter": {
            "env": [
                *({"name": name, "value": value} for name, value in GPU_OPERATOR_EXPORTER_ENV),
                *exporter_env(pools),
            ]
        },
        "mig": {"strategy": operator_mig_strategy(pools)},
        "migManager": {"enabled": False},
        "daemonsets": {"tolerations": gpu_tolerations(), "priorityClassName": NODE_CRITICAL},
        # AKS taints every non-GPU node CriticalAddonsOnly: the operator and the NFD master and
        # gc Deployments would stay Pending with the chart's tolerations.
        "operator": {"tolerations": system_tolerations()},
        "node-feature-discovery": nfd_values(resources),
    }
    unknown = unknown_value_paths(values, GPU_OPERATOR_KNOWN_VALUE_PATHS)
    if unknown:  # a guard on our own code: every key must be one we checked in the chart
        raise GpuOperatorValuesError(f"unknown GPU Operator chart keys: {', '.join(unknown)}")
    return values


def downloads_egress_spec(
    pods: LabelSelectorArgs, ports: Sequence[int]
) -> net.NetworkPolicySpecArgs:
    """The selected pods (a GPU operator's driver builders) may resolve names and reach any
    address on ``ports``: distribution and vendor package repositories have no fixed address."""
    return net.NetworkPolicySpecArgs(
        pod_selector=pods,
        policy_types=["Egress"],
        egress=[
            dns_egress_rule(),
            net.NetworkPolicyEgressRuleArgs(
                ports=[net.NetworkPolicyPortArgs(protocol="TCP", port=port) for port in ports]
            ),
        ],
    )


def operator_policies(
    cloud: str, scraper_namespaces: list[str]
) -> dict[str, net.NetworkPolicySpecArgs]:
    """The operator namespace's NetworkPolicies: deny all, then what its pods need.

    Every pod there uses the API server: the operator reconciles its ClusterPolicy and the
    operands it deploys (driver manager, validator, plugin, GFD, exporter, NFD) read and
    label nodes and pods. The driver pods also fetch kernel headers from the distribution's
    package repositories, by name (DNS, then HTTP and HTTPS to any address). The exporter is
    scraped on 9400 from the scrapers' namespaces only. Nothing else is served.
    """
    specs = {
        **system_policies(cloud, {}),
        DRIVER_DOWNLOADS_POLICY: downloads_egress_spec(
            LabelSelectorArgs(match_labels=dict(GPU_OPERATOR_DRIVER_LABELS)),
            GPU_OPERATOR_DRIVER_DOWNLOAD_PORTS,
        ),
    }
    if scraper_namespaces:
        specs[SCRAPE_POLICY] = scrape_policy_spec(
            scraper_namespaces,
            dict(GPU_OPERATOR_DCGM_EXPORTER_LABELS),
            GPU_OPERATOR_DCGM_EXPORTER_PORT,
        )
    return specs


@cache
def _namespaces() -> TypeAdapter[list[str]]:
    """A validator of namespace names, built on first use."""
    return TypeAdapter(list[DnsLabel])


def scraper_namespace_problems(names: object) -> list[Problem]:
    """An operator's ``scraper_namespaces``: namespace names, with their property paths."""
    try:
        _namespaces().validate_python(names)
    except ValidationError as err:
        return validation_problems(err, "scraper_namespaces")
    return []


def validate_gpu_operator_args(
    name: str, args: NvidiaGpuOperatorArgs
) -> tuple[GpuOperatorSettings, list[PoolFacts]]:
    """The args as settings and pool facts, or one ``InputPropertiesError`` naming every bad
    property."""
    # A wrong shape (an unknown or missing property) makes the rest meaningless.
    raise_if_any("NvidiaGpuOperator", name, shape_problems(args, NvidiaGpuOperatorArgs))
    pools, problems = validate_gpu_pools_args(
        args.get("cloud", DEFAULT_CLOUD), args["pools"], "pools"
    )
    settings: GpuOperatorSettings | None = None
    try:
        # ``enabled`` is the platform's decision, not an arg: leave it at its default.
        settings = GpuOperatorSettings.model_validate(
            {k: v for k, v in args.items() if k in ("version", "namespace", "resources")}
        )
    except ValidationError as err:
        problems += validation_problems(err)
    problems += scraper_namespace_problems(args.get("scraper_namespaces", []))
    strategies = [mig_strategy(p) for p in pools if p.mig_profile is not None]
    problems += under("pools", one_mig_strategy_problems(strategies))
    raise_if_any("NvidiaGpuOperator", name, problems)
    assert settings is not None
    return settings, pools


class NvidiaGpuOperator(pulumi.ComponentResource):
    """The GPU Operator release and its (privileged) namespace."""

    namespace: pulumi.Output[str]
    """Namespace of the release."""
    configs: pulumi.Output[dict[str, str]]
    """Named device-plugin configs (name -> YAML)."""

    def __init__(
        self, name: str, args: NvidiaGpuOperatorArgs, opts: pulumi.ResourceOptions | None = None
    ) -> None:
        # Validate before registering anything: bad input changes nothing.
        settings, pools = validate_gpu_operator_args(name, args)
        values = operator_values(pools, settings.resources)
        super().__init__(
            type_token("NvidiaGpuOperator"),
            name,
            recorded_inputs(args),
            formerly("gpu-platform:gpu:NvidiaGpuOperator", opts),
        )
        namespace, _ = release_in_own_namespace(
            self,
            name,
            namespace=settings.namespace,
            pod_security="privileged",
            policies=operator_policies(cloud_arg(args), list(args.get("scraper_namespaces", []))),
            chart=GPU_OPERATOR_CHART_NAME,
            repo=GPU_OPERATOR_CHART_REPO,
            version=settings.version,
            values=values,
        )
        self.namespace = known_after(settings.namespace, namespace)
        self.configs = pulumi.Output.from_input(values["devicePlugin"]["config"]["data"])
        self.register_outputs({"namespace": self.namespace, "configs": self.configs})
