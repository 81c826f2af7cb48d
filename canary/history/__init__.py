"""The run history: every run's :class:`~canary.record.RunRecord`, behind one small protocol.

    store = open_store(None)                      # SQLite in the user data dir (or $CANARY_HISTORY)
    store = open_store("runs/history.sqlite3")    # SQLite at a path
    store = open_store("gs://bucket/prefix")      # Google Cloud Storage
    store.append(record)
    store.records(lane="tpu", since="2026-08-01")   # oldest first
    store.get(run_id)

One module per backend (``sqlite``, ``gcs``). ``open_store`` wraps the backend in a local
spool (:mod:`canary.history.spool`): a record that cannot be stored now (the bucket unreachable,
the disk read-only) is kept on local disk and uploaded by the next invocation, so a storage
outage never loses a run and never fails a canary.
"""

from __future__ import annotations

import importlib
import os
from pathlib import Path

from canary.errors import ConfigError
from canary.formats.directory import PENDING_RECORD, RESULT_FILE, read_record, write_record
from canary.history.store import DEFAULT_FILE, HistoryStore, StoreUnavailable, select, since_key, sort_key
from canary.record import RunRecord

__all__ = [
    "BACKENDS",
    "DEFAULT_FILE",
    "ENV_HISTORY",
    "ENV_SPOOL",
    "HistoryStore",
    "StoreUnavailable",
    "backend",
    "default_location",
    "import_pending",
    "known_lane",
    "load_record",
    "open_on_first_use",
    "open_store",
    "record_run",
    "select",
    "since_key",
    "sort_key",
    "spool_root",
    "user_data_dir",
    "write_pending",
]

ENV_HISTORY = "CANARY_HISTORY"
ENV_SPOOL = "CANARY_SPOOL_DIR"


def user_data_dir() -> Path:
    import platformdirs

    return Path(platformdirs.user_data_dir("canary", appauthor=False))


def default_location() -> str:
    return os.environ.get(ENV_HISTORY) or str(user_data_dir() / DEFAULT_FILE)


def spool_root() -> Path:
    return Path(os.environ.get(ENV_SPOOL) or user_data_dir() / "spool")


BACKENDS = {
    "gs": "canary.history.gcs",
    "sqlite": "canary.history.sqlite",
}


def backend(location: str) -> HistoryStore:
    """The bare backend for a location, without the spool."""
    if "://" in location:
        scheme = location.split("://", 1)[0]
        if scheme not in BACKENDS or scheme == "sqlite":
            raise ConfigError(
                f"--history {location!r}: unknown storage scheme {scheme!r}; use a file path or gs://bucket/prefix"
            )
        if scheme == "gs":
            from canary.extras import GCS_HISTORY, require

            require(GCS_HISTORY, f"--history {location}")
        return importlib.import_module(BACKENDS[scheme]).open(location)
    return importlib.import_module(BACKENDS["sqlite"]).open(location)


def open_store(location: str | None = None, *, spool_dir: str | Path | None = None, flush: bool = True) -> HistoryStore:
    """The history at ``location`` (a path, ``gs://bucket/prefix``, or ``None`` for the default),
    with a local spool in front. Records spooled by earlier invocations are uploaded now when
    ``flush`` (an unreachable store keeps them spooled)."""
    from canary.history.spool import SpoolingStore

    location = location or default_location()
    store = SpoolingStore(backend(location), Path(spool_dir) if spool_dir else spool_root())
    if flush:
        store.flush()
    return store


class _OpenedOnFirstUse:
    """The history at a location, opened (:func:`open_store`) by its first use and kept: one
    command opens it once, whoever uses it. One that cannot be opened raises the same error at
    every use, as an unreadable store does."""

    def __init__(self, location: str | None):
        self._location = location
        self._store: HistoryStore | None = None
        self._error: Exception | None = None

    def _opened(self) -> HistoryStore:
        if self._store is None and self._error is None:
            try:
                self._store = open_store(self._location)
            except Exception as e:  # noqa: BLE001 - said again at each use, where the caller handles it
                self._error = e
        if self._error is not None:
            raise self._error
        return self._store

    def __getattr__(self, name: str):
        if name.startswith("_"):  # not set yet (a copy being made): never open for it
            raise AttributeError(name)
        return getattr(self._opened(), name)


def open_on_first_use(location: str | None = None) -> HistoryStore:
    """The history at ``location`` (None: the default), opened when it is first used and then
    kept, so that recording a run, notifying about it and its job summary share one opening."""
    return _OpenedOnFirstUse(location)  # type: ignore[return-value]


def known_lane(lane: str, store: HistoryStore) -> None:
    """Raise ConfigError (bad input) for a lane that lanes.toml does not define and the history has
    no run of: ``--lane nope`` is a typo, not an empty history."""
    if store.records(lane=lane):
        return
    from canary.config import get_lane

    try:
        get_lane(lane)
    except ConfigError as e:
        raise ConfigError(f"--lane: {e}; the history at {store.location} has no runs of it either") from None


def record_run(record: RunRecord, location: str | None = None, store: HistoryStore | None = None) -> dict[str, str]:
    """Append a finished run to the history without ever failing the caller: an unreachable
    store spools the record (uploaded by the next run on this machine) and leaves it in the run
    directory as ``pending-record.json`` (which outlives a short-lived CI runner as an artifact;
    ``canary history import RUN_DIR`` adds it later); even a broken spool only reports.
    ``store``: the history already open (None: opened here at ``location``).
    Returns ``{"location", "status": "stored" | "spooled" | "failed", "detail"?, "pending"?}``."""
    where = location or default_location()
    try:
        store = open_store(where) if store is None else store
        status = store.append(record)
        out = {"location": store.location, "status": status}
        if status == "spooled":
            out["detail"] = (
                f"{store.last_error}; kept in {store.kept_in or store.dir}, uploaded by the next canary run here"
            )
    except Exception as e:  # the canary's verdict matters more than its bookkeeping
        out = {"location": where, "status": "failed", "detail": f"{type(e).__name__}: {e}"}
    if out["status"] != "stored":
        pending = write_pending(record)
        if pending:
            out["pending"] = pending
    return out


def write_pending(record: RunRecord) -> str | None:
    """The record the history did not take, kept in its run directory; None when that fails too."""
    if not record.run_dir:
        return None
    try:
        return str(write_record(Path(record.run_dir) / PENDING_RECORD, record))
    except OSError:
        return None


def import_pending(run_dir: str | Path, location: str | None = None) -> tuple[RunRecord, str]:
    """``canary history import``: add a run directory's record to the history (its
    ``pending-record.json``, else its ``result.json``), replacing any copy of the same run.
    Raises StoreUnavailable when the history still cannot take it. Returns (record, location)."""
    run_dir = Path(run_dir)
    if run_dir.is_file():
        run_dir = run_dir.parent
    source = next((p for p in (run_dir / PENDING_RECORD, run_dir / RESULT_FILE) if p.is_file()), None)
    if source is None:
        raise ConfigError(
            f"{run_dir}: no {PENDING_RECORD} or {RESULT_FILE} here; give a run directory "
            "(runs/<run_id>, or the unpacked artifact of a scheduled run)"
        )
    record = read_record(source)
    record.context.pop("history", None)  # result.json's note of how the recording went
    store = backend(location or default_location())
    store.append(record)
    if source.name == PENDING_RECORD:
        source.unlink(missing_ok=True)
    return record, store.location


def load_record(run: str, runs_dir: Path, store: HistoryStore | None = None, why_not: str = "") -> RunRecord:
    """A run by its directory, its result.json, its id under ``runs_dir``, or its id in the history."""
    p = Path(run)
    candidates = [p / RESULT_FILE, p] if p.suffix == ".json" or p.exists() else []
    candidates.append(Path(runs_dir) / run / RESULT_FILE)
    for c in candidates:
        if c.is_file():
            record = read_record(c)
            record.run_dir = str(c.resolve().parent)  # where it is now: a pending notification waits here
            return record
    if store is not None and "/" not in run:
        try:
            record = store.get(run)
        except Exception as e:  # noqa: BLE001 - any storage failure is reported as such
            why_not = f"the history cannot be read: {type(e).__name__}: {e}"
        else:
            if record is not None:
                return record
    raise ConfigError(
        f"no run {run!r}: give a run directory, its result.json, or a run id under {runs_dir} "
        "or in the history" + (f" ({why_not})" if why_not else "")
    )
