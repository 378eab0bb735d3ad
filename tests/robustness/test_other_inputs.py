"""Bad files of every other input the preview takes (``--mocks``, ``--policy-config``) and bad
options: each exits 2 with the file (and line) and the path of the bad key, before the program
runs; never a traceback, never 1 (a mandatory violation) or 3 (the program failed)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import pytest

from gpu_platform.offline_preview.cli import EXIT_CONFIG, EXIT_OK, main


@dataclass(frozen=True)
class BadFile:
    name: str
    content: str | bytes
    expected: str
    """The message after ``error: FILE``: ``:line:column: key: why`` or ``: key: why``."""


TAINTED = "gpu-node-pools-tainted"
MOCKS = [
    BadFile("not YAML", "invokes: [a,\n", ":2:1: did not find expected node content"),
    BadFile("a list", "- invokes\n", ":1:1: expected a mapping with `invokes` and/or `resources`"),
    BadFile("unknown section", "invoke: {}\n",
            ":1:1: invoke: unknown key; use `invokes` and `resources`"),
    BadFile("a section that is a list", "invokes: [a]\n",
            ":1:1: invokes: must map a token to its values"),
    BadFile("not a token", "invokes:\n  getRegion: {name: x}\n",
            ":2:3: invokes.getRegion: not a token (package:module:Name, such as "
            "aws:index/getRegion:getRegion)"),
    BadFile("a result that is text", "invokes:\n  aws:index/getRegion:getRegion: eu-west-1\n",
            ":2:3: invokes.aws:index/getRegion:getRegion: must be a mapping of wire keys"),
    BadFile("wire keys that are not text", "resources:\n  aws:iam/role:Role: {1: x}\n",
            ":2:3: resources.aws:iam/role:Role: wire keys are text, not 1"),
    BadFile("a token given twice",
            "invokes:\n  a:b:c: {x: 1}\n  a:b:c: {x: 2}\n",
            ":3:3: key 'a:b:c' defined twice (first at line 2)"),
    BadFile("not UTF-8", b"invokes: {a:b:c: {x: \xff}}\n", ":1:22: not UTF-8 text (byte 0xff)"),
    BadFile("a python tag", "invokes: !!python/name:os.system {}\n",
            ":1:10: tag !!python/name:os.system is not allowed: plain YAML values only"),
]  # fmt: skip
POLICY_CONFIGS = [
    BadFile("all: 5", '{"all": 5}', ": all: 5 is neither an enforcement level nor an object"),
    BadFile("all: blocking", '{"all": "blocking"}',
            ": all: 'blocking' is not an enforcement level "
            "(advisory, mandatory, remediate, disabled)"),
    BadFile("requiredTaintValue: 5", f'{{"{TAINTED}": {{"requiredTaintValue": 5}}}}',
            f": {TAINTED}.requiredTaintValue: 5 is not of type 'string'"),
    BadFile("enforcementLevel: 1", f'{{"{TAINTED}": {{"enforcementLevel": 1}}}}',
            f": {TAINTED}.enforcementLevel: 1 is not an enforcement level "
            "(advisory, mandatory, remediate, disabled)"),
    BadFile("no such policy", '{"gpu-pools-tainted": "advisory"}',
            ": gpu-pools-tainted: no policy of the pack has this name (Pulumi ignores it); "
            f"did you mean '{TAINTED}'?"),
    BadFile("no such property", f'{{"{TAINTED}": {{"value": "x"}}}}',
            f": {TAINTED}.value: not a property of this policy (Pulumi ignores it); "
            "it takes: exemptNames, requiredTaintValue"),
    BadFile("not JSON", '{"all": advisory}', ":1:9: not JSON: Expecting value"),
    BadFile("a list", '["all"]', ": a JSON object of policy names (or all) to levels or objects"),
    BadFile("a key twice", '{"all": "advisory", "all": "disabled"}', ": key 'all' given twice"),
    BadFile("not UTF-8", b'{"all": "\xff"}', ":1:10: not UTF-8 text (byte 0xff)"),
]  # fmt: skip


@pytest.fixture
def program(tmp_path: Path) -> Path:
    """A small team program: the bad inputs fail before it runs, the good ones run it."""
    folder = tmp_path / "team"
    folder.mkdir()
    (folder / "Pulumi.yaml").write_text("name: team\nruntime: python\n")
    (folder / "__main__.py").write_text("import pulumi\npulumi.export('answer', 42)\n")
    return folder


def _run(
    capsys: pytest.CaptureFixture[str], program: Path, option: str, bad: BadFile, tmp_path: Path
) -> tuple[int, str]:
    path = tmp_path / "input"
    path.write_bytes(bad.content if isinstance(bad.content, bytes) else bad.content.encode())
    code = main(["--program", str(program), option, str(path), "--format", "json"])
    captured = capsys.readouterr()
    assert (captured.out == "") is (code != EXIT_OK)  # the plan only when the program ran
    return code, captured.err.replace(str(path), "FILE")


BAD_INPUTS = [("--mocks", bad) for bad in MOCKS] + [("--policy-config", b) for b in POLICY_CONFIGS]


@pytest.mark.parametrize(
    ("option", "bad"), BAD_INPUTS, ids=[f"{option} {bad.name}" for option, bad in BAD_INPUTS]
)
def test_a_bad_input_file_exits_2_with_its_line_and_key(
    option: str, bad: BadFile, program: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert _run(capsys, program, option, bad, tmp_path) == (
        EXIT_CONFIG,
        f"error: FILE{bad.expected}\n",
    )


def test_good_inputs_of_each_kind_run_the_program(
    program: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    good = [
        ("--mocks", BadFile("mocks", "invokes:\n  aws:index/getRegion:getRegion: {name: x}\n", "")),
        ("--mocks", BadFile("empty mocks", "", "")),
        ("--policy-config",
         BadFile("levels", f'{{"all": "mandatory", "{TAINTED}": "advisory"}}', "")),
        ("--policy-config", BadFile("empty config", " \n", "")),
    ]  # fmt: skip
    for option, file in good:
        assert _run(capsys, program, option, file, tmp_path) == (EXIT_OK, ""), file.name


@pytest.mark.parametrize(
    ("argv", "expected"),
    [
        (["--timeout", "0"], "argument --timeout: must be more than 0 seconds: '0'"),
        (["--timeout", "soon"], "argument --timeout: not a number of seconds: 'soon'"),
        (["--format", "yaml"], "argument --format: invalid choice: 'yaml'"),
        (["--stacks", "dev"], "unrecognized arguments: --stacks dev"),
    ],
)
def test_a_bad_option_exits_2(
    argv: list[str], expected: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as exited:
        main(argv)
    assert exited.value.code == EXIT_CONFIG
    assert expected in capsys.readouterr().err


def test_a_config_file_that_does_not_exist_exits_2(
    program: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    missing = tmp_path / "Pulumi.gone.yaml"
    assert main(["--program", str(program), "--config", str(missing)]) == EXIT_CONFIG
    assert capsys.readouterr().err == f"error: {missing}: no such file\n"
