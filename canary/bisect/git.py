"""The git a bisect needs: revisions, subjects, a temporary worktree. Bad revisions are ConfigError."""

from __future__ import annotations

import shutil
import subprocess
import tempfile
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator

from canary.errors import CanaryError, ConfigError


def git(cwd: str | Path, *args: str, check: bool = False, timeout: float = 120) -> subprocess.CompletedProcess:
    p = subprocess.run(["git", "-c", "advice.detachedHead=false", "-C", str(cwd), *args], capture_output=True,
                       text=True, timeout=timeout)
    if check and p.returncode != 0:
        raise CanaryError(f"git {' '.join(args)} failed in {cwd}: {p.stderr.strip() or p.stdout.strip()}")
    return p


def toplevel(checkout: str) -> str:
    try:
        p = git(checkout, "rev-parse", "--show-toplevel")
    except (OSError, subprocess.SubprocessError) as e:
        raise ConfigError(f"cannot run git in {checkout}: {e}") from None
    if p.returncode != 0:
        raise ConfigError(f"{checkout} is not a git checkout: {p.stderr.strip()}")
    return p.stdout.strip()


def resolve(repo: str, rev: str, flag: str) -> str:
    p = git(repo, "rev-parse", "--verify", "--quiet", f"{rev}^{{commit}}")
    if p.returncode != 0 or not p.stdout.strip():
        raise ConfigError(f"{flag} {rev!r} is not a commit in {repo}")
    return p.stdout.strip()


def subject(repo: str | Path, sha: str) -> str:
    return git(repo, "log", "-1", "--format=%s", sha).stdout.strip()


def newest(repo: str, shas: list[str], good: str) -> str | None:
    """The commit of ``shas`` (a regression window above ``good``) that all the others lead to: its bad end."""
    p = git(repo, "rev-list", "--topo-order", "--max-count=1", *shas, "--not", good)
    if p.returncode != 0:
        return None
    return p.stdout.strip() or None


@contextmanager
def worktree(repo: str, rev: str) -> Iterator[Path]:
    """A detached worktree of ``repo`` at ``rev`` in a temporary directory, removed afterwards."""
    tmp = Path(tempfile.mkdtemp(prefix="canary-bisect-"))
    path = tmp / "checkout"
    p = git(repo, "worktree", "add", "--detach", "--quiet", str(path), rev, timeout=600)
    if p.returncode != 0:
        shutil.rmtree(tmp, ignore_errors=True)
        raise CanaryError(f"cannot add a worktree of {repo}: {p.stderr.strip()}")
    try:
        yield path
    finally:
        git(repo, "worktree", "remove", "--force", str(path))
        shutil.rmtree(tmp, ignore_errors=True)
        git(repo, "worktree", "prune")
