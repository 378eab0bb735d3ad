"""No azure-native resource of our AKS stacks carries one of the SDK's API-version aliases
(components.aks.azure_aliases drops them; tests/components/aks/test_azure_aliases.py, component
by component)."""

from __future__ import annotations

import pytest

from tests.components.aks.test_azure_aliases import AGENT_POOL, version_aliases
from tests.conftest import stack_preview


@pytest.mark.slow
@pytest.mark.parametrize("stack", ["dev", "prod"])
def test_no_azure_resource_of_a_stack_carries_a_version_alias(stack: str) -> None:
    result = stack_preview(stack).run
    assert any(r.type == AGENT_POOL for r in result.resources)
    assert version_aliases(result) == {}
