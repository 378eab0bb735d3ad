"""One exec per pod for the commands several checks run there.

A MIG node's device-plugin pod is read twice: ``nvidia-smi`` for its driver (``driver``) and
``nvidia-smi -L`` for its MIG devices (``mig-devices``). Each exec is a websocket of its own
(a TLS handshake on a real cluster, about 2 ms of client CPU here), so at fleet size the second
read was a third of every request ``make verify`` sent. :class:`SharedExecs` runs the commands
of one pod as one shell script, each command's output and exit status marked, and hands each
check what its own command printed, as if it had run alone.

The device plugin's image has a shell (NVIDIA's images keep busybox ``sh`` for the chart's
hooks). Where a pod has none, or the combined exec fails for any other reason than its deadline,
each command runs on its own, as before: the rows are then exactly what separate execs give.
"""

from __future__ import annotations

import shlex
import threading
from collections.abc import Mapping

from .driver import DriverReader, ExecError, ExecFactory, ExecTarget, ExecTimeout

Command = tuple[str, ...]
MARK = "::gpu-platform-verify:exit="
"""Printed after each command with its exit status; no tool's output starts a line with it."""
SHELL_NOT_FOUND = 127
"""The shell's exit status for a command it cannot find."""


def script(commands: tuple[Command, ...]) -> Command:
    """One ``sh -c`` exec that runs ``commands`` in order, each followed by its mark."""
    body = "; ".join(f'{shlex.join(c)} 2>&1; echo "{MARK}$?"' for c in commands)
    return ("sh", "-c", body)


def commands_in(body: str) -> tuple[Command, ...] | None:
    """The commands of a :func:`script`'s body (what a fake API server runs), None when
    ``body`` is not one."""
    tail = f' 2>&1; echo "{MARK}$?"'
    if not body.endswith(tail):
        return None
    parts = body.removesuffix(tail).split(f"{tail}; ")
    commands = tuple(tuple(shlex.split(part)) for part in parts)
    return commands if all(commands) else None


def sections(printed: str, count: int) -> list[tuple[str, int]] | None:
    """Each command's output and exit status, or None when the output is not ``count``
    marked sections (not what :func:`script` prints)."""
    found: list[tuple[str, int]] = []
    current: list[str] = []
    for line in printed.splitlines(keepends=True):
        if line.startswith(MARK):
            status = line[len(MARK) :].strip()
            if not status.isdigit():
                return None
            found.append(("".join(current), int(status)))
            current = []
        else:
            current.append(line)
    if len(found) != count or "".join(current).strip():
        return None
    return found


def _as_alone(command: Command, target: ExecTarget, output: str, status: int) -> str:
    """What the command's own exec would give: its output, or the exec's failure when it
    printed nothing (or the shell could not run it)."""
    shown = " ".join(command)
    if status == SHELL_NOT_FOUND:
        raise ExecError(f"{shown} failed in {target.pod}: {output.strip() or 'not found'}")
    if status and not output.strip():
        raise ExecError(
            f"{shown} failed in {target.pod}: command terminated with non-zero exit code: {status}"
        )
    return output


class SharedExecs:
    """An ``ExecFactory`` that runs ``together[pod]``'s commands in one exec the first time one
    of them is asked for in that pod, and answers the others from what it printed."""

    def __init__(self, run_in_pod: ExecFactory, together: Mapping[str, tuple[Command, ...]]):
        self.run_in_pod = run_in_pod
        self.together = together
        self._kept: dict[tuple[str, Command], str | ExecError] = {}
        self._lock = threading.Lock()

    def __call__(self, command: Command) -> DriverReader:
        def read(target: ExecTarget) -> str:
            commands = self.together.get(target.pod, ())
            if command not in commands or len(commands) < 2:
                return self.run_in_pod(command)(target)
            with self._lock:
                kept = self._kept.pop((target.pod, command), None)
            if kept is None:
                kept = self._run_together(target, commands, command)
            if isinstance(kept, ExecError):
                raise kept
            return kept

        return read

    def _run_together(
        self, target: ExecTarget, commands: tuple[Command, ...], wanted: Command
    ) -> str | ExecError:
        answers: dict[Command, str | ExecError] = {}
        try:
            printed = self.run_in_pod(script(commands))(target)
        except ExecTimeout as err:  # a wedged node: waiting again per command would triple it
            shown = " and ".join(shlex.join(c) for c in commands)
            answers = dict.fromkeys(commands, ExecTimeout(shown, err.limit))
        except ExecError:
            pass
        else:
            found = sections(printed, len(commands))
            if found is not None:
                for command, (output, status) in zip(commands, found, strict=True):
                    try:
                        answers[command] = _as_alone(command, target, output, status)
                    except ExecError as err:
                        answers[command] = err
        if not answers:  # no shell, or not what the script prints: one exec per command
            for command in commands:
                try:
                    answers[command] = self.run_in_pod(command)(target)
                except ExecError as err:
                    answers[command] = err
        with self._lock:
            for command, answer in answers.items():
                if command != wanted:
                    self._kept[(target.pod, command)] = answer
        return answers[wanted]
