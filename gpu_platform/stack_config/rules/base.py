"""What every rule takes and returns: the config under the rules, and problems with key paths."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace

from gpu_facts.nvidia.device_plugin_chart import version_tuple
from gpu_platform.plan.pools import PoolFacts
from gpu_platform.plan.problems import Problem, join_path
from gpu_platform.settings import Cloud, GpuPoolSettings, PlatformSettings


@dataclass(frozen=True)
class ConfigUnderRules:
    """The settings a rule judges.

    ``pools`` pairs each GPU pool with its position in the user's list (the settings may hold
    only the pools that passed structural validation, so paths still point at the right item).
    ``sound_pools`` are the pools whose own rules passed, resolved against the catalog; rules
    that look across pools (workloads, the GPU layer) judge those. A claim about what no pool
    has rests on every pool: ``all_pools_sound`` says whether it can be made now
    (``follow_on``).
    """

    settings: PlatformSettings
    pools: Sequence[tuple[int, GpuPoolSettings]]
    sound_pools: Mapping[str, PoolFacts] = field(default_factory=dict)
    all_pools_sound: bool = True

    @property
    def cloud(self) -> Cloud:
        return self.settings.cloud

    def with_pools(self, pools: Sequence[tuple[int, GpuPoolSettings]]) -> ConfigUnderRules:
        return replace(self, pools=pools)


Rule = Callable[[ConfigUnderRules], Iterator[Problem]]
"""Every rule: the config under the rules in, each problem it finds out. A rule is an adapter: it
asks a ``plan`` rule, which holds the judgement and the message, and puts the paths under the
config's (``tests/stack_config/rules/test_rules.py`` holds every rule to it)."""


def placed(prefix: str, problems: Iterable[Problem]) -> Iterator[Problem]:
    """``problems`` with their paths under ``prefix``, one at a time (not ``plan.problems.under``'s
    list): ``follow_on`` records what the rule had read when it found each."""
    for path, message in problems:
        yield join_path(prefix, path), message


def valid_version(version: str) -> bool:
    try:
        version_tuple(version)
    except ValueError:
        return False
    return True
