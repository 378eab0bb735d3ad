"""Rules of workload namespaces: names, pools, quota keys, each namespace's own settings
(stack_config.rules.workloads)."""

from __future__ import annotations

from gpu_platform.plan.namespaces import workload_problems
from gpu_platform.stack_config.rules.workloads import RULES, duplicate_names
from tests.stack_config.rules.subjects import Raw, subject


def test_names_and_pools() -> None:
    def bad(raw: Raw) -> None:
        raw["workloads"][0]["name"] = "kube-system"
        raw["workloads"][0]["pools"] = ["nope"]
        raw["workloads"].append({**raw["workloads"][1]})

    cfg = subject("dev", bad)
    found = [p for rule in RULES for p in rule(cfg)]
    name = cfg.settings.workloads[1].name
    assert ("workloads", f"duplicate name {name!r}") in list(duplicate_names(cfg))
    assert (
        "workloads[0].name",
        "'kube-system' is a Kubernetes system namespace; choose another",
    ) in found
    assert ("workloads[0].pools[0]", "no GPU pool named 'nope'") in found


def test_each_namespace_is_judged_by_plan_under_its_place() -> None:
    def bad_cidr(raw: Raw) -> None:
        raw["workloads"][0]["traffic"] = {"egressCidrs": ["10.0.0.1/8"]}

    cfg = subject("dev", bad_cidr)
    found = [p for rule in RULES for p in rule(cfg)]
    # No pool of dev is ACK MPS: the namespace's own problems do not depend on its pools here.
    expected = workload_problems(cfg.settings.workloads[0], [], "workloads[0]")
    assert expected == [
        ("workloads[0].traffic.egressCidrs[0]", "not a CIDR (host bits must be zero): '10.0.0.1/8'")
    ]
    assert all(problem in found for problem in expected)
