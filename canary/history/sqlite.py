"""The SQLite history backend: one embedded file, one row per run (the record as JSON, plus the
columns queries filter on). Concurrent writers on one machine are serialized by SQLite."""

from __future__ import annotations

import errno
import json
import os
import sqlite3
import urllib.parse
from contextlib import closing
from datetime import date, datetime
from pathlib import Path

from canary.errors import ConfigError
from canary.history.store import (
    BAD_RECORD,
    DEFAULT_FILE,
    StoreUnavailable,
    no_collection,
    since_key,
    stored_record,
    warn,
)
from canary.record import RunRecord

SCHEMA = """
CREATE TABLE IF NOT EXISTS runs (
    run_id TEXT PRIMARY KEY,
    lane TEXT NOT NULL,
    started_at TEXT NOT NULL,
    verdict TEXT NOT NULL,
    fingerprint TEXT,
    record TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS runs_lane_started ON runs (lane, started_at);
"""


class SqliteStore:
    def __init__(self, path: Path):
        self.path = path
        self.location = str(path)

    def _connect(self) -> sqlite3.Connection:
        if self.path.exists() and not self.path.is_file():
            raise StoreUnavailable(f"{self.path}: not a regular file")
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            conn = sqlite3.connect(self.path, timeout=30)
            conn.executescript(SCHEMA)
            return conn
        except (OSError, sqlite3.Error) as e:
            raise StoreUnavailable(f"{self.path}: {e}") from e

    def _read(self, sql: str, args: list | tuple) -> list[tuple]:
        """Rows of a query, the file opened read-only: a read creates nothing (no schema in an
        empty file, no journal beside it, not even beside /dev/null)."""
        if not self.path.exists():
            return []
        if not self.path.is_file():  # a FIFO would block the open; a device is no history
            raise StoreUnavailable(f"{self.path}: not a regular file")
        try:
            uri = f"file:{urllib.parse.quote(str(self.path.resolve()))}?mode=ro"
            with closing(sqlite3.connect(uri, uri=True, timeout=30)) as conn:
                return conn.execute(sql, args).fetchall()
        except sqlite3.OperationalError as e:
            if "no such table" in str(e):  # an empty file, or not created by canary yet: no runs
                return []
            raise StoreUnavailable(f"{self.path}: {e}") from e
        except (OSError, sqlite3.Error) as e:
            raise StoreUnavailable(f"{self.path}: {e}") from e

    def append(self, record: RunRecord) -> None:
        fp = record.signature.fingerprint if record.signature else None
        try:
            with closing(self._connect()) as conn, conn:
                conn.execute(
                    "INSERT OR REPLACE INTO runs (run_id, lane, started_at, verdict, fingerprint, record) "
                    "VALUES (?, ?, ?, ?, ?, ?)",
                    (
                        record.run_id,
                        record.lane,
                        record.started_at or "",
                        record.verdict,
                        fp,
                        json.dumps(record.to_dict()),
                    ),
                )
        except sqlite3.Error as e:
            raise StoreUnavailable(f"{self.path}: {e}") from e

    def records(self, lane: str | None = None, since: str | date | datetime | None = None) -> list[RunRecord]:
        where, args = _where(lane, since)
        return self._parse(self._read(f"SELECT run_id, record FROM runs {where} ORDER BY started_at, run_id", args))

    def _parse(self, rows: list[tuple]) -> list[RunRecord]:
        """The records of ``(run_id, record)`` rows; a row that is no record is skipped, said."""
        out = []
        with no_collection():
            for run_id, data in rows:
                try:
                    out.append(stored_record(data))
                except BAD_RECORD as e:
                    shown = str(run_id)[:80]
                    warn(f"{self.path}: run {shown!r} is not a canary run record ({type(e).__name__}): skipped")
        return out

    def latest(
        self, per_series: int, lane: str | None = None, since: str | date | datetime | None = None
    ) -> list[RunRecord]:
        """Each series' (lane, ferry) latest ``per_series`` runs, oldest first; only those rows
        are parsed (the ferry is read from the record's JSON by SQLite)."""
        where, args = _where(lane, since)
        sql = (
            "SELECT run_id, record FROM (SELECT run_id, record, started_at, ROW_NUMBER() OVER (PARTITION BY lane, "
            "json_extract(record, '$.ferry') ORDER BY started_at DESC, run_id DESC) AS newest FROM runs "
            f"{where}) WHERE newest <= ? ORDER BY started_at, run_id"
        )
        return self._parse(self._read(sql, [*args, per_series]))

    def get(self, run_id: str) -> RunRecord | None:
        rows = self._read("SELECT record FROM runs WHERE run_id = ?", (run_id,))
        if not rows:
            return None
        try:
            return stored_record(rows[0][0])
        except BAD_RECORD as e:
            raise StoreUnavailable(
                f"{self.path}: run {run_id!r} is not a canary run record ({type(e).__name__})"
            ) from None

    def probe(self) -> str:
        """Read the store and take (then release) its write lock, writing nothing; a store not
        created yet is checked by the directory it will be created in. Raises StoreUnavailable."""
        if not self.path.exists():
            parent = next((p for p in self.path.parents if p.exists()), None)
            if parent is None or not parent.is_dir() or not os.access(parent, os.W_OK):
                raise StoreUnavailable(f"{self.path}: does not exist and {parent} is not writable")
            return f"{self.path} does not exist yet; {parent} is writable, so the first run creates it"
        for p in (self.path, self.path.parent):  # the file, and the directory its journal goes in
            if not os.access(p, os.W_OK):
                raise StoreUnavailable(f"{p}: not writable")
        try:
            with closing(sqlite3.connect(self.path, timeout=30, isolation_level=None)) as conn:
                n = conn.execute("SELECT count(*) FROM runs").fetchone()[0]
                conn.execute("BEGIN IMMEDIATE")  # the write lock a run's append takes
                conn.execute("ROLLBACK")
        except sqlite3.Error as e:
            raise StoreUnavailable(f"{self.path}: {e}") from e
        return f"read {n} run{'s' if n != 1 else ''} and took the write lock of {self.path}"


def _where(lane: str | None, since: str | date | datetime | None) -> tuple[str, list[str]]:
    """The WHERE clause (and its arguments) of ``lane``'s runs started ``since``."""
    where, args = "WHERE 1=1", []
    if lane is not None:
        where += " AND lane = ?"
        args.append(lane)
    key = since_key(since)
    if key is not None:
        where += " AND started_at >= ?"
        args.append(key)
    return where, args


def open(location: str) -> SqliteStore:
    path = Path(location).expanduser()
    try:
        os.stat(path)  # Path.exists() says False for a symlink loop, which would read as no runs
    except OSError as e:
        if e.errno == errno.ELOOP:
            raise ConfigError(f"--history {location}: a symlink loop ({e.strerror})") from None
    if path.exists() and not path.is_file() and not path.is_dir():  # a FIFO would block; a device is no history
        raise ConfigError(f"--history {location}: not a regular file")
    if path.is_dir() or location.endswith(("/", "\\")):
        path = path / DEFAULT_FILE
    return SqliteStore(path)
