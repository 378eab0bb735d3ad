"""A stack's config as Pulumi holds it: read, checked against the rules, and resolved.

The schema is ``settings``; what a valid config means is ``plan``.
"""

from .load import NAMESPACE, ConfigError, load_from_pulumi, load_platform

__all__ = ["NAMESPACE", "ConfigError", "load_from_pulumi", "load_platform"]
