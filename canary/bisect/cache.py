"""The version bisect's cache: where it lies, its locks, and the pruning of its base venvs.

Each base venv is about 2 GB, and a new Python or a new end builds another, so the cache keeps
the ``KEEP_ENVS`` most recently used ones (the one in hand counted) and removes the rest. A venv
is touched whenever a bisect takes it, and held (a shared lock on ``envs/NAME.use``) while that
bisect runs; one is removed only under its own build lock (``envs/NAME.lock``) and its use lock
taken exclusively, both without waiting, so a venv being built or in use is never removed.

    base = hold(root)                  # in use until base.close()
    prune(root.parent, KEEP_ENVS, root)  # -> the venvs removed
"""

from __future__ import annotations

import fcntl
import os
import shutil
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path
from typing import IO

KEEP_ENVS = 3
READY = "canary-base.json"  # a base venv's facts, written once it is complete; its mtime: when last used


def cache_root(cache: str | None = None) -> Path:
    if cache:
        return Path(cache).expanduser().resolve()
    import platformdirs

    return Path(platformdirs.user_cache_dir("canary")) / "bisect"


@contextmanager
def locked(path: Path) -> Iterator[None]:
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "w") as f:
        fcntl.flock(f, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(f, fcntl.LOCK_UN)


def build_lock(root: Path) -> Path:
    return root.parent / f"{root.name}.lock"


def _use_lock(root: Path) -> Path:
    return root.parent / f"{root.name}.use"


def hold(root: Path) -> IO[str]:
    """Mark the base venv ``root`` in use until the returned file is closed, and touch it as used
    now. (Called under its build lock, so that it cannot be removed in between.)"""
    f = open(_use_lock(root), "a")
    fcntl.flock(f, fcntl.LOCK_SH)
    ready = root / READY
    if ready.is_file():
        os.utime(ready)
    return f


def last_used(root: Path) -> float:
    """When the venv was last used (an incomplete one: when it was begun)."""
    for p in (root / READY, root):
        try:
            return p.stat().st_mtime
        except OSError:
            continue
    return 0.0


def prune(envs: Path, keep: int, current: Path | None = None) -> list[Path]:
    """Remove all but the ``keep`` most recently used base venvs under ``envs`` (``current``, the
    one in hand, always kept and counted), skipping any being built or in use. The venvs removed."""
    if not envs.is_dir():
        return []
    roots = [d for d in envs.iterdir() if d.is_dir() and d != current]
    roots.sort(key=last_used, reverse=True)
    removed = []
    for root in roots[max(keep - (current is not None), 0) :]:
        if _remove_unless_held(root):
            removed.append(root)
    return removed


def _remove_unless_held(root: Path) -> bool:
    with ExitStack() as stack:
        for path in (build_lock(root), _use_lock(root)):
            f = stack.enter_context(open(path, "a"))
            try:
                fcntl.flock(f, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                return False  # being built, or in use
        shutil.rmtree(root, ignore_errors=True)
        return not root.exists()
