"""System namespaces and pinned Helm releases: how the platform installs its GPU charts.

Namespaces reach the objects in them as plain strings from the stack config, never as a
Namespace's output, ordered by ``depends_on`` instead. On a brand-new cluster the Kubernetes
provider's kubeconfig is unknown during ``pulumi preview``, so every output of every Kubernetes
resource is unknown; a namespace taken from ``metadata.name`` would make the children's
``metadata.namespace`` unknown too, and the policy pack could not judge them on the first
preview (it could not even tell whether they sit in an exempt namespace).
"""

from __future__ import annotations

from typing import Any, Literal

import pulumi
import pulumi_kubernetes as k8s

PSA_ENFORCE = "pod-security.kubernetes.io/enforce"


def system_namespace(
    resource_name: str,
    name: str,
    parent: pulumi.Resource,
    pod_security: Literal["privileged", "baseline", "restricted"] = "privileged",
) -> k8s.core.v1.Namespace:
    """A namespace of the platform's own system pods. The GPU charts (plugin, GFD, MPS daemon)
    run privileged: Pod Security allows it in their namespace and nowhere else."""
    return k8s.core.v1.Namespace(
        resource_name,
        metadata=k8s.meta.v1.ObjectMetaArgs(
            name=name,
            labels={PSA_ENFORCE: pod_security, "app.kubernetes.io/part-of": "gpu-platform"},
        ),
        opts=pulumi.ResourceOptions(parent=parent),
    )


def pinned_release(
    resource_name: str,
    *,
    chart: str,
    repo: str,
    version: str,
    namespace: str,
    after: k8s.core.v1.Namespace,
    values: dict[str, Any],
    parent: pulumi.Resource,
) -> k8s.helm.v3.Release:
    """A Helm release of ``chart`` at exactly ``version``, named like the chart, in
    ``namespace`` (a plain name, known at preview), created after the Namespace ``after``.
    ``repo`` is a chart repository's URL, or an OCI registry path (``oci://...``), which Helm
    takes as part of the chart's reference."""
    oci = repo.startswith("oci://")
    return k8s.helm.v3.Release(
        resource_name,
        k8s.helm.v3.ReleaseArgs(
            name=chart,
            chart=f"{repo}/{chart}" if oci else chart,
            version=version,
            repository_opts=None if oci else k8s.helm.v3.RepositoryOptsArgs(repo=repo),
            namespace=namespace,
            create_namespace=False,
            values=values,
            cleanup_on_fail=True,
            max_history=10,
        ),
        opts=pulumi.ResourceOptions(parent=parent, depends_on=[after]),
    )
