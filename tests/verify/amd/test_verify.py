"""The AMD metrics exporter's port as ``make verify`` reads it from the pod (verify.amd.verify).
The whole AMD run against a fake API server: tests/stacks/test_verify_amd.py."""

from __future__ import annotations

from gpu_platform.verify.amd.verify import exporter_port


def test_exporter_port_is_the_named_container_port() -> None:
    pod = {
        "spec": {
            "containers": [
                {"ports": [{"name": "grpc", "containerPort": 50061}]},
                {"ports": [{"name": "exporter-port", "containerPort": 5001}]},
            ]
        }
    }
    assert exporter_port(pod, 5000) == 5001
    assert exporter_port({"spec": {"containers": [{}]}}, 5000) == 5000
