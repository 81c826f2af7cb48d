"""A local spool in front of any history store, so a storage outage loses nothing.

``append`` first uploads what earlier invocations spooled, then the new record; whatever the
store refuses (:class:`~canary.history.StoreUnavailable`) is written to
``<spool root>/<store key>/<run_id>.json`` instead, and the next invocation that opens the same
store uploads it. Uploads are idempotent (a store replaces a run id it already has), so two
processes flushing one spool at once do no harm.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import tempfile
from datetime import date, datetime
from pathlib import Path

from canary.history.store import BAD_RECORD, HistoryStore, StoreUnavailable, select, windowed
from canary.record import RunRecord


def spool_key(location: str) -> str:
    slug = re.sub(r"[^A-Za-z0-9]+", "-", location).strip("-")[-48:]
    return f"{slug}-{hashlib.sha256(location.encode()).hexdigest()[:10]}"


def fallback_spool_root() -> Path:
    """Where records wait when the spool's own folder (in the user data dir) is read-only."""
    uid = os.getuid() if hasattr(os, "getuid") else "user"
    return Path(tempfile.gettempdir()) / f"canary-{uid}" / "spool"


def _write_atomic(folder: Path, record: RunRecord) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{record.run_id}.json"
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    tmp.write_text(json.dumps(record.to_dict()))
    os.replace(tmp, path)
    return path


class SpoolingStore:
    def __init__(self, inner: HistoryStore, spool_root: Path):
        self.inner = inner
        self.location = inner.location
        self.dir = Path(spool_root) / spool_key(inner.location)
        self.fallback_dir = fallback_spool_root() / spool_key(inner.location)
        self.kept_in: Path | None = None  # where the last spooled record went
        self.last_error: str | None = None
        self.unreachable = False

    # ------------------------------------------------------------------ the spool

    def _pending_files(self) -> list[tuple[Path, RunRecord]]:
        out = []
        for d in dict.fromkeys((self.dir, self.fallback_dir)):
            for f in sorted(d.glob("*.json")) if d.is_dir() else []:
                try:
                    out.append((f, RunRecord.from_dict(json.loads(f.read_text()))))
                except (OSError, *BAD_RECORD):
                    continue  # half-written by a process that died, or taken by a concurrent flush
        return out

    def pending(self) -> list[RunRecord]:
        return [r for _, r in self._pending_files()]

    def _spool(self, record: RunRecord) -> Path:
        """Keeps the record in the spool; when the spool's own folder cannot be written (a
        read-only data dir), in the fallback folder under the temporary directory, and says
        where (``kept_in``)."""
        try:
            path = _write_atomic(self.dir, record)
        except OSError as e:
            self.last_error = f"{self.last_error}; the spool {self.dir} refused it too ({e.strerror or e})"
            path = _write_atomic(self.fallback_dir, record)
        self.kept_in = path
        return path

    def flush(self) -> int:
        """Upload spooled records; stop at the first refusal. Returns how many were uploaded."""
        uploaded = 0
        self.unreachable = False
        for path, record in self._pending_files():
            try:
                self.inner.append(record)
            except StoreUnavailable as e:
                self.last_error, self.unreachable = str(e), True
                break
            path.unlink(missing_ok=True)
            uploaded += 1
        return uploaded

    # ------------------------------------------------------------------ the store protocol

    def append(self, record: RunRecord) -> str:
        """Store the record, or spool it when the store is unreachable: ``"stored"`` | ``"spooled"``."""
        self.flush()
        if not self.unreachable:  # it just refused the spool: do not wait for it a second time
            try:
                self.inner.append(record)
                return "stored"
            except StoreUnavailable as e:
                self.last_error = str(e)
        self._spool(record)
        return "spooled"

    def records(self, lane: str | None = None, since: str | date | datetime | None = None) -> list[RunRecord]:
        """The store's records and those still waiting in the spool."""
        stored = self.inner.records(lane=lane, since=since)
        ids = {r.run_id for r in stored}
        waiting = [r for r in self.pending() if r.run_id not in ids]
        return select(stored + waiting, lane, since) if waiting else stored  # the store's come ordered

    def latest(
        self, per_series: int, lane: str | None = None, since: str | date | datetime | None = None
    ) -> list[RunRecord]:
        """Each series' latest ``per_series`` runs, of the store's and the spool's together."""
        from canary.history.series import latest

        stored = windowed(self.inner, per_series, lane, since)
        ids = {r.run_id for r in stored}
        waiting = [r for r in self.pending() if r.run_id not in ids]
        return latest(select(stored + waiting, lane, since), per_series)

    def get(self, run_id: str) -> RunRecord | None:
        for folder in (self.dir, self.fallback_dir):
            path = folder / f"{run_id}.json"
            if path.is_file():
                try:
                    return RunRecord.from_dict(json.loads(path.read_text()))
                except (OSError, *BAD_RECORD):
                    pass
        return self.inner.get(run_id)
