"""plan.kubeconfigs: a kubeconfig file as client-go would load and use it, with the context to
use; no message ever shows the file's content."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from gpu_platform.plan.kubeconfigs import KUBECONFIG_DOC, MAX_BYTES, kubeconfig_problems

SECRET = "s3cr3t-token-never-shown"
GOOD = f"""apiVersion: v1
kind: Config
clusters:
  - name: lab
    cluster: {{server: "https://lab.example:6443", certificate-authority-data: {SECRET}}}
  - name: other
    cluster: {{}}
users:
  - name: admin
    user: {{token: {SECRET}}}
contexts:
  - name: lab
    context: {{cluster: lab, user: admin}}
  - name: broken
    context: {{cluster: nowhere, user: admin}}
  - name: serverless
    context: {{cluster: other, user: admin}}
  - name: nouser
    context: {{cluster: lab, user: ghost}}
current-context: lab
"""


def write(tmp_path: Path, text: str | bytes, name: str = "kubeconfig") -> str:
    path = tmp_path / name
    if isinstance(text, bytes):
        path.write_bytes(text)
    else:
        path.write_text(text)
    return str(path)


def test_a_usable_file_and_context(tmp_path: Path) -> None:
    path = write(tmp_path, GOOD)
    assert kubeconfig_problems(path) == []
    assert kubeconfig_problems(path, "lab") == []
    # apiVersion and kind may be left out: client-go defaults them.
    no_header = GOOD.replace("apiVersion: v1\nkind: Config\n", "")
    assert kubeconfig_problems(write(tmp_path, no_header, "bare")) == []


def test_home_is_expanded(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    write(tmp_path, GOOD)
    monkeypatch.setenv("HOME", str(tmp_path))
    assert kubeconfig_problems("~/kubeconfig") == []


def not_one(path: str) -> str:
    return f"{path!r} is not a kubeconfig ({KUBECONFIG_DOC})"


def test_files_that_cannot_be_read(tmp_path: Path) -> None:
    missing = str(tmp_path / "missing")
    assert kubeconfig_problems(missing) == [
        ("kubeconfigPath", f"no kubeconfig file at {missing!r}")
    ]
    assert kubeconfig_problems(str(tmp_path)) == [
        ("kubeconfigPath", f"{str(tmp_path)!r} is not a file")
    ]
    binary = write(tmp_path, b"\xff\xfe\x00binary", "binary")
    assert kubeconfig_problems(binary) == [
        ("kubeconfigPath", f"{binary!r} is not a text file (UTF-8)")
    ]
    huge = tmp_path / "huge"
    with huge.open("wb") as handle:
        handle.truncate(MAX_BYTES + 1)
    assert kubeconfig_problems(str(huge)) == [
        ("kubeconfigPath", f"{str(huge)!r} is over 16 MiB: not a kubeconfig")
    ]


@pytest.mark.skipif(os.geteuid() == 0, reason="root reads any file")
def test_a_file_without_read_permission(tmp_path: Path) -> None:
    path = write(tmp_path, GOOD)
    os.chmod(path, 0)
    assert kubeconfig_problems(path) == [
        ("kubeconfigPath", f"cannot read {path!r}: Permission denied")
    ]


def test_yaml_errors_say_where_never_what(tmp_path: Path) -> None:
    path = write(tmp_path, f"users:\n- name: admin\n  user: {{token: {SECRET}\n\tbad: [")
    ((key, message),) = kubeconfig_problems(path)
    assert key == "kubeconfigPath"
    assert message.startswith(f"{path!r} is not YAML (line ")
    assert SECRET not in message
    two = write(tmp_path, "a: 1\n---\nb: 2\n", "two")
    assert kubeconfig_problems(two) == [
        ("kubeconfigPath", f"{two!r} is not YAML (line 2, column 1)")
    ]
    deep = write(tmp_path, "[" * 3000 + "]" * 3000, "deep")
    assert kubeconfig_problems(deep) == [
        ("kubeconfigPath", f"{deep!r} is not a kubeconfig: nested too deep to read")
    ]


@pytest.mark.parametrize(
    ("text", "why"),
    [
        ("", "a YAML mapping with clusters, contexts and users"),
        ("[1, 2]", "a YAML mapping with clusters, contexts and users"),
        ("just text", "a YAML mapping with clusters, contexts and users"),
        ("kind: Pod\napiVersion: v1\n", "kind 'Pod', apiVersion 'v1', not Config, v1"),
        ("kind: Config\napiVersion: v2\n", "kind 'Config', apiVersion 'v2', not Config, v1"),
        ("kind: Config\n", "it has no contexts"),
        ("contexts: {lab: {}}\n", "contexts is not a list"),
        ("contexts:\n- context: {}\n", "contexts[0] has no name"),
        ("contexts: [{name: a}]\nusers: oops\n", "users is not a list"),
    ],
)
def test_files_that_are_no_kubeconfig(tmp_path: Path, text: str, why: str) -> None:
    path = write(tmp_path, text)
    assert kubeconfig_problems(path) == [("kubeconfigPath", f"{not_one(path)}: {why}")]


def test_the_context_to_use(tmp_path: Path) -> None:
    path = write(tmp_path, GOOD)
    contexts = "broken, lab, nouser, serverless"
    assert kubeconfig_problems(path, "prod") == [
        ("context", f"no context 'prod' in {path!r}; its contexts: {contexts}")
    ]
    assert kubeconfig_problems(path, "broken") == [
        ("context", f"context 'broken' of {path!r} names no cluster of the file ('nowhere')")
    ]
    assert kubeconfig_problems(path, "serverless") == [
        ("context", f"cluster 'other' of {path!r} has no server")
    ]
    assert kubeconfig_problems(path, "nouser") == [
        ("context", f"context 'nouser' of {path!r} names no user of the file ('ghost')")
    ]


def test_the_current_context_when_none_is_chosen(tmp_path: Path) -> None:
    unset = write(tmp_path, GOOD.replace("current-context: lab\n", ""), "unset")
    assert kubeconfig_problems(unset) == [
        (
            "context",
            f"{unset!r} sets no current-context: name one of its contexts "
            "(broken, lab, nouser, serverless)",
        )
    ]
    gone = write(tmp_path, GOOD.replace("current-context: lab", "current-context: old"), "gone")
    assert kubeconfig_problems(gone) == [
        (
            "kubeconfigPath",
            f"no context 'old' in {gone!r}; its contexts: broken, lab, nouser, serverless",
        )
    ]


def test_no_message_shows_the_content(tmp_path: Path) -> None:
    for i, text in enumerate(
        [GOOD.replace("kind: Config", "kind: Secret"), GOOD + f"\n{SECRET}: [", GOOD]
    ):
        path = write(tmp_path, text, f"k{i}")
        for context in (None, "lab", "broken", SECRET[:3]):
            for _, message in kubeconfig_problems(path, context):
                assert SECRET not in message
