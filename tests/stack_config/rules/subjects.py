"""A stack's config changed by a test: as a rule sees it (``ConfigUnderRules``), for asking one
rule directly, or the problems the whole stack config reports."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from gpu_platform.settings import PlatformSettings
from gpu_platform.stack_config import ConfigError, load_platform
from gpu_platform.stack_config.rules import validate_and_resolve
from gpu_platform.stack_config.rules.base import ConfigUnderRules
from tests.conftest import stack_raw

Raw = dict[str, Any]
Mutation = Callable[[Raw], object]


def raw(stack: str, mutate: Mutation = lambda r: None) -> Raw:
    """The stack's ``gpu-platform:`` config, changed by ``mutate``."""
    config = stack_raw(stack)
    mutate(config)
    return config


def problems(stack: str, mutate: Mutation) -> list[tuple[str, str]]:
    """What the stack config refuses once ``mutate`` changed it."""
    with pytest.raises(ConfigError) as err:
        load_platform(raw(stack, mutate))
    return err.value.problems


def subject(stack: str, mutate: Mutation = lambda r: None) -> ConfigUnderRules:
    """The stack's config, changed by ``mutate``, its sound pools resolved."""
    settings = PlatformSettings.model_validate(raw(stack, mutate))
    _, sound = validate_and_resolve(settings)
    return ConfigUnderRules(settings, list(enumerate(settings.gpu_pools)), sound)
