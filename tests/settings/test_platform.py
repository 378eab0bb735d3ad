"""The whole stack config: the cloud picks the cluster model (settings.platform)."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from gpu_platform.settings import AckClusterSettings, AksClusterSettings
from gpu_platform.settings.platform import CLUSTER_SETTINGS, PlatformSettings


def test_the_cloud_picks_the_cluster_model() -> None:
    azure = PlatformSettings.model_validate(
        {
            "cloud": "aks",
            "cluster": {"name": "a", "location": "westeurope", "resourceGroup": {"name": "rg"}},
        }
    )
    assert isinstance(azure.cluster, AksClusterSettings)
    ack = PlatformSettings.model_validate(
        {"cloud": "ack", "cluster": {"name": "a", "region": "cn-hangzhou"}}
    )
    assert isinstance(ack.cluster, AckClusterSettings)
    assert set(CLUSTER_SETTINGS) == {"aks", "ack", "existing"}


def test_cluster_keys_of_another_cloud_are_refused() -> None:
    with pytest.raises(ValidationError, match="location"):
        PlatformSettings.model_validate({"cloud": "aks", "cluster": {"name": "a", "region": "x"}})


def test_the_driver_check_key() -> None:
    settings = PlatformSettings.model_validate(
        {"cloud": "existing", "cluster": {}, "driverCheck": {"minDriverMajor": 550}}
    )
    assert settings.driver_check.min_driver_major == 550
    # The old key is the stack config's to translate (stack_config.load), not the schema's.
    with pytest.raises(ValidationError, match="readiness"):
        PlatformSettings.model_validate({"cloud": "existing", "cluster": {}, "readiness": {}})
