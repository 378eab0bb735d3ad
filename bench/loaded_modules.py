"""``python -m bench.loaded_modules "<statement>"``: the third-party modules a statement loads.

Runs the statement in this (fresh) process and prints, as JSON, every module it added to
``sys.modules`` that is neither the standard library nor ours, in the order they were loaded.
A module the SDKs only registered for lazy loading (``importlib.util.LazyLoader``: azure-native
lists all its ~300 services that way) is left out: nothing of it ran. Importing the printed
names one after another loads exactly the SDK code the statement loaded, and nothing of ours:
that is the floor of ``bench.component_import``.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Iterable, Mapping
from types import ModuleType

OUR_PACKAGES = frozenset({"gpu_platform", "gpu_facts", "gpu_policies", "components", "bench"})
"""Top-level names of our own code (``components`` is ``gpu_platform.components``' folder)."""


def is_third_party(name: str) -> bool:
    """A module of an installed distribution: not the standard library (``_sysconfigdata_*``
    is the interpreter's build configuration), not ours, not a start-up hook (``__main__``, an
    editable install's ``__editable__...`` finder)."""
    top = name.partition(".")[0]
    return not (
        top in OUR_PACKAGES
        or top in sys.stdlib_module_names
        or top in sys.builtin_module_names
        or top.startswith(("__", "_sysconfigdata"))
    )


def is_loaded(module: ModuleType | None) -> bool:
    """Whether the module's code ran (a ``LazyLoader`` stub's has not, until first used)."""
    return module is not None and type(module).__name__ != "_LazyModule"


def third_party_loaded(
    modules: Mapping[str, ModuleType | None], before: Iterable[str] = ()
) -> list[str]:
    """The third-party modules of ``modules`` (``sys.modules``) that ran and were not in
    ``before``, in load order."""
    already = set(before)
    return [
        name
        for name, module in list(modules.items())
        if name not in already and is_third_party(name) and is_loaded(module)
    ]


def main(argv: list[str]) -> int:
    (statement,) = argv
    before = list(sys.modules)
    exec(compile(statement, "<statement>", "exec"), {})
    print(json.dumps(third_party_loaded(sys.modules, before)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
