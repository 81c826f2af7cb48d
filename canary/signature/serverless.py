"""AWS Lambda's runtime reporting a handler it could not import, and Azure Functions' host reporting a function's
exception. Pure.

The Python runtime wraps the import's error in its own ("[ERROR] Runtime.ImportModuleError: Unable to import module
'handler': cannot import name 'DEFAULT_CIPHERS' from 'urllib3.util.ssl_' (/var/task/urllib3/util/ssl_.py)", its
traceback's first line run onto it in CloudWatch; a console shows the words without the class). The import's error is
the failure, under the class its words say (a traceback of the same import names it); the handler's module and where
the package was unpacked are the function's. Any other exception a handler raised reaches its caller as JSON, its class
in "errorType" and its words in the "errorMessage" beside it.
"""

from __future__ import annotations

import re

from canary.signature.recogniser import BareError
from canary.signature.rewordings import Parts

_UNABLE = re.compile(
    r"^Unable to import module '[\w.]{1,200}': (?P<inner>.{1,2000}?)(?: Traceback \(most recent call last\):?)?$"
)
_WHERE = re.compile(r"^(cannot import name '[\w.]{1,200}' from '[\w.]{1,200}') \([^)]{1,500}\)$")


# the class an import's error has, where its words say it (the runtime names none of its own)
_WRAPPED = (("cannot import name ", "ImportError"), ("No module named ", "ModuleNotFoundError"))


def lambda_words(exc: str | None, message: str, frames: list[str]) -> Parts:
    """The ``lambda`` rule: the runtime's import error by the error it wraps, without the handler or its path, under
    the class its words say it has (a traceback of the same import names that class)."""
    if message.startswith("Unable to import module '") and (m := _UNABLE.match(message)):
        message = _WHERE.sub(r"\1", m["inner"])
        exc = next((cls for head, cls in _WRAPPED if message.startswith(head)), exc)
    return exc, message, frames


def _json_rest(lines: list[str], i: int, message: str) -> str:
    """The rest of a JSON string a console wrapped onto the next line ("...: cannot import name \\n'X' from ...",)."""
    if not lines[i].rstrip().endswith(('"', '",')) and i + 1 < len(lines) and (m := _REST.match(lines[i + 1])):
        return f"{message} {m[1]}"
    return message


_REST = re.compile(r'^\s{0,20}([^"]{1,500})",?\s*$')
_ERROR_MESSAGE = re.compile(r'^\s{0,20}"errorMessage": "(?P<msg>(?:[^"\\]|\\.){0,2000})",?\s*$')
_NEAR = 3  # the lines around the errorType its errorMessage is looked for in


def _error_message(lines: list[str], i: int, message: str) -> str:
    """The errorMessage beside an errorType in the JSON the runtime returns, unescaped, its last newline left out."""
    for line in (*lines[max(0, i - _NEAR) : i], *lines[i + 1 : i + 1 + _NEAR]):
        if (m := _ERROR_MESSAGE.match(line)) is not None:
            said = m["msg"].replace('\\"', '"')
            return said[:-2] if said.endswith("\\n") else said
    return message


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
    # the same in the JSON the runtime returns to the caller ("errorMessage": "Unable to import module ..."), a
    # console's wrap inside the string undone
    BareError(
        "lambda-import-json",
        ('"errorMessage": "Unable to import module \'',),
        re.compile(r'^"errorMessage": "(?P<msg>Unable to import module \'[\w.]{1,200}\': [^"]{1,2000}?)(?:",?)?$'),
        "ImportModuleError",
        below=_json_rest,
    ),
    # any other exception a handler raised, in the same JSON: its class by errorType, its words by the errorMessage
    # beside it ("errorMessage": "PdfFileReader is deprecated ...", "errorType": "DeprecationError")
    BareError(
        "lambda-error-json",
        ('"errorType": "',),
        re.compile(r'^"errorType": "(?!Runtime\.)(?:[\w]{1,100}\.){0,6}(?P<cls>[A-Za-z_]\w{0,100})",?$'),
        lambda m: m["cls"],
        message=lambda m: "",
        below=_error_message,
    ),
]
