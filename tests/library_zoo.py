"""Quiet regressions of the team's libraries, as a library commit would bring them: each one a
one-line patch of one module of the installed marin-levanter or marin-haliax, applied to a COPY of
the package (an overlay directory put first on ``PYTHONPATH``: the package's tree of links to the
installed files, the patched module a real file in it). The installed packages are never written;
their files are hashed before and after, and :func:`installed_digest` lets a caller check they are
unchanged.

``PATH_PATCHES`` are regressions in paths the cpu lane reaches only since grug-moe-canary v3 (its
own attention window, 480 rows to the grouped matmul): under v2's shapes neither patched line ran.

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
    package: str = "levanter"


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
PATH_PATCHES = (
    Patch(
        "window_one_wider",
        "a sliding window one token wider than asked",
        "grug/attention/_core.py",
        "allowed = k_idx >= q_idx - (self.sliding_window - 1)",
        "allowed = k_idx >= q_idx - self.sliding_window",
    ),
    Patch(
        "rows_padded_first",
        "the grouped matmul's padding rows put before the tokens, not after them",
        "nn/ragged_dot.py",
        "[(0, pad_length, 0), (0, 0, 0)]",
        "[(pad_length, 0, 0), (0, 0, 0)]",
        package="haliax",
    ),
)
ALL = PATCHES + PATH_PATCHES
BY_NAME = {p.name: p for p in ALL}


def installed_dir(package: str = "levanter") -> Path:
    spec = importlib.util.find_spec(package)
    assert spec is not None and spec.origin, f"{package} is not installed"
    return Path(spec.origin).parent


def installed_digest(patches: tuple[Patch, ...] = ALL) -> str:
    """One hash of the installed modules the patches touch (every zoo patch's by default)."""
    h = hashlib.sha256()
    for package, rel in sorted({(p.package, p.module) for p in patches}):
        h.update(f"{package}/{rel}".encode() + b"\0" + (installed_dir(package) / rel).read_bytes())
    return h.hexdigest()


def overlay(patch: Patch, where: Path) -> Path:
    """A directory that, first on ``PYTHONPATH``, shadows the installed package with a copy of it
    in which ``patch`` is applied: links to every installed file but the patched one."""
    src = installed_dir(patch.package)
    dst = Path(where) / patch.name / patch.package
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
