"""URL credentials and secret values masked in what the preview prints."""

from __future__ import annotations

import pytest

from gpu_platform.offline_preview.redact import Redactor, redact_url, redact_urls, secret_pieces


@pytest.mark.parametrize(
    ("url", "shown"),
    [
        ("https://charts.example.com/gpu", "https://charts.example.com/gpu"),
        ("https://ci:t0k@charts.example.com/gpu", "https://[redacted]@charts.example.com/gpu"),
        ("https://t0k@github.com/org/repo", "https://[redacted]@github.com/org/repo"),
        ("oci://ci:t0k@ghcr.io/org/chart", "oci://[redacted]@ghcr.io/org/chart"),
        ("https://h.io/a.yaml?token=t0k&ref=main#x", "https://h.io/a.yaml?token=[redacted]&ref=main#x"),
        ("https://s3.example/x?X-Amz-Signature=ab&X-Amz-Date=1",
         "https://s3.example/x?X-Amz-Signature=[redacted]&X-Amz-Date=1"),
        ("https://blob.example/x?sv=1&sig=abc%2F", "https://blob.example/x?sv=1&sig=[redacted]"),
        ("ci:t0k@registry.example.com/app:1.0", "[redacted]@registry.example.com/app:1.0"),
        ("nvcr.io/nvidia/cuda:12.4@sha256:ab12", "nvcr.io/nvidia/cuda:12.4@sha256:ab12"),
    ],
)  # fmt: skip
def test_a_urls_credentials_are_redacted_and_nothing_else(url: str, shown: str) -> None:
    assert redact_url(url) == shown
    assert redact_url(shown) == shown  # idempotent


def test_urls_in_text_keep_the_punctuation_after_them() -> None:
    assert redact_urls("fetching https://u:p@h.io/x?token=1: Not Found.") == (
        "fetching https://[redacted]@h.io/x?token=[redacted]: Not Found."
    )


def test_a_redactor_masks_secrets_whole_by_line_and_by_piece() -> None:
    kubeconfig = "apiVersion: v1\nusers:\n- user:\n    token: abcdefgh12345\n"
    redactor = Redactor(["s3cr3t-value", "abc", kubeconfig])
    assert redactor.text("x s3cr3t-value abc y") == "x [secret] abc y"  # "abc": too short
    assert redactor.text("bad line: token: abcdefgh12345") == "bad line: [secret]"
    assert redactor.value({"a": ["s3cr3t-value!"], "b": 1}) == {"a": ["[secret]!"], "b": 1}
    pieces = secret_pieces({"registry.example.com/s3cr3t-team/cuda:latest"})
    assert "s3cr3t-team" in pieces and "latest" in pieces and "cuda" not in pieces


def test_a_line_of_a_secret_is_masked_only_as_a_whole_line_of_text() -> None:
    """A kubeconfig's structural line must not eat the start of a longer word elsewhere (Kueue's
    manager config is ``kind: Configuration``); the line itself, quoted, is still masked."""
    kubeconfig = "apiVersion: v1\nkind: Config\nusers:\n- user:\n    token: abcdefgh12345\n"
    redactor = Redactor([kubeconfig])
    config = "apiVersion: config.kueue.x-k8s.io/v1beta2\nkind: Configuration\n"
    assert redactor.text(config) == config
    assert redactor.value({"values": config}) == {"values": config}
    assert redactor.text("quoted: 'kind: Config'") == "quoted: '[secret]'"
    assert redactor.with_secrets(["s3cr3t-piece"]).text(config + " s3cr3t-piece") == (
        config + " [secret]"
    )
