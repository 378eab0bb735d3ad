"""``bench.component_import``: the floor is the component's SDK modules, and nothing of ours.

No timing is asserted: one pair of processes, then the shape of what is reported.
"""

from __future__ import annotations

import os
import sys

import pytest

from bench.component_import import (
    BUDGET,
    STATEMENTS,
    ImportBudget,
    floor_statement,
    loaded_by,
    measure_import_budget,
    own_import_times,
    report_lines,
)
from bench.timing import Timing
from tests.bench.test_loaded_modules import lazy_stub


def test_own_import_times_sum_our_modules_only() -> None:
    stderr = "\n".join(
        [
            "import time: self [us] | cumulative | imported package",
            "import time:      2000 |       2000 |   gpu_platform.settings.base",
            "import time:      1000 |       3000 | gpu_platform.settings",
            "import time:       500 |        500 | gpu_facts.models",
            "import time:     90000 |      90000 | pulumi_kubernetes.core.v1._inputs",
        ]
    )
    total, slowest = own_import_times(stderr)
    assert total == pytest.approx(0.0035)
    assert list(slowest) == [
        "gpu_platform.settings.base",
        "gpu_platform.settings",
        "gpu_facts.models",
    ]


def test_floor_statement_imports_the_modules_and_runs_lazy_ones() -> None:
    saved = sys.modules.pop("json.tool", None)
    sys.modules["json.tool"] = lazy_stub("json.tool")
    try:
        exec(compile(floor_statement(["yaml.scanner", "json.tool"]), "<floor>", "exec"), {})
        assert "yaml.scanner" in sys.modules
        assert type(sys.modules["json.tool"]).__name__ != "_LazyModule", "it ran"
    finally:
        sys.modules.pop("json.tool", None)
        if saved is not None:
            sys.modules["json.tool"] = saved


def test_the_verdict_follows_the_cpu_ratio_and_the_exit_codes() -> None:
    budget = ImportBudget("import x", ["x"], [], [], Timing([1.0], [1.1]), Timing([1.0], [1.0]))
    assert budget.over_floor("cpu") == pytest.approx(1.1)
    assert budget.paired_over_floor("cpu") == pytest.approx(1.1)
    assert budget.met
    budget.component.cpu_s[0] = 1.0 * BUDGET + 0.01
    assert not budget.met
    budget.component.cpu_s[0] = 1.0
    budget.exit_codes = (1, 0)
    assert not budget.met


def test_the_paired_ratio_cancels_drift_between_pairs() -> None:
    # The machine got busier for the second pair, and one pair was disturbed.
    component = Timing([0.0] * 3, [0.5, 1.0, 1.1])
    floor = Timing([0.0] * 3, [0.5, 1.0, 0.5])
    budget = ImportBudget("import x", ["x"], [], [], component, floor)
    assert budget.paired_over_floor("cpu") == pytest.approx(1.0)
    assert budget.over_floor("cpu") == pytest.approx(2.0)
    assert budget.met


def test_one_pair_reports_our_own_import_against_its_floor() -> None:
    # A module of ours that needs no SDK: its floor is empty, the processes are cheap.
    result = measure_import_budget("import gpu_facts.models", runs=1)
    doc = result.as_dict()
    assert doc["exit_codes"] == [0, 0]
    assert doc["floor_modules"] == 0 and doc["floor_missing"] == doc["floor_extra"] == []
    for side in ("component", "floor"):
        assert len(doc[side]["cpu_s"]) == len(doc[side]["wall_s"]) == 1
        assert doc[side]["median_wall_s"] > 0
    assert doc["over_floor_cpu"] > 0 and doc["paired_over_floor_cpu"] > 0
    assert len(doc["ours_on_floor"]["cpu_s"]) == 1 and doc["ours_on_floor"]["median_cpu_s"] > 0
    assert doc["own_import_s"] > 0
    assert doc["own_modules"] and all(m.startswith("gpu_facts") for m in doc["own_modules"])
    assert len(doc["load_before_after"]) == 2
    assert "ratio" in "\n".join(report_lines([result]))


@pytest.mark.slow
def test_the_floor_loads_exactly_the_sdk_modules_of_the_aks_component() -> None:
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTHON")}
    modules = loaded_by(sys.executable, STATEMENTS[0], env)
    packages = {m.partition(".")[0] for m in modules}
    assert {"pulumi", "pulumi_azure_native", "pydantic"} <= packages
    assert "pulumi_alicloud" not in packages
    assert not {"gpu_platform", "gpu_facts", "components"} & packages
    assert "pulumi_azure_native.containerservice.agent_pool" in modules
    assert sorted(loaded_by(sys.executable, floor_statement(modules), env)) == sorted(modules)
