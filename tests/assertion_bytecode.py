"""pytest's rewritten test modules, written once before pytest-xdist's workers start.

pytest rewrites each test module's asserts when it imports it and keeps the result beside it
(a hash-checked ``.pyc`` in ``__pycache__``). A fresh clone has none, so each of `make test`'s
three workers rewrote all 300-odd test modules at the same moment: 4-6 s of CPU per worker on
the 2-core machine, the largest part of what a fresh clone costs over a warm one
(docs/performance.md, the inner loop). The controller now rewrites what is missing first,
split over the machine's cores, and the workers read it as on any warm run.

It calls pytest's own rewriting, private functions of ``_pytest.assertion.rewrite`` (pytest is
pinned by constraints.txt). Should another pytest lack them, nothing is written and the
workers rewrite as before: slower, never wrong.
"""

from __future__ import annotations

import fnmatch
import multiprocessing
import os
import sys
from pathlib import Path

import pytest

_FORKED: dict[str, pytest.Config] = {}
"""The controller's config, which the forked processes that rewrite inherit."""


def is_xdist_controller(config: pytest.Config) -> bool:
    """The process that starts pytest-xdist's workers (``-n N``), not a worker."""
    return bool(config.getoption("numprocesses", None)) and not hasattr(config, "workerinput")


def rewritten_modules(config: pytest.Config) -> list[Path]:
    """The modules pytest rewrites when it collects ``config.args``: in a folder, the test files
    by ``python_files`` and every ``conftest.py``; a file named on its own."""
    patterns = [*config.getini("python_files"), "conftest.py"]
    found: set[Path] = set()
    for arg in config.args:
        # Absolute, links kept: the path pytest imports the module by, compiled into its code.
        path = Path(os.path.abspath(config.invocation_params.dir / arg.split("::")[0]))
        if path.is_dir():
            found.update(
                f for f in path.rglob("*.py") if any(fnmatch.fnmatch(f.name, p) for p in patterns)
            )
        elif path.suffix == ".py":
            found.add(path)
    return sorted(found)


def _pyc(module: Path) -> Path:
    from _pytest.assertion.rewrite import PYC_TAIL, get_cache_dir

    return get_cache_dir(module) / (module.name[:-3] + PYC_TAIL)


def _rewrite(config: pytest.Config, module: Path) -> None:
    """One module's rewritten code into its pyc, as pytest's import hook writes it."""
    from _pytest.assertion.rewrite import _rewrite_test, _write_pyc, assertstate_key, try_makedirs

    try:
        source_hash, code = _rewrite_test(module, config)
    except Exception:  # any (a RecursionError too): raised here, it would stop the whole run
        return  # pytest reports it when it imports the module, for that module alone
    if try_makedirs(_pyc(module).parent):
        _write_pyc(config.stash[assertstate_key], code, source_hash, _pyc(module))


def _rewrite_forked(module: Path) -> None:
    _rewrite(_FORKED["config"], module)


def write_missing(
    config: pytest.Config, modules: list[Path] | None = None, processes: int | None = None
) -> int:
    """Rewrite those of ``modules`` (by default every module ``config.args`` collects) that have
    no current pyc, over ``processes`` forked processes (the machine's cores; 1: in this
    process); how many."""
    if config.getoption("assertmode") != "rewrite" or sys.dont_write_bytecode:
        return 0  # the workers would not write them either
    try:  # pytest's private rewriting; gone in another pytest: the workers rewrite as before
        from _pytest.assertion.rewrite import (  # noqa: F401 - each is used by _rewrite
            _read_pyc,
            _rewrite_test,
            _write_pyc,
            assertstate_key,
        )
    except ImportError:
        return 0
    modules = rewritten_modules(config) if modules is None else modules
    missing = [m for m in modules if _read_pyc(m, _pyc(m), lambda _: None) is None]
    processes = processes or os.cpu_count() or 1
    if processes == 1 or len(missing) < 2:
        for module in missing:
            _rewrite(config, module)
    else:
        # Forked before xdist starts its workers and their threads: each child has the config.
        _FORKED["config"] = config
        with multiprocessing.get_context("fork").Pool(processes) as pool:
            pool.map(_rewrite_forked, missing, chunksize=8)
    return len(missing)
