"""jax's words for two pytrees that do not match, reworded across releases: control flow's branches or carry of another
structure, tree_map's second tree with a list or tuple of another length, a prefix tree (a transformation's axes)
whose node has another number of children, a custom node's data that differs; flax's scopes and Flax 0.12's static
attributes. Pure. Their rules are in :data:`canary.signature.jax_folds.JAX_MISUSE_RULES`.
"""

from __future__ import annotations

import re

from canary.signature.recogniser import BareError
from canary.signature.rewordings import Parts

# control flow's check that two outputs share a structure: up to 0.4's "branch 0 and 1 outputs must have same type
# structure, got PyTreeDef({'a': *}) and PyTreeDef({'a': (*, *)})." (cond's "true_fun and false_fun output ...",
# scan's "scan carry output and input ..."), since 0.5 "branch 0 output must have same type structure as branch 1
# output, but there are differences: * at output['a'], ...": which check is the misuse, the trees the program's, but
# for whether they differ only in a custom node's data (two checkify errors' codes) or in their shape
_SAME_STRUCTURE = re.compile(
    r"^(?P<what>.{1,80}?) must have same type structure, got (?P<a>PyTreeDef\(.*?)(?:\) and (?P<b>PyTreeDef\(.*))?$"
)
_NEW_STRUCTURE = re.compile(
    r"^(?P<one>branch \d{1,3}|true_fun|false_fun) output must have same type structure as (?P<two>branch \d{1,3}|"
    r"true_fun|false_fun) output, but there are differences:(?P<rest>.*)$"
)
_NODE_DATA = re.compile(r"CustomNode\((\w{1,100})\[.*?\]\)")


def _only_node_data(a: str, b: str | None) -> bool:
    """Whether two printed trees differ only in their custom nodes' data (a cut tree cannot say)."""
    if b is None:
        return False
    a, b = a + ")", b.rstrip(".")
    if a.count("(") != a.count(")") or b.count("(") != b.count(")") or a == b:
        return False
    return _NODE_DATA.sub(r"CustomNode(\1)", a) == _NODE_DATA.sub(r"CustomNode(\1)", b)


def same_structure(exc: str | None, message: str, frames: list[str]) -> Parts:
    if "must have same type structure" not in message:
        return exc, message, frames
    if m := _NEW_STRUCTURE.match(message):
        one, two = sorted((m["one"], m["two"]))
        what = f"branch {one[7:]} and {two[7:]} outputs" if one.startswith("branch") else f"{two} and {one} output"
        data = "node data" in m["rest"] or "auxiliary data" in m["rest"]
    elif m := _SAME_STRUCTURE.match(message):
        what, data = m["what"], _only_node_data(m["a"], m["b"])
    else:
        return exc, message, frames
    if data:  # (the same structure, but for the data of a custom node, a checkify error's code)
        return exc, f"{what} differ in a custom node's data", frames
    return exc, f"{what} must have same type structure", frames


# tree_map meeting a second tree whose list or tuple has another length: "List arity mismatch: 4 != 3; list: [1, 2, 3,
# 4]" (flatten_up_to, up to 0.4), "in tree_map, at the key path ['a']['b'] the first tree has a list of length 3 but
# the second tree has a list of length 4, so the lengths do not match" (later); a custom node whose data differs,
# "Mismatch custom node data: <data> != <data>; value: <node>": the container is the misuse, lengths and values the
# program's
_ARITY = re.compile(r"^(List|Tuple) arity mismatch: \d{1,9} != \d{1,9}\b.*$")
_TREE_MAP_LENGTH = re.compile(
    r"^in tree_map, at the key path .{0,300}? the first tree has an? (list|tuple) of length \d{1,9} but the second "
    r"tree has an? \1 of length \d{1,9}, so the lengths do not match\b.*$"
)
# a prefix tree (vmap's in_axes, shard_map's in_specs) against the full tree: "pytree structure error: different
# numbers of pytree children at key path <path> At that key path, the prefix pytree <name> has a subtree of type
# <class 'list'> with 1 child keys ..." (0.4.1x), "... different lengths of list at key path <path> ..." (later): the
# container and where, not the keys or lengths
_PREFIX = re.compile(
    r"^pytree structure error: different (?:lengths of (?P<t>\w{1,30})|numbers of pytree children) at key path "
    r"(?P<path>.{0,200}?) At that key path, the prefix pytree .{0,200}? has a subtree of type "
    r"(?:<class '(?P<c>\w{1,30})'>|\w{1,30}).*$"
)


def tree_lengths(exc: str | None, message: str, frames: list[str]) -> Parts:
    if "arity mismatch" in message and (m := _ARITY.match(message)):
        message = f"{m[1]} arity mismatch"
    elif message.startswith("in tree_map") and (m := _TREE_MAP_LENGTH.match(message)):
        message = f"{m[1].capitalize()} arity mismatch"
    elif message.startswith("Mismatch custom node data"):
        message = "Mismatch custom node data"
    elif message.startswith("pytree structure error") and (m := _PREFIX.match(message)):
        message = f"pytree structure error: different lengths of {m['t'] or m['c']} at key path {m['path']}"
    return exc, message, frames


# vmap since 0.4.3x checks a tuple of in_axes against the arguments before the tree prefix check ("vmap in_axes must be
# an int, None, or a tuple of entries corresponding to the positional arguments passed to the function, but got
# len(in_axes)=4, len(args)=3"): the misuse the tree prefix check named before
_VMAP_LENGTHS = re.compile(r"^vmap in_axes must be an int, None, or a tuple of entries .{0,200}?\blen\(in_axes\)=\d")


def vmap_axes(exc: str | None, message: str, frames: list[str]) -> Parts:
    if message.startswith("vmap in_axes must") and _VMAP_LENGTHS.match(message):
        message = "vmap in_axes specification must be a tree prefix of the corresponding value"
    return exc, message, frames


# flax's scopes, the trees of a module's variables, refusing a parameter by release: a shape that differs from the
# initializer's ("Inconsistent shapes between value and initializer for parameter "kernel" in "/x": (32, 128), (47,
# 128)", later "Initializer expected to generate shape (96, 256) but got shape (504, 256) instead for parameter
# "kernel" in "/x""), a parameter not there ("No parameter named "kernel" exists in "/x"", later "Could not find
# parameter named "kernel" in scope "/x""), each with a link to its entry in flax's docs: the check and the parameter's
# name, not the module's path or the shapes
_FLAX_LINK = re.compile(r"\.?\s?\(https?://flax\.readt[^\s)]{0,300}\)?")
_FLAX_SHAPE = re.compile(
    r"^(?:Inconsistent shapes between value and initializer|Initializer expected to generate shape)"
)
_FLAX_MISSING = re.compile(r'^(?:No parameter named|Could not find parameter named) "(\w{1,100})" (?:exists )?in\b.*$')


# Flax 0.12's check of a module's static attributes ("Found unexpected Arrays on value of type <class 'list'> in static
# attribute 'blocks' of Pytree type '<class 'x.STTransformer'>'. This is an error starting from Flax version 0.12.0.
# ..."): the check and the container's type, not which attribute of which module
_STATIC_ARRAYS = re.compile(r"^(Found unexpected Arrays on value of type <class '\w{1,60}'> in static attribute)\b.*$")


def flax_scope(exc: str | None, message: str, frames: list[str]) -> Parts:
    if message.startswith("Found unexpected Arrays"):
        return exc, _STATIC_ARRAYS.sub(r"\1", message), frames
    if "flax.readt" in message:
        message = _FLAX_LINK.sub("", message).rstrip(" \"'`")  # (and the quote a post closes after it)
    if exc == "ScopeParamShapeError" and _FLAX_SHAPE.match(message):
        message = "Initializer expected to generate the shape of the parameter's value"
    elif exc == "ScopeParamNotFoundError":
        message = _FLAX_MISSING.sub(r'Could not find parameter named "\1"', message)
    return exc, message, frames


# control flow's check quoted without its class or trees ("true_fun and false_fun output must have same type
# structure"): jax raises it as TypeError
PYTREE_ERRORS: list[BareError] = [
    # (and Flax 0.12's check of a module's static attributes, posted without its ValueError)
    BareError(
        "flax-static-arrays",
        ("Found unexpected Arrays on value of type",),
        re.compile(r"^(?P<msg>Found unexpected Arrays on value of type <class '\w{1,60}'> in static attribute\b.*)$"),
        "ValueError",
    ),
    BareError(
        "jax-same-structure",
        ("must have same type structure",),
        re.compile(
            r"(?:^|(?<=[\s\"'`]))(?P<msg>(?:true_fun and false_fun output|branch \d{1,3} and \d{1,3} outputs|"
            r"scan carry output and input) must have same type structure(?:, got PyTreeDef\(.*)?)"
        ),
        "TypeError",
    ),
]
