"""A stack's config as a rule sees it (``ConfigUnderCheck``), for asking one rule directly."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from gpu_platform.settings import PlatformSettings
from gpu_platform.stack_config.rules import check_and_resolve
from gpu_platform.stack_config.rules.base import ConfigUnderCheck
from tests.conftest import stack_raw

Raw = dict[str, Any]


def subject(stack: str, mutate: Callable[[Raw], object] = lambda raw: None) -> ConfigUnderCheck:
    """The stack's config, changed by ``mutate``, its sound pools resolved."""
    raw = stack_raw(stack)
    mutate(raw)
    settings = PlatformSettings.model_validate(raw)
    _, sound = check_and_resolve(settings)
    return ConfigUnderCheck(settings, list(enumerate(settings.gpu_pools)), sound)
