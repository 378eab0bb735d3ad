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

A release of gpu-platform's own components (``OWN_COMPONENTS``: the device plugin, the
metrics exporter, AMD's GPU Operator, cert-manager, ACK's charts) is rendered only from a chart
at hand (``$GPU_PLATFORM_CHARTS``, the cache), never pulled, and without a notice when there is
none: the pack's release policies judge its values, and the tests render it from the reference
charts. So ``make preview STACK=dev`` stays offline, fast and clean; a team's own releases are
found as v4 Charts are, pulled when needed, with the notice when not had. A chart of ours that
is had but does not render still gets its mandatory notice.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from .deadline import NO_DEADLINE, RunDeadline
from .engine import PreviewMocks, ProgramRun, RecordedResource
from .helm_charts import ChartStore
from .kubernetes_components import Context, Objects, build_one, chart_objects
from .policy_runner import Violation
from .user_mocks import UserMocks

RELEASE = "kubernetes:helm.sh/v3:Release"
OWN_COMPONENTS = "gpu-platform:"
"""The type tokens of gpu-platform's components (``components.type_tokens.PACKAGE``; the offline
preview does not import the components, ``tests/preview/test_rendered_releases.py`` holds the
two together)."""
RELEASE_KIND = "Helm v3 Release"
JUDGED_INSTEAD = (
    "the release is judged by its chart, version and values alone, as under a real preview"
)
UP_FAILS = (
    "`pulumi up` fails on it (a real preview only loads a v3 Release's chart: Helm renders it "
    "when it installs the release)"
)
"""Who fails on a release whose chart is had but does not render (pulumi-kubernetes'
``helmReleaseProvider.Check`` loads the chart; ``Create`` runs ``helm install``)."""


def _release(inputs: dict[str, Any], name: str, ctx: Context) -> Objects:
    """A v3 Release's objects: its chart rendered as ``helm install`` renders it (hooks in), its
    ``postrender`` executable as a v4 Chart's ``postRenderer`` command."""
    postrender = inputs.get("postrender")
    if isinstance(postrender, str) and postrender:
        inputs = {**inputs, "postRenderer": {"command": postrender}}
    return chart_objects(inputs, name, ctx, hooks=True)


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


def of_our_components(release: RecordedResource, by_urn: dict[str, RecordedResource]) -> bool:
    """Whether ``release`` belongs to one of gpu-platform's components (a parent, however far
    up)."""
    parent = by_urn.get(release.parent or "")
    while parent is not None:
        if parent.type.startswith(OWN_COMPONENTS):
            return True
        parent = by_urn.get(parent.parent or "")
    return False


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
    at_hand = replace(store, network=False)  # for our components' releases (module docstring)
    mocks = PreviewMocks(user_mocks)
    by_urn = {r.urn: r for r in run.resources}
    rendered = RenderedReleases()
    for release in run.resources:
        if release.type != RELEASE:
            continue
        ours = of_our_components(release, by_urn)
        made, notice = build_one(
            release,
            _release,
            program_dir=program_dir,
            by_urn=by_urn,
            store=at_hand if ours else store,
            mocks=mocks,
            what=RELEASE_KIND,
            instead=JUDGED_INSTEAD,
            deadline=deadline,
            fails=UP_FAILS,
        )
        if notice is not None and not (ours and notice.enforcement == "advisory"):
            rendered.notices.append(notice)
        rendered.objects.extend(made)
        rendered.releases.update((obj.urn, (release, obj)) for obj in made)
    return rendered
