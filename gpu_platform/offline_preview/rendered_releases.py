"""Helm v3 Releases rendered offline: the objects ``pulumi up`` will install, judged by the pack.

A ``kubernetes:helm.sh/v3:Release`` is one resource: under ``pulumi preview`` the pack sees its
chart, version and values, never what the chart will run (the provider installs it with Helm at
deploy time). Offline the chart is found and rendered as a Helm v4 ``Chart``'s is
(``kubernetes_components``, ``helm_charts``), with the release's values, ``valueYamlFiles``,
name and namespace, and, as ``helm install`` does, its hooks. The objects go to the pack as
the release's children, so every resource and stack policy judges them, and the policies that
read a release by its values (the device plugin's, dcgm-exporter's, the GPU Operator's) still
own the objects it rendered. They stay out of the plan: a real preview has no such resources.

This goes beyond a real preview, so each verdict on them is reported on the release, saying
which rendered object it is about (``attribute``); their enforcement is the policy's own
(docs/policies.md, "What is judged where"). A release whose chart cannot be had or rendered
gets the notice a v4 Chart gets, and is judged by its chart, version and values alone.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from .deadline import NO_DEADLINE, RunDeadline
from .engine import PreviewMocks, ProgramRun, RecordedResource
from .helm_charts import ChartStore
from .kubernetes_components import Context, Objects, _chart, build_one
from .policy_runner import Violation
from .user_mocks import UserMocks

RELEASE = "kubernetes:helm.sh/v3:Release"
RELEASE_KIND = "Helm v3 Release"
JUDGED_INSTEAD = (
    "the release is judged by its chart, version and values alone, as under a real preview"
)


def _release(inputs: dict[str, Any], name: str, ctx: Context) -> Objects:
    """A v3 Release's objects: its chart rendered as ``helm install`` renders it (hooks in), its
    ``postrender`` executable as a v4 Chart's ``postRenderer`` command."""
    postrender = inputs.get("postrender")
    if isinstance(postrender, str) and postrender:
        inputs = {**inputs, "postRenderer": {"command": postrender}}
    return _chart(inputs, name, ctx, hooks=True)


@dataclass(frozen=True)
class RenderedReleases:
    """What the releases of a run will install, and the notices of those not rendered."""

    objects: list[RecordedResource] = field(default_factory=list)
    notices: list[Violation] = field(default_factory=list)
    releases: dict[str, tuple[RecordedResource, RecordedResource]] = field(default_factory=dict)
    """Each rendered object's release and the object, by the object's URN."""

    def attribute(self, violations: list[Violation]) -> list[Violation]:
        """Verdicts on rendered objects reported on their release, saying so; others as they
        are."""
        out = []
        for violation in violations:
            found = self.releases.get(violation.urn or "")
            if found is None:
                out.append(violation)
                continue
            release, obj = found
            kind = obj.type.rsplit(":", 1)[-1]
            origin = (
                f"From the rendered {RELEASE_KIND} '{release.name}' ({kind} '{obj.name}', which "
                "`pulumi up` will install; a real preview does not show it): "
            )
            out.append(replace(violation, urn=release.urn, message=origin + violation.message))
        return out


def render_releases(
    run: ProgramRun,
    program_dir: Path,
    user_mocks: UserMocks | None = None,
    store: ChartStore | None = None,
    deadline: RunDeadline = NO_DEADLINE,
) -> RenderedReleases:
    """Every v3 Release of ``run`` rendered, as objects for the pack (not for the plan), within
    the run's ``deadline`` (each fetch and render bounded as a v4 Chart's)."""
    store = store or ChartStore.from_env()
    mocks = PreviewMocks(user_mocks)
    by_urn = {r.urn: r for r in run.resources}
    rendered = RenderedReleases()
    for release in run.resources:
        if release.type != RELEASE:
            continue
        made, notice = build_one(
            release,
            _release,
            program_dir=program_dir,
            by_urn=by_urn,
            store=store,
            mocks=mocks,
            what=RELEASE_KIND,
            instead=JUDGED_INSTEAD,
            deadline=deadline,
        )
        if notice is not None:
            rendered.notices.append(notice)
        rendered.objects.extend(made)
        rendered.releases.update((obj.urn, (release, obj)) for obj in made)
    return rendered
