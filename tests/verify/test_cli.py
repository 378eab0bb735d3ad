"""``python -m gpu_platform.verify`` (make verify): the stack, the options, errors as one line
and exit 2 (verify.cli)."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from gpu_platform.verify.cli import EXIT_ERROR, UsageError, exec_readers, load_stack, main, parser
from gpu_platform.verify.deadline import Deadline

ROOT = Path(__file__).resolve().parents[2]


def test_options_and_their_defaults() -> None:
    args = parser().parse_args([])
    assert (args.stack, args.format, args.parallel, args.skip_driver) == ("dev", "table", 8, False)
    with pytest.raises(SystemExit):
        parser().parse_args(["--parallel", "0"])


def test_the_stack_file_is_read_like_pulumi_reads_it(tmp_path: Path) -> None:
    platform = load_stack(ROOT, "x", ROOT / "tests" / "data" / "verify" / "Pulumi.verify.yaml")
    assert set(platform.pools) == {"a100", "t4"}
    with pytest.raises(UsageError, match="no stack config at"):
        load_stack(tmp_path, "nope", None)


def test_errors_are_one_line_and_exit_2(tmp_path: Path) -> None:
    err = io.StringIO()
    code = main(
        [
            "--config",
            str(ROOT / "tests/data/verify/Pulumi.verify.yaml"),
            "--kubeconfig",
            str(tmp_path / "none"),
        ],
        stdout=io.StringIO(),
        stderr=err,
    )
    assert code == EXIT_ERROR
    assert err.getvalue().startswith("verify: error: kubeconfig: no file at")
    assert err.getvalue().count("\n") == 1


def test_the_command_is_named_as_installed(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as done:
        parser().parse_args(["--help"])
    assert done.value.code == 0
    assert capsys.readouterr().out.startswith("usage: gpu-platform-verify ")


def test_every_exec_reader_is_held_to_the_runs_deadline() -> None:
    """``nvidia-smi`` and the seed checks' commands (``nvidia-smi -L``, the MPS server's) alike:
    none starts its own, fresh deadline."""
    deadline = Deadline(30.0, 5.0)
    read_driver, run_in_pod = exec_readers(object(), deadline, skip=False)  # type: ignore[arg-type]
    assert read_driver is not None and run_in_pod is not None
    assert read_driver.deadline is deadline
    assert run_in_pod(("nvidia-smi", "-L")).deadline is deadline
    assert exec_readers(object(), deadline, skip=True) == (None, None)  # type: ignore[arg-type]
