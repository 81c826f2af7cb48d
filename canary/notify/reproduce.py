"""What a failure's message says reproduces it (pure): ``canary repro`` for a failure in the first
few cold steps, the full run (cold, with its ferry, gates and steps) for a gate failure or a crash
late in training, and the lowering preflight for a compile error."""

from __future__ import annotations

import shlex
from pathlib import Path
from typing import TYPE_CHECKING

from canary.history.series import PREFLIGHT, ferry_of
from canary.record import Attempt, RunRecord
from canary.text.markdown import clean

if TYPE_CHECKING:
    from canary.notify.model import Facts

REPRO_STEPS = 10  # what `canary repro` runs: enough to compile and take a few steps, not to pass a loss gate


def trained_to_the_end(a: Attempt) -> bool:
    """An attempt that ran every step and then failed its gates (no crash)."""
    return a.outcome == "succeeded" and a.signature is not None


def _file_flag(flag: str, path: str | None, name: str, folder: str) -> str:
    """`` --gates PATH`` where the run used a file other than the pinned one of its name."""
    if not path or (Path(path).stem == name and Path(path).parent.name == folder):
        return ""
    return f" {flag} {_q(path)}"


def _q(text: str) -> str:
    """A recorded value as one shell word, its control characters and secrets cleaned."""
    return shlex.quote(clean(text))


def _ferry_flag(record: RunRecord) -> str:
    """`` --ferry F`` unless the run's ferry is the built-in one, which both commands take unasked."""
    return _file_flag("--ferry", record.ferry_path, record.ferry, "ferries") or (
        f" --ferry {_q(record.ferry)}" if record.ferry != "moe-canary" else ""
    )


def full_run_command(record: RunRecord) -> str:
    """The run again, cold, with its ferry, gates and steps: what reproduces a failure a few
    steps cannot reach (a gate failure, a crash late in training)."""
    ferry = _ferry_flag(record)
    gates = _file_flag("--gates", record.gates_path, record.ferry, "gates")
    steps = (
        f" --steps {record.steps_requested}"
        if record.steps_requested and record.ferry_steps and record.steps_requested != record.ferry_steps
        else ""
    )
    return f"canary run {_q(record.lane)} --cold{ferry}{gates}{steps}"


def repro_commands(record: RunRecord, facts: Facts) -> list[str]:
    """What reproduces the failure: ``canary repro`` (a few cold steps) for a failure in its first
    steps, else the full run, cold, with its gates; the lowering preflight for a compile error."""
    if record.ferry.endswith(PREFLIGHT):  # a lowering preflight: the preflight again
        ferry = ferry_of(record.ferry)
        return [f"canary lower --lane {_q(record.lane)}" + (f" --ferry {_q(ferry)}" if ferry != "moe-canary" else "")]
    last = record.attempts[-1] if record.attempts else None
    late = last is not None and (trained_to_the_end(last) or (last.steps_completed or 0) > REPRO_STEPS)
    lane = _q(record.lane)
    cmds = [full_run_command(record) if late else f"canary repro {lane} --cold{_ferry_flag(record)}"]
    kind = record.signature.kind if record.signature else None
    if kind == "compile_error":
        platform = _q(facts.platform) if facts.platform else lane
        cmds.append(f"canary lower --lane {lane} --platform {platform}")
    return cmds
