"""``make verify`` against an API server and pods that answer in any shape: an exec's error
channel, an exec's output and a seed check's judge that meet an answer of a shape nothing
expected each give one failed row naming it, never a traceback that ends the run; a node image
dated after today is a finding; ``--config FILE`` reads from any folder."""

from __future__ import annotations

import io
import os
from collections.abc import Callable
from datetime import date
from pathlib import Path
from typing import Any

import pytest
from kubernetes import client
from websocket import ABNF

from gpu_platform.verify import cli as verify_cli
from gpu_platform.verify import cluster, driver
from gpu_platform.verify.cli import EXIT_ERROR, main
from gpu_platform.verify.driver import ExecTarget, _failure
from gpu_platform.verify.node_image import node_image
from gpu_platform.verify.plan_file import PlanError
from gpu_platform.verify.seed_checks import _Exec, _run
from gpu_platform.verify.verify import driver_check
from tests.conftest import ROOT

from .hostile_server import hostile_server

TARGET = ExecTarget("gpu-node-1", "gpu-operator", "nvidia-device-plugin-x", None)

ERROR_CHANNELS = [
    ('"the container is gone"', "the container is gone"),
    ('["a", "list"]', '["a", "list"]'),
    ("42", "42"),
    ("null", "null"),
    ('""', "an empty status"),
    ("{}", "{}"),
    ('{"status": "Failure", "message": "command terminated with exit code 9"}',
     "command terminated with exit code 9"),
    ("not json at all", "not json at all"),
    ('{"status": "Success"}', None),
]  # fmt: skip


@pytest.mark.parametrize(("channel", "reason"), ERROR_CHANNELS)
def test_any_error_channel_is_a_reason_not_a_traceback(channel: str, reason: str | None) -> None:
    assert _failure(channel) == reason


def _raises(err: Exception) -> Callable[[ExecTarget], Any]:
    def read(_target: ExecTarget) -> Any:
        raise err

    return read


READERS: list[tuple[str, Callable[[ExecTarget], Any]]] = [
    ("prints nothing", lambda _t: ""),
    ("prints garbage", lambda _t: "\x00\xff garbage \n" * 3),
    ("answers None", lambda _t: None),
    ("answers bytes", lambda _t: b"Driver Version: 550.54"),
    ("answers a map", lambda _t: {"driver": "550"}),
    ("raises a KeyError", _raises(KeyError("status"))),
    ("raises an AttributeError", _raises(AttributeError("'str' object has no attribute 'get'"))),
]


@pytest.mark.parametrize(("name", "read"), READERS, ids=[name for name, _ in READERS])
def test_any_exec_answer_is_one_failed_driver_row(
    name: str, read: Callable[[ExecTarget], Any]
) -> None:
    row = driver_check(TARGET, 550, read)
    assert (row.check, row.subject, row.status) == ("driver", "node/gpu-node-1", "fail"), name
    assert row.found


@pytest.mark.parametrize(("name", "read"), READERS, ids=[name for name, _ in READERS])
def test_any_exec_answer_is_one_failed_seed_row(
    name: str, read: Callable[[ExecTarget], Any]
) -> None:
    def judge(printed: str) -> Any:
        return printed.splitlines()[5]  # a judge that trusts the answer's shape

    job = _Exec("mig-devices", TARGET, ("nvidia-smi", "-L"), "7 MIG devices", judge)
    row = _run(job, lambda _command: read)
    assert (row.check, row.subject, row.status) == ("mig-devices", "node/gpu-node-1", "fail")
    assert row.found.startswith("an answer of an unexpected shape: ")


def test_a_node_image_dated_after_today_is_a_finding() -> None:
    labels = {"kubernetes.azure.com/node-image-version": "AKSUbuntu-2204gen2containerd-209912.31.0"}
    node = {"metadata": {"name": "n", "labels": labels}}
    row = node_image("a100", [node], "NodeImage", date(2026, 1, 1))
    assert row.status == "fail"
    assert "dated 2099-12-31" in row.found and "after today" in row.found


def test_config_from_any_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """A stack file copied out of its checkout, read from another folder: its config is
    judged (the run then stops at the missing kubeconfig, exit 2), not "no Pulumi.yaml"."""
    config = tmp_path / "stacks" / "Pulumi.dev.yaml"
    config.parent.mkdir()
    config.write_text((ROOT / "Pulumi.dev.yaml").read_text())
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)
    monkeypatch.delenv("KUBECONFIG", raising=False)
    missing = tmp_path / "no-kubeconfig"
    code = main(["--config", str(config), "--program", os.curdir, "--kubeconfig", str(missing)])
    assert code == EXIT_ERROR
    assert capsys.readouterr().err == (
        f"verify: error: kubeconfig: no file at {missing} (give --kubeconfig or set KUBECONFIG)\n"
    )


API_ANSWERS = [
    "a list that never ends",
    "a proxied answer of a declared terabyte",
    "an exec that never stops writing",
]
"""API servers (or proxies) answering without bound: refused at the answer's cap."""


class _EndlessExec:
    """An exec websocket whose command writes to stdout for ever, as fast as it is read."""

    def settimeout(self, seconds: float) -> None:
        pass

    def recv_data(self) -> tuple[int, bytes]:
        return ABNF.OPCODE_BINARY, b"\x01" + b"x" * 65536

    def close(self) -> None:
        pass


def test_an_exec_past_its_cap_is_one_failed_read(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(driver, "MAX_EXEC_BYTES", 2**20)
    monkeypatch.setattr(driver, "create_websocket", lambda *args: _EndlessExec())
    api = client.ApiClient(client.Configuration(host="https://api.example"))
    try:
        with pytest.raises(driver.ExecError) as err:
            driver.StreamExecReader(api)(TARGET)
    finally:
        api.close()
    assert str(err.value) == (
        "nvidia-smi in nvidia-device-plugin-x: its output is larger than 1 MiB: not read to its end"
    )


@pytest.mark.parametrize("case", API_ANSWERS[:2])
def test_an_api_answer_past_its_cap_is_refused_not_read(
    case: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(cluster, "MAX_ANSWER_BYTES", 2**20)
    refused = "the answer is larger than 1 MiB: not read to its end"
    with hostile_server() as served:
        configuration = client.Configuration()
        configuration.host = f"{served.url}/endless" if "never ends" in case else served.url
        api = client.ApiClient(configuration)
        try:
            reader = cluster.ClusterReader(api)
            if "never ends" in case:
                assert reader.nodes("") == []
                (bad,) = reader.bad_answers
                assert bad.cause == refused
            else:
                with pytest.raises(cluster.ClusterError, match=refused):
                    reader.pod_proxy("gpu-metrics", "exporter", 9400, "declared-huge")
        finally:
            api.close()


def test_a_program_folder_that_prints_without_end_is_read_to_its_last_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``--plan FOLDER``: the program's prints (the preview's stderr) are kept to their end only,
    and the failure named by the preview's own error line, not by what came last."""
    monkeypatch.setattr(verify_cli, "STDERR_TAIL", 64 * 1024)
    (tmp_path / "Pulumi.yaml").write_text("name: team\nruntime: python\n")
    (tmp_path / "__main__.py").write_text(
        "import sys\nfor _ in range(2000):\n    sys.stderr.write('x' * 10000 + '\\n')\n"
        "raise ValueError('boom')\n"
    )
    with pytest.raises(PlanError) as err:
        verify_cli.load_plan(tmp_path, io.StringIO())
    assert str(err.value) == (
        f"the offline preview of {tmp_path} failed: error: the program failed: ValueError: boom"
    )
