"""Every rule at once, each problem once; each sound pool resolved once for the rules across
pools and for the platform (stack_config.rules)."""

from __future__ import annotations

from gpu_platform.settings import PlatformSettings
from gpu_platform.stack_config.rules import POOL_RULES, RULES, check, check_and_resolve
from tests.stack_config.rules.subjects import subject


def test_a_valid_stack_has_no_problem_and_every_pool_resolved() -> None:
    cfg = subject("dev")
    problems, sound = check_and_resolve(cfg.settings)
    assert problems == []
    assert list(sound) == [p.name for p in cfg.settings.gpu_pools]
    assert check(cfg.settings) == []


def test_a_pool_with_problems_is_not_resolved_and_paths_keep_its_place() -> None:
    def break_second(raw: dict) -> None:
        raw["gpuPools"][1]["vmSize"] = "Standard_D4s_v5"

    settings = subject("dev", break_second).settings
    only_second = settings.model_copy(update={"gpu_pools": settings.gpu_pools[1:]})
    problems, sound = check_and_resolve(only_second, [1])
    assert [path for path, _ in problems][:1] == ["gpuPools[1].vmSize"]
    assert sound == {}


def test_each_problem_once() -> None:
    settings = PlatformSettings.model_validate(
        {"cloud": "existing", "cluster": {}, "gpuPools": [{"name": "a"}, {"name": "a"}]}
    )
    problems = check(settings)
    assert len(problems) == len(set(problems))
    assert ("gpuPools", "duplicate name 'a'") in problems


def test_the_rule_lists() -> None:
    assert POOL_RULES and RULES
    assert not set(POOL_RULES) & set(RULES)
