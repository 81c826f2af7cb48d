"""Where a run writes: checked before training, and a full disk met during the run said, not
crashed on.

    ensure_writable(Path("runs"), "--out")     # bad input (exit 2) before anything trains
    with disk_trouble(run_dir) as trouble:     # ENOSPC while writing the run directory
        ...                                    # ends the block; trouble.said names the path
    if trouble.said: ...                       # "runs/x/result.json: no space left on device"

A run that met a full disk still has a verdict and is still recorded in the history (which lives
elsewhere); the command prints the verdict, then one line naming the path, and exits 1.
"""

from __future__ import annotations

import contextlib
import errno
import os
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from canary.errors import ConfigError

# The errors of a place that cannot take what is written there (as opposed to a missing program).
NO_ROOM = {errno.ENOSPC, errno.EDQUOT, errno.EFBIG}
UNWRITABLE = NO_ROOM | {errno.EROFS, errno.EACCES, errno.EPERM, errno.EIO, errno.ENOTDIR}


def describe(e: OSError, where: Path | str) -> str:
    """One line: the path, then what is wrong with it ("no space left on device")."""
    # a copy that ran out of room names its source first and its destination second
    named = [f for f in (e.filename2, e.filename) if isinstance(f, str) and f]
    path = named[0] if named else str(where)
    what = "no space left on device" if e.errno in (errno.ENOSPC, errno.EDQUOT) else (e.strerror or str(e)).lower()
    return f"{path}: {what}"


def ensure_writable(path: Path, what: str) -> None:
    """``path`` (a directory, created if missing) takes a file, or ConfigError naming ``what``:
    an unwritable or full --out or --cache-dir is bad input, found before training."""
    path = Path(path)
    probe = path / f".canary-probe-{os.getpid()}"
    try:
        path.resolve(strict=False)  # a symlink loop: RuntimeError on Python 3.11, OSError (ELOOP) later
    except RuntimeError as e:
        raise ConfigError(f"{what} {path}: cannot write there: {e}") from None
    try:
        path.mkdir(parents=True, exist_ok=True)
        with open(probe, "wb") as f:
            f.write(b"canary")
            f.flush()
            os.fsync(f.fileno())
    except OSError as e:
        raise ConfigError(f"{what} {path}: cannot write there: {describe(e, path).split(': ', 1)[-1]}") from None
    finally:
        with contextlib.suppress(OSError):
            probe.unlink()


@dataclass
class Trouble:
    said: str | None = None  # "<path>: no space left on device", once something could not be written


@contextlib.contextmanager
def disk_trouble(where: Path) -> Iterator[Trouble]:
    """Turns a write under ``where`` that the disk refused (full, read-only, gone) into a note
    instead of a traceback; other errors pass through."""
    trouble = Trouble()
    try:
        yield trouble
    except OSError as e:
        names = [str(f) for f in (e.filename, e.filename2) if f]
        if e.errno not in UNWRITABLE or (names and not any(f.startswith(str(where)) for f in names)):
            raise
        trouble.said = describe(e, where)
