"""A program with a bug of its own: the offline preview must say so, not blame itself."""

import pulumi


class GpuPool(pulumi.ComponentResource):
    def __init__(self, name: str, instance_type: str) -> None:
        super().__init__("team:eks:GpuPool", name)
        if not instance_type.startswith(("g", "p")):
            raise ValueError(f"{instance_type} is not a GPU instance type")


GpuPool("pool", instance_type="m5.large")
