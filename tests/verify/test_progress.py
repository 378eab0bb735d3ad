"""The progress line of make verify: redrawn on a terminal, every tenth in logs, or off
(verify.progress)."""

from __future__ import annotations

import io

from gpu_platform.verify.progress import Progress, run_each


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_progress_redraws_one_line_on_a_terminal() -> None:
    term = _Terminal()
    progress = Progress(term, enabled=True)
    progress.update("driver", 1, 2, "node-a")
    progress.update("driver", 2, 2, "b")
    progress.done()
    assert term.getvalue() == (
        "\rverify: driver 1/2 node-a"
        "\rverify: driver 2/2 b     "  # padded over the longer previous line
        "\r" + " " * len("verify: driver 2/2 b     ") + "\r"
    )


def test_progress_in_logs_writes_every_tenth() -> None:
    log = io.StringIO()
    progress = Progress(log, enabled=True)
    for done in range(1, 101):
        progress.update("driver", done, 100, f"n{done}")
    lines = log.getvalue().splitlines()
    assert len(lines) == 11  # 0.0x and each tenth, and the last
    assert lines[-1] == "verify: driver 100/100 n100"


def test_progress_off_writes_nothing() -> None:
    quiet = _Terminal()
    Progress(quiet, enabled=False).update("driver", 1, 1, "x")
    assert quiet.getvalue() == ""


def test_run_each_gives_every_item_its_result_and_moves_the_line() -> None:
    out = io.StringIO()
    progress = Progress(out, enabled=True)
    finished = run_each(["a", "bb", "ccc"], len, 2, progress, phase="driver", node_of=str.upper)
    assert sorted(finished) == [("a", 1), ("bb", 2), ("ccc", 3)]
    assert "verify: driver 3/3" in out.getvalue()
    assert run_each([], len, 2, progress, phase="driver", node_of=str) == []
