"""Every git call canary makes, at the edge: the checkout's commit; the commits between two commits
with the paths each touched (regression windows: the notifier's, ``canary history``'s); the
revisions, subjects and temporary worktrees a bisect needs; and a file as committed (a golden's
old side). Never raises for "not a git checkout" (``head_commit`` answers ``None``); a bad
revision is a ConfigError.

Revisions from outside never reach git as they are. One read from a record, the history or a
spooled notification must be a full commit id (:func:`object_name`: 40 or 64 lowercase hex
digits), never a ref name, an abbreviation or an option (``--output=PATH``); one typed on the
command line (``--good``, ``--rev``) may be a ref name but never starts with ``-``, and is resolved
to a full id first. Every git call that takes revisions puts ``--end-of-options`` before them
(``git bisect start`` has none: its two are full ids, before ``--``). ``git log`` is read as
NUL-separated fields in a fixed order (``-z``; git prints no NUL in a subject or a name) and
checked against ``git rev-list``, so no byte of a commit message can forge a commit or a field.

A CI checkout is often shallow (``actions/checkout`` fetches one commit), so the last pass's
commit is not there and ``git log good..bad`` cannot answer. ``commits_between(...,
deepen=True)`` then fetches more history from the checkout's remote until that commit is
present: back to a date when one is known (``--shallow-since``), then in growing steps
(``--deepen``), and at last the whole history (``--unshallow``)."""

from __future__ import annotations

import re
import shutil
import subprocess
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

from canary.errors import CanaryError, ConfigError
from canary.textio import printable


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
        encoding="utf-8",
        errors="replace",  # a subject or a path that is not UTF-8 is text all the same
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
    return p.stdout.strip() if p.returncode == 0 and is_object_name(p.stdout.strip()) else None


_OBJECT_NAME = re.compile(r"[0-9a-f]{40}|[0-9a-f]{64}")


def is_object_name(rev: object) -> bool:
    """Whether ``rev`` is a full commit id: 40 (SHA-1) or 64 (SHA-256) lowercase hex digits."""
    return isinstance(rev, str) and _OBJECT_NAME.fullmatch(rev) is not None


def shown(rev: object) -> str:
    """A revision from outside, quoted for a message: escaped, and cut to 80 characters."""
    text = rev if isinstance(rev, str) else repr(rev)
    return printable(repr(text[:80])) + (f" (cut from {len(text)} characters)" if len(text) > 80 else "")


def object_name(rev: object, what: str = "commit") -> str:
    """``rev`` when it is a full commit id; else ConfigError, and git never sees it."""
    if not is_object_name(rev):
        raise ConfigError(f"{what} {shown(rev)} is not a full commit id (40 or 64 lowercase hex digits)")
    return rev  # type: ignore[return-value]


def typed_revision(rev: str, flag: str) -> str:
    """A revision typed on the command line (a ref name such as ``HEAD~1`` is fine), or ConfigError
    when git could take it for an option or it holds a space or a control character."""
    if not rev or rev.startswith("-") or not rev.isprintable() or any(c.isspace() for c in rev):
        raise ConfigError(f"{flag} {shown(rev)} is not a revision: give a commit id or a ref name")
    return rev


_LOG_FIELDS = "%x00%H%x00%an%x00%aI%x00%s"  # each commit: an empty field, then sha, author, date, subject


def parse_log(text: str) -> list[Commit]:
    """``git log -z --name-only --format=%x00%H%x00%an%x00%aI%x00%s`` output as commits. Fields are
    NUL-separated in a fixed order, and a commit's paths (never empty) end at the next empty field;
    output of another shape raises ConfigError."""
    fields = text.split("\0")
    commits: list[Commit] = []
    i = 0
    while i < len(fields):
        if fields[i] != "":
            raise ConfigError(f"git log printed a field canary cannot read: {shown(fields[i])}")
        if i == len(fields) - 1:
            break  # the NUL that ends the output
        if i + 4 >= len(fields) or not is_object_name(fields[i + 1]):
            raise ConfigError(f"git log printed a commit canary cannot read: {shown(fields[i + 1 : i + 5])}")
        sha, author, date, subject = fields[i + 1 : i + 5]
        i += 5
        paths = []
        while i < len(fields) and fields[i] != "":
            paths.append(fields[i][1:] if not paths and fields[i].startswith("\n") else fields[i])  # "\n" first
            i += 1
        commits.append(Commit(sha, subject, paths, author, date))
    return commits


def is_shallow(repo: str = ".") -> bool | None:
    """Whether the checkout is shallow; None outside a git checkout."""
    try:
        p = git(repo, "rev-parse", "--is-shallow-repository", timeout=60)
    except (OSError, subprocess.SubprocessError):
        return None
    return p.stdout.strip() == "true" if p.returncode == 0 else None


def has_commit(sha: str, repo: str = ".") -> bool:
    """Whether the full commit id ``sha`` is a commit in the checkout (anything else: False)."""
    if not is_object_name(sha):
        return False
    try:
        return git(repo, "cat-file", "-e", "--end-of-options", f"{sha}^{{commit}}", timeout=60).returncode == 0
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
        return (
            name is not None
            and git(repo, "ls-remote", "--exit-code", "--end-of-options", name, "HEAD", timeout=60).returncode == 0
        )
    except (OSError, subprocess.SubprocessError):
        return False


DEEPEN_STEPS = (50, 500)


def deepen_to(sha: str, repo: str = ".", since: str | None = None) -> list[str]:
    """Fetch history into a shallow checkout until ``sha`` is present (``since``: an ISO date at or
    before that commit, tried first). Returns the fetches made; raises ConfigError when the commit
    is still missing after the whole history was fetched, or when there is no remote."""
    done: list[str] = []
    object_name(sha, "the recorded commit")
    if has_commit(sha, repo) or not is_shallow(repo):
        return done
    remote_ = remote(repo)
    if remote_ is None:
        raise ConfigError(f"{repo} is a shallow clone without a remote, so commit {sha[:12]} cannot be fetched")
    tries = ([f"--shallow-since={since}"] if since else []) + [f"--deepen={n}" for n in DEEPEN_STEPS] + ["--unshallow"]
    for flag in tries:
        try:
            p = git(repo, "fetch", "--quiet", "--no-tags", flag, "--end-of-options", remote_, timeout=600)
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
    unknown commit, one that is not a full commit id) raises ConfigError."""
    good, bad = object_name(good, "the recorded commit"), object_name(bad, "the recorded commit")
    span = f"{good}^{{commit}}..{bad}^{{commit}}"  # a tree or a blob is not a commit
    if deepen:
        deepen_to(good, repo, since)
    log = ("log", "--no-color", "-z", "--name-only", f"--format={_LOG_FIELDS}", "--end-of-options", span, "--")
    try:
        p = git(repo, *log, timeout=60)
        listed = git(repo, "rev-list", "--end-of-options", span, "--", timeout=60) if p.returncode == 0 else p
    except (OSError, subprocess.SubprocessError) as e:
        raise ConfigError(f"cannot run git in {repo}: {e}") from None
    if p.returncode != 0 or listed.returncode != 0:
        said = (p.stderr or listed.stderr).strip() or "unknown error"
        raise ConfigError(f"git log {good}..{bad} in {repo} failed: {said}")
    commits = parse_log(p.stdout)
    if [c.sha for c in commits] != listed.stdout.split():  # a message that forged a commit
        raise ConfigError(f"git log {good}..{bad} in {repo} lists other commits than git rev-list: not read")
    return commits


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
    """A file as committed at ``rev`` (None: not in git, or not committed there). A ``rev`` git
    could take for an option is a ConfigError."""
    typed_revision(rev, "--rev")
    path = Path(path).resolve()
    try:
        top = subprocess.run(
            ["git", "rev-parse", "--show-toplevel"], cwd=path.parent, capture_output=True, text=True, check=True
        ).stdout.strip()
        rel = path.relative_to(Path(top).resolve())
        return subprocess.run(
            ["git", "show", "--end-of-options", f"{rev}:{rel.as_posix()}"],
            cwd=top,
            capture_output=True,
            text=True,
            check=True,
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
    """The full commit id a revision typed on the command line names (ConfigError: none)."""
    p = git(repo, "rev-parse", "--verify", "--quiet", "--end-of-options", f"{typed_revision(rev, flag)}^{{commit}}")
    if p.returncode != 0 or not is_object_name(p.stdout.strip()):
        raise ConfigError(f"{flag} {shown(rev)} is not a commit in {repo}")
    return p.stdout.strip()


def subject(repo: str | Path, sha: str) -> str:
    return git(repo, "log", "-1", "--format=%s", "--end-of-options", object_name(sha), "--").stdout.strip()


def newest(repo: str, shas: list[str], good: str) -> str | None:
    """The commit of ``shas`` (a regression window above ``good``) that all the others lead to: its
    bad end. Every one must be a full commit id (ConfigError)."""
    tips = [object_name(s, "a window commit") for s in shas]
    p = git(repo, "rev-list", "--topo-order", "--max-count=1", "--end-of-options", *tips, f"^{object_name(good)}", "--")
    if p.returncode != 0:
        return None
    return p.stdout.strip() or None


@contextmanager
def worktree(repo: str, rev: str) -> Iterator[Path]:
    """A detached worktree of ``repo`` at ``rev`` in a temporary directory, removed afterwards."""
    tmp = Path(tempfile.mkdtemp(prefix="canary-bisect-"))
    path = tmp / "checkout"
    p = git(
        repo, "worktree", "add", "--detach", "--quiet", "--end-of-options", str(path), object_name(rev), timeout=600
    )
    if p.returncode != 0:
        shutil.rmtree(tmp, ignore_errors=True)
        raise CanaryError(f"cannot add a worktree of {repo}: {p.stderr.strip()}")
    try:
        yield path
    finally:
        git(repo, "worktree", "remove", "--force", str(path))
        shutil.rmtree(tmp, ignore_errors=True)
        git(repo, "worktree", "prune")
