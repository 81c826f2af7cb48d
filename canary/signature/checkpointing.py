"""Gradient checkpointing (rematerialisation) in PyTorch and jax refusing or warning of what a training step asks of
it. Pure.

torch.utils.checkpoint warns that ``use_reentrant`` should be passed and then advises at length (torch 2.1-2.3); DDP
refuses a parameter marked ready twice with its reasons and workarounds, worded by release (1.7's "DDP does not support
such use cases yet.", 1.10's "... in default. You can try to use _set_static_graph() ..."): the first sentence is the
failure. jax.checkpoint refuses ``static_argnums`` out of range and names the program's value ("..., but got (4,)").
"""

from __future__ import annotations

import re

from canary.signature.rewordings import Parts

_FIRST_SENTENCE = re.compile(
    r"^((?:torch\.utils\.checkpoint: please pass in use_reentrant=True or use_reentrant=False explicitly"
    r"|Expected to mark a variable ready only once)\.)\s.{0,3000}$"
)
_GOT = re.compile(
    r"^(the `static_argnums` argument to `jax\.checkpoint` / `jax\.remat` can only take integer values\b.{0,300}?),"
    r" but got .{0,300}$"
)


def checkpoint_words(exc: str | None, message: str, frames: list[str]) -> Parts:
    """The ``checkpointing`` rule: torch's warning and DDP's refusal by their first sentence, jax's by no value."""
    if message.startswith(("torch.utils.checkpoint: please pass", "Expected to mark a variable ready only once")):
        message = _FIRST_SENTENCE.sub(r"\1", message)
    elif message.startswith("the `static_argnums` argument to `jax.checkpoint`"):
        message = _GOT.sub(r"\1", message)
    return exc, message, frames
