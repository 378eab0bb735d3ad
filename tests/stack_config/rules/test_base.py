"""What every rule takes: the config under check (stack_config.rules.base)."""

from __future__ import annotations

from gpu_platform.stack_config.rules.base import ConfigUnderRules, valid_version
from tests.stack_config.rules.subjects import subject


def test_the_config_under_check() -> None:
    cfg = subject("dev")
    assert cfg.cloud == "aks"
    first = cfg.with_pools(cfg.pools[:1])
    assert isinstance(first, ConfigUnderRules)
    assert first.pools == cfg.pools[:1] and first.settings is cfg.settings
    assert first.sound_pools == cfg.sound_pools


def test_valid_version() -> None:
    assert valid_version("0.17.1")
    assert not valid_version("latest")
