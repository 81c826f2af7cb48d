"""Quiet regressions of the team's libraries, as a library commit would bring them: each one a
one-line patch of one module of the installed marin-levanter, applied to a COPY of the package
(an overlay directory put first on ``PYTHONPATH``: the package's tree of links to the installed
files, the patched module a real file in it). The installed package is never written; its files
are hashed before and after, and :func:`installed_digest` lets a caller check they are unchanged.

Used by tests/test_library_zoo.py (slow) and bench/library_zoo.py (the figures in docs/gates.md).
"""

from __future__ import annotations

import hashlib
import importlib.util
import os
from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class Patch:
    name: str
    kind: str  # the kind of bug, as docs/gates.md names it
    module: str  # the file, relative to the package's directory
    old: str
    new: str


PACKAGE = "levanter"
PATCHES = (
    Patch(
        "mask_sees_next",
        "a mask that lets each token see the next one",
        "grug/attention/_core.py",
        "allowed = k_idx <= q_idx\n",
        "allowed = k_idx <= q_idx + 1\n",
    ),
    Patch(
        "swapped_combine",
        "a permutation: each token's two picks weighted with each other's weight",
        "grug/_moe/common.py",
        "dispatch_weights = combine_weights.reshape(tokens * topk)",
        "dispatch_weights = combine_weights[:, ::-1].reshape(tokens * topk)",
    ),
    Patch(
        "expert_init_x2",
        "an initializer scale: the experts' weights drawn at twice their std",
        "grug/_moe/common.py",
        "return std * jax.random.truncated_normal(key, -3, 3, shape)",
        "return 2 * std * jax.random.truncated_normal(key, -3, 3, shape)",
    ),
    Patch(
        "loss_bfloat16",
        "a loss computed in bfloat16 (the fused loss's accumulator)",
        "grug/loss.py",
        "dtype: jnp.dtype = jnp.float32,\n    precision",
        "dtype: jnp.dtype = jnp.bfloat16,\n    precision",
    ),
    Patch(
        "dropped_z_loss",
        "a dropped loss term: the LM head's z-loss",
        "grug/loss.py",
        "            logsumexp_weight=logsumexp_weight,\n",
        "            logsumexp_weight=None,\n",
    ),
)
BY_NAME = {p.name: p for p in PATCHES}


def installed_dir() -> Path:
    spec = importlib.util.find_spec(PACKAGE)
    assert spec is not None and spec.origin, f"{PACKAGE} is not installed"
    return Path(spec.origin).parent


def installed_digest(files: list[str] | None = None) -> str:
    """One hash of the installed package's patched modules (all of them by default)."""
    root = installed_dir()
    h = hashlib.sha256()
    for rel in sorted(set(files or [p.module for p in PATCHES])):
        h.update(rel.encode() + b"\0" + (root / rel).read_bytes())
    return h.hexdigest()


def overlay(patch: Patch, where: Path) -> Path:
    """A directory that, first on ``PYTHONPATH``, shadows the installed package with a copy of it
    in which ``patch`` is applied: links to every installed file but the patched one."""
    src = installed_dir()
    dst = Path(where) / patch.name / PACKAGE
    for dirpath, dirnames, filenames in os.walk(src):
        dirnames[:] = [d for d in dirnames if d != "__pycache__"]
        rel = Path(dirpath).relative_to(src)
        (dst / rel).mkdir(parents=True, exist_ok=True)
        for f in filenames:
            if not f.endswith(".pyc"):
                (dst / rel / f).symlink_to(Path(dirpath) / f)
    target = dst / patch.module
    text = (src / patch.module).read_text()
    assert text.count(patch.old) == 1, f"{patch.name}: {patch.old!r} is not in {patch.module} exactly once"
    target.unlink()
    target.write_text(text.replace(patch.old, patch.new))
    return dst.parent
