"""The objects a Helm release will make, rendered from a vendored copy of its chart.

The plan holds a release's chart, version and values, not its objects: Helm renders them at
deploy time. Where the repository vendors that chart version (``charts/<chart>-<version>``,
unmodified upstream), it is rendered here with the release's own values through Helm's Go SDK
(``helm-python-sdk``, a dev requirement; there is no helm binary), so checkov judges the
DaemonSets the release really runs. Any other release stays not scanned.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml

from .plan import PlanResource, known_text, plain

CHARTS = Path(__file__).resolve().parent.parent / "charts"
"""Vendored upstream charts (charts/README.md)."""


def vendored_chart(resource: PlanResource, charts: Path = CHARTS) -> Path | None:
    """The vendored copy of the release's chart at its pinned version, if the repo has it."""
    chart = known_text(resource.inputs.get("chart"))
    version = known_text(resource.inputs.get("version"))
    if not chart or not version:
        return None
    folder = charts / f"{chart}-{version}"
    return folder if (folder / "Chart.yaml").is_file() else None


def render_release(resource: PlanResource, chart: Path) -> list[dict[str, Any]]:
    """Every object the release makes (hooks included), as Helm renders them on install."""
    from helm_python.chart import Chart  # Go library: loaded only when a release is rendered

    inputs = resource.inputs
    values = plain(inputs.get("values") or {})
    manifests = Chart.load(chart).render(
        values=values,
        name=known_text(inputs.get("name")) or resource.name,
        namespace=known_text(inputs.get("namespace")) or "default",
        is_install=True,
    )
    return [
        doc
        for _, text in sorted(manifests.items())
        for doc in yaml.safe_load_all(text)
        if isinstance(doc, dict) and doc.get("kind")
    ]
