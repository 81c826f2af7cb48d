"""What a job's files say when the disk or the file system refuses them, printed without a traceback: Lua Torch's writer
short of its count, safetensors' errors as its Rust side words them, PyTorch's zip reader refusing a checkpoint,
inotify's limits in the kubelet's, systemd's and Node's words, and Python's errno words a post quotes without their
class. Pure. They take their place in :data:`canary.signature.bare.BARE_ERRORS`.
"""

from __future__ import annotations

import re

from canary.signature.recogniser import BareError

# the class Python raises an OSError of these errnos as (PEP 3151); any other is OSError
_ERRNO_CLASS = {"2": "FileNotFoundError", "13": "PermissionError", "17": "FileExistsError"}
_ERRNO_PATH = re.compile(r"^(\[Errno (\d{1,4})\] [A-Z][\w ]{1,60}): '([^']{1,500})'\.?$")
# a file pip could not write, named inside the package it unpacked ("...\\pip-install-6l0da6v6\\xformers_b48e11c0...
# \\third_party/flash-attention/csrc/..."; "...\\site-packages\\tensorboard\\_vendor\\tensorflow_serving\\...")
_PACKAGE_TREE = re.compile(
    r"(?:pip-install-\w{1,20}|site-packages)[\\/]{1,2}[^\\/]{1,200}[\\/]{1,2}((?:[^\\/]{1,200}[\\/]{1,2}){3})"
)

_SEPARATORS = re.compile(r"[\\/]+")


def errno_path(message: str) -> str:
    """An OSError's words without the machine's path ("[Errno 13] Permission denied: <path>"); a file not found while
    pip unpacked a package (Windows' path limit) by the first three directories of the package's tree it was in."""
    m = _ERRNO_PATH.match(message)
    if m is None:
        return message
    tree = _PACKAGE_TREE.search(m[3]) if m[2] == "2" else None
    inner = "/".join(_SEPARATORS.split(tree[1])[:3]) if tree else ""
    return f"{m[1]}: <path>" + (f" (in {inner}/)" if inner else "")


def _watch_limit(m: re.Match[str]) -> str:
    """Node's watch limit in today's words (Node 8's ENOSPC, Node 7's EMFILE reworded), the path by whether there was
    one; the other tools' words as they are."""
    if m["node8"]:
        return "ENOSPC: System limit for number of file watchers reached"
    if m["emfile"]:
        return "EMFILE: too many open files, watch" + (" '<path>'" if m["path"] else "")
    return m["msg"]


STORAGE_ERRORS: list[BareError] = [
    # Lua Torch's file writer short of its count ("write error: wrote 9367499 blocks instead of 31014000 at
    # .../TH/THDiskFile.c:340", 356 for another element type): a disk that filled; the counts and the line are the job's
    BareError(
        "th-disk-write",
        ("blocks instead of",),
        re.compile(r"\bwrite error: wrote \d{1,20} blocks instead of \d{1,20} at \S{0,300}THDiskFile\.c"),
        None,
        "infrastructure",
        message=lambda m: "write error: wrote fewer blocks than asked (THDiskFile.c)",
    ),
    # safetensors' errors, Rust's words raised as SafetensorError ("Error while serializing: IoError(Os { code: 28,
    # kind: StorageFull, message: \"No space left on device\" })", "Error while deserializing header: HeaderTooLarge"),
    # quoted without the class or after an application's node name
    BareError(
        "safetensors",
        ("Error while serializing: ", "Error while deserializing header: "),
        re.compile(
            r"(?:^|\s)(?P<msg>Error while (?:serializing|deserializing header): [A-Z]\w{1,60}(?:\(.{0,300}?\))?)$"
        ),
        "SafetensorError",
    ),
    # numpy's writer of an array to a file on a full disk ("Not enough free space to write 4194304 bytes"), an OSError,
    # printed after a converter's own words ("ERROR: Catch exception when converting model: ..."): the size is the job's
    BareError(
        "numpy-tofile",
        ("Not enough free space to write",),
        re.compile(r"\b(?P<msg>Not enough free space to write \d{1,20} bytes)"),
        "OSError",
        "infrastructure",
    ),
    # a watcher the kernel's inotify instance limit refused, in the kubelet's words following a container's log
    # ("failed to create fsnotify watcher: too many open files", in a code span, or with a shell's "%" after it) and
    # systemd's ("Failed to allocate directory watch: Too many open files"), and Node's watch limit ("Error: ENOSPC:
    # System limit for number of file watchers reached, watch '<path>'", Node 8's "Error: watch <path> ENOSPC"), or its
    # descriptors spent by a watcher ("Error: EMFILE: too many open files, watch", by a running watcher's change event,
    # Node 7's "Error watching file for changes: EMFILE"; with the path fs.watch refused to start on): the host's
    # limit and where it was met, not which file was watched
    BareError(
        "inotify-limits",
        (
            "fsnotify watcher: too many open files",
            "Failed to allocate directory watch: Too many open files",
            "ENOSPC",
            "EMFILE",
        ),
        re.compile(
            r"(?:^|(?<=[\s`]))(?P<msg>failed to create fsnotify watcher: too many open files|"
            r"Failed to allocate directory watch: Too many open files|"
            r"(?<=Error: )ENOSPC: System limit for number of file watchers reached)\b"
            r"|(?<=Error: )(?P<node8>watch \S{1,500} ENOSPC)$"
            r"|(?<=Error: )(?P<emfile>EMFILE: too many open files, watch(?P<path> '[^']{1,500}')?|"
            r"Error watching file for changes: EMFILE)$"
        ),
        lambda m: None if m["msg"] and not m["msg"].startswith("ENOSPC") else "Error",  # (Node's, its code said)
        "infrastructure",
        message=_watch_limit,
    ),
    # PyTorch's reader of a checkpoint's zip archive refusing it (a truncated or half-downloaded file), posted without
    # the RuntimeError it raises, after a sentence or a title's own words ("... PytorchStreamReader failed reading zip
    # archive: failed finding central directory"; "... failed reading file data.pkl: file read failed")
    BareError(
        "torch-zip-reader",
        ("PytorchStreamReader failed reading ",),
        re.compile(
            r"(?:^|(?<=[^\x00-\x7f\s])|(?<=\s))(?P<msg>PytorchStreamReader failed reading "
            r"(?:zip archive|file [\w./-]{1,200}): [a-z][\w ]{2,60}[a-z])"
        ),
        "RuntimeError",
    ),
    # Python's words for an OSError, quoted without its class ("[Errno 13] Permission denied: '/.cache'"): the class
    # Python raises for that errno; only where nothing else names the failure
    BareError(
        "errno-words",
        ("[Errno ",),
        # (after a tool's "Error: ", spack's "==> Error: [Errno 37] No locks available", or in a sentence's code span)
        re.compile(
            r"(?:^|(?<=^Error: )|(?<=^==> Error: )|(?<=`Error: ))"
            r"(?P<msg>\[Errno (?P<errno>\d{1,4})\] [A-Z][a-z][\w ]{2,60}(?:: '[^']{1,500}')?)(?:$|(?=`))"
        ),
        lambda m: _ERRNO_CLASS.get(m["errno"], "OSError"),
        weak=True,
    ),
]
