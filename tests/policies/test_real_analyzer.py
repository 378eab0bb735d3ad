"""The pack through pulumi-policy's own analyzer code (what `--policy-pack` serves), no server.

``_PolicyAnalyzerServicer`` is private API of pulumi-policy; it is the code the CLI talks to,
so this checks what the CLI would get: the pack's metadata and config schemas serialize, and
resource props arrive as protobuf Structs and still hit the expected policies.
"""

from __future__ import annotations

from typing import Any

from google.protobuf import struct_pb2
from pulumi.runtime.proto import analyzer_pb2 as proto
from pulumi_policy import EnforcementLevel
from pulumi_policy.policy import Policy, _PolicyAnalyzerServicer

from gpu_policies.registry import PACK_NAME, PACK_VERSION, REGISTERED, policies

from .pod_fixtures import container, mutated
from .stack_fixtures import governed


def servicer() -> _PolicyAnalyzerServicer:
    pack: list[Policy] = list(policies())
    return _PolicyAnalyzerServicer(PACK_NAME, PACK_VERSION, pack, EnforcementLevel.ADVISORY)


def test_analyzer_info_lists_every_policy_with_its_schema() -> None:
    info = servicer().GetAnalyzerInfo(None, None)
    by_name = {p.name: p for p in info.policies}
    assert set(by_name) == {e.policy.name for e in REGISTERED}
    for entry in REGISTERED:
        served = by_name[entry.policy.name]
        assert served.description == entry.policy.description
        assert set(entry.practices) <= set(served.tags)
        assert served.enforcementLevel == (
            proto.MANDATORY
            if entry.policy.enforcement_level == EnforcementLevel.MANDATORY
            else proto.ADVISORY
        )
        assert "exemptNames" in served.configSchema.properties


def test_analyze_reports_the_bad_workload_from_a_struct() -> None:
    """A resource analysis and a stack analysis (the toleration needs the stack's pools)."""

    def bad(spec: dict[str, Any]) -> None:
        spec["tolerations"] = []
        container(spec)["securityContext"] = {"privileged": True}

    res = mutated("Deployment", bad)
    properties = struct_pb2.Struct()
    properties.update(res.props)
    request = proto.AnalyzeRequest(type=res.type, name=res.name, urn=res.urn, properties=properties)
    response = servicer().Analyze(request, None)
    resources = [
        proto.AnalyzerResource(type=res.type, name=res.name, urn=res.urn, properties=properties)
    ]
    for other in governed("gpu-training"):  # its namespace, declared and governed
        props = struct_pb2.Struct()
        props.update(other.props)
        resources.append(
            proto.AnalyzerResource(
                type=other.type, name=other.name, urn=other.urn, properties=props
            )
        )
    stack = proto.AnalyzeStackRequest(resources=resources)
    stack_response = servicer().AnalyzeStack(stack, None)
    found = {
        d.policyName: d.enforcementLevel
        for d in [*response.diagnostics, *stack_response.diagnostics]
    }
    assert set(found) == {"gpu-workloads-tolerate-gpu-taint", "no-privileged-gpu-containers"}
    assert set(found.values()) == {proto.MANDATORY}
