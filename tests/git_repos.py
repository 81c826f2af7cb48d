"""Real git repositories for the tests: a source repository with a few commits, and shallow
clones of it (``git clone --depth 1 file://...``, as ``actions/checkout`` makes them)."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

GIT_ENV = {
    "GIT_AUTHOR_NAME": "t",
    "GIT_AUTHOR_EMAIL": "t@example.com",
    "GIT_COMMITTER_NAME": "t",
    "GIT_COMMITTER_EMAIL": "t@example.com",
    "GIT_CONFIG_GLOBAL": os.devnull,
    "GIT_CONFIG_NOSYSTEM": "1",
}


def git(repo: Path, *args: str) -> str:
    return subprocess.run(
        ["git", "-C", str(repo), *args], check=True, capture_output=True, text=True, env={**os.environ, **GIT_ENV}
    ).stdout.strip()


def source_repo(root: Path, commits: list[tuple[str, str]]) -> tuple[Path, list[str]]:
    """A repository with one commit per (path, subject), oldest first; returns it and the shas."""
    root.mkdir(parents=True)
    git(root, "init", "-q", "-b", "main")
    shas = []
    for i, (path, subject) in enumerate(commits):
        f = root / path
        f.parent.mkdir(parents=True, exist_ok=True)
        f.write_text(f"{subject}\n{i}\n")
        git(root, "add", "--", path)
        git(root, "commit", "-q", "-m", subject, "--date", f"2026-08-{20 + i:02d}T12:00:00+00:00")
        shas.append(git(root, "rev-parse", "HEAD"))
    return root, shas


def shallow_clone(src: Path, dest: Path) -> Path:
    subprocess.run(
        ["git", "clone", "-q", "--depth", "1", f"file://{src}", str(dest)],
        check=True,
        capture_output=True,
        env={**os.environ, **GIT_ENV},
    )
    return dest
