"""What git says about the checkout: its commit, and the commits between two commits with the
paths each touched (for regression windows). I/O at the edge: runs ``git``; never raises for
"not a git checkout" (``head_commit`` answers ``None``)."""

from __future__ import annotations

import subprocess
from dataclasses import dataclass, field

from canary.errors import ConfigError


@dataclass(frozen=True)
class Commit:
    sha: str
    subject: str
    paths: list[str] = field(default_factory=list)
    author: str = ""
    date: str = ""


def _git(args: list[str], repo: str) -> subprocess.CompletedProcess:
    return subprocess.run(["git", "-C", str(repo), *args], capture_output=True, text=True, timeout=60)


def head_commit(repo: str = ".") -> str | None:
    """The checkout's current commit, or ``None`` outside a git checkout (or without git)."""
    try:
        p = _git(["rev-parse", "--verify", "HEAD"], repo)
    except (OSError, subprocess.SubprocessError):
        return None
    return p.stdout.strip() if p.returncode == 0 and p.stdout.strip() else None


_RS, _US = "\x1e", "\x1f"


def parse_log(text: str) -> list[Commit]:
    """``git log --name-only --format=<RS>%H<US>%an<US>%aI<US>%s`` output as commits."""
    commits = []
    for chunk in text.split(_RS):
        if not chunk.strip():
            continue
        header, _, rest = chunk.partition("\n")
        sha, author, date, subject = (header.split(_US) + ["", "", ""])[:4]
        paths = [p for p in rest.splitlines() if p.strip()]
        commits.append(Commit(sha.strip(), subject, paths, author, date))
    return commits


def commits_between(good: str, bad: str, repo: str = ".") -> list[Commit]:
    """Commits reachable from ``bad`` but not from ``good`` (``good..bad``), newest first, each
    with the paths it touched. Bad input (an unknown commit) raises ConfigError."""
    try:
        p = _git(["log", "--no-color", "--name-only", f"--format={_RS}%H{_US}%an{_US}%aI{_US}%s",
                  f"{good}..{bad}", "--"], repo)
    except (OSError, subprocess.SubprocessError) as e:
        raise ConfigError(f"cannot run git in {repo}: {e}") from None
    if p.returncode != 0:
        raise ConfigError(f"git log {good}..{bad} in {repo} failed: {p.stderr.strip() or 'unknown error'}")
    return parse_log(p.stdout)
