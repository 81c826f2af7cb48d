"""Which optional packages a lane's settings need, and whether they are installed.

The default install runs the cpu lane with its SQLite history. The rest comes with extras
(pyproject.toml): ``ray`` (the Ray launcher), ``gcs`` (a ``gs://`` compilation cache or history),
``wandb`` (W&B tracking), and ``lanes``, all three, which is what the scheduled workflow installs.
Nothing here imports the packages it asks about (``find_spec`` of a top-level name), so checking
costs nothing at startup.
"""

from __future__ import annotations

import importlib.util
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from canary.errors import ConfigError

INSTALL = "pip install 'canary[lanes]' (from a checkout: pip install -e '.[lanes]')"
LANES_EXTRAS = ("ray", "gcs", "wandb")  # what the `lanes` extra installs


@dataclass(frozen=True)
class Need:
    what: str  # "the Ray launcher", "a gs:// compilation cache", ...
    modules: tuple[str, ...]
    extra: str  # the extra that installs them

    def fix(self) -> str:
        if self.extra in LANES_EXTRAS:
            return f"{INSTALL}, or just the {self.extra!r} extra"
        return f"pip install 'canary[{self.extra}]' (from a checkout: pip install -e '.[{self.extra}]')"


RAY = Need("the Ray launcher", ("ray",), "ray")
GCS_CACHE = Need("a gs:// compilation cache", ("etils.epath", "fsspec", "gcsfs"), "gcs")  # JAX reads it so
GCS_HISTORY = Need("a gs:// run history", ("google.cloud.storage", "google.auth"), "gcs")
WANDB = Need("W&B tracking", ("wandb",), "wandb")
# A stack ferry's model: levanter's grug MoE over haliax (and GitPython, which levanter 0.2.20 imports
# without declaring it)
LEVANTER = Need("levanter's grug MoE (marin-levanter, marin-haliax)", ("levanter", "haliax", "git"), "levanter")
STACKS = {"levanter": LEVANTER}


def missing(need: Need, find_spec: Callable[[str], Any] = importlib.util.find_spec) -> list[str]:
    """The modules of ``need`` that cannot be imported here."""
    out = []
    for name in need.modules:
        try:
            found = find_spec(name) is not None
        except (ImportError, ValueError):
            found = False
        if not found:
            out.append(name)
    return out


def require(need: Need, who: str, find_spec: Callable[[str], Any] = importlib.util.find_spec) -> None:
    """Raise the setup error (exit 2) for ``need`` when its packages are missing; ``who`` is what
    asked for it ("lane 'tpu'", "--history gs://b/p")."""
    gone = missing(need, find_spec)
    if gone:
        raise ConfigError(f"{who} needs {need.what}, but {', '.join(gone)} cannot be imported here: {need.fix()}")


def lane_needs(launcher_kind: str, cache_dir: str | None, history: str | None, wandb: str) -> list[Need]:
    """What a run with these settings needs beyond the default install."""
    needs = []
    if launcher_kind == "ray":
        needs.append(RAY)
    if cache_dir and cache_dir.startswith("gs://"):
        needs.append(GCS_CACHE)
    if history and history.startswith("gs://"):
        needs.append(GCS_HISTORY)
    if wandb != "off":
        needs.append(WANDB)
    return needs
