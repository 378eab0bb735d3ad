"""The imports follow the layers of docs/architecture.md: each package imports only the layers
its row allows, so no import circle and nothing reaching up or sideways.

The allowed directions are read from the doc's layer table, so the doc and the code cannot
drift apart: a new import across layers fails here until the doc says it is allowed.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
DOC = ROOT / "docs" / "architecture.md"
# Where each layer's code lives (the pack's packages are in its own folder).
SOURCES = {
    "gpu_facts": ROOT / "policies" / "gpu_facts",
    "gpu_policy_support": ROOT / "policies" / "gpu_policy_support",
    "gpu_policies": ROOT / "policies" / "gpu_policies",
    "__main__": ROOT / "__main__.py",
    "gpu_platform": ROOT / "gpu_platform" / "__init__.py",
    # Mapped into the package (gpu_platform/components is a link to it).
    "gpu_platform.components": ROOT / "components",
}


def _layer_table() -> dict[str, set[str]]:
    """``layer -> layers it may import`` from the doc's table (| `layer` | `a`, `b` | ...)."""
    allowed: dict[str, set[str]] = {}
    in_table = False
    for line in DOC.read_text().splitlines():
        if line.startswith("| Layer | May import"):
            in_table = True
            continue
        if in_table and not line.startswith("|"):
            break
        if in_table and not line.startswith("|--"):
            cells = [c.strip() for c in line.strip("|").split("|")]
            layer = cells[0].strip("`")
            allowed[layer] = set(re.findall(r"`([\w.]+)`", cells[1]))
    return allowed


LAYERS = _layer_table()


def _modules(layer: str) -> list[Path]:
    source = SOURCES.get(layer, ROOT / layer.replace(".", "/"))
    if source.suffix == ".py":
        return [source]
    if not source.is_dir():  # a module that is a layer of its own (components.platform)
        return [source.with_suffix(".py")]
    return sorted(source.rglob("*.py"))


def _module_name(path: Path) -> str:
    """The dotted name ``path`` imports as (``components/`` is ``gpu_platform.components``)."""
    parts = path.relative_to(ROOT).with_suffix("").parts
    if parts[0] == "components":
        parts = ("gpu_platform", *parts)
    return ".".join(parts)


def _layer_of(module: str) -> str | None:
    """The most specific layer a first-party module belongs to."""
    parts = module.split(".")
    for n in range(len(parts), 0, -1):
        if ".".join(parts[:n]) in LAYERS:
            return ".".join(parts[:n])
    return None


def _imports(path: Path) -> set[str]:
    """Absolute first-party imports anywhere in the file (lazy imports included)."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            found.add(node.module)
            found |= {f"{node.module}.{alias.name}" for alias in node.names}
    return found


def test_the_doc_has_the_layer_table() -> None:
    layers = {"settings", "plan", "stack_config", "components"}
    assert {"gpu_facts", *(f"gpu_platform.{layer}" for layer in layers)} <= set(LAYERS)
    for layer, allowed in LAYERS.items():
        assert allowed <= set(LAYERS), f"{layer} may import unknown layers {allowed - set(LAYERS)}"
        assert _modules(layer), f"no code for layer {layer}"


@pytest.mark.parametrize("layer", sorted(LAYERS))
def test_imports_follow_the_layers(layer: str) -> None:
    wrong = []
    for path in _modules(layer):
        own = _layer_of(_module_name(path)) or layer
        for module in sorted(_imports(path)):
            target = _layer_of(module)
            if target is None or target == own:
                continue
            if target not in LAYERS[own]:
                wrong.append(f"{path.relative_to(ROOT)} imports {module} ({own} -> {target})")
    assert not wrong, "imports the layer table does not allow:\n" + "\n".join(wrong)


def test_no_circle_between_layers() -> None:
    # Depth-first over the allowed directions: the table itself must be a DAG.
    state: dict[str, int] = {}

    def visit(layer: str, trail: tuple[str, ...]) -> None:
        assert state.get(layer) != 1, "circle: " + " -> ".join((*trail, layer))
        if state.get(layer) == 2:
            return
        state[layer] = 1
        for lower in LAYERS[layer]:
            visit(lower, (*trail, layer))
        state[layer] = 2

    for layer in LAYERS:
        visit(layer, ())
