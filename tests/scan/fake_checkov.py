"""A stand-in for the checkov executable: prints a recorded report, exits as checkov does.

The suite never installs checkov (``make scan`` does, into .venv-scan); this script prints
what checkov 3.3.30 printed for ``tests/scan/program`` (``data/checkov-program.json``,
code blocks trimmed), so the command line, the exit codes and the parsing are exercised.
"""

from __future__ import annotations

import sys
from pathlib import Path

DATA = Path(__file__).resolve().parent / "data"


def write(folder: Path, report: str = "checkov-program.json", exit_code: int = 1) -> Path:
    """An executable in ``folder`` that checks its arguments and prints ``report``."""
    script = folder / "checkov"
    script.write_text(
        f"#!{sys.executable}\n"
        "import sys\n"
        "args = sys.argv[1:]\n"
        "assert args[args.index('--framework') + 1:][:2] == ['kubernetes', 'arm'], args\n"
        "assert '--skip-download' in args and args[args.index('--output') + 1] == 'json', args\n"
        f"sys.stdout.write(open({str(DATA / report)!r}).read())\n"
        f"sys.exit({exit_code})\n"
    )
    script.chmod(0o755)
    return script
