"""Deterministic stand-ins for what clouds compute, so a program runs end to end offline.

Placeholders are recognisably fake (``offline.invalid`` hosts, ``00000000`` IDs). What a
cloud computes that no input determines and that has no stand-in here is unknown, as in a
real preview.
"""

from __future__ import annotations

import base64
import zlib
from collections.abc import Callable
from typing import Any

import yaml
from pulumi.runtime.rpc import UNKNOWN

from .kube_manifests import decode
from .provider_functions import provider_function_result

_FAKE_SUBSCRIPTION = "00000000-0000-0000-0000-000000000000"
V1_MANIFEST_TEXT = "the text a v1 yaml.ConfigFile or ConfigGroup decodes"
"""What the v1 decode invoke's errors name: the SDK sends the text, not the file it read."""


def fake_kubeconfig(cluster: str) -> str:
    """A syntactically valid kubeconfig that points nowhere reachable."""
    return (
        "apiVersion: v1\nkind: Config\n"
        f"clusters:\n- name: {cluster}\n  cluster:\n"
        f"    server: https://{cluster}.offline.invalid:443\n"
        f"contexts:\n- name: {cluster}\n  context:\n"
        f"    cluster: {cluster}\n    user: {cluster}-user\n"
        f"current-context: {cluster}\n"
        f"users:\n- name: {cluster}-user\n  user:\n    token: offline-preview-placeholder\n"
    )


FAKE_DEPLOYER_OBJECT_ID = "00000000-0000-0000-0000-0000000de910"
"""Entra object ID of the identity running Pulumi (``getClientConfig``)."""
FAKE_DEPLOYER_CLIENT_ID = "00000000-0000-0000-0000-0000000c11e7"
"""Its application (client) ID."""
AKS_AAD_SERVER_ID = "6dae42f8-4368-4678-94ff-3960e28e3630"
"""The AKS Entra ID server application every managed-Entra cluster's exec kubeconfig names."""
AZURE_CLI_CLIENT_ID = "80faf920-1908-4b52-b5ef-a8e7bedfc67a"
"""The public client AKS puts in exec kubeconfigs (used by the interactive login modes)."""


def fake_exec_kubeconfig(cluster: str) -> str:
    """What AKS returns for ``format=exec``: a kubelogin user that logs in by device code."""
    user = f"clusterUser_rg_{cluster}"
    config = {
        "apiVersion": "v1",
        "kind": "Config",
        "clusters": [
            {
                "name": cluster,
                "cluster": {
                    "certificate-authority-data": "b2ZmbGluZQ==",
                    # The host fake_kubeconfig uses: tests look for it to catch plain leaks.
                    "server": f"https://{cluster}.offline.invalid:443",
                },
            }
        ],
        "contexts": [{"name": cluster, "context": {"cluster": cluster, "user": user}}],
        "current-context": cluster,
        "users": [
            {
                "name": user,
                "user": {
                    "exec": {
                        "apiVersion": "client.authentication.k8s.io/v1beta1",
                        "args": [
                            "get-token",
                            "--environment",
                            "AzurePublicCloud",
                            "--server-id",
                            AKS_AAD_SERVER_ID,
                            "--client-id",
                            AZURE_CLI_CLIENT_ID,
                            "--tenant-id",
                            _FAKE_SUBSCRIPTION,
                            "--login",
                            "devicecode",
                        ],
                        "command": "kubelogin",
                        "env": None,
                        "installHint": "kubelogin is not installed",
                        "interactiveMode": "IfAvailable",
                        "provideClusterInfo": False,
                    }
                },
            }
        ],
    }
    return yaml.safe_dump(config, sort_keys=False)


def _managed_cluster(name: str, inputs: dict[str, Any]) -> dict[str, Any]:
    cluster = inputs.get("resourceName", name)
    rg = inputs.get("resourceGroupName", "rg")
    return {
        "name": cluster,
        "fqdn": f"{cluster}.hcp.offline.invalid",
        "nodeResourceGroup": f"MC_{rg}_{cluster}",
        "oidcIssuerProfile": {
            **(inputs.get("oidcIssuerProfile") or {}),
            # The wire key is issuerURL (pulumi_azure_native outputs), not issuerUrl.
            "issuerURL": f"https://oidc.offline.invalid/{_FAKE_SUBSCRIPTION}/{cluster}/",
        },
        "azureApiVersion": "2025-09-01",
    }


def _named(key: str) -> Callable[[str, dict[str, Any]], dict[str, Any]]:
    def outputs(name: str, inputs: dict[str, Any]) -> dict[str, Any]:
        return {"name": inputs.get(key, name)}

    return outputs


def _ack_cluster(name: str, inputs: dict[str, Any]) -> dict[str, Any]:
    cluster = inputs.get("name", name)
    rrsa: dict[str, Any] = {"enabled": bool(inputs.get("enableRrsa"))}
    if rrsa["enabled"]:
        rrsa["rrsaOidcIssuerUrl"] = f"https://oidc-ack.offline.invalid/{cluster}"
    return {"name": cluster, "id": f"c{zlib.crc32(name.encode()):010d}", "rrsaMetadata": rrsa}


FAKE_GRAFANA_PRINCIPAL_ID = "00000000-0000-0000-0000-00000000a3a0"
"""The object ID a Managed Grafana's system-assigned identity gets offline."""


def _grafana(name: str, inputs: dict[str, Any]) -> dict[str, Any]:
    workspace = inputs.get("workspaceName", name)
    identity = inputs.get("identity") or {}
    return {
        "name": workspace,
        "properties": {
            **(inputs.get("properties") or {}),
            "endpoint": f"https://{workspace}.grafana.offline.invalid",
        },
        "identity": {**identity, "principalId": FAKE_GRAFANA_PRINCIPAL_ID} if identity else {},
    }


_COMPUTED: dict[str, Callable[[str, dict[str, Any]], dict[str, Any]]] = {
    "azure-native:dashboard:Grafana": _grafana,
    "azure-native:containerservice:ManagedCluster": _managed_cluster,
    "azure-native:resources:ResourceGroup": _named("resourceGroupName"),
    "azure-native:containerservice:AgentPool": _named("agentPoolName"),
    "alicloud:cs/managedKubernetes:ManagedKubernetes": _ack_cluster,
    "alicloud:cs/nodePool:NodePool": lambda name, inputs: {
        "nodePoolId": f"np{zlib.crc32(name.encode()):010d}"
    },
    "alicloud:vpc/network:Network": lambda name, inputs: {"id": f"vpc-{name}"},
    "alicloud:vpc/switch:Switch": lambda name, inputs: {"id": f"vsw-{name}"},
}


AUTONAMED_ANNOTATION = "pulumi.com/autonamed"
"""What pulumi-kubernetes marks an object it named with (``provider/pkg/metadata/naming.go``)."""


def _kubernetes_object_type(type_: str) -> bool:
    """A Kubernetes object the provider creates (not a Helm release, a patch, a component or
    the provider itself)."""
    return (
        type_.startswith("kubernetes:")
        and not type_.startswith("kubernetes:helm.sh/")
        and not type_.endswith("Patch")
    )


def checked_inputs(type_: str, urn: str, name: str, inputs: dict[str, Any]) -> dict[str, Any]:
    """A custom resource's inputs as its provider's ``Check`` returns them, which is what a
    real preview's policies and outputs see: a Kubernetes object with neither
    ``metadata.name`` nor ``metadata.generateName`` is auto-named ``<name>-<8 hex>`` and
    annotated ``pulumi.com/autonamed`` (pulumi-kubernetes ``AssignNameIfAutonamable``, called
    from ``Check``); its preview ``Create`` returns these inputs, so the name is known from
    then on (``ns.metadata.name`` in another object's namespace). The suffix is random there;
    here it is the URN's hash, so a plan is the same run after run."""
    if not _kubernetes_object_type(type_):
        return inputs
    metadata = inputs.get("metadata", {})
    if not isinstance(metadata, dict) or "name" in metadata or "generateName" in metadata:
        return inputs
    annotations = metadata.get("annotations", {})
    if not isinstance(annotations, dict):
        return inputs
    return {
        **inputs,
        "metadata": {
            **metadata,
            "name": f"{name}-{zlib.crc32(urn.encode()):08x}",
            "annotations": {**annotations, AUTONAMED_ANNOTATION: "true"},
        },
    }


def _kubernetes_object(inputs: dict[str, Any]) -> dict[str, Any]:
    """An object named by ``generateName`` gets its name from the API server at create: its
    name is unknown (one without any name was named by ``checked_inputs``).

    (Only the name: like the provider's own preview, the other server-set fields (``uid``...)
    are left out, so ``metadata`` stays known wherever the program named the object.)
    """
    metadata = inputs.get("metadata")
    if isinstance(metadata, dict) and not metadata.get("name"):
        return {"metadata": {**metadata, "name": UNKNOWN}}
    return {}  # no metadata input: no metadata output, so all of it is unknown


def computed_outputs(type_: str, name: str, inputs: dict[str, Any]) -> dict[str, Any]:
    """Outputs a cloud would compute for a resource of ``type_``: stand-ins for the ones the
    platform's own resources need, the wire's unknown for a Kubernetes name the API server
    gives (``generateName``). (Outputs a resource gets no value for here, such as ``status``,
    are unknown anyway.)"""
    factory = _COMPUTED.get(type_)
    if factory:
        return factory(name, inputs)
    if _kubernetes_object_type(type_):
        return _kubernetes_object(inputs)
    return {}


def invoke_result(token: str, args: dict[str, Any]) -> dict[str, Any] | None:
    """Results of the provider functions programs call; None when there is no stand-in."""
    if token == "azure-native:containerservice:listManagedClusterUserCredentials":
        cluster = args.get("resourceName", "cluster")
        text = fake_exec_kubeconfig(cluster) if args.get("format") == "exec" else None
        value = base64.b64encode((text or fake_kubeconfig(cluster)).encode()).decode()
        return {"kubeconfigs": [{"name": "clusterUser", "value": value}]}
    if token == "azure-native:authorization:getClientConfig":
        # The identity running Pulumi, as the azure-native provider reports it.
        return {
            "clientId": FAKE_DEPLOYER_CLIENT_ID,
            "objectId": FAKE_DEPLOYER_OBJECT_ID,
            "subscriptionId": _FAKE_SUBSCRIPTION,
            "tenantId": _FAKE_SUBSCRIPTION,
        }
    if token == "alicloud:cs/getClusterCredential:getClusterCredential":
        cluster = args.get("clusterId", "cluster")
        return {
            "clusterId": cluster,
            "kubeConfig": fake_kubeconfig(cluster),
            "expiration": "2099-01-01T00:00:00Z",
            "certificateAuthorities": [],
        }
    if token == "kubernetes:yaml:decode":
        # What the Python-side v1 yaml.ConfigFile / ConfigGroup ask the provider: the objects
        # of a YAML stream, which the SDK then registers itself.
        return {"result": decode(str(args.get("text") or ""), V1_MANIFEST_TEXT)}
    return provider_function_result(token, args)
