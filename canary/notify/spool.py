"""Notifications that could not be sent wait with their run record until the next invocation.

A GitHub outage must neither change a canary's verdict nor lose what it had to say. The pending
notification (the run record, the facts to say about it, where to say it) is kept in two places:

* in the run history, inside the run's own record (``context["notify_pending"]``), so that the
  next invocation finds it on whatever machine it runs (a CI runner is gone after its job);
* as ``notify-pending.json`` in the run directory, beside ``result.json`` (or under the default
  spool root), for when there is no history or it cannot be written either.

Every later notify sends what waits, oldest first, before its own. Sending twice is harmless:
the run marker on the issue makes the second send post nothing.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from canary.history import user_data_dir
from canary.notify.model import Facts
from canary.notify.redact import redact
from canary.record import RunRecord, check_id, scrub_texts
from canary.run.directory import NOTIFY_PENDING

PENDING_KEY = "notify_pending"  # in a run record's context, in the history


@dataclass
class Pending:
    backend: str
    repo: str
    record: RunRecord
    facts: Facts
    close_on_recovery: bool = False
    error: str = ""
    spooled_at: str = ""

    def scrub(self, text: str) -> str:
        return redact(text, self.facts.secrets)

    def kept_record(self) -> RunRecord:
        """The record as it is kept with its notification: no pending mark, every text redacted."""
        return unmark(self.record).scrubbed(self.scrub)

    def to_dict(self, with_record: bool = True) -> dict[str, Any]:
        """What is kept (notify-pending.json, the history's copy): every text redacted, the facts'
        too (a commit subject, a bisect's note may carry a secret while GitHub is down)."""
        d = {
            "backend": self.backend,
            "repo": self.repo,
            "facts": scrub_texts(self.facts.to_dict(), self.scrub),
            "close_on_recovery": self.close_on_recovery,
            "error": self.scrub(self.error),
            "spooled_at": self.spooled_at,
        }
        return {**d, "record": self.kept_record().to_dict()} if with_record else d

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Pending:
        return cls(
            d["backend"],
            d["repo"],
            RunRecord.from_dict(d["record"]),
            Facts.from_dict(d["facts"]),
            bool(d.get("close_on_recovery")),
            d.get("error", ""),
            d.get("spooled_at", ""),
        )


def default_root() -> Path:
    """Where notifications wait when their run directory is not on this machine."""
    env = os.environ.get("CANARY_NOTIFY_SPOOL")
    return Path(env) if env else user_data_dir() / "notify-spool"


def home_of(record: RunRecord) -> Path:
    """The folder a record's pending notification is written into: its run directory when it is
    here, else a folder named after the run under the default spool root."""
    run_dir = Path(record.run_dir) if record.run_dir else None
    if run_dir is not None and run_dir.is_dir():
        return run_dir
    return default_root() / check_id(record.run_id, "run_id")


def roots_for(record: RunRecord) -> list[Path]:
    """The folders to look in for waiting notifications: the runs folder holding this record's
    run directory, and the default spool root."""
    home = home_of(record)
    return list(dict.fromkeys([home.parent, default_root()]))


def _stamp(p: Pending) -> None:
    p.spooled_at = p.spooled_at or datetime.now(UTC).isoformat(timespec="seconds")


def put(p: Pending) -> Path:
    folder = home_of(p.record)
    folder.mkdir(parents=True, exist_ok=True)
    _stamp(p)
    path = folder / NOTIFY_PENDING
    tmp = path.with_suffix(".tmp")
    tmp.write_text(json.dumps(p.to_dict(), indent=2))
    tmp.replace(path)
    return path


def waiting(roots: list[Path]) -> list[tuple[Path, Pending]]:
    """Every pending notification under ``roots`` (one level down), oldest run first. A file that
    cannot be read is left where it is for a person to look at."""
    found: list[tuple[Path, Pending]] = []
    seen: set[Path] = set()
    for root in roots:
        if not root.is_dir():
            continue
        for path in root.glob(f"*/{NOTIFY_PENDING}"):
            if path.resolve() in seen:
                continue
            seen.add(path.resolve())
            try:
                found.append((path, Pending.from_dict(json.loads(path.read_text()))))
            except (OSError, ValueError, KeyError, TypeError):
                continue
    return sorted(found, key=lambda x: (x[1].record.started_at, x[1].record.run_id))


def done(path: Path) -> None:
    path.unlink(missing_ok=True)


# ----------------------------------------------------------------------------- in the run history


def unmark(record: RunRecord) -> RunRecord:
    """The record without a pending notification."""
    if PENDING_KEY not in (record.context or {}):
        return record
    return replace(record, context={k: v for k, v in record.context.items() if k != PENDING_KEY})


def mark(p: Pending) -> RunRecord:
    """The record carrying its pending notification, to be stored in the history."""
    _stamp(p)
    kept = p.kept_record()
    return replace(kept, context={**kept.context, PENDING_KEY: p.to_dict(with_record=False)})


def waiting_in(records: list[RunRecord]) -> list[Pending]:
    """The notifications pending in history records, oldest run first."""
    out = []
    for r in records:
        entry = (r.context or {}).get(PENDING_KEY)
        if isinstance(entry, dict):
            try:
                out.append(Pending.from_dict({**entry, "record": unmark(r).to_dict()}))
            except (KeyError, TypeError, ValueError):
                continue
    return sorted(out, key=lambda p: (p.record.started_at, p.record.run_id))
