"""tests/assertion_bytecode.py: the controller writes the rewritten test modules pytest's own
import hook would write, so `make test`'s workers read instead of rewriting them."""

from __future__ import annotations

import sys
from pathlib import Path
from types import CodeType

import pytest
from _pytest.assertion.rewrite import PYC_TAIL, _read_pyc

from tests.assertion_bytecode import rewritten_modules, write_missing

FAILING = "def test_sum():\n    total = 1 + 2\n    assert total == 2\n"


@pytest.fixture(autouse=True)
def _bytecode_written(monkeypatch: pytest.MonkeyPatch) -> None:
    """As under `make`, which unexports PYTHONDONTWRITEBYTECODE (a shell may export it)."""
    monkeypatch.setattr(sys, "dont_write_bytecode", False)


def _code(module: Path) -> CodeType | None:
    return _read_pyc(module, module.parent / "__pycache__" / (module.stem + PYC_TAIL), print)


def test_a_missing_module_is_rewritten_as_pytest_rewrites_it(
    tmp_path: Path, request: pytest.FixtureRequest
) -> None:
    module = tmp_path / "test_sum.py"
    module.write_text(FAILING)
    assert _code(module) is None
    assert write_missing(request.config, [module], processes=1) == 1
    code = _code(module)
    assert code is not None  # what pytest's import hook accepts as current
    namespace: dict[str, object] = {}
    exec(code, namespace)  # the module's own code, rewritten
    test = namespace["test_sum"]
    assert callable(test)
    with pytest.raises(AssertionError) as failure:
        test()
    assert "assert 3 == 2" in str(failure.value)  # pytest's explanation: its rewriting ran


def test_a_current_module_is_left_and_an_edited_one_rewritten_again(
    tmp_path: Path, request: pytest.FixtureRequest
) -> None:
    module = tmp_path / "test_sum.py"
    module.write_text(FAILING)
    assert write_missing(request.config, [module], processes=1) == 1
    assert write_missing(request.config, [module], processes=1) == 0
    module.write_text(FAILING.replace("== 2", "== 3"))  # hash-checked: a new clone's mtimes
    assert write_missing(request.config, [module], processes=1) == 1


def test_a_module_that_does_not_parse_is_left_for_pytest_to_report(
    tmp_path: Path, request: pytest.FixtureRequest
) -> None:
    module = tmp_path / "test_broken.py"
    module.write_text("def test_broken(:\n")
    write_missing(request.config, [module], processes=1)
    assert _code(module) is None


def test_the_modules_are_the_test_files_and_conftests_of_the_args_and_the_files_named(
    tmp_path: Path, request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch
) -> None:
    for name in ("test_a.py", "sub/test_b.py", "sub/conftest.py", "sub/helpers.py", "data.py"):
        (tmp_path / name).parent.mkdir(exist_ok=True)
        (tmp_path / name).write_text("")
    monkeypatch.setattr(request.config, "args", [str(tmp_path), str(tmp_path / "data.py::x")])
    named = tmp_path / "data.py"  # pytest rewrites a file it is given, whatever its name
    assert rewritten_modules(request.config) == sorted(
        [tmp_path / "test_a.py", tmp_path / "sub/test_b.py", tmp_path / "sub/conftest.py", named]
    )


def test_nothing_is_written_where_pytest_would_write_no_bytecode(
    tmp_path: Path, request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch
) -> None:
    module = tmp_path / "test_sum.py"
    module.write_text(FAILING)
    monkeypatch.setattr(sys, "dont_write_bytecode", True)  # PYTHONDONTWRITEBYTECODE=1
    assert write_missing(request.config, [module], processes=1) == 0
    assert _code(module) is None


def test_a_module_pytest_fails_to_rewrite_is_left_to_its_import(
    tmp_path: Path, request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Any failure of pytest's rewriting (a deeply nested module's ``RecursionError``) fails
    that module's import, not the controller's start and with it the whole run."""
    module = tmp_path / "test_sum.py"
    module.write_text(FAILING)

    def fails(*_: object) -> None:
        raise RecursionError("maximum recursion depth exceeded")

    monkeypatch.setattr("_pytest.assertion.rewrite._rewrite_test", fails)
    assert write_missing(request.config, [module], processes=1) == 1
    assert _code(module) is None


def test_a_module_is_found_by_the_path_pytest_imports_it_by(
    tmp_path: Path, request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A folder given through a symbolic link keeps it: the rewritten code carries the path
    pytest imports the module by (its tracebacks name it), not the link's target."""
    (tmp_path / "real").mkdir()
    (tmp_path / "real" / "test_a.py").write_text("")
    (tmp_path / "link").symlink_to(tmp_path / "real")
    monkeypatch.setattr(request.config, "args", [str(tmp_path / "link")])
    assert rewritten_modules(request.config) == [tmp_path / "link" / "test_a.py"]
