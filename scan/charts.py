"""The objects a Helm v3 ``Release`` will make, rendered from its chart.

The plan holds a release's chart, version and values, not its objects: Helm renders them at
deploy time. Here the chart is found as the offline preview finds a v4 ``Chart``'s
(``offline_preview.helm_charts``: a local chart path, a copy in ``--charts DIR`` or
``$GPU_PLATFORM_CHARTS``, the cache ``~/.cache/gpu-platform/charts``, else pulled from its
repository into the cache) and rendered with the release's own values through Helm's Go SDK,
hooks included (a ``Release`` installs them), so checkov judges the DaemonSets the release
really runs. A release whose chart cannot be had stays not scanned, with the reason.

(A v4 ``Chart`` needs none of this: the offline preview builds it, so its objects are in the
plan already.)
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from gpu_platform.offline_preview.helm_charts import ChartRef, ChartStore, render

from .plan import PlanResource, known_text, plain


def release_chart(resource: PlanResource, store: ChartStore, base: Path) -> Path:
    """The release's chart (raises ``ChartUnavailable`` with the reason)."""
    inputs = resource.inputs
    repository = inputs.get("repositoryOpts") or {}
    ref = ChartRef(
        known_text(inputs.get("chart")) or "",
        known_text(inputs.get("version")),
        known_text(repository.get("repo")) if isinstance(repository, dict) else None,
    )
    return store.locate(ref, base)


def render_release(resource: PlanResource, chart: Path) -> list[dict[str, Any]]:
    """Every object the release makes (hooks included), as Helm renders them on install."""
    inputs = resource.inputs
    return render(
        chart,
        release=known_text(inputs.get("name")) or resource.name,
        namespace=known_text(inputs.get("namespace")) or "default",
        values=plain(inputs.get("values") or {}),
        include_crds=not inputs.get("skipCrds"),
        include_hooks=True,
    )
