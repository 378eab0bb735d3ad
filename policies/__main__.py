"""Entry point of the policy pack: ``pulumi preview --policy-pack policies``.

Only this module builds the ``PolicyPack``: its constructor starts the analyzer server and
never returns, so tests and the offline preview import ``gpu_policies`` instead.
"""

from pulumi_policy import EnforcementLevel, PolicyPack

from gpu_policies.registry import PACK_NAME, policies

PolicyPack(
    name=PACK_NAME,
    enforcement_level=EnforcementLevel.ADVISORY,
    policies=policies(),
    description="GPU-on-Kubernetes practices BP-01 … BP-20, enforced at preview.",
)
