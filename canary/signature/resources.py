"""Data files and model resources a pipeline reads, in their libraries' words by release: HDF5 through h5py and netCDF,
LMDB, NLTK's data, spaCy's models, sentencepiece's model files, SQLite under IPython and Django. Pure.

HDF5 words a file it could not open by release ("Unable to open file (File signature not found)" in 1.8, "(file
signature not found)" later, 1.14's "Unable to synchronously open file (truncated file: eof = 96, ...)") and names a
lock it could not take by the platform's errno ("errno = 35" on macOS, "errno = 11" on Linux), which h5py 3 raises as
that errno's OSError subclass ("BlockingIOError: [Errno 11] ..."), a program may add the file's path (a lock is named by
its reason, the errno's words, an environment check); h5py warns of the HDF5 it was built against by both releases; HDF5
itself prints its headers' and library's releases when they differ and aborts. LMDB's codes are the failure whoever
relays them (py-lmdb's ``ReadersFullError``, ArcticDB's ``StorageException: ... LMDBError#-30790: mdb_txn_begin:
MDB_READERS_FULL: ...``). NLTK frames a resource it did not find in a box of asterisks, named by Python 2 as
``u'corpora/stopwords'``; spaCy follows its code's first sentence with advice that changes by release, and its 2.x
loader logs E053 without its code; TextBlob's missing corpora are NLTK's under its own class; sentencepiece
names the model file it could not find. Which check failed, which resource or code, is the failure; the file, the sizes,
the errno and the releases are the machine's.
"""

from __future__ import annotations

import re

from canary.signature.recogniser import BareError
from canary.signature.recogniser import environment_check as _environment
from canary.signature.rewordings import Parts

_H5_OPEN = re.compile(
    r"^(?:\[Errno \d{1,4}\] )?Unable to (?:synchronously )?(open|create) file \((.{1,500}?)\)(?:\s.*)?$"
)
_H5_DETAIL = (
    (re.compile(r"^([Ff]ile signature not found)$"), "file signature not found"),
    (re.compile(r"^truncated file: .*$"), "truncated file"),
)
# a lock HDF5 could not take, by the reason in its words (1.10.1's "unable to lock file: No locks available", later
# "unable to lock file, errno = 37, error message = 'No locks available'", its own stack's line "H5FD__sec2_lock():
# unable to lock file, errno = 524" without the words): a file system without locks, or a file another process holds;
# not whether it was opening or creating the file, nor the errno, which is the platform's (35 on macOS, 11 on Linux)
_H5_LOCK = re.compile(
    r"^[Uu]nable to lock file(?:: (?P<words>[^,]{1,100})|, errno = (?P<errno>\d{1,4})"
    r"(?:, error message = '(?P<msg>[^']{1,100})')?)$"
)
_ERRNO_WORDS = {"11": "Resource temporarily unavailable", "37": "No locks available", "9": "Bad file descriptor"}
# netCDF4's error, raised with the file's path as bytes ("[Errno -101] NetCDF: HDF error: b'out/solvent.nc'")
_NETCDF = re.compile(r"^(\[Errno -?\d{1,4}\] NetCDF: [^:]{1,100}): b?['`].{0,1000}$")


def hdf5_lock(m: re.Match[str]) -> str:
    """A lock HDF5 could not take (``m`` a match of ``_H5_LOCK``) by its reason, the errno's words."""
    words = m["words"] or m["msg"] or _ERRNO_WORDS.get(m["errno"], f"Unknown error {m['errno']}")
    return f"unable to lock file: {words[:1].upper()}{words[1:]}"


# (a post may break the warning's line after "built", and a copy end there)
_H5PY_BUILT = re.compile(
    r"^(h5py is running against HDF5) [\d.]{1,20} (when it was built)(?: against [\d.]{1,20}\b.*)?$"
)
_LMDB_CODE = re.compile(r"\b(mdb_\w{1,40}: MDB_(\w{1,40}): [^.]{1,200}?)(?: for object .*|\.)?$")
_LMDB_CLASSES = {"READERS_FULL": "ReadersFullError", "MAP_FULL": "MapFullError"}
# (its box's border before it, a post's Markdown escaping it: "\\****...")
_NLTK = re.compile(r"^\\?\**\s{0,4}Resource u?'?(?:\w{1,40}/)?([\w:.-]{1,60}?)(?:\.zip)?'? not found\b.*$")
_NLTK_ADVICE = "Please use the NLTK Downloader to obtain the resource"
_SPACY = re.compile(r"^(\[E\d{3}\] .{1,300}?)(?: from \S{1,500})?(?:\.\s.*|\.)?$")
# (spaCy 2's loader logging its E053 without the code: "Could not read config.cfg from /x/en_core_web_sm-2.2.5/...")
_SPACY_CONFIG = re.compile(r"^Could not read (config\.cfg|meta\.json) from \S{1,500}$")
# Django's check of the SQLite it is given ("SQLite 3.9.0 or later is required (found 3.7.17)."): the release each
# Django requires and the machine's are versions
_DJANGO_SQLITE = re.compile(r"^SQLite \d[\d.]{0,10} or later is required(?: \(found [\d.]{1,12}\))?\.?$")
_SENTENCEPIECE = re.compile(
    r'^(?:NOT_FOUND|Not found): "[^"]{1,1000}": (No such file or directory)(?: Error #\d{1,4})?$'
)


def resource_words(exc: str | None, message: str, frames: list[str]) -> Parts:
    """The ``data-resources`` rule: HDF5's refusals by no file, size, errno or release (a lock by its reason); LMDB's
    code by whichever library relays it; NLTK's resource by name; spaCy's code by its first sentence; sentencepiece's
    and netCDF's file by no path; Django's SQLite check by no release."""
    if " file (" in message and (m := _H5_OPEN.match(message)):
        if lock := _H5_LOCK.match(m[2]):
            return exc, hdf5_lock(lock), frames
        detail = next((words for rx, words in _H5_DETAIL if rx.match(m[2])), m[2])
        return exc, f"Unable to {m[1]} file ({detail})", frames
    if message.startswith("[Errno") and "NetCDF: " in message:
        message = _NETCDF.sub(r"\1", message)
    if message.startswith("h5py is running against"):
        message = _H5PY_BUILT.sub(r"\1 <version> \2 against another", message)
    elif "MDB_" in message and (m := _LMDB_CODE.search(message)):
        return _LMDB_CLASSES.get(m[2], exc), m[1], frames
    elif "Resource " in message and (m := _NLTK.match(message)):
        message = f"Resource {m[1]} not found. {_NLTK_ADVICE}"  # (its box's words, whatever a post cut of them)
    elif message.startswith("[E") and (m := _SPACY.match(message)):
        message = m[1]
    elif message.startswith("Could not read ") and (m := _SPACY_CONFIG.match(message)):
        message = f"[E053] Could not read {m[1]}"
    elif message.startswith("SQLite ") and _DJANGO_SQLITE.match(message):
        message = "SQLite <version> or later is required"
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
    # spaCy's model not found or unreadable, its code and words without the OSError it raises them with (a web
    # framework's error page puts the class on a line of its own; spaCy 2's loader logs E053 without its code), and
    # TextBlob's corpora missing, its MissingCorpusError's words alone
    BareError(
        "spacy-model",
        ("[E050] ", "[E053] ", "Could not read config.cfg from ", "Could not read meta.json from "),
        re.compile(
            r"^(?:error\s{0,4}:\s{0,4})?"
            r"(?P<msg>\[E05[03]\] .{1,500}|Could not read (?:config\.cfg|meta\.json) from \S{1,500})$"
        ),
        "OSError",
    ),
    BareError(
        "textblob-corpora",
        ("Looks like you are missing some required data for this feature",),
        re.compile(r"^(?P<msg>Looks like you are missing some required data for this feature)\.?$"),
        "MissingCorpusError",
    ),
    BareError(
        "nltk-resource",
        ("Resource ",),
        re.compile(r"^\s{0,4}(?P<msg>Resource [\w'/.]{1,100} not found)\.\s{0,4}(?:Please use the NLTK\b.*)?$"),
        "LookupError",
    ),
    # IPython's history database it could not open, logged as it starts ("Failed to open SQLite history
    # /home/x/.ipython/profile_default/history.sqlite (database is locked)."): SQLite's reason, a home on NFS or a
    # database another process holds; Django's SQLite check quoted without its traceback
    _environment(
        "ipython-history",
        ("Failed to open SQLite history",),
        r"Failed to open SQLite history \S{1,500} \((?P<why>[^)]{1,200})\)",
        None,
        message=lambda m: f"IPython: failed to open SQLite history ({m['why']})",
    ),
    BareError(
        "django-sqlite",
        ("or later is required",),
        re.compile(r"(?:^|(?<=[\s`:]))(?P<msg>SQLite \d[\d.]{0,10} or later is required)\b"),
        "ImproperlyConfigured",
        "environment",
    ),
    # HDF5's own stack naming the lock it could not take ("#008: H5FDsec2.c line 1002 in H5FD__sec2_lock(): unable to
    # lock file, errno = 524, error message = 'Unknown error 524'"), posted without h5py's OSError or under netCDF's
    _environment(
        "hdf5-lock",
        ("sec2_lock(): unable to lock file",),
        r"H5FD_{1,2}sec2_lock\(\): (?P<lock>unable to lock file, errno = \d{1,4}(?:, error message = '[^']{1,100}')?)",
        None,
        message=lambda m: hdf5_lock(_H5_LOCK.match(m["lock"])),
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
