"""Hostile manifests and values files: each read within the manifests' bounds (size, aliases,
depth) by the stack files' reader, refused with a mandatory notice that names the file (or the
``yaml`` input) with its line and column, the limit it went past, and exits 1; never a crash,
never an out-of-memory, never ``<unicode string>``."""

from __future__ import annotations

import json
import os
import shutil
from dataclasses import dataclass
from pathlib import Path

import pytest

from gpu_platform.offline_preview.cli import EXIT_MANDATORY, main
from gpu_platform.offline_preview.kube_manifests import (
    MANIFEST_MAX_BYTES,
    MANIFEST_MAX_DEPTH,
    MANIFEST_MAX_VALUES,
)
from gpu_platform.offline_preview.wire import ASSET_SIG, SIG_KEY
from tests.conftest import ROOT

from .remote_components import build_one, one_notice

POD = b"apiVersion: v1\nkind: Pod\nmetadata:\n  name: p\n"
LAUGHS = b"a: &a [x, x, x, x, x, x, x, x, x, x]\n" + b"".join(
    f"{chr(98 + i)}: &{chr(98 + i)} [{', '.join(['*' + chr(97 + i)] * 10)}]\n".encode()
    for i in range(8)
)
"""A "billion laughs": 10^9 values once its aliases are expanded, in under 1 KB."""
DEEP = b"a: " + b"[" * 200 + b"]" * 200 + b"\n"
LARGE = POD + b"# " + b"x" * MANIFEST_MAX_BYTES + b"\n"


@dataclass(frozen=True)
class BadManifest:
    name: str
    content: bytes
    expected: str
    """What the mandatory notice says, after ``FILE`` (the file, or ``yaml[0]``)."""
    as_text: bool = True
    """Whether a program can give it as the ``yaml`` text of a ConfigGroup too."""


MANIFESTS = [
    BadManifest("not UTF-8", POD.replace(b"name: p", b"name: \xff"),
                ":4:9: not UTF-8 text (byte 0xff)", as_text=False),
    BadManifest("a YAML error", b"kind: [\n", ":2:1: did not find expected node content"),
    BadManifest("an alias bomb", LAUGHS,
                f":6:36: more than {MANIFEST_MAX_VALUES} values with aliases expanded"),
    BadManifest("nested 200 deep", DEEP,
                f":1:{3 + MANIFEST_MAX_DEPTH}: nested deeper than "
                f"{MANIFEST_MAX_DEPTH} levels"),
    BadManifest("past the size bound", LARGE, f": larger than {MANIFEST_MAX_BYTES} bytes"),
    BadManifest("a python tag", b"kind: !!python/name:os.system x\n",
                ":1:7: tag !!python/name:os.system is not allowed: plain YAML values only"),
    BadManifest("a list of documents", b"- a\n- b\n", ": a document is not an object: ['a', 'b']"),
    BadManifest("an object without a name", b"apiVersion: v1\nkind: Pod\nmetadata: {}\n",
                "Kubernetes resources require a .metadata.name"),
]  # fmt: skip
CARRIERS = ["ConfigFile file", "ConfigGroup yaml", "Chart valueYamlFiles"]
CASES = [
    (carrier, bad)
    for bad in MANIFESTS
    for carrier in CARRIERS
    if (bad.as_text or carrier != "ConfigGroup yaml")
    and not (carrier == "Chart valueYamlFiles" and "name" in bad.name)
]


def _build(carrier: str, bad: BadManifest, folder: Path) -> tuple[str, str, str]:
    """(level, message, what the message calls the source)."""
    (folder / "manifest.yaml").write_bytes(bad.content)
    return _build_from_folder(carrier, bad, folder)


def _build_from_folder(carrier: str, bad: BadManifest, folder: Path) -> tuple[str, str, str]:
    """``_build`` with ``manifest.yaml`` in ``folder`` already."""
    if carrier == "ConfigFile file":
        _, notices = build_one("file", {"file": "manifest.yaml"}, folder)
        return (*one_notice(notices), "manifest.yaml")
    if carrier == "ConfigGroup yaml":
        _, notices = build_one("group", {"yaml": [bad.content.decode()]}, folder)
        return (*one_notice(notices), "yaml[0]")
    shutil.copytree(ROOT / "tests" / "fixtures" / "charts" / "gpu-device-plugin", folder / "chart")
    values = [{SIG_KEY: ASSET_SIG, "path": "manifest.yaml"}]
    _, notices = build_one("chart", {"chart": "chart", "valueYamlFiles": values}, folder)
    return (*one_notice(notices), "manifest.yaml")


@pytest.mark.parametrize(("carrier", "bad"), CASES, ids=[f"{c}: {b.name}" for c, b in CASES])
def test_a_bad_manifest_is_a_mandatory_notice_naming_its_file_and_limit(
    carrier: str, bad: BadManifest, tmp_path: Path
) -> None:
    level, message, source = _build(carrier, bad, tmp_path)
    assert level == "mandatory"
    expected = bad.expected if bad.expected.startswith("Kubernetes") else source + bad.expected
    assert expected in message, message
    assert "<unicode string>" not in message and "--mocks" not in message


FIFO_CARRIERS = ["ConfigFile file", "Chart valueYamlFiles"]
"""Where a file of the program's folder is read after the program ran, with no clock to
interrupt a read that blocks."""


@pytest.mark.parametrize("carrier", FIFO_CARRIERS)
def test_a_manifest_that_is_a_fifo_is_refused_not_waited_for(carrier: str, tmp_path: Path) -> None:
    # A FIFO nobody writes to: opening it to read would wait for ever, past --timeout.
    os.mkfifo(tmp_path / "manifest.yaml")
    bad = BadManifest("a FIFO", b"", "")
    level, message, source = _build_from_folder(carrier, bad, tmp_path)
    assert level == "mandatory"
    assert f"reading {source}: not a regular file (a FIFO, a device or a socket)" in message


NUL_PATHS = {
    "ConfigFile file": ("file", {"file": "pod\0.yaml"},
                        "reading pod\0.yaml: not a path: it holds a NUL byte"),
    "Chart chart": ("chart", {"chart": "app\0", "version": "1.0.0"},
                    "the input `chart` holds a NUL byte: it names no chart"),
}  # fmt: skip
"""A path no file can have: a mandatory notice, not a ValueError ending the run."""


@pytest.mark.parametrize("carrier", NUL_PATHS)
def test_a_path_with_a_nul_byte_is_a_mandatory_notice(carrier: str, tmp_path: Path) -> None:
    kind, inputs, expected = NUL_PATHS[carrier]
    _, notices = build_one(kind, inputs, tmp_path)
    level, message = one_notice(notices)
    assert (level, expected in message) == ("mandatory", True), message


def test_a_program_whose_manifest_is_not_utf8_exits_1_naming_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "Pulumi.yaml").write_text("name: team\nruntime: python\n")
    (tmp_path / "__main__.py").write_text(
        "import pulumi_kubernetes as k8s\nk8s.yaml.v2.ConfigFile('m', file='pod.yaml')\n"
    )
    (tmp_path / "pod.yaml").write_bytes(MANIFESTS[0].content)
    assert main(["--program", str(tmp_path), "--format", "json"]) == EXIT_MANDATORY
    (notice,) = json.loads(capsys.readouterr().out)["violations"]
    assert "pod.yaml:4:9: not UTF-8 text (byte 0xff)" in notice["message"]
