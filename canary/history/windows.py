"""What changed between two runs, as pure functions: the commits between them, those touching a
ferry's watched paths first (:func:`regression_window`), and the versions of the stack that moved
(:func:`version_changes`). The commits themselves come from git (:mod:`canary.git`), through the
caller."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Protocol

from canary.config.globs import glob_regex


class CommitLike(Protocol):
    sha: str
    subject: str
    paths: list[str]


@dataclass(frozen=True)
class WindowCommit:
    sha: str
    subject: str
    paths: list[str]
    watched: bool
    watched_paths: list[str] = field(default_factory=list)  # the paths that matched a watched glob

    @classmethod
    def from_dict(cls, c: dict) -> WindowCommit:
        """A commit as a record's JSON keeps it (``dataclasses.asdict``'s keys)."""
        return cls(
            c["sha"], c["subject"], list(c.get("paths", [])), c.get("watched", False), list(c.get("watched_paths", []))
        )


def path_matches(path: str, globs: Iterable[str]) -> bool:
    path = path[2:] if path.startswith("./") else path
    return any(glob_regex(g.lstrip("/")).fullmatch(path) for g in globs)


def regression_window(commits: Sequence[CommitLike], watched_globs: Iterable[str]) -> list[WindowCommit]:
    """The commits of a regression window, those touching a watched path (the ferry's
    ``watched_paths``: kernels, the model, dependency pins) first; order otherwise kept."""
    globs = tuple(watched_globs)
    out = []
    for c in commits:
        hits = [p for p in c.paths if path_matches(p, globs)]
        out.append(WindowCommit(c.sha, c.subject, list(c.paths), bool(hits), hits))
    return [c for c in out if c.watched] + [c for c in out if not c.watched]


# ----------------------------------------------------------------------------- versions

# JAX and its platform plugins, and the optimizer library: what a run's record keeps the versions
# of besides the team's stack (canary.run.workload.VERSIONED_DISTS).
JAX_DISTRIBUTIONS = (
    "jax",
    "jaxlib",
    "libtpu",
    "libtpu-nightly",
    "jax-cuda12-plugin",
    "jax-cuda12-pjrt",
    "jax-cuda13-plugin",
    "jax-cuda13-pjrt",
    "optax",
)
# The versions a regression window lists, most likely culprit first; any other recorded key follows.
VERSION_ORDER = (*JAX_DISTRIBUTIONS, "python", "ferry", "canary")


@dataclass(frozen=True)
class VersionChange:
    name: str
    before: str | None  # None: not installed (or not recorded) at the last pass
    after: str | None  # None: not installed now
    owns_failure: bool = False  # the distribution owns the failing call path's innermost frame


def version_changes(
    before: dict[str, str] | None, after: dict[str, str] | None, failing: str | None = None
) -> list[VersionChange]:
    """What changed between two records' ``versions`` (the last pass's and this run's): added,
    removed or different, in ``VERSION_ORDER`` then by name; the ``failing`` distribution (the one
    owning the failing frame), when it changed, first of all. Empty when either is unknown."""
    if not before or not after:
        return []
    names = [n for n in VERSION_ORDER if n in before or n in after]
    names += sorted((set(before) | set(after)) - set(names))
    if failing in names:
        names = [failing] + [n for n in names if n != failing]
    return [VersionChange(n, before.get(n), after.get(n), n == failing) for n in names if before.get(n) != after.get(n)]


# ----------------------------------------------------------------------------- infrastructure
