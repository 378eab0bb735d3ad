"""The preview's floor processes: the same third-party imports, as many registrations, none of
our code; an SDK class named like its module stays the class."""

from __future__ import annotations

import math
import os
import subprocess
import sys
from pathlib import Path

import pytest

from bench.preview_floor import PreviewFloor, floor_command, probe_file
from bench.timing import Timing

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.slow
def test_a_floor_imports_the_modules_and_registers_without_our_code() -> None:
    """The plain floor (the matched one runs in the bench harness's test, on existing)."""
    found = {
        # The module pulumi_kubernetes.core.v1.Namespace holds the class of the same name,
        # which its package exports: importing the module by name must not shadow the class.
        "modules": ["json", "pulumi_kubernetes.core.v1", "pulumi_kubernetes.core.v1.Namespace"],
        "registrations": [
            ["kubernetes:core/v1:Namespace", "a", True],
            ["gpu-platform:index:Thing", "b", False],
            ["kubernetes:core/v1:Namespace", "c", True],
        ],
    }
    path = probe_file(found)
    try:
        command = floor_command(sys.executable, path, "plain")
        command[1:1] = ["-X", "importtime"]
        env = {k: v for k, v in os.environ.items() if not k.startswith("PYTHON")}
        done = subprocess.run(
            command, cwd=ROOT, env=env, capture_output=True, text=True, check=False, timeout=120
        )
    finally:
        path.unlink()
    assert done.returncode == 0, done.stderr[-2000:]
    imported = {line.rsplit("|", 1)[-1].strip() for line in done.stderr.splitlines()}
    # Our engine, the policies the preview runs under (the collector's, azure-native's
    # aliases) and the floors' registrations only: no settings, plan, components or pack.
    assert {
        "gpu_platform.offline_preview.engine",
        "gpu_platform.offline_preview.collector",
        "gpu_platform.components.aks.azure_aliases",
    } <= imported
    imported -= {"gpu_platform.components.aks", "gpu_platform.components.aks.azure_aliases"}
    layers = ("settings", "plan", "stack_config", "verify", "components.")
    ours = (*(f"gpu_platform.{layer}" for layer in layers), "gpu_policies", "gpu_policy_support")
    assert not {name for name in imported if name.startswith(ours)}


def test_ratios_are_the_preview_over_each_floor() -> None:
    preview = Timing(wall_s=[2.0], cpu_s=[1.5])
    floor = PreviewFloor(
        modules=10,
        registrations=3,
        floors={"plain": Timing(wall_s=[1.0], cpu_s=[1.0]), "matched": Timing()},
    )
    assert floor.over(preview, "plain", "cpu") == 1.5
    assert floor.over(preview, "plain", "wall") == 2.0
    doc = floor.as_dict(preview)
    assert doc["preview_over_floor"]["plain"] == {"cpu": 1.5, "wall": 2.0}
    assert math.isnan(doc["preview_over_floor"]["matched"]["cpu"])  # no runs, no ratio
