"""nvidia-smi through the exec API: the error channel read, one client per exec
(readiness.driver)."""

from __future__ import annotations

import json

from kubernetes import client

from gpu_platform.verify.driver import _failure, _own_client


def test_the_error_channel() -> None:
    assert _failure("") is None
    assert _failure(json.dumps({"status": "Success"})) is None
    refused = {"status": "Failure", "message": "command terminated with non-zero exit code"}
    assert _failure(json.dumps(refused)) == "command terminated with non-zero exit code"
    assert _failure(json.dumps({"status": "Failure", "reason": "Forbidden"})) == "Forbidden"
    assert _failure(" not json \n") == "not json"


def test_each_exec_gets_a_client_of_its_own_on_the_same_configuration() -> None:
    shared = client.ApiClient(client.Configuration(host="https://api.example"))
    shared.default_headers["User-Agent"] = "verify"
    with _own_client(shared) as own:
        assert own is not shared
        assert own.configuration is shared.configuration
        assert own.default_headers["User-Agent"] == "verify"
    shared.close()
