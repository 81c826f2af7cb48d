"""Golden files on disk: read, written, and found through a lane's gates (what a golden holds, pure,
is :mod:`canary.golden.model`'s; a golden as committed is :func:`canary.git.committed_text`)."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from canary.config import GatesFile, load_gates, search_dirs
from canary.errors import ConfigError
from canary.golden.model import Golden, dumps, file_name, loads, resolve_path
from canary.textio import decode, read_bytes


def read(path: Path) -> Golden:
    """A golden file, checked (:meth:`Golden.check`): a hand edit that broke it is bad input."""
    path = Path(path)
    try:
        data = read_bytes(path)
    except OSError as e:
        raise ConfigError(f"{path}: cannot read the golden: {e.strerror}") from None
    return loads(decode(data, str(path)), str(path))


def write(golden: Golden, path: Path) -> Path:
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(dumps(golden))
    return path


def lane_golden_path(ferry: str, lane: str, gates: str | None = None) -> Path | None:
    """Where the gates file of ``ferry`` says ``lane``'s golden is (None: it names none)."""
    return named_golden_path(*load_gates(gates or ferry), lane)


def named_golden_path(gates_file: GatesFile, gates_path: Path, lane: str) -> Path | None:
    """Where ``gates_file`` (read from ``gates_path``) says ``lane``'s golden is (None: it names none)."""
    ref = gates_file.lane(lane).golden
    return resolve_path(gates_path, ref) if ref else None


def pinned_golden_path(ferry: str, lane: str) -> Path | None:
    """The golden of ``ferry`` on ``lane`` where the gates files are searched (a ``gates/`` folder in
    the working directory, then the pinned ``gates/``): ``gates/<ferry>.<lane>.golden.json``."""
    return next((p for d in search_dirs("gates") if (p := d / file_name(ferry, lane)).is_file()), None)


def copied_away(path: Path, ferry: str, lane: str, gates: str | None) -> bool:
    """Whether ``path``, the golden a gates file names, is the ferry's own golden named relative
    to a gates file copied away from it (so it is not there, and the pinned one stands in)."""
    return gates is not None and not path.is_file() and path.name == file_name(ferry, lane)


def load_golden(
    ferry: str = "moe-canary", lane: str = "cpu", gates: str | None = None, ferry_version: int | None = None
) -> Golden | None:
    """The golden the gates judge ``lane`` against, or None when its gates name none (the loose
    lanes). For reports: ``windows`` with ``tolerance['loss_curve'].rtol`` is the band.

    A gates file copied elsewhere names its golden relative to itself, where there is none: then
    the pinned golden of the same ferry, version (``ferry_version``, when given) and lane is used,
    and its ``note`` says so; with no such golden, the error says how to point at one."""
    return golden_of(*load_gates(gates or ferry), ferry, lane, gates, ferry_version)


def golden_of(
    gates_file: GatesFile, gates_path: Path, ferry: str, lane: str, gates: str | None, ferry_version: int | None
) -> Golden | None:
    """:func:`load_golden` with the gates file already read (``gates``: the name or path it was
    asked by, None for the ferry's own)."""
    path = named_golden_path(gates_file, gates_path, lane)
    if path is None:
        return None
    if not copied_away(path, ferry, lane, gates):
        return read(path)  # a gates file naming another golden than the ferry's own: that one, or an error
    pinned = pinned_golden_path(ferry, lane)
    found = read(pinned) if pinned is not None and pinned.resolve() != path.resolve() else None
    same = found is not None and (found.ferry, found.lane) == (ferry, lane)
    if same and ferry_version in (None, found.ferry_version):
        return replace(
            found,
            note=f"{path} is not there, so the gates of {gates} judge against the pinned golden "
            f"of {ferry} v{found.ferry_version} on {lane}: {pinned}",
        )
    if found is not None:
        why = (
            f"the pinned golden {pinned} is for {found.ferry} v{found.ferry_version} on {found.lane}, not "
            f"{ferry}{f' v{ferry_version}' if ferry_version is not None else ''} on {lane}"
        )
    else:
        why = f"no pinned golden of {ferry} on {lane} ({file_name(ferry, lane)}) was found either"
    raise ConfigError(
        f"{path}: cannot read the golden: the gates file {gates} names it relative to itself, and "
        f"{why}. Set `golden` under [lanes.{lane}] of {gates} to a golden's absolute path, copy the "
        f"golden beside it, or record one there: canary golden record {lane} --gates {gates}"
    )
