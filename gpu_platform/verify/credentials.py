"""The kubeconfig's exec credential plugin, checked before it is needed.

A user entry with ``exec`` gets its token from a command (``kubelogin``, ``aws``,
``gke-gcloud-auth-plugin``...). When that command is missing or fails, the Kubernetes client
only logs it and sends the requests without credentials, so the API server's 401 would be
blamed on expired credentials. Here the command is looked up on the PATH first (as kubectl
runs it: https://kubernetes.io/docs/reference/access-authn-authz/authentication/#client-go-credential-plugins),
and a failure the client logs while it runs the plugin is turned into the error itself.
"""

from __future__ import annotations

import contextlib
import logging
import os
import shutil
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml


@dataclass(frozen=True, slots=True)
class ExecPlugin:
    user: str
    """The kubeconfig user whose credentials the plugin gives."""
    command: str
    install_hint: str
    """The kubeconfig's ``installHint`` for the plugin, ``""`` when it has none."""
    base: Path
    """The folder of the kubeconfig file that names it: a relative command is run from there."""


def _entries(doc: dict[str, Any], key: str) -> list[dict[str, Any]]:
    value = doc.get(key)
    return [e for e in value if isinstance(e, dict)] if isinstance(value, list) else []


def exec_plugin(paths: list[Path], context: str | None) -> ExecPlugin | None:
    """The exec plugin of the context's user, read from the kubeconfig files merged as kubectl
    merges them (the first file to name a context or user wins; the first ``current-context``
    wins). None when there is none, or the files cannot tell (the client reports that)."""
    contexts: dict[str, dict[str, Any]] = {}
    users: dict[str, tuple[dict[str, Any], Path]] = {}
    current = ""
    for path in paths:
        try:
            doc = yaml.safe_load(path.read_text())
        except (OSError, ValueError, yaml.YAMLError):
            return None
        if not isinstance(doc, dict):
            continue
        current = current or str(doc.get("current-context") or "")
        for entry in _entries(doc, "contexts"):
            contexts.setdefault(str(entry.get("name")), entry.get("context") or {})
        for entry in _entries(doc, "users"):
            users.setdefault(str(entry.get("name")), (entry.get("user") or {}, path.parent))
    chosen = contexts.get(context or current)
    user_name = str(chosen.get("user")) if isinstance(chosen, dict) else ""
    user, base = users.get(user_name, ({}, Path()))
    plugin = user.get("exec") if isinstance(user, dict) else None
    if not isinstance(plugin, dict) or not isinstance(plugin.get("command"), str):
        return None
    hint = plugin.get("installHint")
    return ExecPlugin(user_name, plugin["command"], hint if isinstance(hint, str) else "", base)


def missing(plugin: ExecPlugin) -> str | None:
    """Why the plugin's command cannot be run, None when it can."""
    command = plugin.command
    if os.sep in command:
        path = Path(command).expanduser()
        path = path if path.is_absolute() else plugin.base / path
        if path.is_file() and os.access(path, os.X_OK):
            return None
        where = f"there is no executable file at {path}"
    elif shutil.which(command) is not None:
        return None
    else:
        where = "which is not on the PATH"
    hint = plugin.install_hint.strip() or (
        "install it (kubectl needs it too), or use a kubeconfig with a token"
    )
    return (
        f"kubeconfig: user {plugin.user!r} gets its credentials from the exec plugin "
        f"{command!r}, {where}: {hint}"
    )


class _Collect(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.ERROR)
        self.messages: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.messages.append(record.getMessage())


@contextlib.contextmanager
def logged_errors() -> Iterator[list[str]]:
    """The errors the client logs meanwhile (it logs a failed plugin instead of raising);
    they are collected, not printed."""
    root = logging.getLogger()
    handler = _Collect()
    root.addHandler(handler)
    try:
        yield handler.messages
    finally:
        root.removeHandler(handler)
