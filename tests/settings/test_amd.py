"""The AMD GPU layer's settings: the operator, its driver, images and cert-manager
(settings.amd)."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from gpu_facts import cert_manager_chart as cert_manager
from gpu_facts.amd import gpu_operator as amd
from gpu_platform.settings.amd import AmdDriverSettings, AmdGpuOperatorSettings, AmdImagesSettings


def test_defaults_are_the_operators_release_and_install_cert_manager() -> None:
    settings = AmdGpuOperatorSettings()
    assert (settings.version, settings.namespace) == (amd.DEFAULT_VERSION, amd.DEFAULT_NAMESPACE)
    assert settings.driver.enabled and settings.driver.image is None
    assert settings.driver.version == amd.DEFAULT_DRIVER_VERSION
    assert settings.cert_manager.install
    assert settings.cert_manager.namespace == cert_manager.DEFAULT_NAMESPACE


def test_the_driver_image_is_a_repository_the_operator_tags() -> None:
    image = "myregistry.azurecr.io/amd/amdgpu-kmod"
    assert AmdDriverSettings.model_validate({"image": image}).image == image
    for tagged in ("myregistry.azurecr.io/amd/amdgpu-kmod:6.4", "reg.io/kmod@sha256:abc", "A/B"):
        with pytest.raises(ValidationError, match="a registry repository without a tag"):
            AmdDriverSettings.model_validate({"image": tagged})


def test_images_are_pinned() -> None:
    with pytest.raises(ValidationError, match="pin the image"):
        AmdImagesSettings.model_validate({"devicePlugin": "rocm/k8s-device-plugin:latest"})


@pytest.mark.parametrize(
    "fields",
    [
        {"namespace": "Not_A_Label"},
        {"driver": {"enabled": "yes"}},
        {"certManager": {"install": 1}},
        {"unknown": True},
    ],
)
def test_bad_values_are_refused(fields: dict[str, object]) -> None:
    with pytest.raises(ValidationError):
        AmdGpuOperatorSettings.model_validate(fields)
