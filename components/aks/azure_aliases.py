"""azure-native's API-version aliases, left off the resources our AKS components create.

Every azure-native class aliases its type in each past API version's module: an ``AgentPool``
carries about 110 (``azure-native:containerservice/v20190201:AgentPool`` ...), so a resource
created through a versioned module keeps its identity when its program moves to the default
one. Our components create through the default modules only, in every release, so no such
alias can name a resource of a stack built with them; the SDK still turns each into an alias
URN on every run, and the engine matches each: about 0.2 s of CPU in a dev preview with three
AgentPools and a ManagedCluster (docs/performance.md).

Only that pattern is dropped (an alias that sets nothing but a versioned form of the
resource's own type); a former name, parent or project, and our components' former type
tokens (``type_tokens.formerly``), are kept. The transformation reaches every descendant of an
AKS component, a resource a program parents to one too: such a resource moving from a
versioned module needs an alias that also names its former parent or name (which is kept).
"""

from __future__ import annotations

import copy

import pulumi

_PACKAGE = "azure-native:"


def is_version_alias(alias: object, resource_type: str) -> bool:
    """``Alias(type_="azure-native:<module>/<version>:<Type>")`` of ``resource_type``
    (``azure-native:<module>:<Type>``), and nothing else set."""
    if not isinstance(alias, pulumi.Alias) or not isinstance(alias.type_, str):
        return False
    if any(value is not ... for value in (alias.name, alias.parent, alias.stack, alias.project)):
        return False
    module, _, kind = resource_type.removeprefix(_PACKAGE).partition(":")
    versioned, _, alias_kind = alias.type_.removeprefix(_PACKAGE).partition(":")
    return (
        alias.type_.startswith(_PACKAGE)
        and alias_kind == kind
        and versioned.startswith(f"{module}/v")
    )


def _drop_version_aliases(
    args: pulumi.ResourceTransformationArgs,
) -> pulumi.ResourceTransformationResult | None:
    aliases = args.opts.aliases
    if not aliases or not args.type_.startswith(_PACKAGE):
        return None
    kept = [alias for alias in aliases if not is_version_alias(alias, args.type_)]
    if len(kept) == len(aliases):
        return None
    opts = copy.copy(args.opts)  # the SDK's own options object stays as it was
    opts.aliases = kept
    return pulumi.ResourceTransformationResult(args.props, opts)


def without_version_aliases(opts: pulumi.ResourceOptions | None) -> pulumi.ResourceOptions:
    """``opts`` for an AKS component: its descendants drop azure-native's API-version aliases.

    A transformation, which the SDK runs in each resource's constructor before it reads the
    aliases (``transforms`` run after), and which children inherit from their parent.
    """
    return pulumi.ResourceOptions.merge(
        opts, pulumi.ResourceOptions(transformations=[_drop_version_aliases])
    )
