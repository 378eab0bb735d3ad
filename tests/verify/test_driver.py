"""nvidia-smi through the exec API: the error channel read, the exec websocket opened as
kubernetes.stream opens it (verify.driver)."""

from __future__ import annotations

import json
from typing import Any
from urllib.parse import parse_qsl, urlparse

import pytest
from kubernetes import client

from gpu_platform.verify import driver
from gpu_platform.verify.driver import ExecTarget, StreamExecReader, _failure


def test_the_error_channel() -> None:
    assert _failure("") is None
    assert _failure(json.dumps({"status": "Success"})) is None
    refused = {"status": "Failure", "message": "command terminated with non-zero exit code"}
    assert _failure(json.dumps(refused)) == "command terminated with non-zero exit code"
    assert _failure(json.dumps({"status": "Failure", "reason": "Forbidden"})) == "Forbidden"
    assert _failure(" not json \n") == "not json"


def test_the_exec_websocket_carries_the_command_the_container_and_the_credentials(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    opened: list[tuple[str, dict[str, str]]] = []

    def create_websocket(configuration: Any, url: str, headers: dict[str, str]) -> Any:
        opened.append((url, headers))
        raise ConnectionRefusedError("refused")

    monkeypatch.setattr(driver, "create_websocket", create_websocket)
    configuration = client.Configuration(host="https://api.example")
    configuration.api_key = {"authorization": "token"}
    configuration.api_key_prefix = {"authorization": "Bearer"}
    shared = client.ApiClient(configuration)
    reader = StreamExecReader(shared, ("nvidia-smi", "-L"))
    target = ExecTarget("node-1", "nvidia-device-plugin", "plugin-abc", "nvidia-device-plugin-ctr")
    with pytest.raises(driver.ExecError) as err:
        reader(target)
    assert str(err.value) == "exec into nvidia-device-plugin/plugin-abc failed: refused"
    ((url, headers),) = opened
    parsed = urlparse(url)
    assert (parsed.scheme, parsed.netloc) == ("wss", "api.example")
    assert parsed.path == "/api/v1/namespaces/nvidia-device-plugin/pods/plugin-abc/exec"
    assert parse_qsl(parsed.query) == [
        ("command", "nvidia-smi"),
        ("command", "-L"),
        ("container", "nvidia-device-plugin-ctr"),
        ("stderr", "true"),
        ("stdin", "false"),
        ("stdout", "true"),
        ("tty", "false"),
    ]
    assert headers == {
        "authorization": "Bearer token",
        "sec-websocket-protocol": "v4.channel.k8s.io",
    }
    shared.close()
