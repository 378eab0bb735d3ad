"""readiness.seed_checks: what stops the run and what becomes a row (the checks themselves run
end to end in tests/stacks/test_verify_seeds.py)."""

from __future__ import annotations

import pytest

from gpu_platform.verify.cluster import ClusterError
from gpu_platform.verify.seed_checks import _refused


def test_a_refused_read_is_a_row_naming_the_permission() -> None:
    err = ClusterError("not allowed to get storageclass x at https://k (403 Forbidden): no", 403)
    assert _refused(err, "get on storageclasses") == (
        "not allowed to get storageclass x at https://k (403 Forbidden): no; the verifying "
        "identity needs get on storageclasses"
    )


@pytest.mark.parametrize("status", [None, 401, 500])
def test_any_other_failure_stops_the_run(status: int | None) -> None:
    """Unreachable, expired credentials, a broken server: exit 2 with one line, as for the
    other reads."""
    err = ClusterError("boom", status)
    with pytest.raises(ClusterError, match="boom"):
        _refused(err, "get on storageclasses")
