"""Gradient boosting libraries beside a model (XGBoost, LightGBM, CatBoost), in their releases' words. Pure.

XGBoost's errors come from dmlc's log, which puts the time and its source before the words ("[07:02:59]
/workspace/src/c_api/../common/common.h:174: XGBoost version not compiled with GPU support.") and its stack trace after
them, one inside another's when a GPU updater relays it; it advises after a library it could not load ("Likely causes:
...") and lists where it looked for one, which 2016's release misspelt ("Cannot find XGBoost Libarary in the candicate
path"). LightGBM (and XGBoost's Python 2 wrapper) raised errors as bytes up to 2.x (``b'GPU Tree Learner was not enabled
in this build. Recompile with CMake option -DUSE_GPU=1'``), later as text with "Please recompile ...", and its command
line prints them after "Met Exceptions:" with no class, its Rust binding as a struct ('Error { desc: "GPU Tree Learner
was not enabled in this build.\nPlease recompile ..." }'). CatBoost names the source of its CUDA check before it
("c:/goagent/.../cuda_lib/cuda_base.h:280: CUDA error 35: ..."). Which check failed is the failure; the time, the
source, the paths and the advice are the build's and the machine's.
"""

from __future__ import annotations

import re

from canary.signature.recogniser import BareError
from canary.signature.rewordings import Parts

# dmlc's head of a logged error (the time already masked), anywhere a relay put it
_DMLC_HEAD = re.compile(r"\[(?:<time>|\d{2}:\d{2}:\d{2})\] \S{1,500}?:(?:<line>|\d{1,6}): ")
_DMLC_TAIL = re.compile(r"\.?\s(?:Stack trace:|\[bt\] \(\d{1,3}\)).*$")
_LIBRARY_ADVICE = re.compile(r"^(XGBoost Library \([\w.-]{1,60}\) could not be loaded)\b.*$")
_NOT_FOUND = re.compile(r"^(Cannot find XGBoost Library in the candidate path)\b.*$")
# a bytes repr's text: to its closing quote or its first escaped line break (a stack trace after it)
_BYTES = re.compile(r"^b(['\"])(.{1,2000}?)(?:\1(?:\s.*)?|\\n.*)$")
_CATBOOST_SOURCE = re.compile(r"^\S{1,500}?\.(?:h|cpp|cuh?):(?:\d{1,6}|<line>): (?=\S)")
_RECOMPILE = re.compile(r"^(GPU Tree Learner was not enabled in this build)\b.*$")


def boosting_words(exc: str | None, message: str, frames: list[str]) -> Parts:
    """The ``boosting`` rule: XGBoost's errors by no time, source, trace, path or advice, its 2016 spelling
    corrected; LightGBM's bytes read as text, its advice to rebuild dropped; CatBoost's without its source."""
    if "] " in message and _DMLC_HEAD.search(message):
        message = _DMLC_TAIL.sub("", _DMLC_HEAD.sub("", message))
    if message.startswith("XGBoost Library ("):
        message = _LIBRARY_ADVICE.sub(r"\1", message)
    elif message.startswith("Cannot find XGBoost Lib"):
        message = _NOT_FOUND.sub(r"\1", message.replace("Libarary", "Library").replace("candicate", "candidate"))
    elif message.startswith(("b'", 'b"')) and exc in ("LightGBMError", "XGBoostError"):
        message = _BYTES.sub(r"\2", message)
    elif exc == "CatBoostError":
        message = _CATBOOST_SOURCE.sub("", message)
    if message.startswith("GPU Tree Learner"):
        message = _RECOMPILE.sub(r"\1", message)
    return exc, message, frames


BOOSTING_ERRORS: list[BareError] = [
    # XGBoost's library that would not load, posted without its class (a Ray worker's lines)
    BareError(
        "xgboost-library",
        ("XGBoost Library (",),
        re.compile(r"^(?P<msg>XGBoost Library \([\w.-]{1,60}\) could not be loaded)\.?$"),
        "XGBoostError",
    ),
    # an XGBoost GPU updater's relay of the error it met, dmlc's head before each ("../src/tree/updater_gpu_hist.cu:784:
    # Exception in gpu_hist: [11:01:50] ../src/.../device_helpers.cuh:431: Memory allocation error on worker 0: ...")
    BareError(
        "xgboost-relay",
        ("Exception in ",),
        re.compile(r"^\S{1,300}\.cuh?:\d{1,6}: (?P<msg>Exception in \w{1,60}: \[\d{2}:\d{2}:\d{2}\] .{1,1000})$"),
        "XGBoostError",
    ),
    # LightGBM's fatal log line, and its command line's report of the error below "Met Exceptions:"
    BareError(
        "lightgbm-fatal",
        ("[LightGBM] [Fatal] ",),
        re.compile(r"^\[LightGBM\] \[Fatal\] (?P<msg>.{1,1000})$"),
        "LightGBMError",
    ),
    # XGBoost's own report of the loader's error in a library it could not load ('Error message(s): ["dlopen(/x/
    # libxgboost.dylib, 0x0006): Library not loaded: @rpath/libomp.dylib\n', its reasons on the lines after)
    BareError(
        "xgboost-load-reasons",
        ('Error message(s): ["dlopen(',),
        re.compile(r'^Error message\(s\): \["(?P<msg>dlopen\(.{1,500}?\): Library not loaded: [^\s"\\]{1,300})'),
        "XGBoostError",
    ),
    BareError(
        "lightgbm-rust",
        ('Error { desc: "',),
        re.compile(r'^Error \{ desc: "(?P<msg>[^"\\]{1,500})'),
        "LightGBMError",
    ),
    BareError(
        "lightgbm-cli",
        ("Met Exceptions:",),
        re.compile(r"^Met Exceptions:$"),
        "LightGBMError",
        message=lambda m: "",
        context=1,
    ),
]
