"""The project and stack files as the Pulumi CLI hands them over, and what it would silently
ignore refused (stack_config/files.py)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from gpu_platform.stack_config.files import (
    SECRET_PLACEHOLDER,
    program_main,
    project_name,
    read_project,
    read_stack_config,
)
from gpu_platform.stack_config.yaml_file import FileProblem, InputFileError

ROOT = Path(__file__).resolve().parents[2]


def stack(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "Pulumi.dev.yaml"
    path.write_text(text)
    return path


def refused(path: Path, project: str = "gpu-platform") -> list[FileProblem]:
    with pytest.raises(InputFileError) as err:
        read_stack_config(path, project)
    return err.value.problems


def test_values_reach_the_program_as_text_or_json(tmp_path: Path) -> None:
    path = stack(
        tmp_path,
        "secretsprovider: passphrase\nencryptionsalt: v1:abc\nconfig:\n"
        "  gpu-platform:cloud: aks\n  gpu-platform:gpuPools: [{name: a}]\n"
        "  azure-native:location: westeurope\n  kubernetes:context: kind\n"
        "  pulumi:tags: {team: ml}\n  count: 3\n"
        "  gpu-platform:kubeconfig:\n    secure: AAABAGVuY3J5cHRlZA==\n",
    )
    loaded = read_stack_config(path, "gpu-platform")
    assert loaded.config == {
        "gpu-platform:cloud": "aks",
        "gpu-platform:gpuPools": '[{"name": "a"}]',
        "azure-native:location": "westeurope",
        "kubernetes:context": "kind",
        "pulumi:tags": '{"team": "ml"}',
        "gpu-platform:count": "3",
        "gpu-platform:kubeconfig": SECRET_PLACEHOLDER,
    }
    assert loaded.secret_keys == ["gpu-platform:kubeconfig"]


@pytest.mark.parametrize(
    "namespace", ["gpu-platfrom", "gpu-platforms", "GPU-Platform", "gpuplatform", "gpu_platform"]
)
def test_a_namespace_that_is_almost_the_projects_is_refused(tmp_path: Path, namespace: str) -> None:
    path = stack(
        tmp_path, f"config:\n  gpu-platform:cloud: aks\n  {namespace}:observability: {{}}\n"
    )
    assert refused(path) == [
        FileProblem(
            f"'{namespace}:observability': namespace '{namespace}' is almost the project's, "
            "'gpu-platform': Pulumi would pass it to no one and the program would fall back to "
            "its default; did you mean 'gpu-platform:observability'?",
            3,
            3,
        )
    ]


def test_a_short_name_one_edit_away_is_let_through(tmp_path: Path) -> None:
    """Below the similarity (``aws`` for project ``aks`` is 0.67): another provider's
    namespace as likely as a typo, and a valid stack is not refused on a guess."""
    path = stack(tmp_path, "config:\n  aks:size: 1\n  aws:region: eu-west-1\n")
    assert read_stack_config(path, "aks").config == {"aks:size": "1", "aws:region": "eu-west-1"}


@pytest.mark.parametrize("project", ["kubernete", "kubernets", "azure-natives"])
def test_an_installed_provider_s_namespace_is_never_a_misspelling(
    tmp_path: Path, project: str
) -> None:
    """``kubernetes:context`` is pulumi-kubernetes' config, whatever the project is called."""
    path = stack(tmp_path, "config:\n  kubernetes:context: kind\n  azure-native:location: x\n")
    assert read_stack_config(path, project).config == {
        "kubernetes:context": "kind",
        "azure-native:location": "x",
    }


@pytest.mark.parametrize(
    "key", ["aws:region", "gcp:project", "alicloud:region", "platform:x", "gpu:y", "pulumi:tags"]
)
def test_other_namespaces_are_the_providers(tmp_path: Path, key: str) -> None:
    path = stack(tmp_path, f"config:\n  {key}: v\n")
    assert read_stack_config(path, "gpu-platform").config == {key: "v"}


def test_a_stack_file_key_pulumi_does_not_know_is_refused(tmp_path: Path) -> None:
    path = stack(tmp_path, "confg:\n  gpu-platform:cloud: aks\nsecretprovider: x\n")
    assert refused(path) == [
        FileProblem("unknown key 'confg' of a stack file; did you mean 'config'?", 1, 1),
        FileProblem(
            "unknown key 'secretprovider' of a stack file; did you mean 'secretsprovider'?", 3, 1
        ),
    ]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (
            "- config\n",
            FileProblem("a stack file is a mapping with config: (and secretsprovider:...)", 1, 1),
        ),
        ("config: [a]\n", FileProblem("config: a mapping of namespace:key to values", 1, 1)),
        ("config:\n  7: seven\n", FileProblem("config key 7: text, namespace:name", 2, 3)),
    ],
)
def test_a_stack_file_of_the_wrong_shape_is_refused(
    tmp_path: Path, text: str, expected: FileProblem
) -> None:
    assert refused(stack(tmp_path, text)) == [expected]


def test_an_empty_stack_file_has_no_config(tmp_path: Path) -> None:
    assert read_stack_config(stack(tmp_path, ""), "p").config == {}


def project(tmp_path: Path, text: str, main: str | None = "__main__.py") -> Path:
    (tmp_path / "Pulumi.yaml").write_text(text)
    if main:
        (tmp_path / main).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / main).write_text("")
    return tmp_path


def test_the_project_file_gives_name_runtime_main_and_stack_folder(tmp_path: Path) -> None:
    folder = project(
        tmp_path,
        "name: team\nruntime:\n  name: python\n  options: {virtualenv: venv}\n"
        "main: src/\nstackConfigDir: stacks\n",
        main="src/__main__.py",
    )
    loaded = read_project(folder)
    assert (loaded.name, loaded.runtime, loaded.options) == (
        "team",
        "python",
        {"virtualenv": "venv"},
    )
    assert loaded.stack_file("dev") == folder / "stacks" / "Pulumi.dev.yaml"
    assert program_main(loaded) == (folder / "src" / "__main__.py").resolve()


def test_main_may_name_the_program_file(tmp_path: Path) -> None:
    folder = project(tmp_path, "name: team\nruntime: python\nmain: app.py\n", main="app.py")
    assert program_main(read_project(folder)) == (folder / "app.py").resolve()


@pytest.mark.parametrize(
    ("text", "main", "expected"),
    [
        ("runtime: python\n", "__main__.py", "name: required, the project's name"),
        ("name: t\nruntime: [python]\n", "__main__.py", "runtime: a name, or name: and options:"),
        ("name: t\nruntime: python\nmain: 7\n", "__main__.py", "main: a path"),
        ("- name\n", "__main__.py", "a project file is a mapping"),
        ("name: t\nname: u\nruntime: python\n", "__main__.py", "key 'name' defined twice"),
    ],
)
def test_a_project_file_pulumi_would_refuse_or_misread_is_refused(
    tmp_path: Path, text: str, main: str | None, expected: str
) -> None:
    with pytest.raises(InputFileError, match=expected):
        read_project(project(tmp_path, text, main))


def test_the_project_files_config_declarations_are_checked_for_near_miss_namespaces(
    tmp_path: Path,
) -> None:
    folder = project(
        tmp_path,
        "name: team-app\nruntime: python\nconfig:\n  aws:region: eu-west-1\n  team-ap:x: 1\n",
    )
    with pytest.raises(InputFileError) as err:
        read_project(folder)
    (problem,) = err.value.problems
    assert (problem.line, problem.column) == (5, 3)
    assert "did you mean 'team-app:x'?" in problem.message


def test_a_folder_that_is_no_project_says_so(tmp_path: Path) -> None:
    with pytest.raises(InputFileError, match=r"no Pulumi\.yaml in it: not a Pulumi project"):
        read_project(tmp_path)
    with pytest.raises(InputFileError, match="no such folder"):
        read_project(tmp_path / "nowhere")
    with pytest.raises(InputFileError, match=r"no __main__\.py: a Pulumi Python program starts"):
        program_main(read_project(project(tmp_path, "name: t\nruntime: python\n", main=None)))
    with pytest.raises(InputFileError, match=r"main: 'gone\.py' does not exist"):
        program_main(read_project(project(tmp_path, "name: t\nruntime: python\nmain: gone.py\n")))


def test_the_projects_name() -> None:
    assert project_name(ROOT) == "gpu-platform"


def test_stack_config_as_the_program_receives_it(tmp_path: Path) -> None:
    stack = tmp_path / "Pulumi.dev.yaml"
    stack.write_text(
        "config:\n"
        "  gpu-platform:cloud: aks\n"
        "  workloads: [{name: a}]\n"
        "  aws:region: eu-west-1\n"
        "  gpu-platform:kubeconfig:\n"
        "    secure: AAABAK\n"
    )
    read = read_stack_config(stack, "gpu-platform")
    assert read.config["gpu-platform:cloud"] == "aks"
    # Keys without a namespace are the project's; structured values arrive as JSON.
    assert json.loads(read.config["gpu-platform:workloads"]) == [{"name": "a"}]
    assert read.config["aws:region"] == "eu-west-1"
    assert read.config["gpu-platform:kubeconfig"] == SECRET_PLACEHOLDER
    assert read.secret_keys == ["gpu-platform:kubeconfig"]
