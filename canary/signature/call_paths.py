"""The call path a traceback's frames give: the path each frame is known by, whether it is a library's code or the
program's, and the frames that matter; and whether a message names its failure without them (the ``program-frames``
rule of :data:`canary.signature.folds.RULES`). Pure."""

from __future__ import annotations

import posixpath
import re
from collections.abc import Iterable, Sequence
from fnmatch import fnmatchcase

from canary.signature import pythons
from canary.signature.masks import BUILTIN_CLASS_NAMES
from canary.signature.tracebacks import DEFAULT_OPTIONS, Frame, Options

# packages whose code is never a program's own, wherever they are run from
_LIBRARIES = frozenset(
    ("jax", "jaxlib", "tensorflow", "torch", "torch_xla", "flax", "optax", "numpy", "scipy", "haiku", "chex")
)


_STDLIB = re.compile(
    r"/lib(?:64)?/python[23]\.\d+/(.*)$|/lib-python/[23][.\d]{0,5}/(.*)$"
    r"|^[A-Za-z]:/.{0,300}/[Ll]ib/(runpy\.py)$"
    r"|/Scripts/([\w.-]{1,100}\.exe/__main__\.py)$"
)
_SNAKEMAKE_COPY = re.compile(r"(/\.snakemake/scripts/)tmp\w{6,12}\.(?=\w{1,200}\.py$)")


def frame_path(file: str, roots: Iterable[str] = ()) -> tuple[str, bool]:
    """The path a frame is known by, and whether it is library (installed or stdlib) code.

    Installed packages are named from the package down (``jax/_src/pjit.py``); application files
    from the last directory named in ``roots`` (``canary/workload/model.py``), else by their
    directory and name (``moe/probe.py``): either survives checkouts in different places."""
    f = file.replace("\\", "/")
    for marker in ("/site-packages/", "/dist-packages/"):
        if marker in f:
            return f.rsplit(marker, 1)[1], True
    # (a package's build script, from its checkout or pip's temporary tree, "/tmp/pip-install-x/deepspeed_<hash>/
    # setup.py": the package's code, not the program's)
    if f.endswith("/setup.py") or f == "setup.py":
        return "setup.py", True
    # (Python 2's and 3's, lib64's, PyPy's lib-python; on Windows, the runpy that starts a module or a console script,
    # "E:\Anaconda\envs\x\lib\runpy.py", and a console script's launcher, "...\Scripts\scrapy.exe\__main__.py")
    m = _STDLIB.search(f)
    if m or f.startswith("<") or not f.endswith(".py"):  # stdlib, <frozen ...>, Cython (.pyx)
        return (next(g for g in m.groups() if g) if m else f), True
    # (Snakemake runs a rule's script as a copy named for each run: ".snakemake/scripts/tmp77kjk9tq.build_shapes.py")
    f = _SNAKEMAKE_COPY.sub(r"\1", f)
    parts = [p for p in f.split("/") if p and p != "."]
    roots = set(roots)
    for i in range(len(parts) - 2, -1, -1):
        if parts[i] in roots:
            return "/".join(parts[i:]), False
    # a library run from its source tree (an editable install, a bazel runfiles tree): still the library's code
    for i in range(len(parts) - 2, -1, -1):
        # (a package's directory, not a project's file in one: every part after it names a module)
        if parts[i] in _LIBRARIES and i + 2 < len(parts) and all(p.isidentifier() for p in parts[i + 1 : -1]):
            return "/".join(parts[i:]), True
    return "/".join(parts[-2:]), False


def call_path(frames: Sequence[Frame], options: Options = DEFAULT_OPTIONS) -> list[str]:
    """``path:function`` of the frames that matter, outermost first: the application's own and
    those matching ``options.keep``; consecutive repeats (recursion) once."""
    out: list[str] = []
    roots = options.roots()
    for fr in frames:
        path, library = frame_path(fr.file, roots)
        if library and not any(fnmatchcase(path, g) for g in options.keep):
            continue
        key = f"{path}:{fr.func}"
        if out and out[-1] == key:
            continue
        out.append(key)
    return out[-options.max_frames :] if options.max_frames else out


def _resolved(frame: str) -> str:
    path, sep, func = frame.rpartition(":")
    if not sep or ".." not in path.split("/"):
        return frame
    parts = [p for p in posixpath.normpath(path).split("/") if p not in ("", ".", "..")]
    return "/".join(parts) + sep + func


def resolved_frames(exc: str | None, message: str, frames: list[str]) -> tuple[str | None, str, list[str]]:
    """The ``frames`` rule of :mod:`~canary.signature.folds`: a call path's ``..`` resolved."""
    return exc, message, [_resolved(f) for f in frames]


# a message of this many words or more names its failure by itself (the ``program-frames`` rule); chosen on the
# corpus, docs/signatures.md gives the sweep
NAMING_WORDS = 5
# what only where it was met tells apart, however many its words: memory run out (compiling or running, which step), a
# name an object lacks or a module not found (which library read it), a crash (where it crashed), JSON's decoder
# refusing a text (whose response it read: "Expecting value: line 1 column 1 (char 0)")
_MET_WHERE = re.compile(
    r"out of memory|RESOURCE_EXHAUSTED|\bOOM\b|not enough memory|has no attribute|cannot import name|No module named|"
    r"Fatal Python error|DLL load failed|^Expecting (?:value|property name enclosed in double quotes): line ",
    re.IGNORECASE,
)


# ... except a name a module named by the message lacks ("module 'jax' has no attribute 'tree_multimap'", "cannot import
# name 'AdamW' from 'transformers'", or a submodule of a package found: "No module named 'sklearn.svm.classes'"): the
# release installed lacks it, whichever program or library (an unpickler) read it; not a private one, a C extension
# a broken install lacks; nor a public name a class the message names lacks ("'Web3' object has no attribute
# 'isConnected'", a library's rename met by two programs), where ``None`` is not the object
_NAMES_MODULE = re.compile(
    r"^(?:cannot import name '[\w.]{1,200}' from '[\w.]{1,200}'|module '[\w.]{1,200}' has no attribute '\w{1,200}'|"
    r"'(?!NoneType')[A-Z]\w{1,100}' object has no attribute '[A-Za-z]\w{1,200}'|"
    r"No module named '\w{1,100}(?:\.\w{1,100}){0,7}\.(?!_)\w{1,100}')"
    r"(?: \(.{0,500}\))?\.?$"
)


# ... or fewer that say what the machine lacks: credentials ("Unable to locate credentials", paramiko's "Authentication
# failed."), a codec its Pillow was built without ("decoder jpeg not available"), a dialect SQLAlchemy cannot load
# ("Can't load plugin: sqlalchemy.dialects:postgres", the name 1.4 dropped), a library to reach USB devices through
# (pyusb's "No backend available"), or an argument a library's release no longer takes (PaddleOCR 3's "Unknown
# argument: det_db_score_mode"): which program asked is the job's
_LACKS = re.compile(
    r"^(?:Unable to locate credentials|Authentication failed|No authentication methods available|No backend available$|"
    r"(?:de|en)coder \w{1,20} not available$|Can't load plugin: [\w.]{1,200}:\w{1,100}$|Unknown argument: \w{1,100}$)"
)


# ... or fewer that open with a library's qualified name ("apex.optimizers.FusedAdam requires cuda extensions")
_OPENS_QUALIFIED = re.compile(r"^[a-z_]\w{0,40}(?:\.\w{1,60}){2,6} [a-z]\w{1,40} ")


def names_itself(exception: str | None, message: str) -> bool:
    """Whether an exception's message says enough to be its failure without the program's frames above it (the
    ``program-frames`` rule): ``NAMING_WORDS`` words or more (or a library's qualified name first), none that only
    where it was met tells apart (a signal or a failed CHECK, memory run out, a name an object lacks, a module not
    found) nor the interpreter's words for a program's own mistake; a name a module the message names lacks is that
    release's, whichever program read it."""
    if exception is not None and not message.strip():
        # (a library's own class raised without a message, audioread's NoBackendError: the class is all it says)
        return exception not in BUILTIN_CLASS_NAMES and not exception.startswith("SIG") and exception != "CheckFailed"
    names_module = bool(_NAMES_MODULE.match(message))
    return (
        exception is not None
        and not exception.startswith("SIG")
        and exception != "CheckFailed"
        and (
            len(message.split()) >= NAMING_WORDS
            or pythons.says_file(message)
            or names_module
            or bool(_OPENS_QUALIFIED.match(message) or _LACKS.match(message))
        )
        and (not _MET_WHERE.search(message) or names_module)
        and not pythons.interpreter_words(message)
    )
