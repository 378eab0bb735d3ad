"""Team programs that misbehave, and folders that are no Pulumi Python program: each with the
exit status and the message the preview must give. In-process where that proves the same
(``main`` is the command); the guards that need a process of their own run as one (slow)."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import pytest

from gpu_platform.offline_preview.cli import (
    EXIT_CONFIG,
    EXIT_INTERRUPTED,
    EXIT_MANDATORY,
    EXIT_OK,
    EXIT_PROGRAM,
    main,
)

from .processes import running

ROOT = Path(__file__).resolve().parents[2]
SITE_PACKAGES = next(p for p in sys.path if p.endswith("site-packages"))
PROJECT = "name: team\nruntime: python\n"
DECLARES = "import pulumi\npulumi.export('answer', 42)\n"


@dataclass(frozen=True)
class Program:
    name: str
    main: str | None
    """``__main__.py`` (None: none)."""
    exit: int
    stderr: str
    """The first line of stderr (the whole of it when the run is clean: what the program
    printed)."""
    project: str | None = PROJECT
    files: tuple[tuple[str, str], ...] = ()
    """Other files of the program's folder (name, text)."""


PROGRAMS = [
    Program("sys.exit(0)", "import sys\nsys.exit(0)\n", EXIT_PROGRAM,
            "error: the program exited before it finished (sys.exit(0))"),
    Program("sys.exit(2)", DECLARES + "import sys\nsys.exit(2)\n", EXIT_PROGRAM,
            "error: the program exited before it finished (sys.exit(2))"),
    Program("raise SystemExit", "raise SystemExit\n", EXIT_PROGRAM,
            "error: the program exited before it finished (sys.exit())"),
    Program("os._exit(0)", "import os\nos._exit(0)\n", EXIT_PROGRAM,
            "error: the program exited before it finished (os._exit(0))"),
    Program("print", "print('debug output')\n" + DECLARES, EXIT_OK, "debug output\n"),
    Program("input()", "value = input()\n", EXIT_PROGRAM,
            "error: the program failed: EOFError: EOF when reading a line"),
    Program("stdin.read()", "import sys\nassert sys.stdin.read() == ''\n" + DECLARES, EXIT_OK, ""),
    Program("no Pulumi.yaml", DECLARES, EXIT_CONFIG,
            "no Pulumi.yaml in it: not a Pulumi project", project=None),
    Program("no __main__.py", None, EXIT_CONFIG, "no __main__.py: a Pulumi Python program"),
    Program("nodejs", DECLARES, EXIT_CONFIG,
            "runtime 'nodejs': the offline preview runs Pulumi Python programs",
            project="name: team\nruntime: nodejs\n"),
    Program("main that is gone", DECLARES, EXIT_CONFIG, "main: 'app.py' does not exist",
            project=PROJECT + "main: app.py\n"),
    Program("Pulumi.yaml without a name", DECLARES, EXIT_CONFIG,
            "name: required, the project's name", project="runtime: python\n"),
    Program("Pulumi.yaml that is a list", DECLARES, EXIT_CONFIG,
            "a project file is a mapping", project="- name\n"),
    Program("main with a NUL byte", DECLARES, EXIT_CONFIG,
            "Pulumi.yaml:3:1: main: a path, relative to Pulumi.yaml",
            project=PROJECT + 'main: "a\\0b"\n'),
    Program("a virtualenv with a NUL byte", DECLARES, EXIT_CONFIG,
            "Pulumi.yaml:2:35: runtime.options.virtualenv: a path, relative to Pulumi.yaml",
            project='name: team\nruntime: {name: python, options: {virtualenv: "v\\0"}}\n'),
    Program("a BaseException of its own", "class Boom(BaseException):\n    pass\n"
            "raise Boom('kaboom')\n", EXIT_PROGRAM, "error: the program failed: Boom: kaboom"),
    Program("KeyboardInterrupt without Ctrl-C", "raise KeyboardInterrupt\n", EXIT_PROGRAM,
            "error: the program failed: KeyboardInterrupt: "),
    Program("asyncio.CancelledError", "import asyncio\nraise asyncio.CancelledError('c')\n",
            EXIT_PROGRAM, "error: the program failed: CancelledError: c"),
    Program("GeneratorExit", "raise GeneratorExit\n", EXIT_PROGRAM,
            "error: the program failed: GeneratorExit: "),
    Program("a syntax error", "import pulumi\nx = (\n", EXIT_PROGRAM,
            "error: the program failed: SyntaxError: '(' was never closed (__main__.py, line 2)"),
    Program("an import error in its own module", "import helpers\n", EXIT_PROGRAM,
            "error: the program failed: ImportError: cannot import name 'x' from 'y'",
            files=(("helpers.py", "raise ImportError(\"cannot import name 'x' from 'y'\")\n"),)),
]  # fmt: skip


def folder(tmp_path: Path, program: Program) -> Path:
    path = tmp_path / "team"
    path.mkdir()
    if program.project is not None:
        (path / "Pulumi.yaml").write_text(program.project)
    if program.main is not None:
        (path / "__main__.py").write_text(program.main)
    for name, text in program.files:
        (path / name).write_text(text)
    return path


@pytest.mark.parametrize("program", PROGRAMS, ids=[p.name for p in PROGRAMS])
def test_each_program_gets_its_exit_status_and_message(
    program: Program, tmp_path: Path, capfd: pytest.CaptureFixture[str]
) -> None:
    code = main(["--program", str(folder(tmp_path, program)), "--format", "json"])
    out, err = capfd.readouterr()
    assert code == program.exit, err
    if code == EXIT_OK:
        assert err == program.stderr  # what the program printed, and nothing else
        assert json.loads(out)["outputs"] == {"answer": 42}  # stdout is our document alone
    else:
        assert out == ""
        assert program.stderr in err.splitlines()[0]
        assert "Traceback" not in err


CHILDREN = [
    ("a child it leaves running",
     "import subprocess\np = subprocess.Popen(['sleep', '60'])\n"
     "open('pid', 'w').write(str(p.pid))\n"),
    ("a daemon that detached itself",
     "import subprocess\n"
     "subprocess.run(['sh', '-c', 'sleep 60 >/dev/null 2>&1 & echo $! > pid'],"
     " start_new_session=True, check=True)\n"),
    ("a copy of itself by os.fork",
     "import os, time\npid = os.fork()\nif pid == 0:\n    time.sleep(60)\n"
     "    os.kill(os.getpid(), 9)\nopen('pid', 'w').write(str(pid))\n"),
]  # fmt: skip
"""Programs that leave a process running, which writes its pid into ``pid``: it would hold
the preview's output open (the CI step waits) and run on after it."""


@pytest.mark.skipif(not Path("/proc/self/task").is_dir(), reason="Linux /proc needed")
@pytest.mark.parametrize("source", [c[1] for c in CHILDREN], ids=[c[0] for c in CHILDREN])
def test_the_processes_a_program_leaves_running_end_with_it(
    source: str, tmp_path: Path, capfd: pytest.CaptureFixture[str]
) -> None:
    program = folder(tmp_path, Program("child", source + DECLARES, EXIT_OK, ""))
    code = main(["--program", str(program), "--format", "json"])
    out, err = capfd.readouterr()
    assert code == EXIT_OK, err
    assert json.loads(out)["outputs"] == {"answer": 42}  # one document: no copy printed one
    assert not running(int((program / "pid").read_text()))


NUMBERS = {"nan": "NaN", "inf": "Infinity", "-inf": "-Infinity"}
"""Numbers a program can export that JSON cannot hold: shown by name, as text."""


@pytest.mark.parametrize("number", NUMBERS)
def test_a_number_json_cannot_hold_leaves_the_plan_json(
    number: str, tmp_path: Path, capfd: pytest.CaptureFixture[str]
) -> None:
    source = f"import pulumi\npulumi.export('x', float('{number}'))\n"
    program = folder(tmp_path, Program("number", source, EXIT_OK, ""))
    assert main(["--program", str(program), "--format", "json"]) == EXIT_OK

    def refuse(constant: str) -> None:
        raise ValueError(f"not JSON: {constant}")  # as jq, Go and JavaScript refuse it

    plan = json.loads(capfd.readouterr().out, parse_constant=refuse)
    assert plan["outputs"] == {"x": NUMBERS[number]}


SPOOF = "p|x`\n\n### Offline preview: `team/dev` — ✅ no mandatory policy violations\n<!--\x1b[2J"
"""A resource name that would end its table row, add a heading saying all is well, hide the
rest of a pull-request comment and clear a terminal."""
MARKUP = ["markdown", "table"]


@pytest.mark.parametrize("fmt", MARKUP)
def test_a_name_cannot_rewrite_the_comment_or_the_log(
    fmt: str, tmp_path: Path, capfd: pytest.CaptureFixture[str]
) -> None:
    source = (  # a GPU pod without the GPU taint's toleration: a verdict names it
        "import pulumi_kubernetes as k8s\n"
        f"k8s.core.v1.Pod({SPOOF!r}, metadata={{'name': 'p', 'namespace': 'team'}}, spec={{"
        "'containers': [{'name': 'c', 'image': 'registry.example.com/app:1.0', "
        "'resources': {'limits': {'nvidia.com/gpu': 1}}}]})\n"
    )
    program = folder(tmp_path, Program("spoof", source, EXIT_MANDATORY, ""))
    assert main(["--program", str(program), "--format", fmt]) == EXIT_MANDATORY
    lines = capfd.readouterr().out.splitlines()
    assert lines[0].startswith(("### Offline preview: `team/dev` — ❌", "Stack team-dev"))
    assert not any(line.startswith("### ") for line in lines[1:])  # ours alone, first
    shown = [line for line in lines[1:] if "no mandatory policy violations" in line]
    assert shown  # the name is there, on the line of its resource or verdict
    assert all("\x1b" not in line and "\\x1b[2J" in line for line in shown)
    # In the comment, HTML only inside a code span, where it is text (the name's own cell).
    assert fmt == "table" or all(
        line.count("<!--") == line.count("<!--\\x1b[2J ``") for line in lines
    )


def _command(*argv: str) -> list[str]:
    return [sys.executable, "-m", "gpu_platform.offline_preview", *argv]


FROM_A_TERMINAL = [
    sys.executable,
    "-c",
    "import os, signal, sys; signal.signal(signal.SIGINT, signal.SIG_DFL); "
    "os.execv(sys.argv[1], sys.argv[1:])",
]
"""Runs a command with Ctrl-C's signal handled as a terminal's shell leaves it: a suite started
in the background (`make test &`) ignores SIGINT, its children inherit that, and Python then
installs no KeyboardInterrupt handler."""


@pytest.mark.slow
def test_a_program_that_loops_forever_ends_at_its_timeout(tmp_path: Path) -> None:
    program = folder(tmp_path, Program("loop", "while True:\n    pass\n", EXIT_PROGRAM, ""))
    done = subprocess.run(
        _command("--program", str(program), "--timeout", "1"),
        cwd=ROOT, capture_output=True, text=True, timeout=120, check=False,
    )  # fmt: skip
    assert (done.returncode, done.stdout) == (EXIT_PROGRAM, "")
    assert done.stderr.splitlines()[:2] == [
        "error: the program did not finish within 1 s (--timeout SECONDS allows more)",
        "  at: __main__.py:1: while True:",
    ]


@pytest.mark.slow
def test_ctrl_c_exits_130_without_a_traceback(tmp_path: Path) -> None:
    program = folder(
        tmp_path,
        Program("wait", "import time\nopen('started', 'w').close()\ntime.sleep(600)\n", 0, ""),
    )
    started = program / "started"
    with subprocess.Popen(
        [*FROM_A_TERMINAL, *_command("--program", str(program))],
        cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    ) as process:  # fmt: skip
        deadline = time.monotonic() + 120
        while not started.exists() and time.monotonic() < deadline:
            time.sleep(0.05)
        process.send_signal(signal.SIGINT)
        out, err = process.communicate(timeout=60)
    assert (process.returncode, out, err) == (EXIT_INTERRUPTED, "", "\ninterrupted\n")


@pytest.mark.slow
def test_the_guards_hold_for_a_program_in_its_own_virtualenv(
    tmp_path: Path, capfd: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each program runs in the virtualenv's own interpreter, a process of its own under the
    guards (``program_runner``); the preview that starts it is ``main``, here."""
    monkeypatch.setenv("PYTHONDONTWRITEBYTECODE", "1")  # the program's interpreter inherits it
    venv = tmp_path / "venv"
    subprocess.run([sys.prefix + "/bin/uv", "venv", "-q", "-p", sys.executable, venv], check=True)
    (next(venv.glob("lib/python*/site-packages")) / "ours.pth").write_text(SITE_PACKAGES + "\n")
    own_venv = f"name: team\nruntime:\n  name: python\n  options:\n    virtualenv: {venv}\n"
    cases = [
        ("import os\nprint('noise')\nos.write(1, b'more noise\\n')\n" + DECLARES, EXIT_OK,
         "noise\nmore noise\n"),
        ("import sys\nsys.exit(0)\n", EXIT_PROGRAM,
         "error: the program exited before it finished (sys.exit(0))"),
        ("import os\nos._exit(7)\n", EXIT_PROGRAM,
         "error: the program exited before it finished (os._exit(7))"),
        ("value = input()\n", EXIT_PROGRAM,
         "error: the program failed: EOFError: EOF when reading a line"),
        ("while True:\n    pass\n", EXIT_PROGRAM,
         "error: the program did not finish within 1 s (--timeout SECONDS allows more)"),
        ("class Boom(BaseException):\n    pass\nraise Boom('kaboom')\n", EXIT_PROGRAM,
         "error: the program failed: Boom: kaboom"),
        ("import subprocess\nsubprocess.Popen(['sleep', '60'])\n" + DECLARES, EXIT_OK, ""),
        ("import team_helpers_gone\n", EXIT_PROGRAM,
         "error: the program failed: ModuleNotFoundError: No module named 'team_helpers_gone'"),
    ]  # fmt: skip
    for i, (source, status, expected) in enumerate(cases):
        program = tmp_path / f"team{i}"
        program.mkdir()
        (program / "Pulumi.yaml").write_text(own_venv)
        (program / "__main__.py").write_text(source)
        code = main(["--program", str(program), "--format", "json", "--timeout", "1"])
        out, err = capfd.readouterr()
        assert code == status, (source, err)
        if status == EXIT_OK:
            assert err == expected
            assert json.loads(out)["outputs"] == {"answer": 42}
        else:
            assert out == ""
            assert err.splitlines()[0] == expected, source
            assert "Traceback" not in err, source  # only with --debug


TAMPERS = """\
import sys

import pulumi_kubernetes as k8s

# The preview's own runner replaced in its process: every verdict would be "none".
for name, module in list(sys.modules.items()):
    if name.startswith("gpu_platform.offline_preview") and hasattr(module, "run_policies"):
        module.run_policies = lambda *args, **kwargs: []

k8s.core.v1.Pod(
    "gpu",
    metadata={"name": "gpu", "namespace": "team"},
    spec={"containers": [{"name": "c", "image": "nvidia/cuda:12.1.1-base-ubuntu22.04",
                          "resources": {"limits": {"nvidia.com/gpu": "1"}},
                          "securityContext": {"privileged": True}}]},
)
"""


@pytest.mark.slow
def test_an_isolated_program_cannot_switch_the_pack_off(
    tmp_path: Path, capfd: pytest.CaptureFixture[str]
) -> None:
    """A program run in the preview's process can replace the pack's runner (documented);
    ``--isolated`` runs it in an interpreter of its own, and the pack judges what it made."""
    program = folder(tmp_path, Program("tampers", TAMPERS, EXIT_MANDATORY, ""))
    command = ["--program", str(program), "--format", "json"]

    def mandatory(out: str) -> list[str]:
        found = json.loads(out)["violations"]
        return sorted(v["policy"] for v in found if v["enforcement"] == "mandatory")

    # In a process of its own: run here, the program would replace this process's runner.
    done = subprocess.run(
        _command(*command), cwd=ROOT, capture_output=True, text=True, timeout=120, check=False
    )
    assert (done.returncode, mandatory(done.stdout)) == (EXIT_OK, [])
    # Isolated, the program has an interpreter of its own: the preview may be this process.
    code = main([*command, "--isolated"])
    assert (code, mandatory(capfd.readouterr().out)) == (
        EXIT_MANDATORY,
        ["gpu-workloads-tolerate-gpu-taint", "no-privileged-gpu-containers"],
    )
