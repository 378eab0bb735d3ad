"""Upstream artefacts the tests read but the repository never holds (charts, values files).

They live beside the repository, in ``<repo root>/../shared/reference/<name>`` (or where
``$GPU_PLATFORM_REFERENCE`` says: a checkout elsewhere, such as a git worktree); a test that
needs one is skipped, saying so, when it is not there.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

REFERENCE = Path(
    os.environ.get("GPU_PLATFORM_REFERENCE")
    or Path(__file__).resolve().parents[1].parent / "shared" / "reference"
)


def reference(name: str) -> Path:
    """``../shared/reference/<name>``, or skip the test that asked for it."""
    path = REFERENCE / name
    if not path.exists():
        pytest.skip(f"upstream {name} is not at {path} (the repository holds no upstream copy)")
    return path


def render_chart(chart: Path, values: dict[str, Any], release: str, namespace: str) -> list[Any]:
    """An upstream chart rendered for real with ``values`` (Helm's Go SDK, no helm binary): every
    object, with ``source`` the template (relative to the chart) that made it."""
    import yaml
    from helm_python.chart import Chart

    manifests = Chart.load(chart).render(
        values=values, name=release, namespace=namespace, is_install=True
    )
    # Charts carry CRDs of megabytes: libyaml's loader reads them ten times faster.
    loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
    return [
        {**doc, "source": source.split("/", 1)[1]}
        for source, text in manifests.items()
        for doc in yaml.load_all(text, Loader=loader)
        if doc
    ]


def has_path(node: Any, path: str) -> bool:
    """Whether the dotted ``path`` (``controllerManager.tolerations``) is in a values mapping."""
    for key in path.split("."):
        if not isinstance(node, dict) or key not in node:
            return False
        node = node[key]
    return True


def reference_charts(folder: Path) -> Path | None:
    """The reference charts as ``$GPU_PLATFORM_CHARTS`` wants them, ``<name>-<version>/`` (each a
    link into ``REFERENCE``, named from its Chart.yaml), in ``folder``; None when there are none.
    The offline preview then renders the Helm releases of our stacks that pin those charts."""
    import yaml

    made = False
    for chart in sorted(REFERENCE.glob("*/Chart.yaml")):
        meta = yaml.safe_load(chart.read_text())
        link = folder / f"{meta['name']}-{str(meta['version']).removeprefix('v')}"
        if not link.exists():
            link.symlink_to(chart.parent, target_is_directory=True)
        made = True
    return folder if made else None


REFERENCE_RELEASES = ("'dcgm-exporter' 4.8.2", "'nvidia-device-plugin' 0.20.0")
"""The releases' charts the tests give the preview from the reference folder (tests/conftest.py)."""


def environment_notice(policy: str, message: str) -> bool:
    """A verdict that only says a reference chart could not be had: without the reference folder
    (and without network access, as on a new machine) that notice is the environment's, not the
    program's. False whenever the tests gave the preview the reference charts."""
    from gpu_platform.offline_preview.kubernetes_components import NOTICE

    return (
        not os.environ.get("GPU_PLATFORM_CHARTS")
        and policy == NOTICE
        and any(chart in message for chart in REFERENCE_RELEASES)
    )
