"""Type tokens: every component is ``gpu-platform:index:<Class>``, as Pulumi requires of a
component provider's types ("It must match exactly"), so the same component keeps one token
whether a Python program builds it or another language reaches it through our provider.

Releases before 0.2.0 registered ``gpu-platform:<module>:<Class>`` (``azure``, ``alicloud``,
``gpu``, ``workloads``, ``cluster``): the former token is an alias, so a deployed stack sees
the same component (and its children) renamed, not replaced.
"""

from __future__ import annotations

import pulumi

PACKAGE = "gpu-platform"


def type_token(class_name: str) -> str:
    """``gpu-platform:index:<class_name>``."""
    return f"{PACKAGE}:index:{class_name}"


def formerly(former_token: str, opts: pulumi.ResourceOptions | None) -> pulumi.ResourceOptions:
    """``opts`` plus an alias from the token a component was registered under before."""
    return pulumi.ResourceOptions.merge(
        opts, pulumi.ResourceOptions(aliases=[pulumi.Alias(type_=former_token)])
    )
