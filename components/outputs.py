"""Output helpers shared by the components."""

from __future__ import annotations

from typing import TypeVar

import pulumi

T = TypeVar("T")


def known_after(value: pulumi.Input[T], resource: pulumi.Resource) -> pulumi.Output[T]:
    """``value``, carrying a dependency on ``resource`` through its URN.

    Known at preview whenever ``value`` is (a URN always is), unlike the resource's own
    outputs, which are unknown while it is being created or its provider is: a namespace
    name that a policy must read, or a cluster ID whose change would replace node pools.
    """
    return pulumi.Output.all(value, resource.urn).apply(lambda v: v[0])
