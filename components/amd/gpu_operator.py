"""AmdGpuOperator: AMD's GPU Operator on the AMD pools: driver (through KMM), device plugin, node
labeller and metrics exporter.

One pinned release of ``gpu-operator-charts`` with our values and one ``DeviceConfig`` per AMD
pool selecting exactly that pool's nodes by our pool label (``plan.amd.gpu_operator`` says what
each holds and why). The release needs cert-manager's CRDs (KMM's webhook certificate): give the
``CertManager`` component, or the cluster's own cert-manager, as a dependency. Its namespace
(Pod Security ``privileged``: the plugin, labeller, exporter and KMM's module loader are
privileged by design) denies all traffic but what its pods need (``operator_policies``).

No ``from __future__ import annotations``: the component analyzer reads the args at run time.
"""

from typing import Any, NotRequired, TypedDict, cast, get_args

import pulumi
import pulumi_kubernetes as k8s
from pulumi_kubernetes.meta.v1 import (
    LabelSelectorArgs,
    LabelSelectorRequirementArgs,
    ObjectMetaArgs,
)
from pulumi_kubernetes.networking import v1 as net
from pydantic import ValidationError

from gpu_facts.amd import gpu_operator as amd
from gpu_platform.plan.amd.gpu_operator import (
    device_configs,
    exporter_pod_monitor_spec,
    operator_values,
)
from gpu_platform.plan.amd.pools import amd_layer_problems
from gpu_platform.plan.metrics import ScrapeMode
from gpu_platform.plan.pools import PoolFacts
from gpu_platform.plan.prometheus_rules import rule_groups
from gpu_platform.settings import AmdGpuOperatorSettings, Cloud

from ..errors import raise_if_any, shape_problems, validation_problems
from ..nvidia.dcgm_exporter import (
    AZURE_MONITOR_GROUP,
    OPERATOR_GROUP,
    SCRAPE_POLICY,
    scrape_policy_spec,
)
from ..nvidia.gpu_operator import downloads_egress_spec, scraper_namespace_problems
from ..outputs import known_after
from ..pool_args import CLOUDS, DEFAULT_CLOUD, GpuPoolArgs, cloud_arg, validate_gpu_pools_args
from ..recorded_inputs import recorded_inputs
from ..system_charts import (
    release_in_own_namespace,
    system_policies,
    webhook_ingress_spec,
)
from ..type_tokens import type_token

COMPONENT = "AmdGpuOperator"
DRIVER_BUILD_POLICY = "allow-driver-build"
KMM_WEBHOOK_POLICY = "allow-kmm-webhook-ingress"
EXPORTER_MONITOR = "amd-metrics-exporter"
"""Name of our PodMonitor (and PrometheusRule) in the operator's namespace."""
OPERATOR_SCRAPE_MODES: tuple[str, ...] = ("annotations", "serviceMonitor", "azureMonitor")
"""How Prometheus may find AMD's exporter (``plan.metrics.SCRAPE_MODES`` but ACK's: ACK has no
AMD size)."""


class AmdDriverArgs(TypedDict):
    """The amdgpu driver the operator builds and loads with KMM."""

    enabled: NotRequired[bool]
    """Install the driver (default true; AKS creates AMD pools without one)."""
    version: NotRequired[str]
    """amdgpu driver version as the Radeon repository spells it (default ``6.4``)."""
    image: NotRequired[str]
    """Registry repository, without a tag, KMM pushes the driver image to; required while
    ``enabled``."""
    image_registry_secret: NotRequired[str]
    """docker-registry Secret in the operator's namespace with push and pull access to
    ``image``."""
    blacklist: NotRequired[bool]
    """Blacklist the in-box amdgpu module so the built one loads (default true)."""


class AmdImagesArgs(TypedDict):
    """The operands' images, pinned."""

    device_plugin: NotRequired[str]
    """AMD's device plugin image."""
    node_labeller: NotRequired[str]
    """The node labeller's image."""
    metrics_exporter: NotRequired[str]
    """The device-metrics-exporter image."""
    kmm_tag: NotRequired[str]
    """Tag of KMM's controller, webhook, worker and signer images."""


class AmdGpuOperatorArgs(TypedDict):
    """AMD's GPU Operator for the AMD pools of one cluster."""

    pools: list[GpuPoolArgs]
    """The cluster's GPU pools; each AMD one (by its VM size) gets a DeviceConfig."""
    cloud: NotRequired[str]
    """``aks`` or ``existing`` (default): the API server's ports."""
    version: NotRequired[str]
    """Chart version (default ``v1.5.1``)."""
    namespace: NotRequired[str]
    """Namespace of the release and its DeviceConfigs (default ``amd-gpu-operator``)."""
    driver: NotRequired[AmdDriverArgs]
    """The amdgpu driver (KMM)."""
    images: NotRequired[AmdImagesArgs]
    """Pinned operand images (defaults: docs/amd.md)."""
    scrape: NotRequired[str]
    """How Prometheus finds the exporter: ``annotations`` (pod annotations), ``serviceMonitor``
    (a ``monitoring.coreos.com`` PodMonitor) or ``azureMonitor`` (an ``azmonitoring.coreos.com``
    PodMonitor); unset: not scraped (the exporter still runs: the plugin reads GPU health)."""
    scraper_namespaces: NotRequired[list[str]]
    """Namespaces whose pods may scrape the exporter (port 5000)."""
    prometheus_rules: NotRequired[bool]
    """With ``serviceMonitor``: a PrometheusRule with the GPU rules (when no dcgm-exporter
    release brings one)."""


def operator_policies(
    cloud: str, scraper_namespaces: list[str]
) -> dict[str, net.NetworkPolicySpecArgs]:
    """The operator namespace's NetworkPolicies: deny all, then what its pods need.

    Every pod there talks to the API server: the operator and KMM controllers reconcile, the
    node labeller and exporter label nodes (the exporter also reads pod UIDs), the hooks delete
    and patch objects. KMM's build and sign pods fetch the base image and amdgpu packages and
    push the driver image, by name (DNS, then HTTP and HTTPS to any address). The API server
    calls KMM's webhook (port 9443; a managed API server is no pod a rule could name). The
    exporter is scraped on 5000 from the scrapers' namespaces only. The device plugin and KMM's
    module loader need no network (node sockets; the kubelet pulls images).
    """
    specs = {
        **system_policies(cloud, {}),
        DRIVER_BUILD_POLICY: downloads_egress_spec(
            LabelSelectorArgs(
                match_expressions=[
                    LabelSelectorRequirementArgs(
                        key=amd.KMM_POD_TYPE_LABEL,
                        operator="In",
                        values=list(amd.KMM_BUILD_POD_TYPES),
                    )
                ]
            ),
            amd.DRIVER_DOWNLOAD_PORTS,
        ),
        KMM_WEBHOOK_POLICY: webhook_ingress_spec(amd.KMM_WEBHOOK_LABELS, amd.KMM_WEBHOOK_PORT),
    }
    if scraper_namespaces:
        specs[SCRAPE_POLICY] = scrape_policy_spec(
            scraper_namespaces,
            {amd.EXPORTER_NAME_LABEL: amd.EXPORTER_NAME},
            amd.METRICS_PORT,
        )
    return specs


def amd_operator_inputs(
    name: str, args: AmdGpuOperatorArgs
) -> tuple[AmdGpuOperatorSettings, list[PoolFacts], ScrapeMode | None]:
    """The args as settings, the pools' facts and the scrape mode, or one
    ``InputPropertiesError`` naming every bad property."""
    raise_if_any(COMPONENT, name, shape_problems(args, AmdGpuOperatorArgs))
    pools, problems = validate_gpu_pools_args(
        args.get("cloud", DEFAULT_CLOUD), args["pools"], "pools"
    )
    cloud = cloud_arg(args)
    settings: AmdGpuOperatorSettings | None = None
    try:
        settings = AmdGpuOperatorSettings.model_validate(
            {k: v for k, v in args.items() if k in ("version", "namespace", "driver", "images")}
        )
    except ValidationError as err:
        problems += validation_problems(err)
    problems += scraper_namespace_problems(args.get("scraper_namespaces", []))
    scrape = args.get("scrape")
    if scrape is not None and scrape not in OPERATOR_SCRAPE_MODES:
        problems.append(("scrape", f"one of {', '.join(OPERATOR_SCRAPE_MODES)}, not {scrape!r}"))
    if settings is not None and cloud in CLOUDS:
        # What the layer needs of its settings: the rule the stack config asks too.
        pool_settings = [pool.pool for pool in pools]
        problems += amd_layer_problems(cast(Cloud, cloud), settings, pool_settings)
    if not problems and not any(pool.is_amd for pool in pools):
        problems.append(("pools", "no pool has an AMD size: nothing for AMD's operator to serve"))
    raise_if_any(COMPONENT, name, problems)
    assert settings is not None
    assert scrape is None or scrape in get_args(ScrapeMode)
    return settings, pools, cast(ScrapeMode | None, scrape)


class AmdGpuOperator(pulumi.ComponentResource):
    """AMD's GPU Operator release, one DeviceConfig per AMD pool, and its deny-all namespace."""

    namespace: pulumi.Output[str]
    """Namespace of the release and the DeviceConfigs."""
    device_configs: pulumi.Output[list[str]]
    """Names of the DeviceConfigs (one per AMD pool, named after it)."""

    def __init__(
        self, name: str, args: AmdGpuOperatorArgs, opts: pulumi.ResourceOptions | None = None
    ) -> None:
        # Validate before registering anything: bad input changes nothing.
        settings, pools, scrape = amd_operator_inputs(name, args)
        values = operator_values(settings)
        configs = device_configs(pools, settings, scrape)
        super().__init__(type_token("AmdGpuOperator"), name, recorded_inputs(args), opts)

        home = settings.namespace
        scrapers = list(args.get("scraper_namespaces", [])) if scrape else []
        namespace, release = release_in_own_namespace(
            self,
            name,
            namespace=home,
            pod_security="privileged",
            policies=operator_policies(cloud_arg(args), scrapers),
            chart=amd.CHART_NAME,
            repo=amd.CHART_REPO,
            version=settings.version,
            values=values,
        )
        # The DeviceConfig CRD comes with the release.
        after_release = pulumi.ResourceOptions(parent=self, depends_on=[namespace, release])
        for config_name, spec in configs.items():
            k8s.apiextensions.CustomResource(
                f"{name}-{config_name}",
                api_version=amd.DEVICE_CONFIG_API_VERSION,
                kind=amd.DEVICE_CONFIG_KIND,
                metadata=ObjectMetaArgs(name=config_name, namespace=home),
                spec=spec,
                opts=after_release,
            )
        if scrape in ("azureMonitor", "serviceMonitor"):
            _custom(
                f"{name}-pod-monitor",
                AZURE_MONITOR_GROUP if scrape == "azureMonitor" else OPERATOR_GROUP,
                kind="PodMonitor",
                namespace=home,
                spec=exporter_pod_monitor_spec(),
                opts=after_release,
            )
        if scrape == "serviceMonitor" and args.get("prometheus_rules", False):
            _custom(
                f"{name}-rules",
                OPERATOR_GROUP,
                kind="PrometheusRule",
                namespace=home,
                spec={"groups": rule_groups(pools, home, home)},
                opts=after_release,
            )
        self.namespace = known_after(home, namespace)
        self.device_configs = pulumi.Output.from_input(sorted(configs))
        self.register_outputs({"namespace": self.namespace, "deviceConfigs": self.device_configs})


def _custom(
    resource_name: str,
    api_version: str,
    *,
    kind: str,
    namespace: str,
    spec: dict[str, Any],
    opts: pulumi.ResourceOptions,
) -> k8s.apiextensions.CustomResource:
    return k8s.apiextensions.CustomResource(
        resource_name,
        api_version=api_version,
        kind=kind,
        metadata=ObjectMetaArgs(name=EXPORTER_MONITOR, namespace=namespace),
        spec=spec,
        opts=opts,
    )
