"""Notifications that could not be sent wait next to their run record until the next invocation.

A GitHub outage must neither change a canary's verdict nor lose what it had to say. The pending
notification (the run record, the facts to say about it, where to say it) is written as
``notify-pending.json`` in the run directory, beside ``result.json``; every later notify looks for
such files under the runs folder and sends them first, oldest first. Sending twice is harmless:
the run marker on the issue makes the second send post nothing.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from platformdirs import user_data_dir

from canary.notify.compose import Facts
from canary.record import RunRecord

PENDING_FILE = "notify-pending.json"


@dataclass
class Pending:
    backend: str
    repo: str
    record: RunRecord
    facts: Facts
    close_on_recovery: bool = False
    error: str = ""
    spooled_at: str = ""

    def to_dict(self) -> dict[str, Any]:
        return {
            "backend": self.backend, "repo": self.repo, "record": self.record.to_dict(),
            "facts": self.facts.to_dict(), "close_on_recovery": self.close_on_recovery,
            "error": self.error, "spooled_at": self.spooled_at,
        }

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> "Pending":
        return cls(d["backend"], d["repo"], RunRecord.from_dict(d["record"]), Facts.from_dict(d["facts"]),
                   bool(d.get("close_on_recovery")), d.get("error", ""), d.get("spooled_at", ""))


def default_root() -> Path:
    """Where notifications wait when their run directory is not on this machine."""
    env = os.environ.get("CANARY_NOTIFY_SPOOL")
    return Path(env) if env else Path(user_data_dir("canary")) / "notify-spool"


def home_of(record: RunRecord) -> Path:
    """The folder a record's pending notification is written into: its run directory when it is
    here, else a folder named after the run under the default spool root."""
    run_dir = Path(record.run_dir) if record.run_dir else None
    if run_dir is not None and run_dir.is_dir():
        return run_dir
    return default_root() / record.run_id


def roots_for(record: RunRecord) -> list[Path]:
    """The folders to look in for waiting notifications: the runs folder holding this record's
    run directory, and the default spool root."""
    home = home_of(record)
    return list(dict.fromkeys([home.parent, default_root()]))


def put(p: Pending) -> Path:
    folder = home_of(p.record)
    folder.mkdir(parents=True, exist_ok=True)
    p.spooled_at = p.spooled_at or datetime.now(timezone.utc).isoformat(timespec="seconds")
    path = folder / PENDING_FILE
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
        for path in root.glob(f"*/{PENDING_FILE}"):
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
