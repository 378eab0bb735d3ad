"""Bad component input on the mock engine: the ``pulumi.InputPropertiesError`` and proof that
nothing was registered."""

from collections.abc import Callable
from typing import Any

import pulumi
import pytest

from gpu_platform.offline_preview.engine import PreviewMocks, RecordingMonitor
from tests.conftest import run


def refused(program: Callable[[], Any]) -> pulumi.InputPropertiesError:
    """The error ``program`` raises; fails unless it registered no resource at all."""
    monitor = RecordingMonitor(PreviewMocks())
    with pytest.raises(pulumi.InputPropertiesError) as err:
        run(program, monitor=monitor)
    assert monitor.recorded == []
    return err.value


def paths(err: pulumi.InputPropertiesError) -> list[str]:
    """The property paths the error names, in order."""
    return [e["property_path"] for e in err.errors or []]


def reasons(err: pulumi.InputPropertiesError) -> dict[str, str]:
    return {e["property_path"]: e["reason"] for e in err.errors or []}
