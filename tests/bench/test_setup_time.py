"""`python -m bench --setup`'s pieces, without timing anything (no timing is asserted)."""

from __future__ import annotations

import json
import os
from pathlib import Path

from bench.report import BenchResult, render_table, write_json
from bench.setup_time import CommandTime, path_without_uv, run_timed


def test_path_without_uv_drops_only_folders_holding_uv(tmp_path: Path) -> None:
    with_uv, without = tmp_path / "a", tmp_path / "b"
    for folder in (with_uv, without):
        folder.mkdir()
    (with_uv / "uv").write_text("#!/bin/sh\n")
    (with_uv / "uv").chmod(0o755)
    path = os.pathsep.join([str(with_uv), str(without), ""])
    assert path_without_uv(path) == str(without)


def test_run_timed_keeps_exit_code_load_and_last_line(tmp_path: Path) -> None:
    done = run_timed(["sh", "-c", "echo first; echo last; exit 3"], tmp_path, dict(os.environ))
    assert done.exit_code == 3
    assert done.note == "last"
    assert len(done.load) == 2
    assert done.seconds >= 0 and done.cpu_s >= 0


def test_setup_rows_reach_the_table_and_the_json(tmp_path: Path) -> None:
    rows = [
        CommandTime(["make", "venv"], 12.5, 0, "uv not on the PATH", 6.0, (1.0, 1.5)),
        CommandTime(["make", "test"], 80.0, 0, "fresh clone", 150.0, (1.5, 2.0)),
    ]
    meta = {"date": "today", "cpus": 2, "python": "3.11", "clock": "cpu", "gc": "on"}
    result = BenchResult(meta=meta, setup=rows)
    table = render_table(result)
    assert "make venv" in table and "make test" in table
    assert "Scale:" not in table and "Targets" not in table, "no scale rows, no scale headers"
    doc = json.loads(write_json(result, tmp_path).read_text())
    assert [r["command"] for r in doc["setup"]] == [["make", "venv"], ["make", "test"]]
    assert set(doc["setup"][0]) == {
        "command",
        "seconds",
        "cpu_s",
        "exit_code",
        "load_before_after",
        "note",
    }
