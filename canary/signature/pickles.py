"""Serialized objects read or written by another release than the one that made them, in the words of the serializer.
Pure.

Python 3.11's exception notes let pickle and dill say what they were serializing below the error ("when serializing
datasets.table.InMemoryTable state", one line for each object up the tree); a pytest summary or a terminal runs them
onto the message's line. PyTorch 1.5 and older, given a checkpoint saved in 1.6's zip format, names the file
("./ckpt.pth is a zip archive (did you mean to use torch.jit.load()?)"). PyTorch 2.6's torch.load, weights only by
default, puts why it refused a checkpoint after advice that changed between releases ("Weights only load failed. This
file can still be loaded, ... WeightsUnpickler error: Unsupported global: GLOBAL x.Model was not an allowed global by
default. Please use ...", a post may elide the advice as "[...]"), and 2.4 warned of the default before it with advice
a post may cut. What failed to serialize, and which global, operand or class was refused, is the failure; the objects
above it and the checkpoint's path are the program's.
"""

from __future__ import annotations

import re

from canary.signature.rewordings import Parts

_NOTES = re.compile(
    r"(?: when serializing [\w.<>]{1,200} (?:object|state|dict item '[^']{0,100}'|item \d{1,6}|"
    r"list item|tuple item \d{1,6}|reconstructor arguments|\w{1,40}))+$"
)
_REFUSED = re.compile(r"\b(Unsupported (?:global: GLOBAL [\w.]{1,200}|operand \d{1,4}|class [\w.]{1,200}))")
_UNPICKLER = re.compile(r"WeightsUnpickler error: (.{1,500}?)(?:\. Please use .*|\.)?$")
_WARNED = re.compile(r"^(You are using `torch\.load` with `weights_only=False`)\B.*$")
_ZIP = re.compile(r"^\S.{0,500}? is a zip archive \(did you mean to use torch\.jit\.load\(\)\?\)$")


def pickle_words(exc: str | None, message: str, frames: list[str]) -> Parts:
    """The ``pickles`` rule: a serializer's error without its notes, torch's legacy loader by no file, torch.load's
    weights-only refusal by what it refused, without the advice or the release's words, and its warning without its
    advice."""
    if message.startswith("Weights only load failed"):
        why = _REFUSED.search(message) or _UNPICKLER.search(message)
        message = f"Weights only load failed: {why[1]}" if why else message
    elif message.startswith("You are using `torch.load`"):
        message = _WARNED.sub(r"\1", message)
    elif " when serializing " in message:
        message = _NOTES.sub("", message)
    elif message.endswith(" is a zip archive (did you mean to use torch.jit.load()?)"):
        message = _ZIP.sub("<file> is a zip archive (did you mean to use torch.jit.load()?)", message)
    return exc, message, frames
