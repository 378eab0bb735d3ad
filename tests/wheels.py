"""Wheels written by hand for tests: no build backend, no index, no network."""

from __future__ import annotations

import base64
import hashlib
import importlib.metadata
import zipfile
from pathlib import Path

from packaging.requirements import Requirement
from packaging.utils import canonicalize_name


def record_line(name: str, data: bytes) -> str:
    """One RECORD row (the wheel spec's ``path,sha256=<urlsafe b64>,size``)."""
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=")
    return f"{name},sha256={digest.decode()},{len(data)}"


def write_wheel(
    directory: Path,
    name: str,
    version: str,
    files: dict[str, bytes],
    *,
    tag: str = "py3-none-any",
    purelib: bool = True,
) -> Path:
    """A wheel of ``files`` (paths inside the wheel), with METADATA, WHEEL and RECORD added."""
    dist = f"{name.replace('-', '_')}-{version}"
    meta = f"{dist}.dist-info"
    every = {
        **files,
        f"{meta}/METADATA": f"Metadata-Version: 2.1\nName: {name}\nVersion: {version}\n".encode(),
        f"{meta}/WHEEL": (
            f"Wheel-Version: 1.0\nGenerator: tests\nRoot-Is-Purelib: {str(purelib).lower()}\n"
            f"Tag: {tag}\n"
        ).encode(),
    }
    record = [record_line(path, data) for path, data in every.items()]
    every[f"{meta}/RECORD"] = ("\n".join([*record, f"{meta}/RECORD,,"]) + "\n").encode()
    path = directory / f"{dist}-{tag}.whl"
    with zipfile.ZipFile(path, "w") as wheel:
        for file, data in every.items():
            info = zipfile.ZipInfo(file)
            # Scripts keep their executable bit through the install, as in real wheels.
            mode = 0o755 if ".data/scripts/" in file else 0o644
            info.external_attr = (0o100000 | mode) << 16
            wheel.writestr(info, data)
    return path


def _closure(name: str) -> list[importlib.metadata.Distribution]:
    """``name``'s installed distribution and those it requires, recursively (markers of this
    interpreter, no extras)."""
    found: dict[str, importlib.metadata.Distribution] = {}
    todo = [name]
    while todo:
        dist = importlib.metadata.distribution(todo.pop())
        key = canonicalize_name(dist.metadata["Name"])
        if key in found:
            continue
        found[key] = dist
        for line in dist.requires or []:
            req = Requirement(line)
            if req.marker is None or req.marker.evaluate({"extra": ""}):
                todo.append(req.name)
    return list(found.values())


def wheelhouse(requirement: str, directory: Path) -> list[Path]:
    """Wheels of ``requirement`` and its dependencies, repacked from this interpreter's own
    installed files (their RECORD): the exact versions we run, for an offline install that
    needs no index and no cache of the machine."""
    return [_repack(dist, directory) for dist in _closure(requirement)]


def _repack(dist: importlib.metadata.Distribution, directory: Path) -> Path:
    name, version = dist.metadata["Name"], dist.version
    tag = (dist.read_text("WHEEL") or "").split("Tag: ", 1)[1].split()[0]
    path = directory / f"{canonicalize_name(name).replace('-', '_')}-{version}-{tag}.whl"
    record: list[str] = []
    meta = ""
    with zipfile.ZipFile(path, "w") as wheel:
        for file in dist.files or []:
            inside = file.as_posix()
            if inside.startswith("..") or "__pycache__" in inside:
                continue  # scripts outside site-packages; bytecode is the installer's business
            if inside.endswith(".dist-info/RECORD"):
                meta = inside
                continue
            if inside.endswith(("INSTALLER", "REQUESTED", "direct_url.json")):
                continue
            source = Path(str(dist.locate_file(file)))
            if not source.is_file():
                continue
            data = source.read_bytes()
            record.append(record_line(inside, data))
            info = zipfile.ZipInfo(inside)
            info.external_attr = (0o100000 | (source.stat().st_mode & 0o777)) << 16
            wheel.writestr(info, data)
        wheel.writestr(meta, "\n".join([*record, f"{meta},,"]) + "\n")
    return path
