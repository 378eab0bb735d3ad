"""A team program's requirements install only into the cache: no uv or pip setting from the
program's folder or the environment can redirect the install (a target, a prefix, an index,
a config file), the cached virtualenv is marked complete only once it holds them, ``--offline``
installs only what is pinned by hash, and a requirements file that includes itself or is too
large is bad input (exit 2) at its line. Hermetic: a hand-made wheel, uv's cache of the test's
own, no index."""

from __future__ import annotations

import hashlib
import subprocess
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from gpu_platform.offline_preview import program_env
from gpu_platform.offline_preview.cache import OFFLINE_ENV
from gpu_platform.offline_preview.cli import EXIT_CONFIG, EXIT_PROGRAM, main
from gpu_platform.offline_preview.program_env import (
    COMPLETE,
    MAX_REQUIREMENTS_BYTES,
    ProgramEnvError,
    cache_root,
    cached_venv,
)
from tests.wheels import write_wheel

WHEEL = "team_sdk-1.0.0-py3-none-any.whl"


@dataclass(frozen=True)
class Redirect:
    name: str
    files: dict[str, str]
    """Files written into the program's folder (``{elsewhere}`` stands for the folder the
    install must not reach)."""
    env: dict[str, str]
    named: tuple[str, ...] = ()
    """The environment variables stderr names as not read."""


REDIRECTS = [
    Redirect("uv.toml target", {"uv.toml": '[pip]\ntarget = "{elsewhere}"\n'}, {}),
    Redirect("a parent folder's uv.toml: prefix and index",
             {"../uv.toml": '[pip]\nprefix = "{elsewhere}"\nindex-url = "http://127.0.0.1:9/"\n'},
             {}),
    Redirect("pyproject [tool.uv.pip]",
             {"pyproject.toml": '[tool.uv.pip]\ntarget = "{elsewhere}"\n'}, {}),
    Redirect("pip.conf and PIP_CONFIG_FILE",
             {"pip.conf": "[install]\ntarget = {elsewhere}\n"},
             {"PIP_CONFIG_FILE": "{program}/pip.conf"}, ("PIP_CONFIG_FILE",)),
    Redirect("UV_CONFIG_FILE", {"hostile.toml": '[pip]\ntarget = "{elsewhere}"\n'},
             {"UV_CONFIG_FILE": "{program}/hostile.toml"}, ("UV_CONFIG_FILE",)),
    Redirect("PIP_TARGET and PIP_PREFIX", {},
             {"PIP_TARGET": "{elsewhere}", "PIP_PREFIX": "{elsewhere}"},
             ("PIP_PREFIX", "PIP_TARGET")),
    Redirect("UV_INDEX_URL and UV_EXTRA_INDEX_URL", {},
             {"UV_INDEX_URL": "http://127.0.0.1:9/", "UV_EXTRA_INDEX_URL": "http://127.0.0.1:9/"},
             ("UV_EXTRA_INDEX_URL", "UV_INDEX_URL")),
    Redirect("VIRTUAL_ENV and UV_PROJECT_ENVIRONMENT", {},
             {"VIRTUAL_ENV": "{elsewhere}", "UV_PROJECT_ENVIRONMENT": "{elsewhere}"},
             ("UV_PROJECT_ENVIRONMENT", "VIRTUAL_ENV")),
]  # fmt: skip


CHECKS = [
    "never marked complete unverified",
    "--offline without hashes",
    "--offline without hashes, a URL with credentials",
    "--offline with hashes",
]
"""The cases besides the redirects and bad files, one test each."""


@pytest.fixture
def program(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A program folder whose requirements are one hand-made wheel beside them; the cache and
    uv's own cache are the test's, uv offline."""
    monkeypatch.setenv("GPU_PLATFORM_CACHE", str(tmp_path / "cache"))
    monkeypatch.setenv("UV_CACHE_DIR", str(tmp_path / "uv-cache"))
    monkeypatch.setenv("UV_OFFLINE", "1")
    folder = tmp_path / "team"
    folder.mkdir()
    write_wheel(folder, "team_sdk", "1.0.0", {"team_sdk.py": b"GREETING = 'team'\n"})
    (folder / "requirements.txt").write_text(f"./{WHEEL}\n")
    return folder


def _installed_in(venv: Path) -> list[str]:
    return sorted(p.name for p in venv.glob("lib/python*/site-packages/team_sdk*"))


@pytest.mark.slow
def test_no_setting_redirects_the_install_out_of_the_cache(
    program: Path,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """Every redirect of ``REDIRECTS`` at once (one install: had uv or pip read any of them,
    something would be elsewhere), each variable named on stderr."""
    elsewhere = tmp_path / "elsewhere"
    where = {"elsewhere": str(elsewhere), "program": str(program)}
    for redirect in REDIRECTS:
        for name, text in redirect.files.items():
            with (program / name).open("a") as file:
                file.write(text.format(**where))
        for name, value in redirect.env.items():
            monkeypatch.setenv(name, value.format(**where))
    venv = cached_venv(program / "requirements.txt")
    assert venv.parent == cache_root() == tmp_path / "cache" / "venvs"
    assert _installed_in(venv) == ["team_sdk-1.0.0.dist-info", "team_sdk.py"]
    assert (venv / COMPLETE).is_file()
    assert not elsewhere.exists()
    named = capsys.readouterr().err.split("not read from the environment: ", 1)[1]
    assert [n for r in REDIRECTS for n in r.named if n not in named] == []


@pytest.mark.slow
def test_a_virtualenv_that_does_not_hold_the_requirements_is_never_marked_complete(
    program: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An install that put nothing in the virtualenv (as a redirect would have): refused after
    the virtualenv's own interpreter looked, removed, and built afresh on the next run."""
    real = subprocess.run

    def installs_nothing(command: list[str], **kwargs: Any) -> Any:
        if "install" in command:
            return subprocess.CompletedProcess(command, 0, "", "")
        return real(command, **kwargs)

    monkeypatch.setattr(program_env.subprocess, "run", installs_nothing)
    with pytest.raises(ProgramEnvError, match="did not give a virtualenv that holds them: not "
                       "installed in it: team_sdk"):  # fmt: skip
        cached_venv(program / "requirements.txt")
    assert list(cache_root().iterdir()) == []


def test_offline_refuses_requirements_not_pinned_by_hash(
    program: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(OFFLINE_ENV, "1")
    with pytest.raises(ProgramEnvError) as err:
        cached_venv(program / "requirements.txt")
    assert str(err.value).startswith(
        "--offline installs only requirements pinned by hash, and 1 of "
        f"{program / 'requirements.txt'} are not (requirements.txt:1: ./{WHEEL}): pin them"
    )
    assert not cache_root().exists()


def test_offline_names_an_unpinned_requirement_without_its_credentials(
    program: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv(OFFLINE_ENV, "1")
    wheel = "https://ci:tok3n-9f@files.example/team_sdk-1.0.0-py3-none-any.whl"
    (program / "requirements.txt").write_text(f"team-sdk @ {wheel}\n")
    (program / "Pulumi.yaml").write_text("name: team\nruntime: python\n")
    (program / "__main__.py").write_text("import team_sdk\n")
    assert main(["--program", str(program)]) == EXIT_PROGRAM
    err = capsys.readouterr().err
    assert "tok3n-9f" not in err
    assert "requirements.txt:1: team-sdk @ https://[redacted]@files.example/team_sdk" in err


@pytest.mark.slow
def test_offline_installs_requirements_pinned_by_hash_from_uvs_cache(
    program: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(OFFLINE_ENV, "1")
    digest = hashlib.sha256((program / WHEEL).read_bytes()).hexdigest()
    (program / "requirements.txt").write_text(f"./{WHEEL} --hash=sha256:{digest}\n")
    venv = cached_venv(program / "requirements.txt")
    assert _installed_in(venv) == ["team_sdk-1.0.0.dist-info", "team_sdk.py"]


BAD_REQUIREMENTS = [
    ("includes itself", {"requirements.txt": "pulumi\n-r requirements.txt\n"},
     "requirements.txt:2: -r requirements.txt: includes a file already being read "
     "(requirements.txt -> requirements.txt)"),
    ("includes itself through another", {"requirements.txt": "-r base.txt\n",
                                         "base.txt": "pulumi\n--requirement=requirements.txt\n"},
     "base.txt:2: --requirement=requirements.txt: includes a file already being read "
     "(requirements.txt -> base.txt -> requirements.txt)"),
    ("includes a file that is not there", {"requirements.txt": "-r gone.txt\n"},
     "requirements.txt:1: -r gone.txt: no such file"),
    ("larger than its bound", {"requirements.txt": "#" * (MAX_REQUIREMENTS_BYTES + 1)},
     f"requirements.txt: larger than {MAX_REQUIREMENTS_BYTES} bytes"),
    ("names a URL with credentials", {"requirements.txt": "-c https://ci:tok3n-9f@h.example/c.txt\n"},
     "requirements.txt:1: -c https://[redacted]@h.example/c.txt: no such file"),
]  # fmt: skip


@pytest.mark.parametrize(
    ("files", "expected"), [c[1:] for c in BAD_REQUIREMENTS], ids=[c[0] for c in BAD_REQUIREMENTS]
)
def test_a_bad_requirements_file_exits_2_at_its_line(
    files: dict[str, str], expected: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "Pulumi.yaml").write_text("name: team\nruntime: python\n")
    (tmp_path / "__main__.py").write_text("import pulumi\n")
    for name, text in files.items():
        (tmp_path / name).write_text(text)
    assert main(["--program", str(tmp_path)]) == EXIT_CONFIG
    assert capsys.readouterr().err == f"error: {tmp_path}/{expected}\n"
