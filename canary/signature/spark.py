"""PySpark beside ML code, in its releases' words: the worker's Python against the driver's (2.x's Exception, 3.x's
RuntimeError, 3.5's PySparkRuntimeError with its error class), PyArrow's and pandas' minimum releases, the Java gateway
that exited, a JVM older than the class files. Pure. The rule takes its place in
:data:`canary.signature.stacks.STACK_RULES`; the worker's check is one of
:data:`canary.signature.mismatches.ENVIRONMENT_TEXT`.
"""

from __future__ import annotations

import re

from canary.signature.recogniser import BareError, environment_check
from canary.signature.rewordings import Parts

_WORKER_PYTHON = "Python in worker has different version"
# ("PyArrow >= 0.15.1 must be installed; however, your version was 0.14.1", 2.3's "pyarrow >= 0.8.0 must be installed
# on calling Python process; however, ...", "... however, it was not found.")
_MINIMUM = re.compile(
    r"^(?P<lib>PyArrow|pyarrow|Pandas|pandas) >= \S{1,20} must be installed(?: on calling Python process)?; however, "
    r"(?P<how>it was not found|your version was)\b.*$"
)
# (Spark 2.1's "Java gateway process exited before sending the driver its port number")
_GATEWAY = re.compile(r"^Java gateway process exited before sending (?:the driver )?its port number\b.*$")
# (3.4 and later name the error's class first: "[JAVA_GATEWAY_EXITED] Java gateway process exited ...")
_ERROR_CLASS = re.compile(r"^\[[A-Z]{2,30}(?:_[A-Z]{2,30}){1,6}\] (?=[A-Z])")
# Py4J's error for a call the JVM refused, with the Java exception's words after "Trace:" ("An error occurred while
# calling o91.getQueryContext. Trace: py4j.Py4JException: Method getQueryContext([]) does not exist"), which a post
# may show as the Java trace alone: Py4JError, by the Java exception's words, without the object's number or frames
_PY4J_TRACE = re.compile(
    r"^An error occurred while calling [\w.$]{1,200}\. Trace:\s?py4j\.(?P<cls>Py4J\w{0,40}): (?P<msg>.{1,1000}?)"
    r"(?:\s?at py4j\..*)?$"
)


def spark_words(exc: str | None, message: str, frames: list[str]) -> Parts:
    """The ``spark`` rule: the worker's Python against the driver's without either release; a library's minimum by
    the library and whether it was missing or older; the Java gateway's exit and a class file's version without a
    release's words or a post's quotes."""
    if message.startswith("[") and (exc is None or exc.startswith("PySpark")):
        message = _ERROR_CLASS.sub("", message)
    if message.startswith("An error occurred while calling ") and (m := _PY4J_TRACE.match(message)):
        return exc, m["msg"], frames
    if exc == "Py4JException":  # (the Java side's class, which Py4J raises in Python as Py4JError)
        exc = "Py4JError"
    if _WORKER_PYTHON in message:
        return exc, "PySpark: Python in worker has a different minor version than that in driver", frames
    if " must be installed" in message and (m := _MINIMUM.match(message)):
        lib = "PyArrow" if m["lib"].lower() == "pyarrow" else "pandas"
        how = "it was not found" if m["how"] == "it was not found" else "your version was older"
        return exc, f"{lib} >= <version> must be installed; however, {how}", frames
    if message.startswith("Java gateway process exited"):
        return exc, _GATEWAY.sub("Java gateway process exited before sending its port number", message), frames
    if "Unsupported class file major version" in message:
        return exc, message.strip("'\""), frames
    return exc, message, frames


SPARK_CHECKS: list[BareError] = [
    # the worker's Python against the driver's, and the gateway's exit, posted without a class ("Python in worker has
    # different version 2.7 than that in driver 3.6, PySpark cannot run with different minor versions.",
    # "`[JAVA_GATEWAY_EXITED] Java gateway process exited before sending its port number.`"): PySpark's environment
    environment_check(
        "pyspark-environment",
        ("Python in worker has different version", "Java gateway process exited"),
        r"(?:^|[\s`'\"])(?:\[JAVA_GATEWAY_EXITED\] )?(?P<msg>Python in worker has different version \S{1,12} than that "
        r"in driver \S{1,12}?,? PySpark cannot run with different minor versions|Java gateway process exited before "
        r"sending (?:the driver )?its port number)",
        None,
    ),
]
