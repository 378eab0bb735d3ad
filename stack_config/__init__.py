"""Typed stack config: models, validation rules and the pool facts they resolve."""

from .load import NAMESPACE, ConfigError, Platform, load_from_pulumi, load_platform
from .models import PlatformConfig
from .pools import PoolFacts

__all__ = [
    "NAMESPACE",
    "ConfigError",
    "Platform",
    "PlatformConfig",
    "PoolFacts",
    "load_from_pulumi",
    "load_platform",
]
