"""PyTorch's function transforms (functorch, then torch.func) in their releases' words. Pure.

functorch 0.1 of 2021 refused a tensor used in Python control flow or turned into a number under vmap by the fallback
it could not make ("Batching rule not implemented for aten::is_nonzero. We could not generate a fallback.",
"... aten::item. ..."); later releases word each refusal itself ("vmap: It looks like you're attempting to use a Tensor
in some data-dependent control flow. We don't support that yet, please shout over at <issue>", "vmap: It looks like
you're calling .item() on a Tensor. ..."), then advise. torch.func names the transforms that refuse saved tensor hooks
by release, and an autograd.Function without ``setup_context`` is refused with a link to the docs of a branch. Which
refusal is the failure; the advice and its links are the release's.
"""

from __future__ import annotations

import re

from canary.signature.recogniser import BareError
from canary.signature.rewordings import Parts

_CONTROL_FLOW = "vmap: It looks like you're attempting to use a Tensor in some data-dependent control flow"
_ITEM = "vmap: It looks like you're calling .item() on a Tensor"
_NO_FALLBACK = {"is_nonzero": _CONTROL_FLOW, "item": _ITEM}
_FALLBACK = re.compile(
    r"^Batching rule not implemented for aten::(\w{1,100})(?:\. We could not generate a fallback\b.*|\.)?$"
)
_SAVED_HOOKS = re.compile(r"^torch\.func(?:\.\{[^}]{0,200}\})? (?:transforms )?don't yet support saved tensor hooks\b")
_SETUP_CONTEXT = re.compile(
    r"^(In order to use an autograd\.Function with functorch transforms .{1,300}?)\. For more\b.*$"
)


def transform_words(exc: str | None, message: str, frames: list[str]) -> Parts:
    """The ``torch-func`` rule: a transform's refusal in today's words, without its advice."""
    if message.startswith("Batching rule not implemented") and (m := _FALLBACK.match(message)):
        message = _NO_FALLBACK.get(m[1], message)
    elif message.startswith((_CONTROL_FLOW, _ITEM)):
        message = _CONTROL_FLOW if message.startswith(_CONTROL_FLOW) else _ITEM
    elif message.startswith("torch.func") and _SAVED_HOOKS.match(message):
        message = "torch.func transforms don't yet support saved tensor hooks"
    elif message.startswith("In order to use an autograd.Function"):
        message = _SETUP_CONTEXT.sub(r"\1", message)
    return exc, message, frames


TRANSFORM_ERRORS: list[BareError] = [
    # vmap's refusals quoted without their class (a code span in a sentence)
    BareError(
        "vmap-refusal",
        ("vmap: It looks like you're",),
        re.compile(
            r"(?P<msg>vmap: It looks like you're (?:attempting to use a Tensor in some data-dependent control "
            r"flow|calling \.item\(\) on a Tensor)\b)"
        ),
        "RuntimeError",
    ),
]
