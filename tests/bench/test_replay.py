"""The replay floor registers exactly what a program registered, through the SDK's generic
classes: the same types, names, parents, inputs (secrets, unknowns), providers, options and
dependencies; and the check names any difference."""

from __future__ import annotations

import json

import pulumi
import pulumi_kubernetes as k8s

from bench.replay import ReplayPlan, differences, plan_of, recorded_plan, replay
from gpu_platform.offline_preview.engine import PreviewMocks, RecordingMonitor, run_callable


class Box(pulumi.ComponentResource):
    def __init__(self, name: str, opts: pulumi.ResourceOptions | None = None) -> None:
        super().__init__("test:index:Box", name, None, opts)
        provider = k8s.Provider(
            f"{name}-k8s",
            kubeconfig=pulumi.Output.secret("config"),
            opts=pulumi.ResourceOptions(parent=self),
        )
        child = pulumi.ResourceOptions(parent=self, provider=provider)
        ns = k8s.core.v1.Namespace(
            f"{name}-ns", metadata=k8s.meta.v1.ObjectMetaArgs(name="team"), opts=child
        )
        k8s.core.v1.ConfigMap(
            f"{name}-cm",
            metadata=k8s.meta.v1.ObjectMetaArgs(name="cm", namespace=ns.metadata.name),
            # An input from another resource's output that a preview cannot know yet.
            data={"uid": ns.metadata.uid, "token": pulumi.Output.secret("s3cret")},
            opts=pulumi.ResourceOptions.merge(
                child,
                pulumi.ResourceOptions(
                    depends_on=[ns], protect=True, ignore_changes=["data"], aliases=["urn:old"]
                ),
            ),
        )
        self.register_outputs({"namespace": ns.metadata.name})


def program() -> None:
    box = Box("box")
    pulumi.export("namespace", box.urn)


def recorded() -> tuple[ReplayPlan, str, str]:
    monitor = RecordingMonitor(PreviewMocks())
    run = run_callable(program, monitor=monitor)
    plan = recorded_plan(run.resources, monitor.registered_outputs, run.outputs)
    # What the floor process reads: the plan through JSON.
    return ReplayPlan(**json.loads(json.dumps(plan.as_dict()))), run.project, run.stack


def test_a_replay_registers_exactly_the_recorded_plan() -> None:
    plan, project, stack = recorded()
    kinds = {entry["type"] for entry in plan.registrations}
    assert kinds == {
        "test:index:Box",
        "pulumi:providers:kubernetes",
        "kubernetes:core/v1:Namespace",
        "kubernetes:core/v1:ConfigMap",
    }
    (config_map,) = (e for e in plan.registrations if e["name"] == "box-cm")
    assert config_map["property_dependencies"]["data"] and config_map["dependencies"]
    assert config_map["protect"] and config_map["ignore_changes"] == ["data"]
    replayed = run_callable(lambda: replay(plan), project=project, stack=stack)
    assert differences(plan.registrations, [plan_of(r) for r in replayed.resources]) == []
    assert replayed.outputs.keys() == {"namespace"}


def test_differences_name_each_field_and_resource() -> None:
    plan, _, _ = recorded()
    changed = json.loads(json.dumps(plan.registrations))
    changed[-1]["inputs"] = {}
    urn = changed[-1]["urn"]
    extra = dict(changed[0], urn="urn:extra")
    found = differences(plan.registrations, [*changed[1:], extra])
    assert found[0] == f"{plan.registrations[0]['urn']}: not replayed"
    assert any(line.startswith(f"{urn}: inputs ") for line in found)
    assert found[-1] == "urn:extra: replayed, not in the preview"
