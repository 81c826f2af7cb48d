"""Which installed distribution owns a source file, and the versions of the team's stack.

A frame of a traceback names a file; ``importlib.metadata`` knows which installed distribution
shipped it (its RECORD). ``owner_of(".../site-packages/haliax/nn/ragged_dot.py")`` is
``("marin-haliax", "0.2.20.dev202606180959")``: the package to look at, and the version to bisect
from. Nothing here imports the packages it asks about.
"""

from __future__ import annotations

import functools
import importlib.metadata
import os
import sys
from pathlib import Path

# The distributions of the team's stack a run record keeps (those installed), beside JAX's.
STACK_DISTRIBUTIONS = ("marin-levanter", "marin-haliax", "equinox")


def stack_versions(names: tuple[str, ...] = STACK_DISTRIBUTIONS) -> dict[str, str]:
    """The installed version of each named distribution; absent ones are left out."""
    out = {}
    for name in names:
        try:
            out[name] = importlib.metadata.version(name)
        except importlib.metadata.PackageNotFoundError:
            continue
    return out


def _top_level(path: Path) -> tuple[Path, str] | None:
    """The import root a file lies under (the deepest ``sys.path`` entry holding it: a checkout may
    hold its own virtual environment) and its top-level package or module name."""
    roots = [r for r in {Path(e or os.getcwd()).resolve() for e in sys.path} if r in path.parents]
    if not roots:
        return None
    root = max(roots, key=lambda r: len(r.parts))
    return root, path.relative_to(root).parts[0].removesuffix(".py")


@functools.lru_cache(maxsize=1)
def _packages() -> dict[str, list[str]]:
    return importlib.metadata.packages_distributions()


def _owner(top: str, rel: str) -> tuple[str, str] | None:
    """The distribution among those providing top-level package ``top`` that installed ``rel``."""
    for name in _packages().get(top, []):
        try:
            dist = importlib.metadata.distribution(name)
        except importlib.metadata.PackageNotFoundError:
            continue
        if any(f.as_posix() == rel for f in dist.files or ()):
            return dist.metadata["Name"], dist.version
    return None


@functools.lru_cache(maxsize=256)
def owner_of(path: str) -> tuple[str, str] | None:
    """(distribution, version) that installed ``path``, or None (not an installed file)."""
    resolved = Path(path).resolve()
    found = _top_level(resolved)
    if found is None:
        return None
    root, top = found
    return _owner(top, resolved.relative_to(root).as_posix())


def owner_of_frame(frame: str) -> tuple[str, str] | None:
    """(distribution, version) owning a signature's frame (``haliax/nn/ragged_dot.py:fn``, an installed
    file named from its package down), or None (an application file, or no such installed file)."""
    rel = frame.rsplit(":", 1)[0]
    return _owner(rel.split("/", 1)[0].removesuffix(".py"), rel)


def failing_distribution(signature) -> str | None:
    """The installed distribution owning the innermost frame of a failure's call path that one owns."""
    for frame in reversed(getattr(signature, "frames", None) or []):
        owner = owner_of_frame(frame)
        if owner:
            return owner[0]
    return None


def describe(owner: tuple[str, str] | None) -> str | None:
    return f"{owner[0]} {owner[1]}" if owner else None
