"""What every history backend shares: the :class:`HistoryStore` protocol, the error that says a
store cannot be reached now (the record is spooled), and how records are selected and ordered.
The backends (``sqlite``, ``gcs``) and the spool build on it; :mod:`canary.history` opens them."""

from __future__ import annotations

import gc
import json
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, date, datetime
from typing import Any, Protocol, runtime_checkable

from canary.errors import CanaryError, ConfigError
from canary.record import RunRecord
from canary.textio import printable

DEFAULT_FILE = "history.sqlite3"


class StoreUnavailable(CanaryError):
    """The store cannot be reached or written now; the record should be spooled and retried."""


# What a stored record that is not one raises, read back
BAD_RECORD = (ValueError, TypeError, KeyError, AttributeError, RecursionError)


def warn(message: str) -> None:
    """Something a read skipped (a broken index entry, a run that is not a record): said on
    stderr, and the read goes on with every other record."""
    print(f"canary: warning: {printable(message)}", file=sys.stderr)


def stored_record(data: Any) -> RunRecord:
    """A record from its stored JSON text; one of :data:`BAD_RECORD` when it is not one."""
    return RunRecord.from_dict(json.loads(data))


@runtime_checkable
class HistoryStore(Protocol):
    location: str

    def append(self, record: RunRecord) -> None:
        """Store one run; storing the same run id again replaces it (uploads are retried)."""

    def records(self, lane: str | None = None, since: str | date | datetime | None = None) -> list[RunRecord]:
        """Runs, oldest first; only ``lane``'s, only those started at or after ``since``."""

    def get(self, run_id: str) -> RunRecord | None: ...


def since_key(since: str | date | datetime | None) -> str | None:
    """``since`` as a string comparable with records' ISO ``started_at`` (UTC)."""
    if since is None or since == "":
        return None
    if isinstance(since, datetime):
        if since.tzinfo is None:
            since = since.replace(tzinfo=UTC)
        return since.astimezone(UTC).isoformat(timespec="seconds")
    if isinstance(since, date):
        return since.isoformat()
    try:
        return (
            since_key(datetime.fromisoformat(since))
            if "T" in since or " " in since
            else date.fromisoformat(since).isoformat()
        )
    except ValueError:
        raise ConfigError(f"--since {since!r}: not a date; use YYYY-MM-DD or an ISO timestamp") from None


def windowed(
    store: HistoryStore, per_series: int, lane: str | None = None, since: str | date | datetime | None = None
) -> list[RunRecord]:
    """Each series' latest ``per_series`` runs of ``store`` (``lane``'s, started ``since``), oldest
    first: by the backend's own query where it has one (``latest``: SQLite reads only those
    rows), else from all its records."""
    own = getattr(store, "latest", None)
    if own is not None:
        return own(per_series, lane=lane, since=since)
    from canary.history.series import latest

    return latest(store.records(lane=lane, since=since), per_series)


@contextmanager
def no_collection() -> Iterator[None]:
    """No cyclic garbage collection while many records are built or written out: they hold no
    cycles, and the collector walking 100,000 of them again and again took half the time."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


def sort_key(record: RunRecord) -> tuple[str, str]:
    return (record.started_at or "", record.run_id)


def select(records: list[RunRecord], lane: str | None, since: str | date | datetime | None) -> list[RunRecord]:
    """Filter and order records the way every backend answers ``records()``."""
    key = since_key(since)
    out = [r for r in records if (lane is None or r.lane == lane) and (key is None or (r.started_at or "") >= key)]
    return sorted(out, key=sort_key)
