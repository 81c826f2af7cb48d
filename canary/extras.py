"""Which optional packages a lane's settings need, and whether they are installed.

The default install runs the cpu lane with its SQLite history. The rest comes with extras
(pyproject.toml): ``ray`` (the Ray launcher), ``gcs`` (a ``gs://`` compilation cache or history),
``wandb`` (W&B tracking), and ``lanes``, all three, which is what the scheduled workflow installs.
Nothing here imports the packages it asks about (``find_spec`` of a top-level name), so checking
costs nothing at startup.
"""

from __future__ import annotations

import importlib.util
import shlex
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from canary.errors import ConfigError

# The pip of the interpreter canary runs in: a bare `pip` is often another environment's.
PIP = f"{shlex.quote(sys.executable or 'python3')} -m pip"
INSTALL = f"{PIP} install 'canary[lanes]' (from a checkout: {PIP} install -e '.[lanes]')"
LANES_EXTRAS = ("ray", "gcs", "wandb")  # what the `lanes` extra installs
# Modules whose distribution has another name: the name to install is the one to say
DISTRIBUTIONS = {
    "git": "GitPython",
    "google.cloud.storage": "google-cloud-storage",
    "google.auth": "google-auth",
    "etils.epath": "etils",
}


@dataclass(frozen=True)
class Need:
    what: str  # "the Ray launcher", "a gs:// compilation cache", ...
    modules: tuple[str, ...]
    extra: str  # the extra that installs them

    def fix(self) -> str:
        return fixes([self])


def fixes(needs: Sequence[Need]) -> str:
    """One line that installs what ``needs`` lack: the lanes extra named once, however many of its
    parts are missing, then each other extra."""
    lanes = list(dict.fromkeys(n.extra for n in needs if n.extra in LANES_EXTRAS))
    names = " and ".join([", ".join(map(repr, lanes[:-1])), repr(lanes[-1])] if len(lanes) > 1 else map(repr, lanes))
    parts = [f"{INSTALL}, or just the {names} extra{'s' * (len(lanes) > 1)}"] if lanes else []
    others = dict.fromkeys(n.extra for n in needs if n.extra not in LANES_EXTRAS)
    parts += [f"{PIP} install 'canary[{e}]' (from a checkout: {PIP} install -e '.[{e}]')" for e in others]
    return "; ".join(parts)


def named(modules: Sequence[str]) -> str:
    """``modules`` as a reader installs them: ``GitPython (module git)``, ``ray``."""
    return ", ".join(f"{DISTRIBUTIONS[m]} (module {m})" if m in DISTRIBUTIONS else m for m in modules)


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
        raise ConfigError(f"{who} needs {need.what}, but {named(gone)} cannot be imported here: {need.fix()}")


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
