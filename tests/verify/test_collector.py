"""The collector off for a verify run, as it was after it (verify.collector)."""

from __future__ import annotations

import gc
import subprocess
import sys

from gpu_platform.verify.collector import collector_off


def test_the_collector_is_off_in_the_block_and_back_after_it() -> None:
    assert gc.isenabled()
    frozen = gc.get_freeze_count()
    with collector_off():
        assert not gc.isenabled()
        assert gc.get_freeze_count() >= frozen
    assert gc.isenabled()
    assert gc.get_freeze_count() >= frozen


def test_the_command_ends_with_its_exit_status_and_its_output_written() -> None:
    # The process ends with os._exit: what it wrote must have been flushed first.
    done = subprocess.run(
        [sys.executable, "-m", "gpu_platform.verify", "--config", "no-such-stack.yaml"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 2
    assert done.stderr == (
        "verify: error: no stack config at no-such-stack.yaml (give --stack or --config)\n"
    )
