"""What a log says of its failure in words no recogniser knows, read when none of them found one: the last line that
says it is an error, or names an exception inside a sentence, and the last warning of any class. Pure."""

from __future__ import annotations

import re
from itertools import takewhile

from canary.record import Signature
from canary.signature import kinds
from canary.signature.bare_message import DANGLING, bare_message
from canary.signature.deprecations import ANY_WARNING
from canary.signature.identity import make
from canary.signature.infra import infrastructure_reason
from canary.signature.masks import canonical_class
from canary.signature.quoting import quoted
from canary.signature.tracebacks import RUNNER_END

# A line that says it is an error, in words no recogniser knows: "LLVM ERROR: ...", "error: ...",
# "Fatal error: ...", ERROR with a full-width colon, a CUDA or HIP error code ("hipErrorNoBinaryForGpu: ..."),
# TensorFlow's "... handling error Internal: ...". Only the word itself ("dlerror:" is a function's name),
# and only before words ("error: 0.12" is a metric).
_SAYS_ERROR = re.compile(
    r"(?:(?<![\w-])(?:[A-Z][A-Za-z]{1,20} )?(?:ERROR|FATAL|[Ee]rror|[Ff]atal error)\s?[:\uff1a]"
    r"|\b(?:cuda|hip|cu|nccl)Error[A-Z]\w{1,60}:"
    r"|\berror (?=(?:Internal|Invalid argument|Not found|Unknown|Failed precondition|Resource exhausted"
    r"|Unavailable|Aborted|Unimplemented|Permission denied|Data loss):))"
    r"(?=\s{0,4}[\"'\u201c`]?[A-Za-z])"
)
_ERROR_WORD = re.compile(r"^(?:[Ee]rror|ERROR):\s{0,4}")
_NAMED = re.compile(r"(?<![\w.])(?P<cls>[A-Za-z_][\w.]{0,200}(?:Error|Exception)): (?P<msg>\S.{0,2000})$")
# an exception named inside a sentence, its message up to the sentence's end
# (after a blank, a quote, a parenthesis, a bracket, "Failed: [undefined]ModuleNotFoundError: ...", or after a CJK
# sentence that runs into it: "还是报错RuntimeError: ..."; a .NET class's namespace, "System.IO.IOException: ...", or a
# Python module's, "`botocore.exceptions.NoCredentialsError: ...`"; a line, a closing quote or parenthesis may end it;
# a message may mark its own code spans, "`NotImplementedError: Support for `validation_epoch_end` has been removed",
# open with a path, "ImportError: /home/x/ext.so: undefined symbol: ...", or in lower case, as Python's
# own do, "... the issue \"AttributeError: jax.tree_map was removed in JAX v0.6.0: ...\""; an OSError's errno
# first, "`FileExistsError: [Errno 17] File exists: '/000002_locals'`"; after a colon a post ran it onto, "issue:X:")
_IN_PROSE = re.compile(
    r"(?<=[\s`(\"'*:\]\u3000-\u9fff\uff00-\uffef])(?P<cls>(?:[a-z_]\w{0,60}\.){0,6}[A-Z][\w.]{0,100}(?:Error|Exception)):"
    r" {1,3}(?P<msg>(?:\[Errno \d{1,4}\] )?(?:[\w/<~'\"]|`[^`\s][^`]{0,100}`(?=\s))"
    r"(?:[^.!?`*]|[.!?](?![\s`)*]|$)|(?<=\s)`[^`\s][^`]{0,100}`(?=[\s.,;:])){5,300}"
    r"(?:[.!?](?=[\s`)*]|$)|(?=[`*])|$))"
)
_ERROR_SAID_WITHIN = 60  # the last lines of output a post's failure is in
# a CI runner's end of a failed step ("Error: Process completed with exit code 2."), which names nothing a line above
# it says
_RUNNER_END = re.compile("^" + RUNNER_END)


_WARNING_LINES = 1  # the line a warning's message may be wrapped onto
_AFTERWORD = "Enable tracemalloc to get the object allocation traceback"


def any_warning(lines: list[str]) -> Signature | None:
    """The last warning of any class Python's warnings module printed, read after every other reader found nothing:
    a run goes on after a warning, so it names a failure only when nothing else in the log does."""
    info = getattr(lines, "info", ())
    for i in range(len(lines) - 1, -1, -1):
        m = ANY_WARNING.match(lines[i].strip()) if i not in info else None
        if m and ANY_WARNING.message(m).startswith(_AFTERWORD):
            continue  # (Python's afterword to the warning above it, a coroutine never awaited or a resource left open)
        if m:
            cls, msg = ANY_WARNING.exception_of(m), ANY_WARNING.message(m)
            if not msg:  # (its message begins on the next line)
                msg = next((s for line in lines[i + 1 : i + 3] if (s := line.strip())), "")
            if DANGLING.search(msg):  # (a message a terminal wrapped after a word no sentence ends on)
                msg = bare_message(lines, i, msg, _WARNING_LINES)
            elif msg.endswith(
                ":"
            ):  # (a list below it, pydantic 2's "Valid config keys have changed in V2:" and "* ...")
                below = (line.strip() for line in lines[i + 1 : i + 1 + _WARNING_LINES])
                msg = " ".join([msg, *takewhile(lambda s: s.startswith(("* ", "- ")), below)])
            return make(ANY_WARNING.kind_of(f"{cls}: {msg}"), cls, msg, [], "\n".join(lines[i : i + 10]))
    return None


def error_said(lines: list[str]) -> tuple[int, Signature] | None:
    """The last line of the log's end that says it is an error, or names an exception inside a
    sentence, when nothing the recognisers know names the failure: a wording met for the first time
    is still a failure found, named by its words (by the exception, where they name one)."""
    info = getattr(lines, "info", ())
    seen = 0
    for i in range(len(lines) - 1, -1, -1):
        s = lines[i].strip()
        if not s:
            continue
        seen += 1
        if seen > _ERROR_SAID_WITHIN:
            break
        if i in info:
            continue
        m = _SAYS_ERROR.search(s)
        raw = bare_message(lines, i, s[m.start() :].lstrip(" \"'\u201c\u201d`"), 0) if m else ""
        # "error : AttributeError: ...", or "... throws ValueError: Please provide a TPU Name. even with ..."
        named = _NAMED.search(raw) if m else _IN_PROSE.search(s)
        if named and not m and named["msg"].startswith("[Errno") and s[named.start() - 1] not in "`'\"":
            named = None  # (an errno's message is read in prose only where the post quotes it: a tagged line is not)
        if not (m or named):
            continue
        if _RUNNER_END.match(s) and (above := error_said(lines[:i])) is not None:
            return above
        excerpt = "\n".join(lines[max(0, i - 3) : i + 10])
        if named:
            msg = quoted(raw if m else s, named.start(), named["msg"])
            cls = canonical_class(named["cls"], msg)
            return i, make(kinds.kind_of(cls, msg, f"{cls}: {msg}", []), cls, msg, [], excerpt)
        # (words only one class says, after the line's own "Error: ": "❌ Error: Your default credentials were not
        # found")
        inner = _ERROR_WORD.sub("", raw, count=1)
        if (cls := kinds.words_class(inner)) is not None:
            return i, make(kinds.kind_of(cls, inner, f"{cls}: {inner}", []), cls, inner, [], excerpt)
        kind = kinds.kind_of("", raw, raw, [])
        # (an infrastructure failure is named by what happened, as when nothing else in the log names it)
        return i, make(kind, None, infrastructure_reason(raw) or raw if kind == "infrastructure" else raw, [], excerpt)
    return None
