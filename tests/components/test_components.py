"""The components package's own list (components/__init__.py): each public name from one
table, loaded lazily from its module."""

from __future__ import annotations

import pytest

from gpu_platform import components


def test_the_lists_follow_the_one_table() -> None:
    where = {name: module for module, names in components._PUBLIC.items() for name in names}
    assert where == components._WHERE
    assert components.__all__ == sorted(where)
    assert "NodeGpuArgs" in components.__all__ and "AksGpuNodePool" in components.__all__


def test_a_name_loads_from_its_module_and_an_unknown_one_is_refused() -> None:
    pool = components.AksGpuNodePool
    assert pool.__module__ == "gpu_platform.components.aks.gpu_node_pool"
    with pytest.raises(AttributeError, match="AksGpuPool"):
        _ = components.AksGpuPool
