"""CertManager: jetstack's cert-manager, which AMD's GPU Operator needs (its KMM webhook's serving
certificate is a cert-manager Certificate: ``gpu_facts.cert_manager_chart``).

One pinned release with its CRDs, in its own namespace (Pod Security ``restricted``: the chart's
pods run as non-root with the runtime's seccomp profile and no capabilities). Its controllers sit
on the system nodes (CriticalAddonsOnly tolerated). The namespace denies all traffic but what its
pods need: the API server for every pod, and the API server's calls to the webhook (on its secure
port, from any address: a managed API server is no pod a NetworkPolicy could name). The stack
issues only self-signed certificates, so nothing else goes out; an ACME or Vault issuer would
need its own egress rule.

No ``from __future__ import annotations``: the component analyzer reads the args at run time.
"""

from typing import Any, NotRequired, TypedDict

import pulumi
from pulumi_kubernetes.networking import v1 as net
from pydantic import ValidationError

from gpu_facts.cert_manager_chart import (
    CHART_NAME,
    CHART_REPO,
    KNOWN_VALUE_PATHS,
    WEBHOOK_LABELS,
    WEBHOOK_PORT,
)
from gpu_facts.nvidia.device_plugin_chart import unknown_value_paths
from gpu_platform.plan.chart_values import system_tolerations
from gpu_platform.settings import CertManagerSettings

from .errors import raise_if_any, shape_problems, validation_problems
from .outputs import known_after
from .pool_args import DEFAULT_CLOUD, cloud_arg, cloud_problems
from .system_charts import (
    release_in_own_namespace,
    system_policies,
    webhook_ingress_spec,
)
from .type_tokens import type_token

WEBHOOK_POLICY = "allow-webhook-ingress"


class CertManagerArgs(TypedDict):
    """cert-manager: chart version, namespace, the cloud its API server runs in."""

    version: NotRequired[str]
    """cert-manager chart version (default: the one AMD's install guide names)."""
    namespace: NotRequired[str]
    """Namespace of the release (default ``cert-manager``)."""
    cloud: NotRequired[str]
    """``aks``, ``ack`` or ``existing`` (default): the API server's ports."""


def cert_manager_values() -> dict[str, Any]:
    """The release's values: CRDs installed with the chart, every pod on the system nodes."""
    system = system_tolerations()
    values: dict[str, Any] = {
        "crds": {"enabled": True},
        "tolerations": system,
        "webhook": {"tolerations": system},
        "cainjector": {"tolerations": system},
        "startupapicheck": {"tolerations": system},
    }
    unknown = unknown_value_paths(values, KNOWN_VALUE_PATHS)
    if unknown:  # a guard on our own code
        raise ValueError(f"unknown cert-manager chart keys: {', '.join(unknown)}")
    return values


def cert_manager_policies(cloud: str) -> dict[str, net.NetworkPolicySpecArgs]:
    """Deny all; every pod to the API server; the API server to the webhook."""
    return {
        **system_policies(cloud, {}),
        WEBHOOK_POLICY: webhook_ingress_spec(WEBHOOK_LABELS, WEBHOOK_PORT),
    }


class CertManager(pulumi.ComponentResource):
    """cert-manager's release and its restricted, deny-all namespace."""

    namespace: pulumi.Output[str]
    """Namespace of the release (a chart that needs cert-manager's CRDs waits for the
    component)."""

    def __init__(
        self, name: str, args: CertManagerArgs, opts: pulumi.ResourceOptions | None = None
    ) -> None:
        problems = shape_problems(args, CertManagerArgs)
        problems += cloud_problems(args.get("cloud", DEFAULT_CLOUD))
        cloud = cloud_arg(args)
        settings: CertManagerSettings | None = None
        try:
            settings = CertManagerSettings.model_validate(
                {k: v for k, v in args.items() if k in ("version", "namespace")}
            )
        except ValidationError as err:
            problems += validation_problems(err)
        raise_if_any("CertManager", name, problems)
        assert settings is not None
        super().__init__(type_token("CertManager"), name, None, opts)

        namespace, _ = release_in_own_namespace(
            self,
            name,
            namespace=settings.namespace,
            pod_security="restricted",
            policies=cert_manager_policies(cloud),
            chart=CHART_NAME,
            repo=CHART_REPO,
            version=settings.version,
            values=cert_manager_values(),
        )
        self.namespace = known_after(settings.namespace, namespace)
        self.register_outputs({"namespace": self.namespace})
