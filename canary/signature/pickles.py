"""Serialized objects read or written by another release than the one that made them, in the words of the serializer.
Pure.

Python 3.11's exception notes let pickle and dill say what they were serializing below the error ("when serializing
datasets.table.InMemoryTable state", one line for each object up the tree); a pytest summary or a terminal runs them
onto the message's line. PyTorch 1.5 and older, given a checkpoint saved in 1.6's zip format, names the file
("./ckpt.pth is a zip archive (did you mean to use torch.jit.load()?)"). What failed to serialize is the failure;
the objects above it and the checkpoint's path are the program's.
"""

from __future__ import annotations

import re

from canary.signature.rewordings import Parts

_NOTES = re.compile(
    r"(?: when serializing [\w.<>]{1,200} (?:object|state|dict item '[^']{0,100}'|item \d{1,6}|"
    r"list item|tuple item \d{1,6}|reconstructor arguments|\w{1,40}))+$"
)
_ZIP = re.compile(r"^\S.{0,500}? is a zip archive \(did you mean to use torch\.jit\.load\(\)\?\)$")


def pickle_words(exc: str | None, message: str, frames: list[str]) -> Parts:
    """The ``pickles`` rule: a serializer's error without its notes, torch's legacy loader by no file."""
    if " when serializing " in message:
        message = _NOTES.sub("", message)
    elif message.endswith(" is a zip archive (did you mean to use torch.jit.load()?)"):
        message = _ZIP.sub("<file> is a zip archive (did you mean to use torch.jit.load()?)", message)
    return exc, message, frames
