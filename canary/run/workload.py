"""The versions of the stack a run's workload runs with (a run record keeps them; a regression
window lists their changes). The workload's command line and environment are its ferry kind's
(:mod:`canary.ferries.builtin`)."""

from __future__ import annotations

from pathlib import Path

import canary
from canary.history.windows import JAX_DISTRIBUTIONS
from canary.run.ownership import STACK_DISTRIBUTIONS

# What a run's result depends on besides the code: a regression window lists their changes.
VERSIONED_DISTS = (*JAX_DISTRIBUTIONS, *STACK_DISTRIBUTIONS)


def versions(ferry_path: Path | None = None) -> dict[str, str]:
    """The harness's canary, python and JAX stack versions (those installed), and ``ferry``: the
    sha256 of the ferry file's bytes."""
    import hashlib
    import platform
    from importlib.metadata import PackageNotFoundError, version

    out = {"canary": canary.__version__, "python": platform.python_version()}
    for dist in VERSIONED_DISTS:
        try:
            out[dist] = version(dist)
        except PackageNotFoundError:
            pass
    if ferry_path is not None:
        try:
            out["ferry"] = hashlib.sha256(Path(ferry_path).read_bytes()).hexdigest()
        except OSError:
            pass
    return out
