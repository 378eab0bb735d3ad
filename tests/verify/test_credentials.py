"""readiness.credentials: the context's exec plugin, found as kubectl merges kubeconfigs, and
checked before the client would run it."""

from __future__ import annotations

import json
import logging
from pathlib import Path
from typing import Any

import pytest

from gpu_platform.verify.credentials import ExecPlugin, exec_plugin, logged_errors, missing

EXEC = {"apiVersion": "client.authentication.k8s.io/v1beta1", "command": "kubelogin"}


def _kubeconfig(path: Path, **doc: Any) -> Path:
    path.write_text(json.dumps({"apiVersion": "v1", "kind": "Config", **doc}))
    return path


def test_the_current_contexts_user_plugin(tmp_path: Path) -> None:
    config = _kubeconfig(
        tmp_path / "config",
        contexts=[
            {"name": "dev", "context": {"cluster": "c", "user": "aad"}},
            {"name": "ops", "context": {"cluster": "c", "user": "token"}},
        ],
        users=[
            {"name": "aad", "user": {"exec": {**EXEC, "installHint": "az aks install-cli"}}},
            {"name": "token", "user": {"token": "t"}},
        ],
        **{"current-context": "dev"},
    )
    assert exec_plugin([config], None) == ExecPlugin(
        "aad", "kubelogin", "az aks install-cli", tmp_path
    )
    assert exec_plugin([config], "ops") is None  # a token user
    assert exec_plugin([config], "nope") is None  # the client reports the unknown context


def test_merged_files_the_first_to_name_an_entry_wins(tmp_path: Path) -> None:
    (tmp_path / "a").mkdir()
    first = _kubeconfig(
        tmp_path / "a" / "config",
        users=[{"name": "aad", "user": {"exec": {**EXEC, "command": "./bin/get-token"}}}],
        **{"current-context": "dev"},
    )
    second = _kubeconfig(
        tmp_path / "config",
        contexts=[{"name": "dev", "context": {"user": "aad"}}],
        users=[{"name": "aad", "user": {"exec": EXEC}}],
        **{"current-context": "other"},
    )
    plugin = exec_plugin([first, second], None)
    assert plugin == ExecPlugin("aad", "./bin/get-token", "", tmp_path / "a")


@pytest.mark.parametrize("content", ["clusters: [\n", "- a list\n", "users: 5\n"])
def test_files_that_cannot_tell_leave_it_to_the_client(tmp_path: Path, content: str) -> None:
    path = tmp_path / "config"
    path.write_text(content)
    assert exec_plugin([path], None) is None


def test_a_command_on_the_path_or_at_its_path_can_run(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    tool = bin_dir / "kubelogin"
    tool.write_text("#!/bin/sh\n")
    tool.chmod(0o755)
    monkeypatch.setenv("PATH", str(bin_dir))
    assert missing(ExecPlugin("aad", "kubelogin", "", tmp_path)) is None
    # A relative path is run from the kubeconfig's folder.
    assert missing(ExecPlugin("aad", "./bin/kubelogin", "", tmp_path)) is None
    assert missing(ExecPlugin("aad", str(tool), "", Path("/"))) is None


def test_a_command_that_cannot_run_is_named(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("PATH", str(tmp_path))
    assert missing(ExecPlugin("aad", "kubelogin", "", tmp_path)) == (
        "kubeconfig: user 'aad' gets its credentials from the exec plugin 'kubelogin', which "
        "is not on the PATH: install it (kubectl needs it too), or use a kubeconfig with a token"
    )
    not_executable = tmp_path / "get-token"
    not_executable.write_text("")
    assert missing(ExecPlugin("aad", "./get-token", "ask the platform team", tmp_path)) == (
        "kubeconfig: user 'aad' gets its credentials from the exec plugin './get-token', there "
        f"is no executable file at {not_executable}: ask the platform team"
    )


def test_errors_logged_meanwhile_are_collected_not_printed(
    capsys: pytest.CaptureFixture[str],
) -> None:
    with logged_errors() as errors:
        logging.error("exec: process returned 1. token expired")
        logging.warning("not an error")
    logging.getLogger("after").debug("not collected")
    assert errors == ["exec: process returned 1. token expired"]
    assert capsys.readouterr().err == ""
