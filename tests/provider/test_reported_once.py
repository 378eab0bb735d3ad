"""component_provider.ReportedOnce: an exception many unretrieved futures hold is logged once;
other exceptions and contexts without one reach the default handler as before."""

from __future__ import annotations

import asyncio
import gc
import logging
from typing import Any

import pytest

from gpu_platform.component_provider import ReportedOnce

NEVER_RETRIEVED = "exception was never retrieved"


def test_a_failure_shared_by_many_futures_is_logged_once(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """What the SDK leaves after a refused registration: every output's futures failed with
    the one exception, none awaited."""
    loop = asyncio.new_event_loop()
    loop.set_exception_handler(ReportedOnce())
    refused, other = RuntimeError("refused"), RuntimeError("another")
    try:
        with caplog.at_level(logging.ERROR, logger="asyncio"):
            futures = [loop.create_future() for _ in range(50)]
            for future in futures[:-1]:
                future.set_exception(refused)
            futures[-1].set_exception(other)
            del futures, future
            gc.collect()
    finally:
        loop.close()
    logged = [r for r in caplog.records if NEVER_RETRIEVED in r.getMessage()]
    errors = [r.exc_info[1] if r.exc_info else None for r in logged]
    assert len(errors) == 2  # in the order the collector finalizes them
    assert any(e is refused for e in errors) and any(e is other for e in errors)


def test_contexts_without_an_exception_pass_through() -> None:
    reported: list[dict[str, Any]] = []

    class Loop:
        def default_exception_handler(self, context: dict[str, Any]) -> None:
            reported.append(context)

    handler, loop = ReportedOnce(), Loop()
    handler(loop, {"message": "Task was destroyed but it is pending!"})  # type: ignore[arg-type]
    handler(loop, {"message": "Task was destroyed but it is pending!"})  # type: ignore[arg-type]
    assert len(reported) == 2
