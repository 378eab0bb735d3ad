"""Every generated mutation of our four stack files gets exactly the error it must: one problem,
at the key (or the line and column) the mistake is at, nothing that follows from it, never a
crash. The loader and the file reader are what the preview and ``pulumi up`` run; a few runs of
the command prove the exit status."""

from __future__ import annotations

import functools
import json
import subprocess
import sys
from collections import defaultdict
from pathlib import Path
from typing import Any

import pytest

from gpu_platform.offline_preview.cli import EXIT_CONFIG, main
from gpu_platform.stack_config import ConfigError, load_platform
from gpu_platform.stack_config.files import read_stack_config
from gpu_platform.stack_config.load import NAMESPACE, raw_from_config
from gpu_platform.stack_config.yaml_file import InputFileError
from tests.robustness.stack_mutations import (
    ROOT,
    STACKS,
    TextMutation,
    ValueMutation,
    mutated,
    raw_config,
    stack_file,
    text_mutations,
    value_mutations,
)

VALUE_CLASSES = (
    "drop-required",
    "wrong-type",
    "bad-enum",
    "out-of-range",
    "unknown-key",
    "misspelt-key",
)
TEXT_CLASSES = ("duplicate-key", "near-miss-namespace", "yaml-syntax")


@functools.cache
def by_class(stack: str) -> dict[str, list[Any]]:
    """The stack's mutations, value and text, by class."""
    grouped: dict[str, list[Any]] = defaultdict(list)
    for mutation in [*value_mutations(stack), *text_mutations(stack)]:
        grouped[mutation.cls].append(mutation)
    return grouped


@pytest.mark.parametrize("stack", STACKS)
def test_the_stacks_themselves_load(stack: str) -> None:
    assert load_platform(raw_config(stack)).settings.cloud


@pytest.mark.parametrize("cls", VALUE_CLASSES)
@pytest.mark.parametrize("stack", STACKS)
def test_each_value_mutation_is_one_problem_at_its_key(stack: str, cls: str) -> None:
    mutations: list[ValueMutation] = by_class(stack)[cls]
    wrong = []
    for mutation in mutations:
        try:
            load_platform(mutated(stack, mutation))
            problems: list[tuple[str, str]] = []
        except ConfigError as err:
            problems = err.problems
        fits = (
            len(problems) == 1
            and problems[0][0] == mutation.expected_path
            and mutation.expected in problems[0][1]
        )
        if not fits:
            wrong.append(f"{mutation.name}: {problems}")
    assert wrong == [], f"{len(wrong)} of {len(mutations)}:\n" + "\n".join(wrong)


@pytest.mark.parametrize("cls", TEXT_CLASSES)
@pytest.mark.parametrize("stack", STACKS)
def test_each_text_mutation_is_refused_at_its_line(stack: str, cls: str, tmp_path: Path) -> None:
    mutations: list[TextMutation] = by_class(stack)[cls]
    assert mutations
    wrong = []
    for i, mutation in enumerate(mutations):
        path = tmp_path / f"Pulumi.m{i}.yaml"
        data = mutation.text
        path.write_bytes(data if isinstance(data, bytes) else data.encode())
        try:
            read_stack_config(path, NAMESPACE)
            problems = []
        except InputFileError as err:
            problems = err.problems
        fits = (
            len(problems) == 1
            and problems[0].line == mutation.line
            and (mutation.column is None or problems[0].column == mutation.column)
            and mutation.expected in problems[0].message
        )
        if not fits:
            wrong.append(f"{mutation.name}: {problems}")
    assert wrong == [], f"{len(wrong)} of {len(mutations)}:\n" + "\n".join(wrong)


@pytest.mark.parametrize("stack", STACKS)
def test_keys_of_other_namespaces_pass(stack: str, tmp_path: Path) -> None:
    path = tmp_path / f"Pulumi.{stack}.yaml"
    path.write_text(
        stack_file(stack).read_text()
        + "  azure-native:location: westeurope\n  kubernetes:context: kind\n"
        + "  alicloud:region: cn-hangzhou\n  pulumi:tags: {team: ml}\n"
    )
    config = read_stack_config(path, NAMESPACE).config
    assert config["kubernetes:context"] == "kind"
    assert load_platform(raw_from_config(config)).settings.cloud


@pytest.mark.parametrize("stack", STACKS)
def test_the_command_exits_2_with_the_key_and_the_line(
    stack: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    value = by_class(stack)["bad-enum"][0]
    path = tmp_path / "Pulumi.bad.yaml"
    raw = mutated(stack, value)
    lines = ["config:"] + [f"  {NAMESPACE}:{key}: {json.dumps(v)}" for key, v in raw.items()]
    path.write_text("\n".join(lines) + "\n")
    assert main(["--stack", stack, "--config", str(path)]) == EXIT_CONFIG
    err = capsys.readouterr().err
    assert err.startswith("error: invalid stack config (1 problem):\n")
    assert f"  {value.expected_path}: " in err
    text = by_class(stack)["duplicate-key"][0]
    path.write_text(str(text.text))
    assert main(["--stack", stack, "--config", str(path)]) == EXIT_CONFIG
    assert capsys.readouterr().err == (
        f"error: {path}:{text.line}:{text.column}: {text.expected}\n"
    )


@pytest.mark.slow
def test_an_invalid_value_in_prod_exits_2_like_dev(tmp_path: Path) -> None:
    for stack in ("dev", "prod"):
        path = tmp_path / f"Pulumi.{stack}.yaml"
        path.write_text(
            stack_file(stack)
            .read_text()
            .replace("osDiskType: Ephemeral", "osDiskType: ephemeral", 1)
        )
        done = subprocess.run(
            [sys.executable, "-m", "gpu_platform.offline_preview", "--stack", stack,
             "--config", str(path)],
            cwd=ROOT, capture_output=True, text=True, timeout=300, check=False,
        )  # fmt: skip
        assert (done.returncode, done.stdout) == (EXIT_CONFIG, "")
        assert done.stderr.endswith(
            "error: invalid stack config (1 problem):\n"
            "  cluster.systemPool.osDiskType: Input should be 'Ephemeral' or 'Managed'\n"
        )
