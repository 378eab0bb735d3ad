"""YAML input files: read within bounds, or refused with file, line, column and why."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from gpu_platform.stack_config.yaml_file import (
    MAX_BYTES,
    MAX_DEPTH,
    MAX_VALUES,
    FileProblem,
    InputFileError,
    load_yaml,
    read_text,
    read_yaml,
)

FILE = Path("Pulumi.test.yaml")


def refused(text: str) -> list[FileProblem]:
    with pytest.raises(InputFileError) as err:
        load_yaml(FILE, text)
    return err.value.problems


def test_plain_yaml_reads_with_the_place_of_every_key() -> None:
    doc = load_yaml(FILE, "config:\n  a: 1\n  b:\n    - c: true\n")
    assert doc.data == {"config": {"a": 1, "b": [{"c": True}]}}
    assert doc.position("config", "b", 0, "c") == (4, 7)
    assert doc.root == (1, 1)


def test_a_date_stays_text_as_a_config_value_is() -> None:
    assert load_yaml(FILE, "since: 2024-01-01\n").data == {"since": "2024-01-01"}


def test_an_empty_file_is_no_document() -> None:
    assert load_yaml(FILE, "").data is None
    assert load_yaml(FILE, "# only a comment\n").data is None


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (
            "config:\n  a: 1\n  b: 2\n  a: 3\n",
            [FileProblem("key 'a' defined twice (first at line 2)", 4, 3)],
        ),
        (  # at any depth, each duplicate once
            "a:\n  - x: 1\n    y: 2\n    x: 3\nb: {k: 1, k: 2}\n",
            [
                FileProblem("key 'x' defined twice (first at line 2)", 4, 5),
                FileProblem("key 'k' defined twice (first at line 5)", 5, 11),
            ],
        ),
        (  # a merge key overrides: not a duplicate
            "base: &b {x: 1}\nc:\n  <<: *b\n  x: 2\n",
            None,
        ),
    ],
)
def test_keys_defined_twice_are_refused_with_both_lines(
    text: str, expected: list[FileProblem] | None
) -> None:
    if expected is None:
        assert load_yaml(FILE, text).data == {"base": {"x": 1}, "c": {"x": 2}}
    else:
        assert refused(text) == expected


@pytest.mark.parametrize(
    ("text", "line", "column", "fragment"),
    [
        ("config:\n\ta: 1\n", 2, 1, "a tab: YAML indents with spaces, never tabs"),
        ("a: 1\n---\nb: 2\n", 2, 1, "a second YAML document: one document only"),
        ("a: !!python/object/apply:os.system [id]\n", 1, 4, "tag !!python/object/apply:os.system"),
        ("a: !!binary aGk=\n", 1, 4, "tag !!binary is not allowed"),
        ("a: !custom x\n", 1, 4, "tag !custom is not allowed"),
        ("a: [1, 2\n", 2, 1, "expected ',' or ']'"),
        ("a: &x [*x]\n", 1, 4, "an alias inside the value it names"),
        ("? [a, b]\n: c\n", 1, 3, "a key must be a plain value"),
        ("a: *nowhere\n", 1, 4, "found undefined alias"),
        ("a: 'open\n", 2, 1, "found unexpected end of stream"),
    ],
)
def test_unreadable_yaml_names_line_and_column(
    text: str, line: int, column: int, fragment: str
) -> None:
    (problem,) = refused(text)
    assert (problem.line, problem.column) == (line, column)
    assert fragment in problem.message
    assert str(InputFileError(FILE, [problem])).startswith(f"Pulumi.test.yaml:{line}:{column}: ")


def test_explicit_core_tags_are_plain_values() -> None:
    assert load_yaml(FILE, "a: !!str 1\nb: !!int '2'\n").data == {"a": "1", "b": 2}


def test_nesting_is_bounded_before_python_recurses() -> None:
    ok = "a: " + "[" * (MAX_DEPTH - 1) + "]" * (MAX_DEPTH - 1) + "\n"
    assert load_yaml(FILE, ok).data is not None
    (problem,) = refused("a: " + "[" * 3000 + "]" * 3000 + "\n")
    assert problem.message == f"nested deeper than {MAX_DEPTH} levels"
    (problem,) = refused("".join("  " * i + f"k{i}:\n" for i in range(3000)))
    assert problem.line == MAX_DEPTH + 1
    assert problem.message == f"nested deeper than {MAX_DEPTH} levels"


def _bomb(levels: int) -> str:
    """The "billion laughs": each level an anchored list of nine aliases of the one before."""
    text = 'l0: &a0 ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]\n'
    for k in range(1, levels):
        text += f"l{k}: &a{k} [{', '.join([f'*a{k - 1}'] * 9)}]\n"
    return text


def test_an_alias_bomb_is_refused_as_it_is_parsed() -> None:
    assert len(_bomb(9)) < 4096  # 9**9 values once expanded
    (problem,) = refused(_bomb(9))
    assert problem.message == f"more than {MAX_VALUES} values with aliases expanded"
    assert problem.line == 6  # 9**5 values by then


def test_a_few_aliases_are_plain_yaml() -> None:
    assert load_yaml(FILE, _bomb(3)).data["l2"][0][0] == ["lol"] * 9


def test_files_are_utf8_text_of_bounded_size(tmp_path: Path) -> None:
    path = tmp_path / "Pulumi.x.yaml"
    path.write_bytes(b"config:\n  a: caf\xe9\n")
    with pytest.raises(InputFileError) as err:
        read_yaml(path)
    assert err.value.problems == [FileProblem("not UTF-8 text (byte 0xe9)", 2, 9)]
    path.write_bytes(b"#" * (MAX_BYTES + 1))
    with pytest.raises(InputFileError, match=f"larger than {MAX_BYTES} bytes"):
        read_text(path)
    with pytest.raises(InputFileError, match="no such file"):
        read_yaml(tmp_path / "missing.yaml")
    with pytest.raises(InputFileError, match="a folder, not a file"):
        read_yaml(tmp_path)


def test_a_fifo_or_a_device_is_refused_before_it_is_read(tmp_path: Path) -> None:
    # Opening a FIFO nobody writes to would wait for ever; a device may never end.
    fifo = tmp_path / "Pulumi.fifo.yaml"
    os.mkfifo(fifo)
    for path in (fifo, Path("/dev/zero")):
        with pytest.raises(InputFileError, match="not a regular file"):
            read_text(path)
