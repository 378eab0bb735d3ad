"""The type check, and proof that it still sees calls into the cloud SDKs.

basedpyright is the type checker because it analyses only the SDK modules our code reaches
(mypy followed all of pulumi_azure_native's modules and took minutes). This test keeps that
speed from turning into blindness. In a scratch copy of the type-checked sources it writes, next
to a real azure-native, alicloud and Kubernetes resource call's module, a copy with one keyword
argument of that call misspelt. It runs the project's checker with the project's configuration
over the whole copy and asserts that it fails at exactly those three calls and nowhere else.

One run does both jobs: "nowhere else" is the whole project's check (every included source,
the baseline applied), so no second checker runs; most of a run's time goes to the SDKs, which
the misspelt copies share with the rest. It is `make typecheck` (marked ``typecheck``), which
CI runs beside `make test`: about 30 s of CPU, which `make test`'s budget on two cores cannot
spare.

pulumi's generated resource classes overload ``__init__`` (keyword arguments, or one ``args``
object), so the checker reports "no overload matches" at the call instead of naming the
keyword; the test therefore asserts that each error's range covers the misspelt keyword's line.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

PROJECT_ROOT = Path(__file__).resolve().parents[2]
CHECKER = Path(sys.prefix) / "bin" / "basedpyright"


@dataclass(frozen=True)
class Injection:
    """Misspell ``keyword`` as ``wrong`` in the first ``call`` of ``path``."""

    sdk: str
    path: str
    call: str
    keyword: str
    wrong: str


INJECTIONS = (
    Injection(
        "azure-native", "components/aks/gpu_node_pool.py", "aks.AgentPool(", "vm_size", "vm_sizee"
    ),
    Injection(
        "alicloud",
        "components/ack/gpu_node_pool.py",
        "cs.NodePool(",
        "instance_types",
        "instance_typo",
    ),
    Injection(
        "kubernetes",
        "components/helm_release.py",
        "k8s.core.v1.Namespace(",
        "metadata",
        "metadataa",
    ),
)


def _scratch_copy(dest: Path) -> None:
    """The type check's inputs: its configuration, baseline and every included source."""
    config = tomllib.loads((PROJECT_ROOT / "pyproject.toml").read_text())["tool"]["basedpyright"]
    shutil.copy2(PROJECT_ROOT / "pyproject.toml", dest / "pyproject.toml")
    shutil.copytree(PROJECT_ROOT / ".basedpyright", dest / ".basedpyright")
    ignore = shutil.ignore_patterns("__pycache__", "*.pyc", ".venv", "*.egg-info")
    for entry in config["include"]:
        source = PROJECT_ROOT / entry
        (dest / entry).parent.mkdir(parents=True, exist_ok=True)
        if source.is_dir():
            shutil.copytree(source, dest / entry, ignore=ignore)
        else:
            shutil.copy2(source, dest / entry)
    # The configuration names the project's virtualenv (venv = ".venv"): the one running us.
    (dest / config["venv"]).symlink_to(sys.prefix, target_is_directory=True)


def _broken_path(injection: Injection) -> str:
    """Where the misspelt copy goes: a sibling module, so its imports resolve as the original's."""
    path = Path(injection.path)
    return path.with_name(f"{path.stem}_misspelt{path.suffix}").as_posix()


def _inject(root: Path, injection: Injection) -> int:
    """Write ``injection``'s misspelt copy under ``root``; the 0-based line of the keyword."""
    text = (root / injection.path).read_text()
    call = text.find(injection.call)
    assert call >= 0, f"{injection.path} no longer calls {injection.call}: update INJECTIONS"
    found = re.compile(rf"\b{injection.keyword}=").search(text, call)
    assert found is not None, f"no {injection.keyword}= after {injection.call} in {injection.path}"
    broken = text[: found.start()] + f"{injection.wrong}=" + text[found.end() :]
    (root / _broken_path(injection)).write_text(broken)
    return text.count("\n", 0, found.start())


def _check(root: Path) -> tuple[int, list[dict[str, Any]]]:
    """The project's type check (`make typecheck-only`'s command) in ``root``; exit code, errors."""
    done = subprocess.run(
        [str(root / ".venv" / "bin" / CHECKER.name), "--outputjson"],
        cwd=root,
        capture_output=True,
        text=True,
        check=False,
        timeout=600,
    )
    report = json.loads(done.stdout)
    errors = [d for d in report["generalDiagnostics"] if d["severity"] == "error"]
    return done.returncode, errors


def _describe(root: Path, errors: list[dict[str, Any]]) -> str:
    """The errors as the checker prints them: ``path:line:column - error: message (rule)``."""
    return "\n".join(
        f"{Path(e['file']).relative_to(root)}:{e['range']['start']['line'] + 1}:"
        f"{e['range']['start']['character'] + 1} - error: {e['message']} ({e.get('rule', '')})"
        for e in errors
    )


@pytest.mark.slow
@pytest.mark.typecheck
def test_the_project_type_checks_and_a_wrong_sdk_keyword_argument_fails_it(
    tmp_path: Path,
) -> None:
    assert CHECKER.exists(), f"the type checker is not installed at {CHECKER}"
    _scratch_copy(tmp_path)
    lines = {_broken_path(i): _inject(tmp_path, i) for i in INJECTIONS}
    code, errors = _check(tmp_path)
    assert code == 1
    elsewhere = [e for e in errors if Path(e["file"]).relative_to(tmp_path).as_posix() not in lines]
    assert elsewhere == [], "type errors (make typecheck):\n" + _describe(tmp_path, elsewhere)
    for injection in INJECTIONS:
        path = _broken_path(injection)
        found = [e for e in errors if Path(e["file"]).relative_to(tmp_path).as_posix() == path]
        assert len(found) == 1, f"{injection.sdk}: {injection.wrong}= not caught: {found}"
        (error,) = found
        span = error["range"]
        assert span["start"]["line"] <= lines[path] <= span["end"]["line"], error
        assert error["rule"] == "reportCallIssue", error
