"""A component's args recorded as its inputs (components/recorded_inputs.py): what the plan
and the state show of it, outputs that must not be waited for left out."""

from __future__ import annotations

import pulumi

from gpu_platform.components.recorded_inputs import recorded_inputs
from tests.conftest import run


def test_the_args_are_the_components_inputs() -> None:
    class Component(pulumi.ComponentResource):
        def __init__(self, name: str, args: dict[str, object]) -> None:
            inputs = recorded_inputs(args, leave_out=("waits",))
            super().__init__("gpu-platform:index:Test", name, inputs)
            self.register_outputs({})

    recorded = run(lambda: Component("c", {"pools": [{"name": "t4", "count": 2}], "waits": "x"}))
    (component,) = recorded.resources
    assert component.inputs == {"pools": [{"name": "t4", "count": 2}]}
