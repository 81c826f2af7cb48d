"""``canary golden diff``: compare two goldens window by window (:func:`diff`, pure), after
finding the two sides (the stored golden, and a new golden file, a run directory, or the
committed version of the stored file)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from canary.config import load_gates
from canary.errors import ConfigError
from canary.formats.metrics import load_run_metrics
from canary.git import committed_text
from canary.golden import curve as golden_curve
from canary.golden import store as golden_store
from canary.golden.model import Golden, file_name, loads
from canary.record import as_float


@dataclass(frozen=True)
class DiffRow:
    what: str
    old: float | None
    new: float | None
    change: float | None  # relative
    rtol: float | None
    status: str  # same | within | outside | added | removed

    def to_dict(self) -> dict[str, Any]:
        return {
            "what": self.what,
            "old": self.old,
            "new": self.new,
            "change": self.change,
            "rtol": self.rtol,
            "status": self.status,
        }


def _row(what: str, old: float | None, new: float | None, rtol: float | None) -> DiffRow:
    if old is None or new is None:
        return DiffRow(what, old, new, None, rtol, "added" if old is None else "removed")
    change = (new - old) / abs(old) if old else (new - old)
    if new == old:
        status = "same"
    else:
        status = "within" if rtol is not None and abs(change) <= rtol else "outside"
    return DiffRow(what, old, new, change, rtol, status)


def diff(old: Golden, new: Golden, tolerances: bool = True) -> list[DiffRow]:
    """Window by window, then final loss, tolerances (unless ``tolerances`` is False: a one-run
    golden measured none) and perf, judged with the stored (old) golden's tolerances."""
    rows = []
    if (old.ferry, old.ferry_version, old.lane, old.steps, old.window) != (
        new.ferry,
        new.ferry_version,
        new.lane,
        new.steps,
        new.window,
    ):
        rows.append(
            DiffRow(
                f"key: {old.ferry} v{old.ferry_version} {old.lane} {old.steps} steps /{old.window} -> "
                f"{new.ferry} v{new.ferry_version} {new.lane} {new.steps} steps /{new.window}",
                None,
                None,
                None,
                None,
                "outside",
            )
        )
    curve_tol = old.tolerance.get("loss_curve")
    olds = {(w.first, w.last): w.mean for w in old.windows}
    news = {(w.first, w.last): w.mean for w in new.windows}
    old_tol = {(w.first, w.last): old.window_rtol(i) for i, w in enumerate(old.windows)} if curve_tol else {}
    for key in sorted(olds.keys() | news.keys()):
        rows.append(_row(f"loss steps {key[0]}-{key[1]}", olds.get(key), news.get(key), old_tol.get(key)))
    fl = old.tolerance.get("final_loss_golden")
    rows.append(_row("final loss", old.final_loss, new.final_loss, fl.rtol if fl else None))
    for gate in sorted(old.tolerance.keys() | new.tolerance.keys()) if tolerances else ():
        o, n = old.tolerance.get(gate), new.tolerance.get(gate)
        rows.append(_row(f"tolerance {gate}", o.rtol if o else None, n.rtol if n else None, None))
    perf_tol = {
        "best_tokens_per_second": "throughput",
        "compile_seconds": "compile_seconds",
        "peak_memory_bytes": "peak_memory",
    }
    for key in sorted(old.perf.keys() | new.perf.keys()):
        o, n = old.perf.get(key), new.perf.get(key)
        if isinstance(o, dict) or isinstance(n, dict):  # what the figures are of: the same, or not
            rows.append(
                DiffRow(
                    f"perf {key}",
                    None,
                    None,
                    None,
                    None,
                    "same" if o == n else "added" if o is None else "removed" if n is None else "outside",
                )
            )
            continue
        t = old.tolerance.get(perf_tol.get(key, ""))
        rows.append(_row(f"perf {key}", as_float(o), as_float(n), t.rtol if t else None))
    return rows


@dataclass
class DiffResult:
    """Two goldens compared. ``run_dir``: the new side is the golden one run would record (no
    tolerances of its own), which says how the curve moved, not whether the run passed."""

    old_label: str
    new_label: str
    rows: list[DiffRow]
    run_dir: Path | None = None
    note: str | None = None  # the pinned golden stood in for the one a copied gates file names

    @property
    def outside(self) -> list[DiffRow]:
        return [r for r in self.rows if r.status in ("outside", "added", "removed")]

    @property
    def unchanged(self) -> bool:
        return all(r.status == "same" for r in self.rows)


def from_run(run_dir: Path, like: Golden) -> Golden:
    """A run directory read as a one-run golden with the stored golden's window and length."""
    m = load_run_metrics(run_dir, like.metric)
    facts = golden_curve.RunFacts("run", m.losses or [], m.summary, Path(run_dir).name)
    try:
        g = golden_curve.build(
            [facts],
            ferry=like.ferry,
            ferry_version=like.ferry_version,
            lane=like.lane,
            steps=like.steps,
            window=like.window,
            metric=like.metric,
        )
    except ValueError as e:
        raise ConfigError(f"{run_dir}: {e} (the golden is for {like.steps} steps)") from None
    return g


def compare(
    lane: str, new: Path | None, *, rev: str = "HEAD", ferry: str = "moe-canary", gates: str | None = None
) -> DiffResult:
    path = golden_store.lane_golden_path(ferry, lane, gates)
    if path is None:
        _, gates_path = load_gates(gates or ferry)
        path = gates_path.parent / file_name(ferry, lane)
    note = None
    if golden_store.copied_away(path, ferry, lane, gates) and (pinned := golden_store.pinned_golden_path(ferry, lane)):
        note = f"{path} is not there, so the pinned golden of {ferry} on {lane} is compared: {pinned}"
        path = pinned  # as the gates of a copied gates file judge against it (golden.store.load_golden)
    if new is None:
        old_text = committed_text(path, rev)
        if old_text is None:
            raise ConfigError(f"{path} is not committed at {rev}: nothing to compare it with (give NEW)")
        old = loads(old_text, f"{path}@{rev}")
        return DiffResult(f"{path.name}@{rev}", f"{path.name} (working)", diff(old, golden_store.read(path)), note=note)
    old = golden_store.read(path)
    new = Path(new)
    if new.is_dir():
        return DiffResult(
            str(path.name),
            f"the golden run {new.name} would record (one run: no tolerances)",
            diff(old, from_run(new, old), tolerances=False),
            run_dir=new,
            note=note,
        )
    return DiffResult(str(path.name), str(new), diff(old, golden_store.read(new)), note=note)
