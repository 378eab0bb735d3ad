"""A plan exported as what scanners read: ``manifests.yaml`` and ``azure.json`` (ARM)."""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from gpu_platform.offline_preview.helm_charts import ChartRenderError, ChartStore, ChartUnavailable

from .arm import ARM_TYPES, arm_resource, sdk_api_version, template
from .baseline import Finding
from .charts import release_chart, render_release
from .checkov import Exported
from .manifests import (
    CHART_TYPES,
    KUBERNETES_COMPONENTS,
    NotScanned,
    as_yaml_stream,
    chart_not_scanned,
    manifest,
    ordered,
)
from .plan import PlanResource

NOT_SCANNED = "NOT_SCANNED"
"""The check ID under which a resource the scan cannot see is reported (and baselined)."""
MANIFESTS_FILE = "manifests.yaml"
ARM_FILE = "azure.json"
FRAMEWORK_OF_FILE = {MANIFESTS_FILE: "kubernetes", ARM_FILE: "arm"}
# Kinds checkov has checks for (its pod checks; the AKS checks), so it must report on them.
_CHECKED_KINDS = frozenset(
    {"Pod", "Deployment", "StatefulSet", "DaemonSet", "ReplicaSet", "Job", "CronJob"}
)
_CHECKED_ARM_TYPES = frozenset(
    {
        "Microsoft.ContainerService/managedClusters",
        "Microsoft.ContainerService/managedClusters/agentPools",
    }
)


@dataclass
class Export:
    manifests: list[dict[str, Any]] = field(default_factory=list)
    arm_resources: list[dict[str, Any]] = field(default_factory=list)
    not_scanned: list[NotScanned] = field(default_factory=list)

    def coverage_findings(self) -> list[Finding]:
        """Each resource the scan cannot see, as a failure: accepted only with a reason."""
        return [
            Finding(NOT_SCANNED, f"{n.type}.{n.name}", n.reason, "coverage")
            for n in self.not_scanned
        ]

    def files(self) -> dict[str, str]:
        """File name -> content; a file only for a framework with something to scan."""
        files = {}
        if self.manifests:
            files[MANIFESTS_FILE] = as_yaml_stream(self.manifests)
        if self.arm_resources:
            text = json.dumps(template(self.arm_resources), indent=2, sort_keys=True)
            files[ARM_FILE] = text + "\n"
        return files

    def write(self, folder: Path) -> dict[str, Exported]:
        """Write the files into ``folder`` (earlier exports removed); framework -> what."""
        folder.mkdir(parents=True, exist_ok=True)
        for stale in FRAMEWORK_OF_FILE:
            (folder / stale).unlink(missing_ok=True)
        counts = {
            MANIFESTS_FILE: (
                len(self.manifests),
                any(m["kind"] in _CHECKED_KINDS for m in self.manifests),
            ),
            ARM_FILE: (
                len(self.arm_resources),
                any(r["type"] in _CHECKED_ARM_TYPES for r in self.arm_resources),
            ),
        }
        written = {}
        for name, text in self.files().items():
            (folder / name).write_text(text)
            written[FRAMEWORK_OF_FILE[name]] = Exported(folder / name, *counts[name])
        return written


def _release(resource: PlanResource, charts: ChartStore, base: Path) -> list[dict[str, Any]]:
    """A v3 Release's objects, rendered from its chart (``scan/charts.py``), or raise
    ``ChartUnavailable``."""
    try:
        objects = render_release(resource, release_chart(resource, charts, base))
    except ChartRenderError as err:
        raise ChartUnavailable(f"Helm failed to render it: {err}") from err
    return [ordered(obj) for obj in objects]


def export_plan(
    resources: list[PlanResource],
    api_version: Callable[[str], str] = sdk_api_version,
    *,
    charts: ChartStore | None = None,
    base: Path = Path(),
) -> Export:
    """Every custom resource of the plan as a manifest, an ARM resource, or not scanned.

    Components and providers hold no objects of their own and are left out, and so are the
    Kubernetes remote components the offline preview built (their objects are their children
    in the plan). A Helm v3 release is rendered from its chart (found through ``charts``,
    relative paths from ``base``). Listed as not scanned, with the reason: a remote component
    nothing built (another plugin's, or one the preview could not build), a release whose chart
    cannot be had, an azure-native type with no ARM mapping, any other cloud's resource.
    """
    charts = charts or ChartStore.from_env()
    parents = {r.parent for r in resources if r.parent}
    out = Export()
    for resource in resources:
        if resource.package == "pulumi" or not (resource.custom or resource.remote):
            continue
        if resource.remote and resource.urn and resource.urn in parents:
            continue  # built by the offline preview: its children carry the objects
        if resource.remote:
            reason = (
                "a remote component the offline preview could not build (its notice in the "
                "preview says why): its objects are made at deploy time"
                if resource.type in KUBERNETES_COMPONENTS
                else "a remote component: its plugin builds its objects at deploy time"
            )
            out.not_scanned.append(NotScanned(resource.type, resource.name, reason))
        elif resource.type in CHART_TYPES:
            try:
                out.manifests.extend(_release(resource, charts, base))
            except ChartUnavailable as err:
                out.not_scanned.append(chart_not_scanned(resource, str(err)))
        elif resource.package == "kubernetes":
            obj = manifest(resource)
            if isinstance(obj, NotScanned):
                out.not_scanned.append(obj)
            else:
                out.manifests.append(obj)
        elif resource.package == "azure-native" and resource.type in ARM_TYPES:
            out.arm_resources.append(arm_resource(resource, api_version))
        elif resource.package == "azure-native":
            reason = "no ARM mapping: add the type to scan/arm.py ARM_TYPES"
            out.not_scanned.append(NotScanned(resource.type, resource.name, reason))
        else:
            reason = (
                f"no exporter for the {resource.package} provider (the scan reads ARM, Kubernetes)"
            )
            out.not_scanned.append(NotScanned(resource.type, resource.name, reason))
    return out
