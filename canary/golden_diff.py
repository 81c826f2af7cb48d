"""``canary golden diff``: find the two sides (the stored golden, and a new golden file, a run
directory, or the committed version of the stored file) and compare them with
:func:`canary.golden.diff`."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from canary import golden as golden_mod
from canary.config import load_gates
from canary.errors import ConfigError
from canary.metrics import load_run_metrics


@dataclass
class DiffResult:
    old_label: str
    new_label: str
    rows: list[golden_mod.DiffRow]


def from_run(run_dir: Path, like: golden_mod.Golden) -> golden_mod.Golden:
    """A run directory read as a one-run golden with the stored golden's window and length."""
    m = load_run_metrics(run_dir, like.metric)
    facts = golden_mod.RunFacts("run", m.losses or [], m.summary, Path(run_dir).name)
    try:
        g = golden_mod.build([facts], ferry=like.ferry, ferry_version=like.ferry_version, lane=like.lane,
                             steps=like.steps, window=like.window, metric=like.metric)
    except ValueError as e:
        raise ConfigError(f"{run_dir}: {e} (the golden is for {like.steps} steps)") from None
    return g


def compare(lane: str, new: Path | None, *, rev: str = "HEAD", ferry: str = "moe-canary",
            gates: str | None = None) -> DiffResult:
    path = golden_mod.lane_golden_path(ferry, lane, gates)
    if path is None:
        _, gates_path = load_gates(gates or ferry)
        path = gates_path.parent / golden_mod.file_name(ferry, lane)
    if new is None:
        old_text = golden_mod.committed_text(path, rev)
        if old_text is None:
            raise ConfigError(f"{path} is not committed at {rev}: nothing to compare it with (give NEW)")
        old = golden_mod.loads(old_text, f"{path}@{rev}")
        return DiffResult(f"{path.name}@{rev}", f"{path.name} (working)", golden_mod.diff(old, golden_mod.read(path)))
    old = golden_mod.read(path)
    new = Path(new)
    other = from_run(new, old) if new.is_dir() else golden_mod.read(new)
    return DiffResult(str(path.name), str(new), golden_mod.diff(old, other))
