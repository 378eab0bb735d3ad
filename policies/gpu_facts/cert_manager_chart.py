"""Facts about cert-manager's Helm chart, which AMD's GPU Operator needs: its KMM subchart asks
cert-manager for the webhook's serving certificate (``charts/kmm/templates/serving-cert.yaml``:
a ``cert-manager.io/v1`` Certificate from a self-signed Issuer), so the operator's release fails
to install where cert-manager's CRDs are missing.

Sources: AMD's install guide (the chart README, "Prerequisites": jetstack's chart, version
v1.15.1, ``crds.enabled=true``) and cert-manager's chart values (``tolerations``,
``webhook.tolerations``, ``cainjector.tolerations``, ``startupapicheck.tolerations``,
``webhook.securePort`` 10250).
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

CHART_NAME = "cert-manager"
CHART_REPO = "https://charts.jetstack.io"
DEFAULT_VERSION = "v1.15.1"
"""The version AMD's install guide installs."""
DEFAULT_NAMESPACE = "cert-manager"
WEBHOOK_PORT = 10250
"""``webhook.securePort``: the API server calls the webhook there."""
NAME_LABEL = "app.kubernetes.io/name"
INSTANCE_LABEL = "app.kubernetes.io/instance"
WEBHOOK_LABELS: Mapping[str, str] = MappingProxyType({NAME_LABEL: "webhook"})
"""The webhook pods' ``app.kubernetes.io/name`` (the controller's is ``cert-manager``, the CA
injector's ``cainjector``, the post-install check's ``startupapicheck``)."""
ISSUER_API_VERSION = "cert-manager.io/v1"

KNOWN_VALUE_PATHS: frozenset[str] = frozenset(
    {
        "crds",
        "crds.enabled",
        "tolerations",
        "webhook",
        "webhook.tolerations",
        "cainjector",
        "cainjector.tolerations",
        "startupapicheck",
        "startupapicheck.tolerations",
    }
)
