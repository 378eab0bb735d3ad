"""A team's own MPS control daemon runs at ``system-node-critical`` priority.

Seed 003 (ACK's MPS guide): the daemon's pod uses ``priorityClassName: system-node-critical`` so
the node keeps it when resources run short; stopping or restarting it makes the MPS clients fail.
ACK's ``ack-mps-control`` and NVIDIA's device plugin chart set it for the daemons they run; a
team that runs the daemon from its own manifests (``gpu_policy_support.mps_daemons``) sets it
itself.
"""

from __future__ import annotations

from pulumi_policy import EnforcementLevel, Severity, StackValidationArgs

from gpu_facts.nvidia.mps import MPS_DAEMON_PRIORITY_CLASS
from gpu_policy_support.mps_daemons import own_mps_daemons
from gpu_policy_support.policy_factory import Config, PolicyInfo, Report, stack_policy
from gpu_policy_support.props import text
from gpu_policy_support.stack_index import index_by_type

INFO = PolicyInfo(
    name="mps-control-daemon-system-node-critical",
    description=(
        "Every MPS control daemon the stack runs itself (a pod running nvidia-cuda-mps-control, "
        "the device plugin image as mps-control-daemon, or labelled as ACK's daemon) sets "
        f"priorityClassName: {MPS_DAEMON_PRIORITY_CLASS}, so the node never evicts it: its MPS "
        "clients fail when it stops."
    ),
    practices=("BP-16",),
    enforcement_level=EnforcementLevel.MANDATORY,
    severity=Severity.HIGH,
    remediation_steps=(
        f"Set priorityClassName: {MPS_DAEMON_PRIORITY_CLASS} in the daemon's pod spec (or "
        "install it with ACK's ack-mps-control or NVIDIA's device plugin chart, which set it)."
    ),
    exemptions="names",
)


def validate(args: StackValidationArgs, config: Config, report: Report) -> None:
    index = index_by_type(args.resources)
    for resource, site in own_mps_daemons(index, config):
        priority = text(site.spec.get("priorityClassName"))
        if priority == MPS_DAEMON_PRIORITY_CLASS:
            continue
        report(
            f"MPS control daemon {site.named(resource.name)} runs at priority class "
            f"'{priority or 'none'}', not {MPS_DAEMON_PRIORITY_CLASS}: under memory or CPU "
            "pressure the node may evict it, and every MPS client on the node fails.",
            resource.urn,
        )


POLICY = stack_policy(INFO, validate)
