"""``gpu_platform.stack_config``'s names load lazily: importing the bounded YAML reader (as the
offline preview does to decode manifests, in a program's own virtualenv too) imports neither
the loader nor pydantic."""

from __future__ import annotations

import subprocess
import sys

import pytest

from gpu_platform import stack_config
from gpu_platform.stack_config.load import NAMESPACE, ConfigError, load_from_pulumi, load_platform


def test_the_packages_names_are_the_loaders() -> None:
    assert (
        stack_config.NAMESPACE,
        stack_config.ConfigError,
        stack_config.load_from_pulumi,
        stack_config.load_platform,
    ) == (NAMESPACE, ConfigError, load_from_pulumi, load_platform)
    with pytest.raises(AttributeError, match="has no attribute 'bogus'"):
        _ = stack_config.bogus  # type: ignore[attr-defined]


def test_the_yaml_reader_imports_without_the_loader() -> None:
    done = subprocess.run(
        [
            sys.executable,
            "-c",
            "import sys, gpu_platform.stack_config.yaml_file; "
            "print(sorted(m for m in ('pydantic', 'gpu_platform.stack_config.load') "
            "if m in sys.modules))",
        ],
        capture_output=True,
        text=True,
        check=True,
    )
    assert done.stdout.strip() == "[]"
