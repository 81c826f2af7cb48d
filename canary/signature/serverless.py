"""AWS Lambda's runtime reporting a handler it could not import, and Azure Functions' host reporting a function's
exception. Pure.

The Python runtime wraps the import's error in its own ("[ERROR] Runtime.ImportModuleError: Unable to import module
'handler': cannot import name 'DEFAULT_CIPHERS' from 'urllib3.util.ssl_' (/var/task/urllib3/util/ssl_.py)", its
traceback's first line run onto it in CloudWatch; a console shows the words without the class). The import's error is
the failure, under the runtime's class; the handler's module and where the package was unpacked are the function's.
"""

from __future__ import annotations

import re

from canary.signature.recogniser import BareError
from canary.signature.rewordings import Parts

_UNABLE = re.compile(
    r"^Unable to import module '[\w.]{1,200}': (?P<inner>.{1,2000}?)(?: Traceback \(most recent call last\):?)?$"
)
_WHERE = re.compile(r"^(cannot import name '[\w.]{1,200}' from '[\w.]{1,200}') \([^)]{1,500}\)$")


def lambda_words(exc: str | None, message: str, frames: list[str]) -> Parts:
    """The ``lambda`` rule: the runtime's import error by the error it wraps, without the handler or its path."""
    if message.startswith("Unable to import module '") and (m := _UNABLE.match(message)):
        message = _WHERE.sub(r"\1", m["inner"])
    return exc, message, frames


# Azure Functions' host reports a function's exception as "Result: Failure", "Exception: <class>: <message>" and
# "Stack: <traceback>", which a portal's copy runs onto one line: the traceback is the worker's, not the message's
_STACK = re.compile(r" Stack: {1,4}File \".*$")


def functions_words(exc: str | None, message: str, frames: list[str]) -> Parts:
    """The ``azure-functions`` rule: the exception's message without the host's stack run onto it."""
    return exc, _STACK.sub("", message) if " Stack: " in message else message, frames


LAMBDA_ERRORS: list[BareError] = [
    BareError(
        "lambda-import",
        ("Unable to import module '",),
        re.compile(
            r"^(?:\[ERROR\] )?(?:Runtime\.ImportModuleError: )?"
            r"(?P<msg>Unable to import module '[\w.]{1,200}': .{1,2000})$"
        ),
        "ImportModuleError",
    ),
]
