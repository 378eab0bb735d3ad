"""A component's args as its inputs: what the plan and the stack's state record of it.

The engine records a component registered through the component provider (a YAML or Go
program) with the properties it was given; one registered from Python records what its
constructor passes to ``ComponentResource``. Passing the args makes both the same, so a plan
(``python -m gpu_platform.offline_preview --format json``, ``pulumi preview --json``) or a
state export says what each component was asked for: ``make verify --plan`` derives what the
cluster must show from it (``gpu_platform.verify.plan_expectations``).

No component that records its args takes a credential; the one that does, ``ExistingCluster``
(a kubeconfig), records none, as ``make verify`` needs nothing of it. Args that are other
resources' outputs would make the component, and so everything under it, wait for those
resources (the engine's dependencies of an input): such args are left out where the component
must not wait (``DriverCheck``'s ``node_pools``: each pool's check waits for its own pool only;
``tests/stacks/test_stack_dev_prod.py`` checks it on the plans' graph), and so are resources
(``AckMonitoring``'s provider).
"""

from collections.abc import Mapping
from typing import Any


def recorded_inputs(args: Mapping[str, Any], *, leave_out: tuple[str, ...] = ()) -> dict[str, Any]:
    """``args`` as the component's inputs, without the ``leave_out`` ones."""
    return {key: value for key, value in args.items() if key not in leave_out}
