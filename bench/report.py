"""The benchmark's results: targets, a plain-text table, and the JSON document."""

from __future__ import annotations

import json
import math
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from . import component_import, provider_start
from . import fleet as fleet_scale
from .component_import import ImportBudget
from .critical_path import PlanTiming, report_lines
from .fleet import FleetScale
from .provider_start import ProviderStart
from .scale import FLOORS, PHASES, CloudScale, ValidationScale
from .setup_time import CommandTime
from .startup import StartupResult
from .verify_fleet import FleetResult, render_fleet

REGISTER_OVER_FLOOR_TARGET = 1.3
PREVIEW_OVER_FLOOR_TARGET = 1.1
"""A stack's whole preview process against its plain and matched floors (issue 23)."""
PREVIEW_OVER_REPLAY_TARGET = 1.2
"""The dev preview against its replay floor: the same plan, none of our code (issue 34)."""
POLICIES_OVER_REGISTER_TARGET = 0.15
RESULTS_DIR = Path(__file__).resolve().parent / "results"


@dataclass
class BenchResult:
    meta: dict[str, Any]
    scale: list[CloudScale] = field(default_factory=list)
    validation: list[ValidationScale] = field(default_factory=list)
    startup: StartupResult | None = None
    setup: list[CommandTime] = field(default_factory=list)
    critical_paths: list[PlanTiming] = field(default_factory=list)
    component_imports: list[ImportBudget] = field(default_factory=list)
    provider_start: ProviderStart | None = None
    fleet: FleetScale | None = None
    verify_fleet: FleetResult | None = None

    def targets(self) -> list[dict[str, Any]]:
        """The issue's targets, judged at the largest size of each measured cloud."""
        rows = []
        for cloud in self.scale:
            if not cloud.points:
                continue
            largest = cloud.points[-1]
            for name, value, target in (
                ("register/floor", largest.register_over_floor, REGISTER_OVER_FLOOR_TARGET),
                ("register/matched", largest.register_over_matched, REGISTER_OVER_FLOOR_TARGET),
                (
                    "policies/register",
                    largest.policies_over_register,
                    POLICIES_OVER_REGISTER_TARGET,
                ),
            ):
                rows.append(
                    {
                        "cloud": cloud.cloud,
                        "size": largest.size.label,
                        "ratio": name,
                        "value": value,
                        "target": target,
                        "met": value <= target,
                    }
                )
        if self.startup is not None:
            for kind in self.startup.floor.floors:
                value = self.startup.floor.over(self.startup.preview, kind, "cpu")
                target = (
                    PREVIEW_OVER_REPLAY_TARGET if kind == "replay" else PREVIEW_OVER_FLOOR_TARGET
                )
                rows.append(
                    {
                        "cloud": self.startup.cloud or "existing",
                        "size": f"stack {self.startup.stack}",
                        "ratio": f"preview/{kind} floor",
                        "value": value,
                        "target": target,
                        "met": value <= target,
                    }
                )
        if self.fleet is not None and len(self.fleet.sizes) > 1:
            rows.append(
                {
                    "cloud": "existing",
                    "size": "fleet " + "/".join(str(run.resources) for run in self.fleet.sizes),
                    "ratio": "per resource, largest/smallest",
                    "value": self.fleet.flatness,
                    "target": fleet_scale.FLAT_TARGET,
                    "met": self.fleet.flatness <= fleet_scale.FLAT_TARGET,
                }
            )
        return rows

    def as_dict(self) -> dict[str, Any]:
        return {
            "meta": self.meta,
            "scale": [c.as_dict() for c in self.scale],
            "validation": [v.as_dict() for v in self.validation],
            "targets": self.targets(),
            "startup": self.startup.as_dict() if self.startup else None,
            "setup": [c.as_dict() for c in self.setup],
            "critical_path": [t.as_dict() for t in self.critical_paths],
            "component_imports": [b.as_dict() for b in self.component_imports],
            "provider_start": self.provider_start.as_dict() if self.provider_start else None,
            "fleet": self.fleet.as_dict() if self.fleet else None,
            "verify_fleet": self.verify_fleet.as_json() if self.verify_fleet else None,
        }


def _num(value: float, digits: int = 2) -> str:
    return "n/a" if math.isnan(value) else f"{value:.{digits}f}"


def _scale_lines(cloud: CloudScale) -> list[str]:
    if cloud.unavailable:
        return [f"{cloud.cloud}: skipped ({cloud.unavailable})"]
    head = (
        f"{'cloud':<9}{'size':>11}{'res':>6}{'runs':>5}{'validate':>10}{'register':>10}"
        f"{'floor':>8}{'matched':>9}{'policies':>10}{'reg/floor':>11}{'reg/match':>11}"
        f"{'pack/reg':>10}"
    )
    lines = [head]
    for p in cloud.points:
        per = {ph: _num(p.per_resource_ms(ph), 3) for ph in (*PHASES, *FLOORS)}
        lines.append(
            f"{p.cloud:<9}{p.size.label:>11}{p.resources:>6}{p.timings['register'].runs:>5}"
            f"{per['validate']:>10}{per['register']:>10}{per['floor']:>8}{per['matched']:>9}"
            f"{per['policies']:>10}{_num(p.register_over_floor):>10}×"
            f"{_num(p.register_over_matched):>10}×{_num(100 * p.policies_over_register, 1):>9}%"
        )
    if len(cloud.points) >= 2:
        for label, base in (("largest/smallest", 0), ("largest/previous", -2)):
            growth = ", ".join(f"{ph} {_num(cloud.growth(ph, base))}×" for ph in (*PHASES, *FLOORS))
            lines.append(
                f"  growth {label}: per resource {growth} (validate: per config item); "
                f"reg/match {_num(cloud.overhead_growth(base))}×"
            )
    return lines


def render_table(result: BenchResult) -> str:
    """The report printed to stdout."""
    lines = [
        f"gpu-platform benchmarks — {result.meta['date']} — {result.meta['cpus']} CPUs, "
        f"Python {result.meta['python']}",
    ]
    if result.scale:
        lines += [
            "",
            f"Scale: median {result.meta['clock']} time per resource in ms, GC "
            f"{result.meta['gc']} (res = registrations of our program; matched = the same SDK "
            "classes, bare)",
        ]
    for cloud in result.scale:
        lines.extend(_scale_lines(cloud))
    if result.validation:
        lines += ["", "Config validation alone, larger configs: CPU µs per config item"]
        for v in result.validation:
            points = ", ".join(
                f"{size.label} {_num(v.per_item_us(i), 1)}" for i, size in enumerate(v.sizes)
            )
            lines.append(f"  {v.cloud:<9}{points}; growth {_num(v.growth)}×")
    targets = result.targets()
    if targets:
        lines += ["", "Targets (scale: largest size; start-up: the stack)"]
    for t in targets:
        verdict = "met" if t["met"] else "NOT met"
        lines.append(
            f"  {t['cloud']:<9}{t['ratio']:<18}{_num(t['value'], 3):>7}  "
            f"target ≤ {t['target']}  {verdict}"
        )
    if result.startup is not None:
        s = result.startup
        sdks = ", ".join(s.cloud_sdks_loaded) or "none"
        cpu = f"{_num(s.preview.median('cpu'), 3)} s CPU"
        lines += [
            "",
            f"Start-up: stack {s.stack} (cloud {s.cloud}), median of "
            f"{s.preview.runs} processes, exit code {s.exit_code}",
            f"  import pulumi only     {_num(s.import_pulumi.median('wall'), 3)} s "
            f"({_num(s.import_pulumi.median('cpu'), 3)} s CPU)",
            f"  offline preview        {_num(s.preview.median('wall'), 3)} s ({cpu}); "
            f"{_num(s.preview_over_import_pulumi)}× import pulumi",
            *(
                f"  floor, {kind:<8}       {_num(t.median('wall'), 3)} s "
                f"({_num(t.median('cpu'), 3)} s CPU); preview "
                f"{_num(s.floor.over(s.preview, kind, 'cpu'))}× in CPU, "
                f"{_num(s.floor.over(s.preview, kind, 'wall'))}× in wall time"
                for kind, t in s.floor.floors.items()
            ),
            f"  (floors: the preview's {s.floor.modules} third-party modules imported, "
            f"{s.floor.registrations} registrations, none of our code but the preview's "
            f"collector and alias policies; exits as the preview does; ratios are medians of "
            f"the rounds' ratios; targets ≤ {PREVIEW_OVER_FLOOR_TARGET}×, replay ≤ "
            f"{PREVIEW_OVER_REPLAY_TARGET}×; the replay registered exactly the preview's plan: "
            f"{'checked' if s.floor.replay_checked else 'NOT checked'})",
            f"  module import time     {_num(s.import_total_s, 3)} s in the preview process",
            f"  cloud SDKs imported    {sdks}; only the chosen cloud's: "
            f"{'yes' if s.only_chosen_cloud_sdk else 'NO'}",
        ]
        if s.phases:
            lines.append(
                "  CPU by phase           "
                + ", ".join(f"{k.removesuffix('_s')} {_num(v, 3)} s" for k, v in s.phases.items())
            )
        for pkg, cost in sorted(s.imports.items(), key=lambda kv: -kv[1].self_s):
            lines.append(f"    {pkg:<22}{cost.modules:>5} modules {_num(cost.self_s, 3):>7} s")
    if result.fleet is not None:
        lines += ["", *fleet_scale.report_lines(result.fleet)]
    if result.setup:
        lines += [
            "",
            "Set-up and tests on fresh clones (budgets: make venv ≤ 30 s, then make test ≤ 90 s)",
        ]
        for c in result.setup:
            before, after = c.load
            lines.append(
                f"  {' '.join(c.command):<28}{_num(c.seconds, 1):>7} s wall"
                f"{_num(c.cpu_s, 1):>7} s CPU  load {_num(before, 1)}→{_num(after, 1)}  "
                f"exit {c.exit_code}  {c.note}"
            )
    if result.component_imports:
        lines += ["", *component_import.report_lines(result.component_imports)]
    if result.provider_start is not None:
        lines += ["", *provider_start.report_lines(result.provider_start)]
    if result.critical_paths:
        lines += ["", *report_lines(result.critical_paths)]
    lines.append(f"\nTotal bench time {_num(result.meta.get('duration_s', float('nan')), 1)} s")
    if result.verify_fleet is not None and result.verify_fleet.runs:
        lines += ["", *render_fleet(result.verify_fleet)]
    return "\n".join(lines)


def _finite(value: Any) -> Any:
    """NaN (a ratio with nothing to divide by) becomes null: strict JSON has no NaN."""
    if isinstance(value, float) and math.isnan(value):
        return None
    if isinstance(value, dict):
        return {k: _finite(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_finite(v) for v in value]
    return value


def write_json(result: BenchResult, directory: Path = RESULTS_DIR) -> Path:
    """``bench-<UTC time>.json`` plus ``latest.json`` in ``directory``."""
    directory.mkdir(parents=True, exist_ok=True)
    stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%SZ")
    text = json.dumps(_finite(result.as_dict()), indent=2, allow_nan=False)
    path = directory / f"bench-{stamp}.json"
    path.write_text(text)
    (directory / "latest.json").write_text(text)
    return path
