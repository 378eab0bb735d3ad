"""NvidiaDraDriver: NVIDIA's DRA driver for GPUs, serving the GPU pools with ``allocation: dra``.

One Helm release of NVIDIA's chart (``nvidia-dra-driver-gpu``, pinned) in its own namespace: the
kubelet plugin, which publishes each node's GPUs or MIG devices in ResourceSlices and prepares
claimed devices, on exactly the DRA pools (their pool label) and tolerating their GPU taint; the
ComputeDomain controller, when asked for, on CPU nodes; and the chart's DeviceClasses
(``gpu.nvidia.com``, ``mig.nvidia.com``, ``vfio.gpu.nvidia.com``). Values:
``plan.nvidia.dra_driver``.
The device plugin never runs beside it: DRA pools carry none of the labels it needs
(``plan.node_labels``). The namespace denies all traffic but the pods' one need, the API server.
"""

from typing import NotRequired, TypedDict

import pulumi
from pydantic import ValidationError

from gpu_facts.nvidia.dra_driver_chart import CHART_NAME, CHART_REPO, INSTANCE_LABEL, RELEASE_NAME
from gpu_platform.plan.dra_pools import dra_pools, dra_version_problems, is_dra
from gpu_platform.plan.nvidia.dra_driver import dra_driver_values, version_problems
from gpu_platform.plan.pools import PoolFacts
from gpu_platform.plan.problems import Problem
from gpu_platform.settings import DraDriverSettings

from ..errors import raise_if_any, shape_problems, validation_problems
from ..outputs import known_after
from ..pool_args import DEFAULT_CLOUD, GpuPoolArgs, cloud_arg, validate_gpu_pools_args
from ..recorded_inputs import recorded_inputs
from ..system_charts import (
    release_in_own_namespace,
    system_policies,
)
from ..type_tokens import type_token

NO_DRA_POOL = "no pool has allocation 'dra': the driver's kubelet plugin would run nowhere"


class NvidiaDraDriverArgs(TypedDict):
    """NVIDIA's DRA driver release: the GPU pools, chart version, namespace."""

    pools: list[GpuPoolArgs]
    """GPU pools of the cluster; the kubelet plugin runs on those with ``allocation: dra`` (at
    least one), and on no other."""
    cloud: NotRequired[str]
    """Cloud of the pools: ``aks``, ``ack`` or ``existing`` (default)."""
    kubernetes_version: NotRequired[str]
    """The cluster's Kubernetes version, when the platform creates it (AKS, ACK): checked
    against what DRA needs (1.34 or newer; on AKS a node image with CDI on)."""
    version: NotRequired[str]
    """Chart version (default: the version the platform's values were read against, 25.12.0)."""
    namespace: NotRequired[str]
    """Namespace of the release, created privileged (default ``nvidia-dra-driver-gpu``)."""
    compute_domains: NotRequired[bool]
    """Also run the ComputeDomain side (multi-node NVLink; default false)."""


def validate_dra_driver_args(
    name: str, args: NvidiaDraDriverArgs
) -> tuple[DraDriverSettings, list[PoolFacts]]:
    """The args as settings and the DRA pools' facts, or one ``InputPropertiesError`` naming
    every bad property."""
    raise_if_any("NvidiaDraDriver", name, shape_problems(args, NvidiaDraDriverArgs))
    pools, problems = validate_gpu_pools_args(
        args.get("cloud", DEFAULT_CLOUD), args["pools"], "pools"
    )
    cloud = cloud_arg(args)
    settings: DraDriverSettings | None = None
    try:
        settings = DraDriverSettings.model_validate(
            {k: v for k, v in args.items() if k in ("version", "namespace", "compute_domains")}
        )
    except ValidationError as err:
        problems += validation_problems(err)
    if settings is not None:
        problems += version_problems(settings.version)
    if not problems:
        problems += _dra_problems(cloud, args.get("kubernetes_version"), pools)
    raise_if_any("NvidiaDraDriver", name, problems)
    assert settings is not None
    return settings, dra_pools(pools)


def _dra_problems(cloud: str, version: str | None, pools: list[PoolFacts]) -> list[Problem]:
    dra = [(f"pools[{i}]", pf.pool) for i, pf in enumerate(pools) if is_dra(pf.pool)]
    if not dra:
        return [("pools", NO_DRA_POOL)]
    return list(dra_version_problems(cloud, version, dra, "kubernetesVersion"))


class NvidiaDraDriver(pulumi.ComponentResource):
    """NVIDIA's DRA driver release and its namespace."""

    namespace: pulumi.Output[str]
    """Namespace of the release."""
    release_name: pulumi.Output[str]
    """Helm release name."""
    dra_pools: pulumi.Output[list[str]]
    """The pools its kubelet plugin serves."""

    def __init__(
        self, name: str, args: NvidiaDraDriverArgs, opts: pulumi.ResourceOptions | None = None
    ) -> None:
        # Validate before registering anything: bad input changes nothing.
        settings, pools = validate_dra_driver_args(name, args)
        served = sorted(pf.name for pf in pools)
        values = dra_driver_values(served, settings.compute_domains)
        super().__init__(type_token("NvidiaDraDriver"), name, recorded_inputs(args), opts)
        # The kubelet plugin runs privileged: Pod Security allows it here only. Deny all, then
        # the one thing every pod of the chart needs: the API server (BP-08).
        namespace, release = release_in_own_namespace(
            self,
            name,
            namespace=settings.namespace,
            pod_security="privileged",
            policies=system_policies(cloud_arg(args), {INSTANCE_LABEL: RELEASE_NAME}),
            chart=CHART_NAME,
            repo=CHART_REPO,
            version=settings.version,
            values=values,
        )
        self.namespace = known_after(settings.namespace, namespace)
        self.release_name = release.name.apply(lambda n: n or CHART_NAME)
        self.dra_pools = pulumi.Output.from_input(served)
        self.register_outputs(
            {
                "namespace": self.namespace,
                "releaseName": self.release_name,
                "draPools": self.dra_pools,
            }
        )
