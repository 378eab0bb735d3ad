"""The newcomer's loop: `make format` fixes what `make lint` refuses, and the pre-commit hooks
run what `make lint` runs, locally, with the project's own ruff."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[2]


def recipe(target: str) -> list[str]:
    """The commands of a Makefile target, ``$(VENV)`` spelt out."""
    lines = (ROOT / "Makefile").read_text().splitlines()
    start = next(i for i, line in enumerate(lines) if re.match(rf"^{target}:", line))
    commands = []
    for line in lines[start + 1 :]:
        if not line.startswith("\t"):
            break
        commands.append(line.strip().replace("$(VENV)", ".venv"))
    return commands


def test_make_format_rewrites_with_the_tools_make_lint_checks_with() -> None:
    assert recipe("lint") == [".venv/bin/ruff check .", ".venv/bin/ruff format --check ."]
    assert recipe("format") == [".venv/bin/ruff format .", ".venv/bin/ruff check --fix ."]


def test_pre_commit_runs_make_lint_locally() -> None:
    config = yaml.safe_load((ROOT / ".pre-commit-config.yaml").read_text())
    assert [repo["repo"] for repo in config["repos"]] == ["local"], "nothing from the network"
    hooks = config["repos"][0]["hooks"]
    assert all(hook["language"] == "system" for hook in hooks)
    entries = [hook["entry"].replace(" --force-exclude", "") for hook in hooks]
    # The same commands as `make lint`, on the files pre-commit hands them instead of ".".
    assert entries == [command.removesuffix(" .") for command in recipe("lint")]


def test_the_hooks_pass_on_a_clean_file_and_fail_on_a_bad_one(tmp_path: Path) -> None:
    good = tmp_path / "good.py"
    good.write_text('"""A module."""\n\nVALUE = 1\n')
    bad = tmp_path / "bad.py"
    bad.write_text("import os\nx=1\n")
    config = yaml.safe_load((ROOT / ".pre-commit-config.yaml").read_text())
    for hook in config["repos"][0]["hooks"]:
        command = hook["entry"].split()
        for path, passes in ((good, True), (bad, False)):
            done = subprocess.run([*command, str(path)], cwd=ROOT, capture_output=True, check=False)
            assert (done.returncode == 0) is passes, (hook["id"], path.name)


def test_ci_runs_the_type_check_that_make_test_leaves_out() -> None:
    """`make test` deselects the type check (its budget on two cores cannot spare ~30 s of CPU);
    `make typecheck` runs exactly that test, and CI runs both."""
    guard = "tests/unit/test_typecheck_guard.py"
    assert recipe("typecheck") == [f"$(PY) -m pytest {guard} -p no:xdist -m typecheck"]
    assert recipe("tests") == ['$(PYTEST) -m "not typecheck"']
    assert recipe("unit") == ['$(PYTEST) -m "not slow and not typecheck"']
    ci = (ROOT / ".ci" / "run").read_text().splitlines()
    steps = [line.split()[1] for line in ci if line.startswith("make ")]
    assert steps == ["dist-check", "typecheck", "bench-check", "test"]


@pytest.mark.slow
def test_ci_runs_the_bench_harness_tests_that_make_test_skips() -> None:
    """The benchmark harness's tests run whole previews and fleets in processes of their own:
    `make bench-check` runs them (CI runs it), and every other run skips them, saying so."""
    assert recipe("bench-check") == ["$(PYTEST) tests/bench --bench-check"]
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "tests/bench", "-p", "no:xdist", "-q", "-rs"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stdout[-2000:]
    reasons = [line for line in done.stdout.splitlines() if line.startswith("SKIPPED")]
    assert reasons and all(
        line.endswith(": tests the benchmark harness: run by make bench-check") for line in reasons
    )
    assert " passed" not in done.stdout and " failed" not in done.stdout
