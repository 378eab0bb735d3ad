"""The pack's one dispatch on cloud (gpu_policy_support.clouds): what a pool's cloud says of
its GPUs, its taints and its own labels."""

from __future__ import annotations

from gpu_facts.karpenter import NODE_CLASS_CLOUDS
from gpu_facts.lookup import catalogue_machines
from gpu_facts.scheduling import ACK_GPU_SCHEDULE_LABEL
from gpu_policy_support.clouds import POOL_CLOUDS, UNKNOWN_CLOUD, pool_cloud


def test_the_pack_names_clouds_as_the_catalogues_do() -> None:
    services = {machine.service for machine in catalogue_machines().values()}
    assert set(POOL_CLOUDS) == services == {"aks", "ack", "eks", "gke"}
    assert set(NODE_CLASS_CLOUDS.values()) <= set(POOL_CLOUDS)
    assert pool_cloud("azure") is pool_cloud("") is UNKNOWN_CLOUD


def test_each_cloud_reads_its_own_catalogue() -> None:
    aks, ack, eks, gke = (POOL_CLOUDS[c] for c in ("aks", "ack", "eks", "gke"))
    rows = aks.gpus(("Standard_ND96asr_v4", "Standard_NC4as_T4_v3"), ())
    assert [(r.name, n) for r, n in rows] == [
        ("Standard_ND96asr_v4", 8),
        ("Standard_NC4as_T4_v3", 1),
    ]
    # An AKS pool has one VM size: its GPUs are its first machine type's.
    assert {c for c, p in POOL_CLOUDS.items() if p.first_machine_type} == {"aks"}
    assert [(r.name, n) for r, n in ack.gpus(("ecs.gn7i-c8g1.2xlarge", "ecs.g7.xlarge"), ())] == [
        ("ecs.gn7i-c8g1.2xlarge", 1)
    ]
    assert [(r.name, n) for r, n in eks.gpus(("p5.48xlarge",), ())] == [("p5.48xlarge", 8)]
    assert [(r.name, n) for r, n in gke.gpus(("a2-highgpu-2g",), (("nvidia-l4", 2),))] == [
        ("nvidia-l4", 2),
        ("a2-highgpu-2g", 2),
    ]
    assert eks.gpus(("Standard_ND96asr_v4",), ()) == aks.gpus(("p5.48xlarge",), ()) == ()
    assert UNKNOWN_CLOUD.gpus(("p5.48xlarge",), ()) == ()


def test_a_taint_is_added_as_the_clouds_api_spells_it() -> None:
    key, value, effect = "nvidia.com/gpu", "present", "NoSchedule"
    assert POOL_CLOUDS["aks"].add_taint(key, value, effect) == (
        "Add 'nvidia.com/gpu=present:NoSchedule' to the pool's nodeTaints."
    )
    assert "effect: NO_SCHEDULE}" in POOL_CLOUDS["eks"].add_taint(key, value, effect)
    assert "effect: NoSchedule}" in POOL_CLOUDS["ack"].add_taint(key, value, effect)


def test_what_only_some_clouds_do() -> None:
    assert {c for c, p in POOL_CLOUDS.items() if p.taints_gpu_nodes} == {"gke"}
    assert {c for c, p in POOL_CLOUDS.items() if p.own_pool_label} == {"eks", "gke"}
    assert POOL_CLOUDS["ack"].sharing_label == ACK_GPU_SCHEDULE_LABEL
    assert {c for c, p in POOL_CLOUDS.items() if p.managed_exporter} == {"ack", "gke"}
