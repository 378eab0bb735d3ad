"""A Kubernetes remote component (Helm v4 Chart, yaml/v2 ConfigFile or ConfigGroup) as a
program registers it, built on its own by the offline preview: the bounds tests judge what the
engine makes of hostile charts and manifests without running a program each time."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from gpu_platform.offline_preview.deadline import NO_DEADLINE, RunDeadline
from gpu_platform.offline_preview.engine import ProgramRun, RecordedResource
from gpu_platform.offline_preview.helm_charts import ChartStore
from gpu_platform.offline_preview.kubernetes_components import build_components
from gpu_platform.offline_preview.kubernetes_types import CHART, CONFIG_FILE, CONFIG_GROUP
from gpu_platform.offline_preview.policy_runner import Violation

KINDS = {"chart": CHART, "file": CONFIG_FILE, "group": CONFIG_GROUP}


def component(kind: str, inputs: dict[str, Any], name: str = "c") -> RecordedResource:
    typ = KINDS[kind]
    return RecordedResource(
        urn=f"urn:pulumi:test::team::{typ}::{name}",
        type=typ,
        name=name,
        custom=False,
        parent=None,
        inputs=inputs,
        remote=True,
    )


def build_one(
    kind: str,
    inputs: dict[str, Any],
    program_dir: Path,
    *,
    deadline: RunDeadline = NO_DEADLINE,
    network: bool = True,
) -> tuple[ProgramRun, list[Violation]]:
    """The component built as ``build_components`` builds it after a program ran."""
    run = ProgramRun("team", "test", [component(kind, inputs)], {})
    store = ChartStore((), program_dir / ".chart-cache", network=network)
    return build_components(run, program_dir, None, store, deadline)


def one_notice(notices: list[Violation]) -> tuple[str, str]:
    """(level, message) of the one notice a build gave."""
    assert len(notices) == 1, notices
    return notices[0].enforcement, notices[0].message
