"""CertManager: a pinned release with its CRDs on the system nodes, in a restricted namespace that
lets through only the API server (both ways, for the webhook)."""

from __future__ import annotations

from typing import Any

import pulumi
import pytest

from gpu_facts.cert_manager_chart import KNOWN_VALUE_PATHS
from gpu_facts.network_policy import API_SERVER_PORTS, Endpoint, allows, is_deny_all
from gpu_facts.nvidia.device_plugin_chart import unknown_value_paths
from gpu_platform.components.cert_manager import CertManager, cert_manager_values
from tests.components.input_errors import paths
from tests.conftest import by_type, one, run

RELEASE = "kubernetes:helm.sh/v3:Release"
NETWORK_POLICY = "kubernetes:networking.k8s.io/v1:NetworkPolicy"
NAMESPACE = "cert-manager"
SYSTEM = [{"key": "CriticalAddonsOnly", "operator": "Exists"}]


def manager(**args: Any) -> Any:
    return run(lambda: CertManager("cm", {"cloud": "aks", **args}))  # type: ignore[typeddict-item]


def test_release_is_pinned_with_its_crds_on_the_system_nodes() -> None:
    release = one(manager(), RELEASE).inputs
    assert (release["chart"], release["version"], release["namespace"]) == (
        "cert-manager",
        "v1.15.1",
        NAMESPACE,
    )
    assert release["repositoryOpts"] == {"repo": "https://charts.jetstack.io"}
    values = release["values"]
    assert values["crds"] == {"enabled": True}
    for tolerations in (
        values["tolerations"],
        values["webhook"]["tolerations"],
        values["cainjector"]["tolerations"],
        values["startupapicheck"]["tolerations"],
    ):
        assert tolerations == SYSTEM
    assert unknown_value_paths(cert_manager_values(), KNOWN_VALUE_PATHS) == []


def test_namespace_is_restricted() -> None:
    (namespace,) = [
        r.inputs for r in manager().resources if r.type == "kubernetes:core/v1:Namespace"
    ]
    assert namespace["metadata"]["labels"]["pod-security.kubernetes.io/enforce"] == "restricted"


WEBHOOK = Endpoint(namespace=NAMESPACE, labels={"app.kubernetes.io/name": "webhook"})
CONTROLLER = Endpoint(namespace=NAMESPACE, labels={"app.kubernetes.io/name": "cert-manager"})
CAINJECTOR = Endpoint(namespace=NAMESPACE, labels={"app.kubernetes.io/name": "cainjector"})
API_SERVER = Endpoint(ip="198.51.100.10")
STRANGER = Endpoint(namespace="gpu-training", labels={"app": "trainer"})


@pytest.mark.parametrize("cloud", ["aks", "existing"])
def test_only_the_api_server_both_ways(cloud: str) -> None:
    found = [r.inputs for r in by_type(manager(cloud=cloud), NETWORK_POLICY)]
    assert sum(is_deny_all(p) for p in found) == 1
    ports = API_SERVER_PORTS[cloud]
    for pod in (WEBHOOK, CONTROLLER, CAINJECTOR):
        for port in (53, 80, 443, 6443, 10250):
            for peer in (API_SERVER, STRANGER):
                egress = allows(found, pod, "Egress", peer, port=port)
                assert egress == (port in ports), (pod, peer, port)
                ingress = allows(found, pod, "Ingress", peer, port=port)
                # The API server calls the webhook; a managed one is no pod a rule can name.
                assert ingress == (pod is WEBHOOK and port == 10250), (pod, peer, port)


def test_bad_args_register_nothing() -> None:
    errors: list[pulumi.InputPropertiesError] = []

    def program() -> None:
        try:
            CertManager("cm", {"cloud": "mars", "namespace": "Bad_Name", "tag": "x"})  # type: ignore[typeddict-unknown-key]
        except pulumi.InputPropertiesError as err:
            errors.append(err)

    assert run(program).resources == []
    assert paths(errors[0]) == ["tag", "cloud", "namespace"]
