"""jax's words for a misuse, reworded between its releases: vmap's axes of
inconsistent sizes, shapes that do not broadcast, a jitted call's inputs on different devices, a while loop under
reverse mode, a name it removed, a host callback's error relayed by XLA's status, the program's numbering in XLA's
RET_CHECK, an MLIR diagnostic's location in the program. Pure. Each is stated once, with the
reason it is safe, in :data:`canary.signature.folds.RULES`.
"""

from __future__ import annotations

import re

from canary.signature.masks import canonical_class
from canary.signature.rewordings import Parts

# vmap's axes of inconsistent sizes, in three generations: 2019's TypeError "got inconsistent map dimension sizes:
# set([10, 2])" ({10, 2} in Python 3), 2020's ValueError "vmap got inconsistent sizes for array axes to be mapped:
# arg 0 has shape (10, 4) and axis 0 is to be mapped ... so arg 0 has an axis to be mapped of size 10 ...", and
# 2023's "* most axes (2 of them) had size 2, e.g. axis 0 of argument x1 of type float32[2]; * one axis had size 1:
# ...": which sizes disagree is the misuse; the arguments and their shapes are the program's
_VMAP_HEAD = "vmap got inconsistent sizes for array axes to be mapped"
_OLD_SIZES = re.compile(r"^got inconsistent map dimension sizes: (?:set\(\[)?\{?([\d, ]{1,200})")
_SIZES = re.compile(r"(?:an axis to be mapped of size|had size) (\d{1,9})")
_FOLDED = re.compile(_VMAP_HEAD + r"(?:: sizes [\d, ]{1,200})?$")
_ARG_AXIS = re.compile(r"has shape \(([\d, ]{0,200})\) and axis (\d{1,3}) is to be mapped")


def _sizes(message: str) -> list[int]:
    old = _OLD_SIZES.match(message)
    if old:
        return [int(n) for n in re.findall(r"\d+", old[1])]
    found = [int(n) for n in _SIZES.findall(message)]
    if found:
        return found
    return [
        int(shape.split(",")[int(axis)]) for shape, axis in _ARG_AXIS.findall(message) if shape.count(",") >= int(axis)
    ]


def vmap_sizes(exc: str | None, message: str, frames: list[str]) -> Parts:
    if message.startswith((_VMAP_HEAD, "got inconsistent map dimension sizes")) and not _FOLDED.match(message):
        sizes = sorted(set(_sizes(message)))
        message = _VMAP_HEAD + (": sizes " + ", ".join(map(str, sizes)) if sizes else "")
        exc = "ValueError"
    return exc, message, frames


# shapes that do not broadcast: jax up to 0.3.16 printed them rank-promoted ("((2, 4), (1, 2))"), later as given
# ("shapes=[(2, 4), (2,)]"); leading 1s do not change how a shape broadcasts
_BROADCAST = re.compile(r"^Incompatible shapes for broadcasting: (?:shapes=\[(.{1,500})\]|\((.{1,500})\))$")
_SHAPE = re.compile(r"\(([\d, ]{0,100})\)")


def _unpromoted(shape: str) -> str:
    dims = [d.strip() for d in shape.split(",") if d.strip()]
    while len(dims) > 1 and dims[0] == "1":
        dims.pop(0)
    return "(" + ", ".join(dims) + ("," if len(dims) == 1 else "") + ")"


def broadcast_shapes(exc: str | None, message: str, frames: list[str]) -> Parts:
    m = _BROADCAST.match(message)
    if m:
        shapes = [_unpromoted(s) for s in _SHAPE.findall(m[1] or m[2])]
        message = f"Incompatible shapes for broadcasting: shapes=[{', '.join(shapes)}]"
    return exc, message, frames


# jax's check that a jitted call's arguments are on one set of devices names the program's arguments, functions,
# shapes and device ids ("Got argument args[0] of f with shape float32[2,224] and device ids [0] on platform GPU
# and ..."), pjit's older word for it "pjitted": which platforms disagree, or that one platform's devices do (the
# machine's platform), and whether an argument disagrees with another or with jit's context mesh, is the failure
_DEVICES = re.compile(
    r"^Received incompatible devices for p?jitted computation\. Got .{1,2000}? device ids \[[\d, ]{0,2000}\] on "
    r"platform (\w{1,20}) and .{1,2000}? device ids \[[\d, ]{0,2000}\] on platform (\w{1,20})\b.*$"
)
_JITTED = "Received incompatible devices for jitted computation"


def jit_devices(exc: str | None, message: str, frames: list[str]) -> Parts:
    if message.startswith("Received incompatible devices for p"):
        message = _JITTED + message[len(_JITTED) + 1 :]
    if message.startswith(_JITTED):
        m = _DEVICES.match(message)
        if m:
            mesh = " and jit's context mesh with device ids" in message
            one = "an argument and jit's context mesh" if mesh else "one platform"
            message = f"{_JITTED}. Got " + (
                f"different devices of {one}" if m[1] == m[2] else f"devices on platforms {m[1]} and {m[2]}"
            )
    return exc, message, frames


# reverse-mode differentiation of a while loop: jax 0.2's "Reverse-mode differentiation does not work for
# lax.while_loop or lax.fori_loop. Try using lax.scan instead.", later releases (a fori_loop with static bounds is a
# scan since) "... lax.fori_loop with dynamic start/stop values. Try using lax.scan, or using fori_loop with static
# start/stop.": one rule of the loop, its advice the release's
_WHILE_REVERSE = "Reverse-mode differentiation does not work for lax.while_loop or lax.fori_loop"


def while_reverse(exc: str | None, message: str, frames: list[str]) -> Parts:
    if message.startswith(_WHILE_REVERSE):
        message = _WHILE_REVERSE
    return exc, message, frames


# a name jax removed, in its own words: "jax.interpreters.xla.xe was removed in JAX v0.4.36. Use
# jax.lib.xla_extension instead.", from 0.5 "X was deprecated in JAX v0.6.0 and removed in JAX v0.7.0. <what to use>"
# (a title may stop after the release): which name, and the release that removed it, are the failure
_REMOVED = re.compile(
    r"^(jax(?:\.\w{1,100}){1,6}) was (?:deprecated in JAX v[\d.]{1,12} and )?"
    r"(removed in JAX v\d{1,3}(?:\.\d{1,4}){1,3})\b.*$"
)


def jax_removed(exc: str | None, message: str, frames: list[str]) -> Parts:
    if "removed in JAX v" in message:
        message = _REMOVED.sub(r"\1 was \2", message)
    return exc, message, frames


# shard_map without a replication rule for a primitive: "No replication rule for erf. As a workaround, pass the
# `check_rep=False` argument to `shard_map`. To get this fixed, open an issue ..." (a post may drop the advice, or
# its backticks): which primitive is the failure
_NO_REP_RULE = re.compile(r"^(No replication rule for \w{1,100})\b.*$")


def replication_rule(exc: str | None, message: str, frames: list[str]) -> Parts:
    if message.startswith("No replication rule for "):
        message = _NO_REP_RULE.sub(r"\1", message)
    return exc, message, frames


# a computation needing more devices than the process has, by generation: 2020's "compiling a primitive computation
# `while` that requires 2 replicas, but only 1 XLA devices are available", 2022's "compiling computation that requires
# 8 logical devices, but only 1 XLA devices are available (num_replicas=8, num_partitions=1)": how many are the
# program's and the machine's
_TOO_FEW_DEVICES = re.compile(
    r"^compiling (?:a primitive )?computation(?: `\w{1,60}`)? that requires \d{1,6} (?:replicas|logical devices), "
    r"but only \d{1,6} XLA devices are available\b.*$"
)


def too_few_devices(exc: str | None, message: str, frames: list[str]) -> Parts:
    if message.startswith("compiling ") and _TOO_FEW_DEVICES.match(message):
        message = "compiling a computation that requires more devices than the XLA devices available"
    return exc, message, frames


# jax's indexing and mapping checks, reworded by its releases: a traced boolean mask (0.2's IndexError "Array boolean
# indices must be concrete.", since NonConcreteBooleanIndexError with the mask's "; got ShapedArray(bool[4897])"), an
# array assigned in place (2020's "'<class 'jax.interpreters.xla.DeviceArray'>' object does not support item
# assignment. JAX arrays are immutable. ...", 2024's the same of jaxlib._jax.ArrayImpl, 2025's "JAX arrays are
# immutable and do not support in-place item assignment. ..."), and pmap's argument of rank 0 ("pmap got arg 18 of
# rank 0 but axis to be mapped 0", later with ". The tree of ranks is: ..."): which check is the failure; the shapes,
# classes and argument numbers are the program's and the release's
_BOOLEAN_INDEX = re.compile(r"^Array boolean indices must be concrete\b.*$")
_ITEM_ASSIGNMENT = re.compile(
    r"^(?:'<class '[\w.]{1,100}'>' object does not support item assignment\. JAX arrays are immutable|"
    r"JAX arrays are immutable and do not support in-place item assignment)\b.*$"
)
_RANK_ZERO = re.compile(r"^pmap got arg \d{1,4} of rank 0 but axis to be mapped \d{1,3}\b.*$")


def indexing_checks(exc: str | None, message: str, frames: list[str]) -> Parts:
    if message.startswith("Array boolean indices must be concrete"):
        return "NonConcreteBooleanIndexError", "Array boolean indices must be concrete", frames
    if "item assignment" in message and _ITEM_ASSIGNMENT.match(message):
        return exc, "JAX arrays are immutable and do not support in-place item assignment", frames
    if message.startswith("pmap got arg ") and _RANK_ZERO.match(message):
        return exc, "pmap got an argument of rank 0 but an axis to be mapped", frames
    return exc, message, frames


# jax's check that a jitted function's argument is an array, in three generations: "Argument '<function gelu at ...>'
# of type <class 'function'> is not a valid JAX type" (0.2-0.3), "Cannot interpret value of type <class '...'> as an
# abstract array; it does not have a dtype attribute" (0.4), "Error interpreting argument to <function f at ...> as an
# abstract array. The problematic value is of type <class 'function'> and was passed to the function at path ..."
# (0.4.3x on): the value's type is the misuse; the argument, the function and its path are the program's
_NOT_ARRAY = re.compile(
    r"^(?:Argument '.{1,300}?' of type '?(<class '[\w.]{1,200}'>)'? is not a valid JAX type|Cannot interpret value of "
    r"type (<class '[\w.]{1,200}'>) as an abstract array\b|Error interpreting argument to .{1,300}? as an abstract "
    r"array\. The problematic value is of type (<class '[\w.]{1,200}'>)).*$"
)


# (2019's words for a value's type alone, "<class 'jax.ad_util.Zero'> is not a valid Jax type", which a title may go on
# after: "... when I combine custom_jvp and lax.scan")
_NOT_JAX_TYPE = re.compile(r"^(<class '[\w.]{1,200}'> is not a valid Jax type)\b.+$")


def abstract_array(exc: str | None, message: str, frames: list[str]) -> Parts:
    if "valid Jax type" in message:
        message = _NOT_JAX_TYPE.sub(r"\1", message)
    if "valid JAX type" in message or "as an abstract array" in message:
        m = _NOT_ARRAY.match(message)
        if m:
            message = f"Cannot interpret value of type {m[1] or m[2] or m[3]} as an abstract array"
    return exc, message, frames


# lax's control flow refusing a carry or branches whose types differ, where the release marks each leaf that differs
# ("body_fun output and input must have identical types, got ('ShapedArray(int32[], weak_type=True)', ['DIFFERENT
# ShapedArray(int32[], weak_type=True) vs. ShapedArray(float0[])', ...])", cond's "true_fun and false_fun output ..."):
# the tree of leaves and their shapes is the program's; which dtypes differ (or that only shapes do) is the misuse
_IDENTICAL = re.compile(
    r"^((?:body_fun|scan carry|true_fun and false_fun) output(?: and input)? must have identical types)"
)
_DIFFERENT = re.compile(r"DIFFERENT ShapedArray\((\w{1,20})\[[^\]]{0,200}\][^)]{0,40}\) vs\. ShapedArray\((\w{1,20})\[")


def identical_types(exc: str | None, message: str, frames: list[str]) -> Parts:
    head = _IDENTICAL.match(message) if "DIFFERENT " in message else None
    if head:
        pairs = sorted({"shapes" if a == b else f"{a} vs. {b}" for a, b in _DIFFERENT.findall(message)})
        if pairs:
            message = f"{head[1]}, got leaves that differ: {', '.join(pairs)}"
    return exc, message, frames


# XLA relaying a host callback's exception inside its status ("INTERNAL: CpuCallback error: EqxRuntimeError: The linear
# solver returned non-finite ..."): the callback's exception, by its own class, is the failure
_CALLBACK = re.compile(
    r"^(?:INTERNAL: )?(?:Cpu|Gpu|Tpu|Ffi)?Callback error: "
    r"(?P<cls>[A-Z]\w{0,60}(?:Error|Exception)): (?P<msg>.{1,2000})$"
)


def callback_relay(exc: str | None, message: str, frames: list[str]) -> Parts:
    relayed = _CALLBACK.match(message) if "Callback error: " in message else None
    if relayed is None:
        return exc, message, frames
    return canonical_class(relayed["cls"], relayed["msg"]), relayed["msg"], frames


# XLA's RET_CHECK names the check's expression, then the instruction or channel it failed on by the program's
# numbering ("channel 11 is used for multiple host send/recv instructions", "Instruction name is not unique:
# constant_29831"; a dotted suffix, "%rng-get-and-update-state.3", is masked with every message's numbers)
_RET_CHECK_NUMBERS = re.compile(r"\b(channel |[a-z][a-z-]{1,60}_)\d{1,9}\b")


def ret_check(exc: str | None, message: str, frames: list[str]) -> Parts:
    if "RET_CHECK failure" in message:
        message = _RET_CHECK_NUMBERS.sub(r"\1<n>", message)
    return exc, message, frames


# an MLIR diagnostic names where in the program its op came from before what is wrong with it ('error:
# "jit(f)/jit(main)/debug_callback"(callsite("f"("~/src/a.py":14:8 to :49) at ...)): 'stablehlo.custom_call' op ...'):
# the op's name path and the program's file, line and column are the program's
_MLIR_LOCATION = re.compile(
    r'(?<=error: )"[^"]{1,300}"\((?:callsite\(.{0,1000}?\)\)|"[^"]{1,500}":\d{1,7}:\d{1,5}(?: to [\d:]{1,20})?)\): '
)


# (and the notes after the error, 'note: "jit(f)/..."(callsite(...)): see current operation: %0 = ...', are the op as
# the program built it)
_MLIR_NOTE = re.compile(r"(?<=\S) note: .*$")


def mlir_location(exc: str | None, message: str, frames: list[str]) -> Parts:
    if 'error: "' in message:
        message = _MLIR_NOTE.sub("", _MLIR_LOCATION.sub("", message))
    return exc, message, frames


# jax's check that a transformation's axes or shardings are a tree prefix of its arguments (vmap's in_axes, pjit's
# in_axis_resources, later in_shardings) quotes the specification and the arguments' tree ("got specification
# {'a': [(0, 0, None)]} for value tree PyTreeDef(...)"): which transformation and which argument, not the trees,
# is the misuse
_TREE_PREFIX = re.compile(r"^([\w ]{1,60} specification must be a tree prefix of the corresponding value), got\b.*$")
# jax's refusal to fetch an array that spans other processes' devices, since 2024 "non-addressable (non process
# local)", with advice after it ("You can use `jax.experimental.multihost_utils.process_allgather` for this use case")
_NON_ADDRESSABLE = re.compile(
    r"^(Fetching value for `jax\.Array` that spans non-addressable) (?:\(non process local\) )?"
    r"(devices is not possible)\b.*$"
)


def tree_prefix(exc: str | None, message: str, frames: list[str]) -> Parts:
    m = _TREE_PREFIX.match(message) if "must be a tree prefix" in message else None
    return exc, m[1] if m else message, frames


def non_addressable(exc: str | None, message: str, frames: list[str]) -> Parts:
    m = _NON_ADDRESSABLE.match(message) if message.startswith("Fetching value") else None
    return exc, f"{m[1]} {m[2]}" if m else message, frames


# XLA:GPU's launch of a kernel that failed, 2021's words without the kernel ("Failed to launch CUDA kernel:
# CUDA_ERROR_ILLEGAL_ADDRESS: an illegal memory access was encountered"), 2022's naming it and its launch
# ("Failed to launch CUDA kernel: fusion_99 with block dimensions: 256x1x1 and grid dimensions: 18907x1x1: ..."):
# which of XLA's fusions, and the dimensions, are the program's; a kernel of the program's own (a custom call's) is
# named; the CUDA error is the failure (its words follow from its code)
_LAUNCH = re.compile(
    r"(Failed to launch CUDA kernel: )(?:(?P<kernel>\S{1,200}) with block dimensions: [\dx]{1,40} and grid "
    r"dimensions: [\dx]{1,40}: )?(?P<code>CUDA_ERROR_[A-Z_]{2,60})\b.*$"
)
_FUSION = re.compile(r"^(?:\w{0,60}_)?fusion(?:[._](?:\d{1,9}|<n>))*$")


def kernel_launch(exc: str | None, message: str, frames: list[str]) -> Parts:
    m = _LAUNCH.search(message) if "Failed to launch CUDA kernel" in message else None
    if m is None:
        return exc, message, frames
    own = f"{m['kernel']}: " if m["kernel"] and not _FUSION.match(m["kernel"]) else ""
    return exc, message[: m.start()] + m[1] + own + m["code"], frames


# jax's check that a sharding divides an array's dimension names what was given it (device_put's args, a jit's outputs),
# the NamedSharding's whole repr (its mesh's sizes, axis types, memory kind by release) and the sizes ("..., which
# implies that the global size of its dimension 0 should be divisible by 8, but it is equal to 2 (full shape: (2,
# 128))"): that a mesh axis does not divide a dimension is the misuse, which one and by how much the program's
_NOT_DIVISIBLE = re.compile(
    r"^One of .{1,200}? was given the sharding of .{1,3000}?, which implies that the global size of its dimension "
    r"\d{1,3} should be divisible by\b.*$"
)


def sharding_divisible(exc: str | None, message: str, frames: list[str]) -> Parts:
    if message.startswith("One of ") and _NOT_DIVISIBLE.match(message):
        message = "an array was given a sharding whose mesh axes do not divide the global size of one of its dimensions"
    return exc, message, frames


# jax's grad refusing an input that is not inexact, by release: 0.1's "Primal inputs to reverse-mode differentiation
# must be of float or complex type, got type int32", later "grad requires real- or complex-valued inputs (input dtype
# that is a sub-dtype of np.inexact), but got int32. If you want to use Boolean- or integer-valued inputs, use vjp or
# set allow_int to True.": the dtype is the misuse, the advice the release's
_GRAD_INPUT = re.compile(
    r"^(?:Primal inputs to reverse-mode differentiation must be of float or complex type, got type|grad requires "
    r"real- or complex-valued inputs \(input dtype that is a sub-dtype of np\.inexact\), but got) (\w{1,30})\b.*$"
)


def grad_input(exc: str | None, message: str, frames: list[str]) -> Parts:
    if message.startswith(("Primal inputs to reverse-mode", "grad requires real-")):
        message = _GRAD_INPUT.sub(r"grad requires real- or complex-valued inputs, but got \1", message)
    return exc, message, frames


# jit's check of static_argnums against a call or a function, by release: 2019's "Jitted function has
# static_argnums=(3,) but was called with only 0 positional arguments." (a TypeError), 2021's "jitted function has
# static_argnums=(1,), donate_argnums=() but was called with only 1 positional arguments" (a ValueError), 0.4.27's
# "Jitted function has static_argnums=(0, 6), but only accepts 6 positional arguments": which check; the argument
# numbers are the program's, and the class is the later releases'
_STATIC_ARGNUMS = re.compile(
    r"^[Jj]itted function has static_argnums=\([^)]{0,100}\)(?:, donate_argnums=\([^)]{0,100}\))?,? "
    r"(?:(?P<called>but was called with only)|but only accepts) \d{1,4} positional arguments?\.?$"
)


_TOO_FEW = "Jitted function has static_argnums but was called with too few positional arguments"


def static_argnums(exc: str | None, message: str, frames: list[str]) -> Parts:
    m = _STATIC_ARGNUMS.match(message) if "itted function has static_argnums=" in message else None
    if m is None:
        return exc, message, frames
    if m["called"]:
        return "ValueError", _TOO_FEW, frames
    return exc, "Jitted function has static_argnums beyond the positional arguments it accepts", frames
