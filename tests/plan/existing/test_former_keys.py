"""An existing cluster's pool as 0.2 wrote it, read in its own terms for one release
(plan.existing.former_keys)."""

from __future__ import annotations

from gpu_platform.plan.existing.former_keys import former_pool_keys


def test_an_azure_size_and_aks_mig_name_are_read_in_the_nodes_terms() -> None:
    old = {
        "name": "a100",
        "vmSize": "Standard_ND96asr_v4",
        "count": 2,
        "mig": {"profile": "MIG3g", "strategy": "mixed"},
        "osSku": "Ubuntu",
    }
    new, warnings = former_pool_keys(old, "gpuPools[0]")
    assert new == {
        "name": "a100",
        "machineType": "Standard_ND96asr_v4",
        "count": 2,
        "mig": {"profile": "3g.20gb", "strategy": "mixed"},
    }
    assert [w.split(":", 1)[0] for w in warnings] == [
        "gpuPools[0].vmSize",
        "gpuPools[0].osSku",
        "gpuPools[0].mig.profile",
    ]
    assert "read as machineType: Standard_ND96asr_v4" in warnings[0]
    assert "read as 3g.20gb" in warnings[2]


def test_component_args_and_an_ecs_type_too() -> None:
    new, warnings = former_pool_keys({"name": "a10", "instance_type": "ecs.gn7i-c8g1.2xlarge"}, "p")
    assert new == {"name": "a10", "machineType": "ecs.gn7i-c8g1.2xlarge"} and len(warnings) == 1


def test_a_pool_in_todays_terms_is_left_as_it_is() -> None:
    today = {"name": "h100", "gpu": {"model": "H100-80GB", "count": 8}, "count": 2}
    assert former_pool_keys(today, "gpuPools[0]") == (today, [])
    # Keys it refused before stay refused (the schema names them).
    assert former_pool_keys({**today, "zones": ["1"]}, "x")[0]["zones"] == ["1"]
