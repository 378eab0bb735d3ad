"""What every settings model shares: unknown keys refused, camelCase keys, frozen, built on first
use; the value types they share (settings.base)."""

from __future__ import annotations

import subprocess
import sys
from decimal import Decimal
from pathlib import Path

import pytest
from pydantic import ValidationError

from gpu_platform.settings.base import SettingsModel, WholeNumber, quantity_value

ROOT = Path(__file__).resolve().parents[2]


class Example(SettingsModel):
    max_pods: WholeNumber = 110
    """An example field."""


def test_camel_case_keys_snake_case_names_and_nothing_unknown() -> None:
    assert Example.model_validate({"maxPods": 30}).max_pods == 30
    assert Example.model_validate({"max_pods": 30}).max_pods == 30
    with pytest.raises(ValidationError, match="Extra inputs are not permitted"):
        Example.model_validate({"maxPod": 30})
    with pytest.raises(ValidationError):
        Example.model_validate({"maxPods": "30"})  # strict: a string is no number
    with pytest.raises(ValidationError):
        Example(max_pods=30).__setattr__("max_pods", 31)  # frozen


def test_quantities_compare_as_numbers() -> None:
    assert quantity_value("64Mi") == Decimal(64 * 2**20)
    assert quantity_value("500m") == Decimal("0.5")
    assert quantity_value("1G") < quantity_value("1Gi")


def test_importing_the_settings_builds_no_validator() -> None:
    """The models are built on first use (``defer_build``): a stack that never validates ACK's
    cluster settings does not pay for building them."""
    code = (
        "import settings\n"
        "print(settings.AckClusterSettings.__pydantic_complete__,"
        " settings.PlatformSettings.__pydantic_complete__)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True
    )
    assert done.stdout.split() == ["False", "False"]
