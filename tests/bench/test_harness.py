"""The benchmark harness at its smallest size: valid synthetic configs, floors, JSON shape.

No timing is asserted: only that every measurement exists and the report has its structure.
"""

from __future__ import annotations

import importlib
import json
import math
from pathlib import Path

import pytest

import bench.cli
from bench.cli import main
from bench.component_import import STATEMENTS, ImportBudget
from bench.critical_path import stack_timings
from bench.floors import Registration, matched_floor, plain_floor, sdk_class
from bench.provider_start import ProviderStart
from bench.scale import measure_validation
from bench.startup import parse_importtime
from bench.synthetic import SIZES, BenchCloud, Size, synthetic_raw
from bench.timing import Timing
from gpu_platform.offline_preview import run_callable
from gpu_platform.stack_config import load_platform
from tests.conftest import stack_preview


@pytest.mark.parametrize("cloud", ["existing", "aks", "ack"])
@pytest.mark.parametrize("size", SIZES, ids=lambda s: s.label)
def test_synthetic_platforms_are_valid_and_sized(cloud: BenchCloud, size: Size) -> None:
    platform = load_platform(synthetic_raw(cloud, size))
    assert len(platform.pools) == size.pools
    assert len(platform.settings.workloads) == size.namespaces
    assert platform.warnings == []
    if size.pools >= 4:
        # Every pool shape is present: whole GPUs, MIG (AKS) or ACK's MPS, time-slicing.
        sharing = {p.sharing for p in platform.pools.values()}
        migs = {p.mig_profile is not None for p in platform.pools.values()}
        if cloud == "ack":
            assert sharing == {None, "ackMps", "timeSlicing"}
            assert migs == {False}
        else:
            assert sharing == {None, "timeSlicing"}
            assert migs == {False, True}


def test_synthetic_rejects_an_empty_platform() -> None:
    with pytest.raises(ValueError, match="at least one pool"):
        synthetic_raw("existing", Size(0, 2))


def test_plain_floor_registers_the_count_asked() -> None:
    run = run_callable(lambda: plain_floor(7))
    assert len(run.resources) == 7
    assert {r.type for r in run.resources} == {
        "kubernetes:core/v1:Namespace",
        "kubernetes:core/v1:ConfigMap",
    }


def test_matched_floor_replays_types_with_sdk_classes() -> None:
    # The registry knows the SDKs imported so far; in the bench our own run imported them.
    importlib.import_module("pulumi_azure_native")
    replay = [
        Registration("gpu-platform:index:GpuPlatform", "p", custom=False),
        Registration("pulumi:providers:kubernetes", "k", custom=True),
        Registration("azure-native:containerservice:AgentPool", "pool", custom=True),
        Registration("kubernetes:core/v1:Namespace", "ns", custom=True),
        Registration("example:unknown:Thing", "other", custom=True),
    ]
    run = run_callable(lambda: matched_floor(replay))
    types = sorted(r.type for r in run.resources)
    assert types == sorted(
        [
            "gpu-platform:index:GpuPlatform",
            "pulumi:providers:kubernetes",
            "azure-native:containerservice:AgentPool",
            "kubernetes:core/v1:Namespace",
            "kubernetes:core/v1:ConfigMap",  # stands in for the type no SDK claims
        ]
    )
    pool = next(r for r in run.resources if r.type.endswith("AgentPool"))
    # Required arguments were filled with the placeholder, not left out.
    assert pool.inputs["resourceGroupName"] == "floor"
    # As our components create it: none of azure-native's API-version aliases.
    assert pool.aliases == []
    assert sdk_class("example:unknown:Thing") is None


def test_parse_importtime_groups_by_top_level_package() -> None:
    stderr = "\n".join(
        [
            "import time: self [us] | cumulative | imported package",
            "import time:       120 |        120 |   pulumi_azure_native._utilities",
            "import time:       300 |        420 | pulumi_azure_native",
            "import time:        50 |         50 | yaml",
            "some other line",
        ]
    )
    costs, total = parse_importtime(stderr)
    assert costs["pulumi_azure_native"].modules == 2
    assert costs["pulumi_azure_native"].self_s == pytest.approx(420e-6)
    assert costs["yaml"].modules == 1
    assert total == pytest.approx(470e-6)


@pytest.mark.slow
def test_bench_smallest_size_writes_the_report(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    # Start-up of the existing stack: the same four processes as dev's, at half the CPU (no cloud
    # SDK, fewer resources); `make bench` measures dev.
    # The package's budgets have their own tests (test_component_import.py and
    # test_provider_start.py) and one below with their measurements faked.
    argv = ["--sizes", "1", "--repeats", "1", "--startup-runs", "1", "--stack", "existing"]
    argv += ["--no-package", "--verify-sizes"]  # make verify's fleet: test_verify_fleet.py
    argv.append("--no-fleet")  # the team program's fleet: test_fleet.py
    # The critical path reads dev's and prod's plans: the ones this test process may already
    # hold (tests.conftest.stack_preview) rather than two more previews.
    monkeypatch.setattr(bench.cli, "stack_timings", lambda: stack_timings(preview_of=stack_preview))
    code = main([*argv, "--out", str(tmp_path)])
    assert code == 0
    doc = json.loads((tmp_path / "latest.json").read_text())
    assert set(doc) == {
        "meta",
        "scale",
        "validation",
        "targets",
        "startup",
        "setup",
        "critical_path",
        "component_imports",
        "provider_start",
        "fleet",
        "verify_fleet",
    }
    assert doc["component_imports"] == [] and doc["provider_start"] is None
    assert doc["verify_fleet"] is None
    assert [t["stack"] for t in doc["critical_path"]] == ["dev", "prod"]
    for timing in doc["critical_path"]:
        assert timing["at_floor"] is True
        assert timing["critical_minutes"] == timing["unavoidable_minutes"]
    assert doc["validation"] == [], "the validation stress runs only with every size"
    assert doc["meta"]["sizes"] == ["1p/2ns"]
    assert [c["cloud"] for c in doc["scale"]] == ["existing", "aks"]
    existing = doc["scale"][0]
    assert existing["unavailable"] is None
    (point,) = existing["points"]
    assert point["resources"] >= 3
    assert point["floor_resources"] == point["resources"]
    assert set(point["timings"]) == {"validate", "register", "floor", "matched", "policies"}
    for timing in point["timings"].values():
        assert len(timing["cpu_s"]) == len(timing["wall_s"]) == 1
        assert timing["median_wall_s"] > 0
    for key in ("register_over_floor", "register_over_matched", "policies_over_register"):
        assert math.isfinite(point[key]) and point[key] > 0, key
    assert {t["ratio"] for t in doc["targets"]} >= {"register/floor", "policies/register"}
    startup = doc["startup"]
    assert startup["stack"] == "existing"
    assert startup["exit_code"] in (0, 1), "the preview process ran (1: mandatory violations)"
    assert startup["cloud_sdks_loaded"] == [], "an existing cluster needs no cloud SDK"
    assert isinstance(startup["only_chosen_cloud_sdk"], bool)
    assert "pulumi" in startup["imports"]
    floor = startup["floor"]
    assert floor["registrations"] >= 3 and floor["modules"] > 100
    assert set(floor["floors"]) == {"plain", "matched", "replay"}
    assert floor["replay_checked"] is True, "the replay registered exactly the preview's plan"
    for kind, timing in floor["floors"].items():
        assert len(timing["cpu_s"]) == 1 and timing["median_cpu_s"] > 0, kind
        assert floor["preview_over_floor"][kind]["cpu"] > 0, kind
    assert {t["ratio"] for t in doc["targets"]} >= {
        "preview/plain floor",
        "preview/matched floor",
        "preview/replay floor",
    }
    assert set(startup["phases"]) == {
        "import_pulumi_s",
        "import_offline_preview_s",
        "program_and_pack_imports_s",
        "run_and_pack_s",
    }
    assert doc["setup"] == []
    out = capsys.readouterr().out
    assert "reg/floor" in out
    assert "Start-up" in out
    assert "critical path" in out


def test_package_only_measures_the_package_budgets_alone(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    runs: list[int] = []

    def imports(count: int) -> list[ImportBudget]:
        runs.append(count)
        return [
            ImportBudget(s, ["pulumi"], [], [], Timing([0.6], [0.5]), Timing([0.5], [0.5]))
            for s in STATEMENTS
        ]

    def provider(count: int) -> ProviderStart:
        runs.append(count)
        return ProviderStart(Timing([1.2], [1.1]), True, 21)

    monkeypatch.setattr(bench.cli, "measure_component_imports", imports)
    monkeypatch.setattr(bench.cli, "measure_provider_start", provider)
    assert main(["--package-only", "--package-runs", "3", "--out", str(tmp_path)]) == 0
    assert runs == [3, 3]
    doc = json.loads((tmp_path / "latest.json").read_text())
    assert doc["scale"] == [] and doc["startup"] is None and doc["critical_path"] == []
    assert [b["statement"] for b in doc["component_imports"]] == list(STATEMENTS)
    assert doc["component_imports"][0]["over_floor_cpu"] == pytest.approx(1.0)
    assert doc["provider_start"]["met"] is True
    out = capsys.readouterr().out
    assert "Importing one AKS component" in out
    assert "GetSchema" in out


def test_validation_stress_reports_per_item_times() -> None:
    result = measure_validation("existing", [Size(1, 2), Size(4, 8)], repeats=1)
    doc = result.as_dict()
    assert [p["size"] for p in doc["points"]] == ["1p/2ns", "4p/8ns"]
    assert all(p["per_item_us"] > 0 for p in doc["points"])
    assert doc["growth_largest_over_smallest"] > 0


def test_bench_refuses_more_sizes_than_it_has(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--sizes", "9", "--no-startup"]) == 2
    assert "--sizes is at most" in capsys.readouterr().err


def test_bench_refuses_a_missing_stack_before_measuring(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["--stack", "no-such-stack", "--out", str(tmp_path)]) == 2
    assert "no stack file Pulumi.no-such-stack.yaml; stacks: " in capsys.readouterr().err
    assert list(tmp_path.iterdir()) == []
