"""Several commands of one pod in one exec, each check given its own output
(verify.pod_commands)."""

from __future__ import annotations

import pytest

from gpu_platform.verify.driver import ExecError, ExecTarget, ExecTimeout
from gpu_platform.verify.pod_commands import MARK, SharedExecs, commands_in, script, sections

SMI, LIST = ("nvidia-smi",), ("nvidia-smi", "-L")
TARGET = ExecTarget("node-1", "nvidia-device-plugin", "plugin-abc", None)


def test_the_script_and_its_commands() -> None:
    shell = script((SMI, LIST))
    assert shell[:2] == ("sh", "-c")
    assert commands_in(shell[2]) == (SMI, LIST)
    assert commands_in("nvidia-smi") is None
    printed = f"table\n{MARK}0\nGPU 0\n{MARK}9\n"
    assert sections(printed, 2) == [("table\n", 0), ("GPU 0\n", 9)]
    assert sections(printed, 3) is None
    assert sections("no marks at all\n", 1) is None


class _Pod:
    """What the pod prints per command; ``script`` fails as the runtime fails without sh."""

    def __init__(self, printed: dict[tuple[str, ...], str], shell: bool = True) -> None:
        self.printed, self.shell, self.ran = printed, shell, []  # type: ignore[var-annotated]

    def __call__(self, command: tuple[str, ...]):  # type: ignore[no-untyped-def]
        def read(target: ExecTarget) -> str:
            self.ran.append(command)
            if command[0] == "sh":
                if not self.shell:
                    raise ExecError('exec: "sh": executable file not found in $PATH')
                parts = commands_in(command[2]) or ()
                return "".join(f"{self.printed[c]}{MARK}0\n" for c in parts)
            return self.printed[command]

        return read


def test_one_exec_answers_both_commands() -> None:
    pod = _Pod({SMI: "table\n", LIST: "GPU 0\n"})
    shared = SharedExecs(pod, {"plugin-abc": (SMI, LIST)})
    assert shared(SMI)(TARGET) == "table\n"
    assert shared(LIST)(TARGET) == "GPU 0\n"
    assert len(pod.ran) == 1 and pod.ran[0][0] == "sh"


def test_without_a_shell_each_command_runs_alone() -> None:
    pod = _Pod({SMI: "table\n", LIST: "GPU 0\n"}, shell=False)
    shared = SharedExecs(pod, {"plugin-abc": (SMI, LIST)})
    assert shared(SMI)(TARGET) == "table\n" and shared(LIST)(TARGET) == "GPU 0\n"
    assert pod.ran[1:] == [SMI, LIST]


def test_a_failed_command_fails_as_its_own_exec_would() -> None:
    def read(command: tuple[str, ...]):  # type: ignore[no-untyped-def]
        return lambda target: f"{MARK}9\nGPU 0\n{MARK}0\n"

    shared = SharedExecs(read, {"plugin-abc": (SMI, LIST)})
    with pytest.raises(ExecError, match="nvidia-smi failed in plugin-abc: command terminated"):
        shared(SMI)(TARGET)
    assert shared(LIST)(TARGET) == "GPU 0\n"


def test_a_wedged_node_fails_both_rows_once() -> None:
    def read(command: tuple[str, ...]):  # type: ignore[no-untyped-def]
        def hang(target: ExecTarget) -> str:
            raise ExecTimeout("sh -c ...", "60 s")

        return hang

    shared = SharedExecs(read, {"plugin-abc": (SMI, LIST)})
    for command in (SMI, LIST):
        with pytest.raises(ExecTimeout) as err:
            shared(command)(TARGET)
        assert str(err.value) == "nvidia-smi and nvidia-smi -L gave no answer within 60 s"
