"""Every git call canary makes, at the edge: the checkout's commit; the commits between two commits
with the paths each touched (regression windows: the notifier's, ``canary history``'s); the
revisions, subjects and temporary worktrees a bisect needs; and a file as committed (a golden's
old side). Never raises for "not a git checkout" (``head_commit`` answers ``None``); a bad
revision is a ConfigError.

A CI checkout is often shallow (``actions/checkout`` fetches one commit), so the last pass's
commit is not there and ``git log good..bad`` cannot answer. ``commits_between(...,
deepen=True)`` then fetches more history from the checkout's remote until that commit is
present: back to a date when one is known (``--shallow-since``), then in growing steps
(``--deepen``), and at last the whole history (``--unshallow``)."""

from __future__ import annotations

import shutil
import subprocess
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

from canary.errors import CanaryError, ConfigError


@dataclass(frozen=True)
class Commit:
    sha: str
    subject: str
    paths: list[str] = field(default_factory=list)
    author: str = ""
    date: str = ""


def git(cwd: str | Path, *args: str, check: bool = False, timeout: float = 120) -> subprocess.CompletedProcess:
    p = subprocess.run(
        ["git", "-c", "advice.detachedHead=false", "-C", str(cwd), *args],
        capture_output=True,
        text=True,
        timeout=timeout,
    )
    if check and p.returncode != 0:
        raise CanaryError(f"git {' '.join(args)} failed in {cwd}: {p.stderr.strip() or p.stdout.strip()}")
    return p


def head_commit(repo: str = ".") -> str | None:
    """The checkout's current commit, or ``None`` outside a git checkout (or without git)."""
    try:
        p = git(repo, "rev-parse", "--verify", "HEAD", timeout=60)
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
        p = git(repo, "rev-parse", "--is-shallow-repository", timeout=60)
    except (OSError, subprocess.SubprocessError):
        return None
    return p.stdout.strip() == "true" if p.returncode == 0 else None


def has_commit(sha: str, repo: str = ".") -> bool:
    try:
        return git(repo, "cat-file", "-e", f"{sha}^{{commit}}", timeout=60).returncode == 0
    except (OSError, subprocess.SubprocessError):
        return False


def remote(repo: str = ".") -> str | None:
    """The remote history is fetched from: ``origin``, else the first one; None without remotes."""
    try:
        p = git(repo, "remote", timeout=60)
    except (OSError, subprocess.SubprocessError):
        return None
    names = p.stdout.split() if p.returncode == 0 else []
    return "origin" if "origin" in names else (names[0] if names else None)


def remote_answers(repo: str = ".") -> bool:
    """Whether the checkout's remote answers (``git ls-remote``), so history can be fetched from it."""
    name = remote(repo)
    try:
        return name is not None and git(repo, "ls-remote", "--exit-code", name, "HEAD", timeout=60).returncode == 0
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
            p = git(repo, "fetch", "--quiet", "--no-tags", flag, remote_, timeout=600)
        except (OSError, subprocess.SubprocessError) as e:
            raise ConfigError(f"git fetch {flag} {remote_} in {repo} failed: {e}") from None
        done.append(
            f"git fetch {flag} {remote_}" + ("" if p.returncode == 0 else f" (failed: {p.stderr.strip()[:200]})")
        )
        if has_commit(sha, repo) or not is_shallow(repo):
            break
    if not has_commit(sha, repo):
        raise ConfigError(f"commit {sha[:12]} is not in {repo}'s history even after {'; '.join(done)}")
    return done


def commits_between(
    good: str, bad: str, repo: str = ".", deepen: bool = False, since: str | None = None
) -> list[Commit]:
    """Commits reachable from ``bad`` but not from ``good`` (``good..bad``), newest first, each
    with the paths it touched. With ``deepen``, a shallow checkout first fetches history back to
    ``good`` (see :func:`deepen_to`; ``since`` is ``good``'s date, when known). Bad input (an
    unknown commit) raises ConfigError."""
    if deepen:
        deepen_to(good, repo, since)
    try:
        p = git(
            repo,
            "log",
            "--no-color",
            "--name-only",
            f"--format={_RS}%H{_US}%an{_US}%aI{_US}%s",
            f"{good}..{bad}",
            "--",
            timeout=60,
        )
    except (OSError, subprocess.SubprocessError) as e:
        raise ConfigError(f"cannot run git in {repo}: {e}") from None
    if p.returncode != 0:
        raise ConfigError(f"git log {good}..{bad} in {repo} failed: {p.stderr.strip() or 'unknown error'}")
    return parse_log(p.stdout)


# ----------------------------------------------------------------------------- windows, as callers pass them


def window_commits(good: str, bad: str) -> list[Commit]:
    """The checkout's commits ``good..bad``; a shallow CI checkout is deepened until ``good`` is in it
    (the notifier's regression window)."""
    return commits_between(good, bad, deepen=True)


def checkout_commits(good: str, bad: str) -> list[Commit]:
    """The checkout's commits ``good..bad`` as they are (a read: no fetching; ``canary history``)."""
    return commits_between(good, bad)


# ----------------------------------------------------------------------------- committed files


def committed_text(path: Path, rev: str = "HEAD") -> str | None:
    """A file as committed at ``rev`` (None: not in git, or not committed there)."""
    path = Path(path).resolve()
    try:
        top = subprocess.run(
            ["git", "rev-parse", "--show-toplevel"], cwd=path.parent, capture_output=True, text=True, check=True
        ).stdout.strip()
        rel = path.relative_to(Path(top).resolve())
        return subprocess.run(
            ["git", "show", f"{rev}:{rel.as_posix()}"], cwd=top, capture_output=True, text=True, check=True
        ).stdout
    except (OSError, ValueError, subprocess.CalledProcessError):
        return None


# ----------------------------------------------------------------------------- bisect: revisions and worktrees


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
