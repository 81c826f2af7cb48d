"""Data files and model resources a pipeline reads, in their libraries' words by release: HDF5 through h5py, LMDB,
NLTK's data, spaCy's models, sentencepiece's model files. Pure.

HDF5 words a file it could not open by release ("Unable to open file (File signature not found)" in 1.8, "(file
signature not found)" later, 1.14's "Unable to synchronously open file (truncated file: eof = 96, ...)") and names a
lock it could not take by the platform's errno ("errno = 35" on macOS, "errno = 11" on Linux), which h5py 3 raises as
that errno's OSError subclass ("BlockingIOError: [Errno 11] ..."), a program may add the file's path; h5py warns of
the HDF5 it was built against by both releases; HDF5 itself prints its headers' and library's releases when they
differ and aborts. LMDB's codes are the failure whoever relays them (py-lmdb's ``ReadersFullError``, ArcticDB's
``StorageException: ... LMDBError#-30790: mdb_txn_begin: MDB_READERS_FULL: ...``). NLTK frames a resource it did not
find in a box of asterisks, named by Python 2 as ``u'corpora/stopwords'``; spaCy follows its code's first sentence
with advice that changes by release; sentencepiece names the model file it could not find. Which check failed, which
resource or code, is the failure; the file, the sizes, the errno and the releases are the machine's.
"""

from __future__ import annotations

import re

from canary.signature.recogniser import BareError
from canary.signature.recogniser import environment_check as _environment
from canary.signature.rewordings import Parts

_H5_OPEN = re.compile(r"^(?:\[Errno \d{1,4}\] )?Unable to (?:synchronously )?open file \((.{1,500}?)\)(?:\s.*)?$")
_H5_DETAIL = (
    (re.compile(r"^([Ff]ile signature not found)$"), "file signature not found"),
    (re.compile(r"^truncated file: .*$"), "truncated file"),
    (re.compile(r"^unable to lock file, errno = \d{1,4}, error message = '([^']{1,100})'$"), None),
)
# (a post may break the warning's line after "built", and a copy end there)
_H5PY_BUILT = re.compile(
    r"^(h5py is running against HDF5) [\d.]{1,20} (when it was built)(?: against [\d.]{1,20}\b.*)?$"
)
_LMDB_CODE = re.compile(r"\b(mdb_\w{1,40}: MDB_(\w{1,40}): [^.]{1,200}?)(?: for object .*|\.)?$")
_LMDB_CLASSES = {"READERS_FULL": "ReadersFullError", "MAP_FULL": "MapFullError"}
_NLTK = re.compile(r"^\**\s{0,4}Resource u?'?(?:[\w]{1,40}/)?(\w{1,60})(?:\.zip)?'? not found\b.*$")
_NLTK_ADVICE = "Please use the NLTK Downloader to obtain the resource"
_SPACY = re.compile(r"^(\[E\d{3}\] .{1,300}?)(?: from \S{1,500})?(?:\.\s.*|\.)?$")
_SENTENCEPIECE = re.compile(
    r'^(?:NOT_FOUND|Not found): "[^"]{1,1000}": (No such file or directory)(?: Error #\d{1,4})?$'
)


def resource_words(exc: str | None, message: str, frames: list[str]) -> Parts:
    """The ``data-resources`` rule: HDF5's refusals by no file, size, errno or release; LMDB's code by whichever
    library relays it; NLTK's resource by name; spaCy's code by its first sentence; sentencepiece's file by no path."""
    if "open file (" in message and (m := _H5_OPEN.match(message)):
        detail = m[1]
        for rx, words in _H5_DETAIL:
            if d := rx.match(detail):
                detail = words or f"unable to lock file: {d[1]}"
                break
        return exc, f"Unable to open file ({detail})", frames
    if message.startswith("h5py is running against"):
        message = _H5PY_BUILT.sub(r"\1 <version> \2 against another", message)
    elif "MDB_" in message and (m := _LMDB_CODE.search(message)):
        return _LMDB_CLASSES.get(m[2], exc), m[1], frames
    elif "Resource " in message and (m := _NLTK.match(message)):
        message = f"Resource {m[1]} not found. {_NLTK_ADVICE}"  # (its box's words, whatever a post cut of them)
    elif message.startswith("[E") and (m := _SPACY.match(message)):
        message = m[1]
    elif "No such file or directory" in message and (m := _SENTENCEPIECE.match(message)):
        message = f"Not found: {m[1]}"
    return exc, message, frames


RESOURCE_ERRORS: list[BareError] = [
    # LMDB's code posted without the class py-lmdb raises it with
    BareError(
        "lmdb-code",
        ("MDB_READERS_FULL", "MDB_MAP_FULL"),
        re.compile(r"^(?P<msg>mdb_\w{1,40}: MDB_(?P<code>READERS_FULL|MAP_FULL): [^.]{1,200})\.?$"),
        lambda m: _LMDB_CLASSES[m["code"]],
    ),
    # NLTK's box without its LookupError line (a post that begins inside it), or below a LookupError line whose
    # message is the box's border
    # h5py's warning of the HDF5 it runs against, posted without its class (the line, then its source's "_warn(...)")
    BareError(
        "h5py-built",
        ("h5py is running against HDF5",),
        re.compile(r"^(?P<msg>h5py is running against HDF5 [\d.]{1,20} when it was built against [\d.]{1,20})\b"),
        "UserWarning",
    ),
    BareError(
        "nltk-resource",
        ("Resource ",),
        re.compile(r"^\s{0,4}(?P<msg>Resource [\w'/.]{1,100} not found)\.\s{0,4}(?:Please use the NLTK\b.*)?$"),
        "LookupError",
    ),
    # HDF5's own check of the headers a program was built with against the library it runs with ("Warning! ***HDF5
    # library version mismatched error***", then "The HDF5 header files used to compile this application do not match
    # ..." and "Headers are 1.10.2, library is 1.10.1", a post may begin at the second): it aborts after; the
    # releases are the machine's
    _environment(
        "hdf5-version",
        ("HDF5 library version mismatched error", "The HDF5 header files used to compile this application"),
        r"HDF5 library version mismatched error|^The HDF5 header files used to compile this application do not match",
        None,
        message=lambda m: "HDF5 library version mismatched: its headers are not the library's",
    ),
]
