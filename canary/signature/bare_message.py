"""A bare error's whole message: its line and the lines a terminal, a logger or a post cut it into, up to where the
message ends (a finished sentence, a blank line, the next error, a stack or a progress bar). Pure."""

from __future__ import annotations

import re
from collections.abc import Iterator

from canary.signature import bare
from canary.signature.infra import INFRA_TEXT
from canary.signature.tracebacks import _MESSAGE_END, detail_after

_SENTENCE_END = (".", "!", "?", ")", "]")
# jax's report of a CUDA component under its finished sentence ("Outdated cuSPARSE installation found."):
# the versions that say which way it is outdated belong to the message
# Lines a message carries on its own lines: the versions jax's cuDNN check compares, the function a tracer met, the
# GPUs Lightning found where it was asked for others
_VERSION_REPORT = re.compile(
    r"^(?:(?:Version JAX was built against|Minimum supported|Installed version): \d{1,8}"
    r"|The problem arose with the `\w{1,20}` function\.?"
    r"|But your machine only has: \[[\d, ]{0,100}\])$"
)
# Lines that end a bare error's message (what XLA appends to an out-of-memory error, a C++ stack).
_BARE_END = re.compile(
    r"^(?:BufferAssignment OOM Debugging|\*\*\* (?:Begin stack trace|Check failure stack trace)|"
    r"terminate called after|Aborted(?: \(core dumped\))?$|"
    r"\S{1,300}: line \d{1,6}: {1,4}\d{1,10} (?:Aborted|Killed|Segmentation fault)\b|"  # (bash's job line, a pid)
    r"Traceback(?: \(most recent call last\)|:$)|https?://|\*\*\* SIG|"  # (Streamlit's "Traceback:" below its error)
    r"(?:\[notice\]|Notice:)\s{1,4}A new release of pip|"  # (pip's notice after its error)
    r"at (?:async )?\S.{0,300}:\d{1,7}:\d{1,7}\)?$|"  # (Node.js's stack under its error: "at /x/a.js:46:21")
    r"(?:FAILED|ERROR)(?: |$)|"  # (pytest's next summary record, or a post cut after its first word)
    r"Error: |"  # (another error's line: GitHub Actions' "Error: ..." annotations, github-script's "Error: Unhandled")
    r".{0,200}?\b\d{1,3}%\|)"  # (a progress bar, tqdm's "Image 1 of 1: :   0%|", is the program going on)
)


def _readers(line: str) -> Iterator[bare.BareError]:
    """The bare-error readers that read ``line``, in their order."""
    return (b for b in bare.BARE_ERRORS if b.match(line))


# a head whose message goes on below it: the loader's extension above its symbol, Mosaic's head above its error, torch's
# "Error(s) in loading state_dict for Model:" above its mismatches, numba's driver above cuInit's error, Triton's
# "Internal Triton PTX codegen error:" above ptxas' output, a DataLoader worker's signal wrapped after its colon
GOES_ON_BELOW = re.compile(
    r"(?:\.so:|Mosaic failed to compile TPU kernel:|loading state_dict for [\w.]{1,200}:|Error at driver init:|"
    r"PTX codegen error:|is killed by signal:)$"
)


# a statement of Python's source, as a traceback prints it under a frame: "self.pid = os.fork()", "return f(x)"
_SOURCE = re.compile(
    r"^(?:[\w.]{1,100}(?:\[[^\]]{0,100}\])?\s{0,4}=\s{0,4}[\w.]{1,100}\(|(?:return|raise|yield|await) )"
)
DANGLING = re.compile(r"\b(?:cannot|can't|not|to|the|an?|of|for|and|or|with|in|on|by|from|at|is|are|was|be)$")


def bare_message(lines: list[str], i: int, first: str, context: int) -> str:
    """A bare error's message: its line and the lines that continue it (up to ``context``): a
    message wrapped mid-sentence goes on; a finished sentence, a blank line or the next error ends it."""
    parts = [first]
    records = getattr(lines, "records", ())
    for k, line in enumerate(lines[i + 1 : i + 1 + context], start=i + 1):
        s = line.strip()
        if _VERSION_REPORT.match(s):
            parts.append(s)
            continue
        if not s and (detail := detail_after(lines, k, " ".join(parts))) is not None:
            parts.append(lines[detail].strip())
            break
        if (
            not s
            or k in records
            or parts[-1].rstrip().endswith(_SENTENCE_END)
            or parts[-1].rstrip().rstrip('`"*').endswith((".", "!", "?"))  # (a sentence a code span or quote closes)
            or _MESSAGE_END.match(s)
            or _BARE_END.match(s)
            or s.startswith("File ")
            or (line.startswith("    ") and _SOURCE.match(s))  # (a traceback's source line under it)
            or INFRA_TEXT.match(s)
        ):
            break
        # the next error, not this one's continuation: a line whose first reader begins another (a response body's
        # line, a gRPC repr's details, is the error's; a head whose message goes on below it keeps it)
        # (nor is a line after a word no sentence ends on: "...: cannot" above "open shared object file: ...")
        below = GOES_ON_BELOW.search(parts[-1].rstrip()) or DANGLING.search(parts[-1].rstrip())
        first = None if below else next(_readers(s), None)
        if first is not None and not first.continues:
            break
        parts.append(s)
    return " ".join(parts)
