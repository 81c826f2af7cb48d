"""Golden files on disk: read, written, and found through a lane's gates (the curve itself, pure,
is :mod:`canary.golden.curve`'s; a golden as committed is :func:`canary.git.committed_text`)."""

from __future__ import annotations

from pathlib import Path

from canary.config import load_gates
from canary.errors import ConfigError
from canary.golden.curve import Golden, dumps, loads, resolve_path


def read(path: Path) -> Golden:
    path = Path(path)
    try:
        text = path.read_text()
    except OSError as e:
        raise ConfigError(f"{path}: cannot read the golden: {e.strerror}") from None
    return loads(text, str(path))


def write(golden: Golden, path: Path) -> Path:
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(dumps(golden))
    return path


def lane_golden_path(ferry: str, lane: str, gates: str | None = None) -> Path | None:
    """Where the gates file of ``ferry`` says ``lane``'s golden is (None: it names none)."""
    gates_file, gates_path = load_gates(gates or ferry)
    ref = gates_file.lane(lane).golden
    return resolve_path(gates_path, ref) if ref else None


def load_golden(ferry: str = "moe-canary", lane: str = "cpu", gates: str | None = None) -> Golden | None:
    """The golden the gates judge ``lane`` against, or None when its gates name none (the loose
    lanes). For reports: ``windows`` with ``tolerance['loss_curve'].rtol`` is the band."""
    path = lane_golden_path(ferry, lane, gates)
    return read(path) if path else None
