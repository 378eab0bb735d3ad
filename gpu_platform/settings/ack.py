"""An ACK GPU pool: an ECS instance type from the catalogue. (The ACK cluster's own settings are
in ``clusters``.)"""

from __future__ import annotations

from .pools import ManagedGpuPoolSettings


class AckGpuPoolSettings(ManagedGpuPoolSettings):
    """A GPU pool of an ACK cluster (``cloud: ack``)."""

    instance_type: str
    """Alibaba ECS instance type with GPUs (``gpu_facts.ack.machine_types``), e.g.
    ``ecs.gn7i-c8g1.2xlarge``."""
