"""jax's words for a tracer turned into a Python or NumPy value, by release. Pure.

A tracer used as a Python bool was a ``ConcretizationTypeError`` up to jax 0.4.13 ("... The problem arose with the
`bool` function."), then ``TracerBoolConversionError: Attempted boolean conversion of traced array with shape
bool[]``, which some builds still raised as ``ConcretizationTypeError``. One turned into a NumPy array was a plain
``Exception`` in 2020 ("Tracer can't be used with raw numpy functions. You might have import numpy as np ...", later
"The numpy.ndarray conversion method __array__() was called on the JAX Tracer object Traced<...>"), then
``TracerArrayConversionError`` ("... called on traced array with shape float32[3]"). One used as an index was
Python's own ``TypeError`` ("list indices must be integers or slices, not DynamicJaxprTracer", "'DynamicJaxprTracer'
object cannot be interpreted as an integer"), then jax's ``TypeError: The __index__ method was called on the JAX
Tracer object ...``, then ``TracerIntegerConversionError``. Which conversion, and for a bool the shape, is the misuse;
the tracer's repr and where it was traced (a function and a path) are the trace's and the program's.
Stated once, with the reason it is safe, in :data:`canary.signature.folds.RULES` (``tracer-conversion``).
"""

from __future__ import annotations

import re

from canary.signature.rewordings import Parts

_BOOL_FUNCTION = "The problem arose with the `bool` function"
_TRACED_SHAPE = re.compile(r"ShapedArray\((\w{1,20}\[[\d,\s]{0,100}\])")
_BOOL = re.compile(
    r"^(Attempted boolean conversion of traced array with shape \w{1,20}\[[\d,\s]{0,100}\])\.?(?:\s.*)?$"
)
_BOOL_WORDS = "Attempted boolean conversion of traced array"
_ARRAY = re.compile(
    r"^(?:Tracer can't be used with raw numpy functions\b|"
    r"The numpy\.ndarray conversion method __array__\(\) was called on (?:the JAX Tracer object|traced array)\b)"
)
_ARRAY_WORDS = "The numpy.ndarray conversion method __array__() was called on a traced array"
_INDEX = re.compile(
    r"^(?:The __index__(?:\(\))? method was called on (?:the JAX Tracer object|traced array)\b|"
    r"(?:list|tuple) indices must be integers or slices, not \w{0,40}Tracer$|"
    r"'\w{0,40}Tracer' object cannot be interpreted as an integer$)"
)
_INDEX_WORDS = "The __index__() method was called on a traced array"
_SHAPES = re.compile(r"^(Shapes must be 1D sequences of concrete values of integer type), got\b.*$")
# the classes these were raised as before each had its own
_EARLIER = (None, "Exception", "TypeError", "ConcretizationTypeError")


def tracer_conversion(exc: str | None, message: str, frames: list[str]) -> Parts:
    if exc == "ConcretizationTypeError" and _BOOL_FUNCTION in message:
        shape = _TRACED_SHAPE.search(message)
        return "TracerBoolConversionError", _BOOL_WORDS + (f" with shape {shape.group(1)}" if shape else ""), frames
    if message.startswith(_BOOL_WORDS):
        m = _BOOL.match(message)
        return ("TracerBoolConversionError" if exc in _EARLIER else exc), m[1] if m else message, frames
    if _ARRAY.match(message):
        return ("TracerArrayConversionError" if exc in _EARLIER else exc), _ARRAY_WORDS, frames
    if _INDEX.match(message):
        return ("TracerIntegerConversionError" if exc in _EARLIER else exc), _INDEX_WORDS, frames
    if message.startswith("Shapes must be 1D"):
        message = _SHAPES.sub(r"\1", message)
    return exc, message, frames
