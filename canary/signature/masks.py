"""Normalising a failure message: mask what varies between occurrences of one bug, keep what
identifies it, and name error classes one way across releases. Pure.

Kept: tensor, block and array shapes, kernel, op and metric names, status codes, wording.
Masked: addresses, pids, timestamps, temp and home paths, run and job ids, UUIDs, hex, durations,
byte sizes and free memory, line numbers, task lists.

Every pattern here is linear in its input: no quantifier sits inside another over unbounded
text, paths are found as maximal runs of path characters and rewritten in Python, and at most
:data:`MAX_MESSAGE` characters of a message are normalised.
"""

from __future__ import annotations

import builtins
import re

MAX_MESSAGE = 2000  # characters of a message that are normalised (and fingerprinted)

_NORMALIZERS: list[tuple[re.Pattern[str], str]] = [
    # (and win32com's generated module for a type library, by its id, locale and version: "gen_py.<uuid>x0x5x4")
    (
        re.compile(r"\b[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}(?:x\d{1,5}){0,3}\b"),
        "<uuid>",
    ),
    (re.compile(r"\b\d{8}T\d{6}Z-[\w.-]{1,80}?-[0-9a-f]{4}\b"), "<run>"),  # canary run ids
    (re.compile(r"\braysubmit_\w+"), "<job>"),
    (re.compile(r"\b((?:job|run|task|attempt|trace|request)[ _-]?id)([=: ]{1,3})['\"]?[\w.:/-]+"), r"\1\2<id>"),
    (re.compile(r"/runner/[\w.-]+"), "/runner/<id>"),
    (re.compile(r"\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}:\d{2}(?:[.,]\d{1,9})?(?:Z|[+-]\d{2}:?\d{2})?"), "<time>"),
    (re.compile(r"\b\d{1,2}:\d{2}:\d{2}(?:\.\d{1,9})?\b"), "<time>"),
    (re.compile(r"\btime=\d+(?:\.\d+)?"), "time=<n>"),
    # (not NumPy's C API versions, "module compiled against API version 0x10 but this version of numpy is 0xf")
    (re.compile(r"(?<!API version )(?<!numpy is )\b0x[0-9a-fA-F]+\b"), "<hex>"),
]
_HEX_RUN = re.compile(r"\b[0-9a-f]{8,}\b")


def _hex(m: re.Match[str]) -> str:
    """Digests and ids: a run of hex digits with both letters and digits."""
    s = m.group(0)
    return "<hex>" if not s.isdigit() and any(c.isdigit() for c in s) else s


# After paths: numbers whose value differs between occurrences of one bug.
_MASKS: list[tuple[re.Pattern[str], str]] = [
    # a temporary file's name is made per run (hex and counters mask part of it first): its kind stays
    (re.compile(r"<tmp>[\w<>+.-]*?((?:\.[A-Za-z][A-Za-z0-9]{0,9})?)(?![\w<>+.-])"), r"<tmp>\1"),
    (re.compile(r"\b(pid|tid|process|thread|worker)([=: ]{1,3})\d+\b", re.I), r"\1\2<n>"),
    (re.compile(r"\b\d{1,3}(?:\.\d{1,3}){3}(?::\d{1,5})?\b"), "<ip>"),
    (re.compile(r"\b(localhost|127\.0\.0\.1):\d{1,5}\b"), r"\1:<port>"),
    # XLA's per-compile numbering: program ids, HLO instruction suffixes (%fusion.123, all-reduce-start.3)
    (re.compile(r"\bprogram_id=\d+"), "program_id=<n>"),
    (re.compile(r"((?:%|current tracing scope: )[\w-]{1,200})\.\d+\b"), r"\1.<n>"),
    # line numbers drift with every unrelated edit
    (re.compile(r"(\.(?:py|cc|h|hh|hpp|cpp|cxx|c|cu|cuh|mlir)):\d+(?::\d+)?"), r"\1:<line>"),
    (re.compile(r"\bline \d+"), "line <n>"),
    # pointers to documentation are not part of what failed
    # (pydantic: "... package. See https://docs.pydantic.dev/2.6/migration/#... for more details.", the words too)
    (
        re.compile(
            # (an address a terminal wrapped after a hyphen goes on after the space: "#basesettings-has- moved-to-...")
            r"\s?(?:(?:For more (?:details|information), )?[Ss]ee (?:details at |more at )?https?://\S+(?:(?<=-) \S+)?"
            r"(?: for more (?:details|information)\.?)?|For further information visit https?://\S+)"
        ),
        "",
    ),
    # (and a reference in parentheses at a sentence's end: "use the JAX FFI instead (https://docs.jax.dev/...)")
    (re.compile(r"\s?\(https?://[^\s()]{1,500}\)(?=[.;]?$)"), ""),
    # quantities that differ run to run: durations and byte counts (sizes, free memory)
    (re.compile(r"\b\d+(?:\.\d+)?\s?(?:ms|us|µs|ns|s|sec|secs|seconds?|minutes?|mins?|hours?|h)\b"), "<duration>"),
    (re.compile(r"\b\d+(?:\.\d+)?\s?(?:bytes?|[KMGTPE]i?B|[KMGTPE])(?:\s?\(\d+B?\))?(?![\w\[])"), "<bytes>"),
    (re.compile(r"\b\d+B\b"), "<bytes>"),
    # "free: 1.2GiB", "There are 134.44M free", "memory limit 2000 of": amounts of memory
    (
        re.compile(
            r"\b(free|available|limit|total|allocated|reserved|in use|requested)([=: ]{1,3})\d+(?:\.\d+)?\b", re.I
        ),
        r"\1\2<bytes>",
    ),
    (re.compile(r"\ballocate \d+\b"), "allocate <bytes>"),
    (re.compile(r"\brounded to \d+"), "rounded to <bytes>"),
    # XLA's generated names are numbered per compile (fusion_1560, loop_fusion.12)
    (re.compile(r"\b((?:\w{1,60}_)?fusion)[._]\d+\b"), r"\1.<n>"),
    # a failed CHECK's operands differ run to run: "(1.4 vs. 1.4)", "(-1 vs. 0)", "(4.17216e-152 vs. 10)"
    (re.compile(r"\((?:-?[\d.]+(?:e[-+]?\d+)?|<bytes>) vs\. (?:-?[\d.]+(?:e[-+]?\d+)?|<bytes>)\)"), "(<n> vs. <n>)"),
    # lists of tasks, ranks, devices that happen to be affected this time
    (
        re.compile(
            r"\b((?:tasks?|ranks?|devices?|hosts?|replicas?|workers?|nodes?)\s?[:=]?\s?)\[[\d,\s]{1,100000}\]", re.I
        ),
        r"\1[<list>]",
    ),
    (re.compile(r"\{[\d,\s]{20,100000}\}"), "{<list>}"),
    (re.compile(r"(?:/job:\w{1,100}/replica:\d{1,6}/task:\d{1,6}[\s,]{0,8}){2,}"), "<tasks> "),
    (re.compile(r"\b((?:local_|global_)?rank)(: ?|=)\d+"), r"\1\2<n>"),
    (re.compile(r"\bfor rank \d+"), "for rank <n>"),
    # PyTorch's start-up barrier names its key by a counter and the group's sizes, which are the run's
    (
        re.compile(r"\bstore_based_barrier_key:\d+(?: \(world_size=\d+, worker_count=\d+, timeout=[^)]{0,40}\))?"),
        "store_based_barrier_key:<n>",
    ),
    # XRT's TPU compile names how many parameters the program has and the TPU takes
    (
        re.compile(r"\bmore parameters \(\d+\) than supported \(limit (?:\d+|<bytes>)\)"),
        "more parameters (<n>) than supported (limit <n>)",
    ),
    # an id printed as a 64-bit integer ("a context_id matching the specified one (-7989870214237460624)"):
    # twelve digits or more, signed or not, is no size or count a message names
    (re.compile(r"(?<![\w.<])-?\d{12,}(?![\w.])"), "<id>"),
]
_SPACES = re.compile(r"\s+")

# Path-like runs: maximal, so matching never backtracks into them.
_PATH_CHARS = r"\w.~+/\\-"
_PATH_RUN = re.compile(rf"(?<![{_PATH_CHARS}])[{_PATH_CHARS}]*/[{_PATH_CHARS}]*")
_PY_LIB = re.compile(r"/lib/python3\.\d+/")
_TMP_ROOTS = ("/tmp", "/var/tmp", "/var/folders", "/dev/shm", "/private/tmp", "/private/var/folders")


# A Windows path (C:\Users\x\lib\site-packages\wandb\sdk\wandb_init.py, wandb\debug.log), ending in a file's
# extension so that an escape between words ("match:\nalg_cfg") is not one: read with "/", the drive dropped
_WINDOWS_PATH = re.compile(r"(?<![\w\\])(?:[A-Za-z]:\\)?(?:[\w.~+-]{1,200}\\){1,40}[\w~+-]{1,200}\.[A-Za-z]\w{0,7}\b")


def _forward(m: re.Match[str]) -> str:
    p = m.group(0).replace("\\", "/")
    return p[2:] if p[1:2] == ":" else p


def _path(m: re.Match[str]) -> str:
    """One path: installed packages from the package down, stdlib as ``<stdlib>/``, temp dirs
    whole, home directories as ``~``."""
    p = m.group(0)
    for marker in ("site-packages/", "dist-packages/"):
        k = p.rfind(marker)
        if k >= 0:
            return p[k + len(marker) :]
    if p.startswith(("/usr", "/opt", "/nix")):
        lib = _PY_LIB.search(p)
        if lib:
            return "<stdlib>/" + p[lib.end() :]
    for root in _TMP_ROOTS:
        if p == root or p.startswith(root + "/"):
            return "<tmp>"
    for home in ("/home/", "/Users/"):
        if p.startswith(home):
            rest = p[len(home) :]
            k = rest.find("/")
            return "~" + (rest[k:] if k >= 0 else "")
    if p.startswith("/root/"):
        return "~" + p[len("/root") :]
    return p


def normalize(text: str, limit: int = MAX_MESSAGE) -> str:
    """Mask what varies between occurrences of one failure; keep shapes, names and wording.
    At most ``limit`` characters of ``text`` are read."""
    if len(text) > limit:
        text = text[:limit]
    for rx, repl in _NORMALIZERS:
        text = rx.sub(repl, text)
    text = _HEX_RUN.sub(_hex, text)
    if "\\" in text:
        text = _WINDOWS_PATH.sub(_forward, text)
    if "/" in text:
        text = _PATH_RUN.sub(_path, text)
    for rx, repl in _MASKS:
        text = rx.sub(repl, text)
    return _SPACES.sub(" ", text).strip().replace(" )", ")")  # (a space before a closing bracket is type, not words)


_NUMBER = re.compile(r"(?<![\w<])[-+]?\d[\d,]*(?:\.\d+)?(?:e[-+]?\d+)?")


def numbers_masked(line: str) -> str:
    """A normalised line with every number masked (for lines that name no bug: progress output)."""
    return _NUMBER.sub("<n>", normalize(line))


# ----------------------------------------------------------------------------- error classes

# Classes renamed across releases, or raised under another name by a wrapper, that are one thing.
_BUILTIN_CLASSES = {
    name.lower(): name
    for name, value in vars(builtins).items()
    if isinstance(value, type) and issubclass(value, BaseException)
}
BUILTIN_CLASS_NAMES = frozenset(_BUILTIN_CLASSES.values())
CANONICAL_CLASSES = {
    "JaxRuntimeError": "XlaRuntimeError",  # jax.errors.JaxRuntimeError (jax >= 0.4.36)
    # Python 3's aliases of OSError, as Python 2 and an older pip name it ("due to an EnvironmentError: [Errno 28] ...")
    "EnvironmentError": "OSError",
    "IOError": "OSError",
    # PyTorch's torch.linalg.LinAlgError, printed by the name of the class it is (torch._C._LinAlgError)
    "_LinAlgError": "LinAlgError",
    # numpy's MemoryError of an array it could not allocate (numpy.core._exceptions._ArrayMemoryError, numpy 2's
    # numpy._core._exceptions), printed by its own name or, before 1.18, as MemoryError
    "_ArrayMemoryError": "MemoryError",
    # huggingface_hub 1.x's name for the EntryNotFoundError of a file a repository lacks
    "RemoteEntryNotFoundError": "EntryNotFoundError",
    # CatBoost up to 0.x named its error CatboostError, since CatBoostError (_catboost.CatBoostError)
    "CatboostError": "CatBoostError",
}
# Status codes XLA, gRPC and absl put at the head of a message: the class of the error.
STATUS_CODES = (
    "CANCELLED",
    "UNKNOWN",
    "INVALID_ARGUMENT",
    "DEADLINE_EXCEEDED",
    "NOT_FOUND",
    "ALREADY_EXISTS",
    "PERMISSION_DENIED",
    "RESOURCE_EXHAUSTED",
    "FAILED_PRECONDITION",
    "ABORTED",
    "OUT_OF_RANGE",
    "UNIMPLEMENTED",
    "INTERNAL",
    "UNAVAILABLE",
    "DATA_LOSS",
    "UNAUTHENTICATED",
)
_STATUS = re.compile(r"(?:Bad StatusOr access: )?\b(" + "|".join(STATUS_CODES) + r")\b:")
OLD_STATUS_NAMES = (
    "Resource exhausted",
    "Internal",
    "Deadline exceeded",
    "Invalid argument",
    "Failed precondition",
    "Unavailable",
    "Unimplemented",
    "Not found",
    "Aborted",
    "Out of range",
    "Cancelled",
    "Unknown",
)
# How older releases spelled them ("Resource exhausted: ...", "Internal: ...").
_OLD_STATUS = {
    "Resource exhausted": "RESOURCE_EXHAUSTED",
    "Internal": "INTERNAL",
    "Deadline exceeded": "DEADLINE_EXCEEDED",
    "Invalid argument": "INVALID_ARGUMENT",
    "Failed precondition": "FAILED_PRECONDITION",
    "Unavailable": "UNAVAILABLE",
    "Unimplemented": "UNIMPLEMENTED",
    "Not found": "NOT_FOUND",
    "Aborted": "ABORTED",
    "Out of range": "OUT_OF_RANGE",
    "Cancelled": "CANCELLED",
    "Unknown": "UNKNOWN",
}
_OLD_STATUS_RX = re.compile(r"^(" + "|".join(map(re.escape, _OLD_STATUS)) + r"): ")


_ASCII_TAIL = re.compile(r"(?<![A-Za-z0-9_])[A-Za-z_][A-Za-z0-9_]{0,100}$")


def canonical_class(exc_type: str, message: str = "") -> str:
    """``jaxlib.xla_extension.XlaRuntimeError``, ``jaxlib._jax.XlaRuntimeError`` and
    ``jax.errors.JaxRuntimeError`` name one thing: the class name, renames folded. Older jaxlib
    raised a plain ``RuntimeError`` for what is now an ``XlaRuntimeError``: a ``RuntimeError``
    whose message carries a status code is one."""
    name = exc_type.rsplit(".", 1)[-1]
    if not name.isascii() and (ascii_tail := _ASCII_TAIL.search(name)):
        name = ascii_tail[0]  # (a post's own words run onto the class: "chatglm2qlora微调显示ValueError")
    name = CANONICAL_CLASSES.get(name, name)
    if name.lower() in _BUILTIN_CLASSES:  # (a builtin class a post retyped: "floatingPointError", "ASSertionError")
        name = _BUILTIN_CLASSES[name.lower()]
    if name == "RuntimeError" and message and status_code(message):
        return "XlaRuntimeError"
    return name


def status_code(message: str) -> str | None:
    """The status code a message carries (``RESOURCE_EXHAUSTED``), in either spelling."""
    m = _STATUS.search(message[:400])
    if m:
        return m.group(1)
    m = _OLD_STATUS_RX.match(message)
    return _OLD_STATUS[m.group(1)] if m else None


# Words that only wrap the error, and rewordings of one error across releases.
# (TensorFlow names the graph function an op failed in: "{{function_node __inference_step_1234}} ")
_WRAPPERS = re.compile(
    r"Bad StatusOr access: |Failed to execute XLA Runtime executable: run time error: "
    r"custom call '[^']{1,200}' failed: |\{\{function_node [^{}]{1,300}\}\} ?"
)
WORDINGS: list[tuple[re.Pattern[str], str]] = [
    (re.compile(r"\bOut of memory allocating\b"), "Out of memory while trying to allocate"),
    (re.compile(r"\bXLA:TPU compile permanent error\. (?=Ran out of memory|Aborting compilation early)"), ""),
    (re.compile(r"\bwrap the call in a shard_map or xmap\b"), "wrap the call in a shard_map"),
    # the shell's report of the abort, joined to the message's line by a post ("... CUDA Aborted (core dumped)")
    (re.compile(r"\s(?:Aborted|Segmentation fault|Bus error) \(core dumped\)$"), ""),
    # jaxlib's names for CUDA's functions since it builds for ROCm too ("gpusolverDnCreate" for "cusolverDnCreate")
    (re.compile(r"\bgpu(solver|sparse|blas|fft)(?=[A-Z])"), r"cu\1"),
    # numpy's host allocation that failed: which array (its shape and dtype) is the job's, and 1.17 did not say its size
    # ("Unable to allocate array with shape (9681, 9681) and data type float64")
    (
        re.compile(
            r"^Unable to allocate (?:.{1,30}? for an )?array with shape \([\d, ]{0,200}\) and data type \w{1,30}"
        ),
        "Unable to allocate <bytes> for an array with shape <shape>",
    ),
    # HDF5's write that failed (h5py's OSError), by its errno: its time, file, descriptor and buffer are the job's, and
    # whether it was preparing or writing its stage
    (
        re.compile(
            r"^Can't (?:prepare for writing|write) data \([Ff]ile write failed: .{0,600}?\berrno = (\d{1,4})\b.*$"
        ),
        r"Can't write data (file write failed: errno = \1)",
    ),
    # PyTorch's DataLoader names the signal its worker died of and ends; a progress line glued after it, or a title's
    # "???", is not its
    (
        re.compile(r"^(DataLoader worker \(pid \S{1,12}\) is killed by signal: [\w ]{2,40}?)(?:\.{2,}|\.?[?!]{2,}).*$"),
        r"\1",
    ),
    # a message run together with the same line of other processes (four workers' tails pasted without their line
    # ends: "[Errno 12] Cannot allocate memoryOSError: [Errno 12] Cannot allocate memory")
    (re.compile(r"^(.{8,300}?)(?:[A-Z]\w{0,60}(?:Error|Exception): \1)+$"), r"\1"),
]


def canonical_message(message: str) -> str:
    """A message with its status code spelled one way, without wrappers, in one wording."""
    m = _OLD_STATUS_RX.match(message)
    if m:
        message = _OLD_STATUS[m.group(1)] + ": " + message[m.end() :]
    message = _WRAPPERS.sub("", message[: MAX_MESSAGE * 2])
    for rx, repl in WORDINGS:
        message = rx.sub(repl, message)
    return message
