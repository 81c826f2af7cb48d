"""A message a post quotes inside its prose: where the code span, the quotes or the parentheses it opened around the
message close; a class a sentence names in a code span; a raise statement without the exception under it. Pure."""

from __future__ import annotations

import re

from canary.signature.masks import canonical_class
from canary.signature.recogniser import BareError


def span_close(message: str) -> int:
    """Where a code span a post opened before the message closes: its first backtick that opens none of the spans the
    message marks itself ("`NotImplementedError: Support for `validation_epoch_end` has been removed ...`", a
    backtick at its start or after a blank and before a word, and the one after it); the message's end where none is
    left."""
    ticks = [k for k, c in enumerate(message) if c == "`"]
    i = 0
    while i < len(ticks):
        k = ticks[i]
        if i + 1 < len(ticks) and (not k or message[k - 1] == " ") and message[k + 1 : k + 2].strip(" .,;:"):
            i += 2
            continue
        return k
    return len(message)


_OPENED_BEFORE_SPACE = re.compile(r"(?:^|\s)[\"'] +$")


def quoted(line: str, start: int, message: str) -> str:
    """A message quoted in backticks in prose ("I receive `RESOURCE_EXHAUSTED: ...` errors") ends
    at its closing backtick (also one whose opening backtick is lines above); one in parentheses ("this
    error (XlaRuntimeError: ...) every time"), at the parenthesis that closes the one open before it."""
    if message.endswith("```"):
        message = message[:-3].rstrip()  # a fence closed on the message's line
    elif message.endswith("``") and message.count("``") % 2 == 1:
        message = message[:-2].rstrip()  # a double-backtick code span, opened at the class
    if line[:start].replace("```", "").count("`") % 2 == 1 and "`" in message:
        return message[: span_close(message)]
    if message.endswith("`") and message.count("`") % 2 == 1:
        return message[:-1]  # the close of a code span a post opened lines above
    q = line[start - 1] if start else ""
    if q == " " and _OPENED_BEFORE_SPACE.search(line, 0, start):
        q = line[:start].rstrip()[-1]  # (the quote it opened after, a space between them: 'this error " ValueError')
    if q and q in "\"'" and message.endswith(q):
        return message[:-1]  # the quote that closes the one it opened after
    if q == '"' and '"' in message:
        return message[: message.index('"')]  # (and the sentence the post goes on with after it)
    if ")" in message and line.count("(", 0, start) > line.count(")", 0, start):
        depth = 0
        for k, c in enumerate(message):
            depth += (c == "(") - (c == ")")
            if depth < 0:
                return message[:k]
    return message


# a class printed by its repr before its message, as a program's handler prints type(e) and e ("<class
# 'ssl.SSLCertVerificationError'>：[SSL: CERTIFICATE_VERIFY_FAILED] ...", a full-width colon kept): that exception
CLASS_REPR = BareError(
    "class-repr",
    ("<class '",),
    re.compile(r"<class '(?P<cls>[\w.]{1,200}(?:Error|Exception|Warning))'>\s?[:：]\s?(?P<msg>\S.{0,2000})$"),
    lambda m: canonical_class(m["cls"]),
)


# a class named by its module's path alone in a code span of a sentence, no message after it ("the following error
# is raised: `jax._src.traceback_util.UnfilteredStackTrace: jax._src.errors.UnexpectedTracerError`."), jax's
# wrapper of its traceback before it: the class is all the post says of the failure, read when nothing else is
CODE_SPAN_CLASS = BareError(
    "class-in-code-span",
    ("Error`", "Exception`"),
    re.compile(
        r"`(?:[\w.]{0,100}(?:Unfiltered|Filtered)StackTrace: `?)?"
        r"(?P<cls>[a-z_]\w{0,60}(?:\.\w{1,60}){1,8}\.[A-Z]\w{0,100}(?:Error|Exception))`"
    ),
    lambda m: canonical_class(m["cls"]),
    message=lambda m: "",
    weak=True,
)


# a raise statement a post gives without the exception line under it ("raise AttributeError('SyncBatchNorm is only
# supported within torch.nn.parallel.DistributedDataParallel')"), its message a string literal: that exception, read
# when nothing else is
RAISE_LINE = BareError(
    "raise-line",
    ("raise ",),
    re.compile(
        r"^ {0,12}raise (?P<cls>[A-Z]\w{0,60}(?:Error|Exception))\((?P<q>['\"])(?P<msg>[^'\"{}%]{5,300})(?P=q)\) ?$"
    ),
    lambda m: canonical_class(m["cls"]),
    weak=True,
)
