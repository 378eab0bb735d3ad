"""``bench.loaded_modules``: which modules a statement loads, as the import floor needs them."""

from __future__ import annotations

import json
import subprocess
import sys
import types
from importlib.util import LazyLoader, find_spec, module_from_spec
from pathlib import Path

from bench.loaded_modules import is_loaded, is_third_party, third_party_loaded

ROOT = Path(__file__).resolve().parents[2]


def test_third_party_is_neither_the_standard_library_nor_ours() -> None:
    assert is_third_party("pulumi_azure_native.containerservice._inputs")
    assert is_third_party("pydantic")
    for name in (
        "json",
        "importlib.util",
        "sys",
        "_sysconfigdata__linux_x86_64-linux-gnu",
        "gpu_platform.settings",
        "gpu_facts.models",
        "gpu_policies",
        "components.aks.gpu_node_pool",
        "bench.loaded_modules",
        "__main__",
        "__editable___gpu_platform_0_2_0_finder",
    ):
        assert not is_third_party(name), name


def lazy_stub(name: str) -> types.ModuleType:
    """``name`` registered for lazy loading, as azure-native registers its services: its code
    runs on first attribute access."""
    spec = find_spec(name)
    assert spec is not None and spec.loader is not None
    spec.loader = LazyLoader(spec.loader)
    lazy = module_from_spec(spec)
    spec.loader.exec_module(lazy)
    return lazy


def test_a_lazily_registered_module_has_not_run() -> None:
    assert not is_loaded(lazy_stub("json.tool"))
    assert not is_loaded(None)
    assert is_loaded(types.ModuleType("plain"))


def test_third_party_loaded_keeps_load_order_and_skips_what_was_there() -> None:
    modules = {
        "yaml": types.ModuleType("yaml"),
        "json": types.ModuleType("json"),
        "pulumi": types.ModuleType("pulumi"),
        "gpu_platform": types.ModuleType("gpu_platform"),
        "grpc": types.ModuleType("grpc"),
        "pydantic.v1": None,
    }
    assert third_party_loaded(modules, before=["yaml"]) == ["pulumi", "grpc"]


def test_the_command_lists_what_a_statement_loads() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "bench.loaded_modules", "import yaml, json"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
        timeout=60,
    )
    loaded = json.loads(done.stdout)
    assert "yaml" in loaded and "yaml.scanner" in loaded
    assert "json" not in loaded
