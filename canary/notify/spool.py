"""Notifications that could not be sent wait with their run record until the next invocation.

A GitHub outage must neither change a canary's verdict nor lose what it had to say. The pending
notification (the run record, the facts to say about it, where to say it) is kept in two places:

* in the run history, inside the run's own record (``context["notify_pending"]``), so that the
  next invocation finds it on whatever machine it runs (a CI runner is gone after its job);
* as ``notify-pending.json`` in the run directory, beside ``result.json`` (or under the default
  spool root), for when there is no history or it cannot be written either.

The file is written before anything is sent and removed once it is, so a notify killed half-way
(even by SIGKILL) leaves it behind. Each file this canary writes is recorded in a ledger under the
default spool root (``.spooled/<spool id>``, holding the file's path): a ``notify-pending.json``
the ledger does not name (copied or put there by hand) is never resent by itself. An entry is
``waiting`` (sent again by the next notify) or ``given-up`` (GitHub refused it for good: kept,
listed by ``canary notify --pending``, sent again only by ``--resend``). Sending twice is
harmless: the run marker on the issue makes the second send post nothing.
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import os
import re
import secrets
from collections.abc import Iterator
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from canary.errors import ConfigError
from canary.formats.directory import NOTIFY_PENDING
from canary.history import user_data_dir
from canary.notify.model import Facts
from canary.record import RunRecord, check_id, scrub_texts
from canary.text.redact import redact
from canary.textio import read_json_object

if TYPE_CHECKING:
    from canary.history import HistoryStore

PENDING_KEY = "notify_pending"  # in a run record's context, in the history
WAITING, GIVEN_UP = "waiting", "given-up"
LEDGER = ".spooled"  # under the default root: one file per entry this canary wrote, holding its path
_SPOOL_ID = re.compile(r"[0-9a-f]{16}")


@dataclass
class Pending:
    backend: str
    repo: str
    record: RunRecord
    facts: Facts
    close_on_recovery: bool = False
    error: str = ""
    spooled_at: str = ""
    state: str = WAITING  # waiting | given-up
    tries: int = 0  # sends that failed
    spool_id: str = ""  # its name in the ledger

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
            "state": self.state,
            "tries": self.tries,
            "spool_id": self.spool_id,
        }
        return {**d, "record": self.kept_record().to_dict()} if with_record else d

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Pending:
        for key in ("backend", "repo", "error", "spooled_at"):
            if not isinstance(d.get(key, ""), str):
                raise TypeError(f"{key} is not a string")
        tries = d.get("tries", 0)
        return cls(
            d["backend"],
            d["repo"],
            RunRecord.from_dict(d["record"]),
            Facts.from_dict(d["facts"]),
            bool(d.get("close_on_recovery")),
            d.get("error", ""),
            d.get("spooled_at", ""),
            GIVEN_UP if d.get("state") == GIVEN_UP else WAITING,
            tries if isinstance(tries, int) and not isinstance(tries, bool) and tries >= 0 else 0,
            str(d.get("spool_id", "")),
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
    p.spool_id = p.spool_id if _SPOOL_ID.fullmatch(p.spool_id) else secrets.token_hex(8)


def _ledger(spool_id: str) -> Path:
    return default_root() / LEDGER / spool_id


def _write(p: Pending, hold: bool, at: Path | None = None) -> tuple[Path, int | None]:
    folder = at.parent if at is not None else home_of(p.record)
    folder.mkdir(parents=True, exist_ok=True)
    _stamp(p)
    path = folder / NOTIFY_PENDING
    tmp = folder / f".{NOTIFY_PENDING}.{os.getpid()}.{secrets.token_hex(4)}"
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    try:
        with os.fdopen(fd, "wb", closefd=False) as f:
            f.write(json.dumps(p.to_dict(), indent=2).encode())
        if hold:  # locked before it is in place: no other canary can take it meanwhile
            fcntl.flock(fd, fcntl.LOCK_EX)
        os.replace(tmp, path)
    except BaseException:
        os.close(fd)
        tmp.unlink(missing_ok=True)
        raise
    if not hold:
        os.close(fd)
        fd = None
    try:  # the ledger: what this canary wrote, and where
        _ledger(p.spool_id).parent.mkdir(parents=True, exist_ok=True)
        _ledger(p.spool_id).write_text(str(path.resolve()))
    except OSError:
        pass  # the entry is kept all the same; `canary notify --resend` sends it
    return path, fd


def put_unsent(record: RunRecord, repo: str, backend: str, error: str, close_on_recovery: bool = False) -> str | None:
    """Spool a notification that failed before it could be composed (with no facts), for the next
    notify; the path it waits at, or None when even that cannot be written."""
    try:
        return str(put(Pending(backend, repo, record, Facts(), close_on_recovery, error)))
    except OSError:
        return None


def put(p: Pending, at: Path | None = None) -> Path:
    """Write ``p`` in its run's folder, or rewrite it ``at`` the file it was read from; raises
    OSError when it cannot be written."""
    return _write(p, hold=False, at=at)[0]


@contextlib.contextmanager
def holding(p: Pending) -> Iterator[Path | None]:
    """``p`` written and locked for the block (None when it cannot be written): a notification
    is on disk before it is sent, and no other canary resends it meanwhile."""
    try:
        path, fd = _write(p, hold=True)
    except OSError:
        yield None
        return
    try:
        yield path
    finally:
        if fd is not None:
            os.close(fd)


@contextlib.contextmanager
def claimed(path: Path | None) -> Iterator[bool]:
    """Whether this process may send the entry at ``path`` now (None, a history entry: yes); False
    while another canary holds it, or once it is gone. The claim ends with the block, or with the
    process, however it ends."""
    if path is None:
        yield True
        return
    try:
        fd = os.open(path, os.O_RDONLY)
    except OSError:
        yield False
        return
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            same = os.stat(path).st_ino == os.fstat(fd).st_ino  # not replaced or removed meanwhile
        except OSError:
            same = False
        yield same
    finally:
        os.close(fd)


def ours(path: Path, p: Pending) -> bool:
    """Whether this canary wrote the entry at ``path``: the ledger names it, at that path."""
    if not _SPOOL_ID.fullmatch(p.spool_id):
        return False
    try:
        return _ledger(p.spool_id).read_text() == str(path.resolve())
    except OSError:
        return False


def scan(roots: list[Path]) -> tuple[list[tuple[Path, Pending]], list[tuple[Path, str]]]:
    """Every pending notification under ``roots`` (one level down), oldest run first, and the
    files that cannot be read (with why): those are left where they are for a person to look at."""
    found: list[tuple[Path, Pending]] = []
    bad: list[tuple[Path, str]] = []
    seen: set[Path] = set()
    for root in roots:
        try:
            paths = sorted(root.glob(f"*/{NOTIFY_PENDING}")) if root.is_dir() else []
        except OSError:
            continue
        for path in paths:
            if path.resolve() in seen:
                continue
            seen.add(path.resolve())
            try:
                if path.is_symlink():  # canary writes files; a link (to a FIFO, /dev/zero, another entry) is not one
                    raise ValueError("a link, not a file canary wrote")
                found.append((path, Pending.from_dict(read_json_object(path))))
            except (OSError, ConfigError, ValueError, KeyError, TypeError, AttributeError, RecursionError) as e:
                bad.append(
                    (path, str(e)[:200] if isinstance(e, ConfigError) else f"{type(e).__name__}: {str(e)[:120]}")
                )
    return sorted(found, key=lambda x: (x[1].record.started_at, x[1].record.run_id)), bad


def waiting(roots: list[Path]) -> list[tuple[Path, Pending]]:
    """The readable pending notifications under ``roots``, oldest run first."""
    return scan(roots)[0]


def done(path: Path, p: Pending | None = None) -> None:
    """Remove a sent (or dropped) entry, and its line in the ledger (and its folder under the
    default root, once empty)."""
    path.unlink(missing_ok=True)
    if path.parent.parent == default_root():
        with contextlib.suppress(OSError):
            path.parent.rmdir()
    if p is not None and _SPOOL_ID.fullmatch(p.spool_id):
        with contextlib.suppress(OSError):
            if _ledger(p.spool_id).read_text() == str(path.resolve()):
                _ledger(p.spool_id).unlink()


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


def store_put(store: HistoryStore | None, record: RunRecord) -> bool:
    """Replace the history's copy of a record; a store that refuses only means a resend later."""
    if store is None:
        return False
    try:
        store.append(record)
        return True
    except Exception:  # noqa: BLE001 - the local spool file still holds the notification
        return False
