"""Near matches: how close two failure signatures are, to link one failure's issue to another's and
never to merge them. Pure.

Exact identity (the fingerprint) alone decides recurrence and confirmation. A signature whose
identity no open issue has may still be close to one that has: the same message raised from another
call path, or an excerpt cut short of the whole message. The notifier then says "looks like #N"
(:mod:`canary.notify.near`).

The measure is a ratio over the normalised identity text (``class: message``, after the folds),
as PyTorch's alerting matches its failures: difflib's ratio; and 1 when the shorter text, of at
least :data:`MIN_PREFIX` characters, is how the longer one begins (a cut excerpt is as close as its
whole; one cut inside a figure that the whole masks, ``Used <bytes> of 31.25``, too). Two
environment checks (:data:`canary.signature.mismatches.ENVIRONMENT_TEXT`), whatever class raised them, are
alike only when their texts are one, or one is cut from the other: the folds already give each check
one wording, so what still differs is another check or the other direction (cuDNN newer than the
build, not older). Two out-of-memory messages that name different memory spaces (XLA:TPU's HBM,
VMEM, SMEM) are not alike either, nor two refused storage requests of different HTTP codes or
permissions. :data:`THRESHOLD` was chosen on tests/logs/real with bench/signature_corpus.py: the
lowest value at which no more than one look-alike pair in twenty is linked (docs/signatures.md has the
figures and the false-link rate).
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Iterable
from typing import TypeVar

from canary.record import Signature
from canary.signature.mismatches import ENVIRONMENT_TEXT

THRESHOLD = 0.95
MIN_PREFIX = 40
T = TypeVar("T")


def identity_text(sig: Signature) -> str:
    """What is compared: the canonical class (the kind when there is none) and the normalised message."""
    return f"{sig.exception or sig.kind}: {sig.message}"


_CLASS_HEAD = re.compile(r"^[A-Za-z_][\w.]{0,200}: ")
# what two failures must name alike to be alike at all: the memory space an out-of-memory names (XLA:TPU's hbm, vmem,
# smem), the HTTP code and the storage permission a refused request names (a read is not a write, 401 is not 403; in
# TensorFlow's words or the service's own, "does not have storage.objects.get access"), the
# version a CI step pins, the action release it retired, the tokenizer class a config names, a GPU's architecture,
# the primitive a lowering lacks, a KeyError's key, a model type, an image's platform, a header a build looks for,
# a GPU's Xid code, an InfiniBand completion's status, a primitive without a replication rule, a dataclass's field,
# the OpenMP runtimes in one process, a module not found
_KEYS = re.compile(
    r"\bmemory space (\w{1,20})|HTTP response code (\d{3})|\((storage\.\w{1,40}\.\w{1,40})\)|"
    r"does not have ([\w.]{1,100}) access\b|"
    r"[Uu]ndefined symbol: (\S{1,1000})|has no attribute '(\w{1,200})'|cannot import name '(\w{1,200})'|"
    r"to be mapped: sizes ([\d, ]{1,200})|[Tt]he version '([^']{1,40})'|"
    r"deprecated version of ([\w./-]{1,100}:? ?v\d{1,3})|Tokenizer class (\w{1,100}) does not exist|"
    r"\.target '?(sm_\w{1,10})|\b(gfx\d{3,4}\w?)\b|Unimplemented primitive in [\w ]{1,40}: (\w{1,60})|"
    r"^KeyError: (.{1,200})$|model type `(\w{1,100})`|platform \(([\w/]{1,40})\)|manifest for ([\w/]{1,40})|"
    r"Could not find any (\w{1,20}\.h)|\(Xid (\d{1,3})\)|completion with status=(\d{1,3})|"
    r"No replication rule for (\w{1,100})|for field (\w{1,100}) is not allowed|"
    r"Initializing ([\w.]{1,60}), but found ([\w.]{1,60}) already initialized|No module named '([\w.]{1,200})'|"
    r"the extra '([\w.-]{1,60})'|Function '(\w{1,100})' returned nan values|error detected in (\w{1,100}Backward)\b|"
    r"\bgot signal: (\d{1,2})$|the cuDNN found is (older|newer)|PyTorch and (\w{1,20}) were compiled with different|"
    r"\bVersion ([\w.+-]{1,30}) with arch \w{1,10} not found|requested in (\w{1,60}) is not available|"
    r"\b(GET|FIND) was unable to find an engine|\b(SLURM_[A-Z_]{2,40})\b"
)
_CUT_FIGURE = re.compile(r"\(?[\d.]{1,40}$")


def _keys(text: str) -> set[tuple[str, ...]]:
    """What ``text`` names that another failure must name too to be like it (:data:`_KEYS`): running out of one
    memory space is not running out of another, nor is a refused read a refused write, nor one symbol an extension
    lacks another (SetDeviceEi, SetDeviceEa), nor one name a module lacks another (KeyArray, PRNGKeyArray), nor vmap's
    sizes 2, 10 its sizes 10, 1000, nor one Python a CI step pins another, nor one retired release of an action another,
    nor one tokenizer class transformers lacks another, nor one GPU architecture (sm_90a, gfx1103) another, nor one
    primitive a lowering lacks another, nor one key a KeyError names or one model type transformers does not know
    another, nor one image platform, one header a build looks for, one Xid code or one InfiniBand status another, nor
    one primitive shard_map lacks a rule for, one dataclass field, one pair of OpenMP runtimes or one missing module
    another, nor one extra a release lacks another, nor one backward function PyTorch's anomaly mode caught
    another (in its RuntimeError or its warning), nor one signal torch elastic's launcher got another (1 of 15), nor
    one Python setup-python lacks another, nor jax's x64 warning from one function (astype, zeros) from another, nor a
    cuDNN older than PyTorch's build one newer, nor torchvision's build against PyTorch's CUDA torchaudio's, nor cuDNN's
    heuristic finding no engine (GET) its benchmark (FIND), nor one Slurm variable another, however alike the words."""
    return set(_KEYS.findall(text))


_SYMBOL_END = re.compile(r"[Uu]ndefined symbol: (\S{1,1000})$")


def _cut_symbol(a: str, b: str) -> bool:
    """One text is how the other begins, cut inside the symbol it ends with (a mangled name cut before its last
    letters, ``..4nameB5cxx11E`` of ``..4nameB5cxx11Ev``): a cut symbol names no other symbol. Other names are
    not read so: a message may end with one name that begins another (``erf`` of ``erf_inv``)."""
    short, long = sorted((a, b), key=len)
    return len(short) >= MIN_PREFIX and long.startswith(short) and bool(_SYMBOL_END.search(short))


def _as_error(a: str, b: str) -> tuple[str, str]:
    """A warning and the error it became (warning-became-error): a release warns of what its successor raises
    (datasets' ``FutureWarning`` for a repository's custom code, its ``ValueError`` a release later), so where one
    class is a warning and the other is not, the classes are not compared, only the words."""
    ha, hb = _CLASS_HEAD.match(a), _CLASS_HEAD.match(b)
    if ha and hb and (ha[0].endswith("Warning: ") != hb[0].endswith("Warning: ")):
        return "warned: " + a[ha.end() :], "warned: " + b[hb.end() :]
    return a, b


def text_similarity(a: str, b: str) -> float:
    """The similarity of two identity texts, 0 to 1 (1: one is the other, or how it begins)."""
    a, b = _as_error(a, b)
    if _keys(a) != _keys(b) and not _cut_symbol(a, b):
        return 0.0
    checks = bool(ENVIRONMENT_TEXT.search(a) and ENVIRONMENT_TEXT.search(b))
    if checks:  # one check is raised by whichever layer ran it: its class is not compared (check-class)
        a, b = _CLASS_HEAD.sub("environment: ", a, 1), _CLASS_HEAD.sub("environment: ", b, 1)
    short, long = sorted((a, b), key=len)
    head = short.rstrip(" .,:;")
    if len(head) >= MIN_PREFIX and long.startswith(head):
        return 1.0
    # a cut inside a figure the whole masks ("Used <bytes> of 31.25" of "Used <bytes> of <bytes> hbm")
    cut = _CUT_FIGURE.sub("", head)
    if cut != head and len(cut) >= MIN_PREFIX and long.startswith(cut) and long[len(cut) :].startswith(("<", "(<")):
        return 1.0
    if checks:  # another check, or the other direction; a cut one is its start; a title's capitals are not another
        return 1.0 if a.lower() == b.lower() else 0.0
    return difflib.SequenceMatcher(None, short, long, autojunk=False).ratio()


def similarity(a: Signature, b: Signature) -> float:
    return text_similarity(identity_text(a), identity_text(b))


def nearest(text: str, candidates: Iterable[tuple[T, str]], threshold: float = THRESHOLD) -> tuple[T, float] | None:
    """The candidate (a key and its identity text) closest to ``text`` at ``threshold`` or above, with
    its similarity; the first of equals wins. None when none is that close."""
    best: tuple[T, float] | None = None
    for key, other in candidates:
        score = text_similarity(text, other)
        if score >= threshold and (best is None or score > best[1]):
            best = (key, score)
    return best
