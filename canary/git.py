"""What git says about the checkout: its commit, and the commits between two commits with the
paths each touched (for regression windows). I/O at the edge: runs ``git``; never raises for
"not a git checkout" (``head_commit`` answers ``None``).

A CI checkout is often shallow (``actions/checkout`` fetches one commit), so the last pass's
commit is not there and ``git log good..bad`` cannot answer. ``commits_between(...,
deepen=True)`` then fetches more history from the checkout's remote until that commit is
present: back to a date when one is known (``--shallow-since``), then in growing steps
(``--deepen``), and at last the whole history (``--unshallow``)."""

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


def is_shallow(repo: str = ".") -> bool | None:
    """Whether the checkout is shallow; None outside a git checkout."""
    try:
        p = _git(["rev-parse", "--is-shallow-repository"], repo)
    except (OSError, subprocess.SubprocessError):
        return None
    return p.stdout.strip() == "true" if p.returncode == 0 else None


def has_commit(sha: str, repo: str = ".") -> bool:
    try:
        return _git(["cat-file", "-e", f"{sha}^{{commit}}"], repo).returncode == 0
    except (OSError, subprocess.SubprocessError):
        return False


def remote(repo: str = ".") -> str | None:
    """The remote history is fetched from: ``origin``, else the first one; None without remotes."""
    try:
        p = _git(["remote"], repo)
    except (OSError, subprocess.SubprocessError):
        return None
    names = p.stdout.split() if p.returncode == 0 else []
    return "origin" if "origin" in names else (names[0] if names else None)


def remote_answers(repo: str = ".") -> bool:
    """Whether the checkout's remote answers (``git ls-remote``), so history can be fetched from it."""
    name = remote(repo)
    try:
        return name is not None and _git(["ls-remote", "--exit-code", name, "HEAD"], repo).returncode == 0
    except (OSError, subprocess.SubprocessError):
        return False


DEEPEN_STEPS = (50, 500)


def deepen_to(sha: str, repo: str = ".", since: str | None = None) -> list[str]:
    """Fetch history into a shallow checkout until ``sha`` is present (``since``: an ISO date at or
    before that commit, tried first). Returns the fetches made; raises ConfigError when the commit
    is still missing after the whole history was fetched, or when there is no remote."""
    done: list[str] = []
    if has_commit(sha, repo) or not is_shallow(repo):
        return done
    remote_ = remote(repo)
    if remote_ is None:
        raise ConfigError(f"{repo} is a shallow clone without a remote, so commit {sha[:12]} cannot be fetched")
    tries = ([f"--shallow-since={since}"] if since else []) + [f"--deepen={n}" for n in DEEPEN_STEPS] + ["--unshallow"]
    for flag in tries:
        try:
            p = subprocess.run(["git", "-C", str(repo), "fetch", "--quiet", "--no-tags", flag, remote_],
                               capture_output=True, text=True, timeout=600)
        except (OSError, subprocess.SubprocessError) as e:
            raise ConfigError(f"git fetch {flag} {remote_} in {repo} failed: {e}") from None
        done.append(f"git fetch {flag} {remote_}" + ("" if p.returncode == 0 else f" (failed: {p.stderr.strip()[:200]})"))
        if has_commit(sha, repo) or not is_shallow(repo):
            break
    if not has_commit(sha, repo):
        raise ConfigError(f"commit {sha[:12]} is not in {repo}'s history even after {'; '.join(done)}")
    return done


def commits_between(good: str, bad: str, repo: str = ".", deepen: bool = False,
                    since: str | None = None) -> list[Commit]:
    """Commits reachable from ``bad`` but not from ``good`` (``good..bad``), newest first, each
    with the paths it touched. With ``deepen``, a shallow checkout first fetches history back to
    ``good`` (see :func:`deepen_to`; ``since`` is ``good``'s date, when known). Bad input (an
    unknown commit) raises ConfigError."""
    if deepen:
        deepen_to(good, repo, since)
    try:
        p = _git(["log", "--no-color", "--name-only", f"--format={_RS}%H{_US}%an{_US}%aI{_US}%s",
                  f"{good}..{bad}", "--"], repo)
    except (OSError, subprocess.SubprocessError) as e:
        raise ConfigError(f"cannot run git in {repo}: {e}") from None
    if p.returncode != 0:
        raise ConfigError(f"git log {good}..{bad} in {repo} failed: {p.stderr.strip() or 'unknown error'}")
    return parse_log(p.stdout)
