"""What a paste did to a whole log, undone before its lines are read. Pure.

A log copied out of a web page, a list item or a log viewer carries marks on every line that the
program never printed: the page's HTML entities (``&lt;module&gt;``) and non-breaking spaces, the
list item's indentation, and a viewer's tag (``[trainer] ``, ``12:34:56 ``, ``job-0 | ``). The
decorations :mod:`canary.signature.lines` knows by name are its own; this module finds one it has
never seen by its being on (nearly) every line: one failure pasted with and without it then reads
as the same lines.
"""

from __future__ import annotations

import html
import re
from collections import Counter
from collections.abc import Callable

MIN_LINES = 3  # a tag is told from text on this many lines; on two, only one that holds a mark of a tag
_MARKED = re.compile(r"[\[\]()|<>]|\d")  # a bracket, a pipe, a number: a tag's, not a sentence's
SHARE = 0.9  # of the non-blank lines that must begin with it
_SENTENCE = re.compile(r"[A-Za-z][.!?][ \t]*$")  # a tag is a name, a clock, a number: it ends no sentence
SAMPLE = 200  # the lines a tag is looked for on, evenly spread over a long log
MIN_REFLOW = 60  # the narrowest word wrap undone (a tracker's 80 columns, a mail's 72)
MAX_TOKENS = 24  # the longest tag looked for, in tokens (a digit run, a space run, or a character)

_ANSI = re.compile(r"\x1b\[[0-9;?]{0,20}[A-Za-z]")
# A typesetter's characters, as the program printed them: curly quotes straight, non-breaking spaces
# plain, zero-width spaces and joiners and a byte order mark gone
_TYPESET = str.maketrans(
    {"\u2018": "'", "\u2019": "'", "\u201c": '"', "\u201d": '"', "\u00a0": " "}
    | dict.fromkeys("\u200b\u200c\u200d\u2060\ufeff")
)
_TYPESET_CHARS = re.compile("[\u2018\u2019\u201c\u201d\u00a0\u200b\u200c\u200d\u2060\ufeff]")
_MD_ESCAPE = re.compile(r"\\([_*#\[\]<>`])")  # markdown's escapes of its own marks
_ENTITY = re.compile(r"&(?:lt|gt|amp|quot|apos|#\d{1,5}|#x[0-9a-fA-F]{1,4});")
# A tag's tokens: a run of digits (a clock, a pid, a worker's number: the same tag whatever they
# are), a run of blanks, or one other character
_TOKEN = re.compile(r"\d+|[ \t]+|.")
# What a tag never holds: the words that name a failure (three lines that all begin with one exception's
# class, or one status, are three failures, not a tag)
_SPOKEN = re.compile(
    # (and apt's severity before its words: "E: Failed to fetch ..." on every line is apt's errors, not a tag; the GPU
    # driver's "NVRM: Xid (PCI:...): 45, ..." on every line is its faults)
    r"Error|Exception|Warning|Traceback|Fatal|Check failed|File |\bWARN\b|\bERROR\b|\bNCCL\b|(?:^|\s)[EW]: |\bXid |"
    r"\b(?:[A-Z]{2,}_[A-Z_]{2,}|ABORTED|CANCELLED|INTERNAL|UNKNOWN|UNAVAILABLE|UNIMPLEMENTED|UNAUTHENTICATED): "
    r"|^[ \t]*at[ \t]+$"  # (and a JVM's or Node's stack frames, each "at ...", which read as such)
)


_AUTOLINK = re.compile(r"\[([^\]\s]{1,300})\]\(https?://\1/?\)")
# (a whole line made a link to a page about it, in a code span or not: "`[ImportError: ...](https://stackoverflow...)`")
_LINK_LINE = re.compile(r"^(`?)\[(?P<text>[^\[\]]{1,2000})\]\(https?://[^\s()]{1,2000}\)\1$")
# (a path an editor's notebook made a link to the file: "[/x/jaxtyping/_decorator.py:71](https://vscode-remote...)")
_PATH_LINK = re.compile(r"\[(?P<path>(?:[A-Za-z]:)?[/\\~][^\[\]\s]{1,500})\]\(https?://[^\s()]{1,2000}\)")
# (a digit GitHub's log view linked to the step's line: "Ubuntu [2](https://github.com/.../job/2#step:3:2)4.04")
_STEP_LINK = re.compile(r"\[(\d{1,6})\]\(https://github\.com/[^\s()]{1,300}/job/\d{1,20}#step:\d{1,6}:\d{1,9}\)")


def _unlinked(line: str) -> str:
    return _LINK_LINE.sub(r"\g<text>", _PATH_LINK.sub(r"\g<path>", _AUTOLINK.sub(r"\1", _STEP_LINK.sub(r"\1", line))))


def unpage(raw: list[str]) -> list[str]:
    """``raw``'s lines without what the paste added (before a terminal's folds are undone): blanks at their ends (a
    terminal's padding, a page's), a page's colour codes, HTML entities, typographer's quotes, non-breaking and
    zero-width spaces and byte order mark, a URL's encoded spaces, a name linked to itself, a path linked to its file, a
    line made a link, markdown's escapes where every ``_`` is escaped, inline code around each line, a blank line after
    every line (a double-spaced copy), a markdown quote around a block that keeps its indentation, and the indentation
    every line shares."""
    raw = [(_ANSI.sub("", line) if "\x1b" in line else line).rstrip() for line in raw]
    if any("&" in line and _ENTITY.search(line) for line in raw):
        raw = [html.unescape(line) if "&" in line else line for line in raw]
    raw = [line.translate(_TYPESET) if _TYPESET_CHARS.search(line) else line for line in raw]
    # (a line copied out of a URL, its spaces percent-encoded: "libtorch_cuda.so:%20undefined%20symbol:%20...")
    raw = [line.replace("%20", " ") if line.count("%20") >= 2 and " " not in line else line for line in raw]
    # (a file's name GitHub made a link of, its text its own URL: "[flash_attn_2_cuda.so](http://flash_attn_2_cuda.so/)")
    raw = [_unlinked(line) if "](http" in line else line for line in raw]
    escaped = sum(line.count("\\_") for line in raw)
    if escaped >= 2 and escaped >= SHARE * sum(line.count("_") for line in raw):
        raw = [_MD_ESCAPE.sub(r"\1", line) if "\\" in line else line for line in raw]
    raw = [_EMPHASIS.sub(r"\g<inner>", line) if line[:1] in "*_" and line[-1:] in "*_" else line for line in raw]
    raw = _unemphasised(raw)
    spans = sum(bool(_CODE_SPAN.match(line)) for line in raw)
    if spans >= MIN_LINES and spans >= SHARE * sum(bool(line.strip()) for line in raw):
        raw = [m["inner"] if (m := _CODE_SPAN.match(line)) else line for line in raw]
    if any('"name": "' in line for line in raw[:50]):
        raw = _notebook_error(raw)
    if any("**Exception Type:**" in line for line in raw):
        raw = _error_report(raw)
    return _dedent(_single_spaced(_unquoted(raw)))


def _unemphasised(raw: list[str]) -> list[str]:
    """``raw`` without markdown's italics around a whole block: a ``_`` that opens its first line and one that closes
    its last (a post that set the log it pasted in italics: "_DEBUG: ..." down to "...})_")."""
    ends = [i for i, line in enumerate(raw) if line.strip()]
    if len(ends) < 2:
        return raw
    first, last = raw[ends[0]], raw[ends[-1]]
    if not (first.startswith("_") and first[1:2].isalpha() and last.endswith("_") and last[-2:-1] not in "_ "):
        return raw
    out = list(raw)
    out[ends[0]], out[ends[-1]] = first[1:], last[:-1]
    return out


_QUOTE = re.compile(r"^> ?")


def _unquoted(raw: list[str]) -> list[str]:
    """``raw`` with a markdown quote taken off a quoted block of three lines or more that keeps its indentation
    (a traceback's "> " then "  File ...": the quote's prefix alone would take the indentation with it)."""
    out, i = list(raw), 0
    while i < len(out):
        j = i
        while j < len(out) and out[j].startswith(">"):
            j += 1
        if j - i >= 3 and any(line.startswith(">   ") for line in out[i:j]):
            out[i:j] = [_QUOTE.sub("", line) for line in out[i:j]]
        i = j + 1
    return out


# markdown's inline code around each line of a block ("`*** Error in './test.testbin': double free or corruption ...`"),
# one span a line: the program printed what is inside
_CODE_SPAN = re.compile(r"^\s{0,8}`(?!`)(?P<inner>[^`]{1,2000})`$")


# markdown's emphasis around a whole line that says what failed: "**cupy_backends...CUDARuntimeError: ...**",
# "_RuntimeError: Unexpected error from cudaGetDeviceCount() ..._" (a message inside, so "__init__" stays)
# (bold and italic at once, "**_MisconfigurationException: ..._**", nests the two markers)
_EMPHASIS = re.compile(
    r"^(?:(?P<bi>\*\*_)|(?P<ib>_\*\*)|(?P<m>\*\*\*|\*\*|__|\*|_))(?![\s*_])(?P<inner>.{0,2000}?\S: .{0,2000}?)"
    r"(?<![\s*_])(?(bi)_\*\*|(?(ib)\*\*_|(?P=m)))$"
)


# A notebook's error as VS Code copies it, a JSON object ('"name": "FloatingPointError",', '"message": "invalid
# value ...', '"stack": "...'): its name and message are the exception's line Python printed
_NOTEBOOK_NAME = re.compile(r'^\s{0,8}"name": "([A-Za-z_][\w.]{0,200}(?:Error|Exception|Warning|Interrupt|Exit))",$')
_NOTEBOOK_MESSAGE = re.compile(r'^\s{0,8}"message": "(.{0,2000})$')


def _notebook_error(raw: list[str]) -> list[str]:
    for i, line in enumerate(raw[:50]):
        name = _NOTEBOOK_NAME.match(line)
        message = name and i + 1 < len(raw) and _NOTEBOOK_MESSAGE.match(raw[i + 1])
        if message:
            text, whole = message[1], message[1].endswith('",')
            # (a message whose string closes on its line is whole: the "stack" after it is not more of it)
            line = f"{name[1]}: {text[:-2] if whole else text}"
            return [*raw[:i], line, *([""] if whole else []), *raw[i + 2 :]]
    return raw


# ComfyUI's error report, as its users post it ("- **Exception Type:** RuntimeError", then "- **Exception Message:**
# torch._scaled_mm is only supported on ..."): the exception's line Python printed
_REPORT_TYPE = re.compile(r"^\s{0,8}-?\s{0,4}\*\*Exception Type:\*\*\s{1,8}([A-Za-z_][\w.]{0,200})\s*$")
_REPORT_MESSAGE = re.compile(r"^\s{0,8}-?\s{0,4}\*\*Exception Message:\*\*\s{1,8}(.{1,2000})$")


def _error_report(raw: list[str]) -> list[str]:
    for i, line in enumerate(raw[:-1]):
        kind = _REPORT_TYPE.match(line)
        message = kind and _REPORT_MESSAGE.match(raw[i + 1])
        if message:
            return [*raw[:i], f"{kind[1]}: {message[1].strip()}", "", *raw[i + 2 :]]
    return raw


def reflow(raw: list[str], known: Callable[[str], bool]) -> list[str]:
    """``raw`` (its tag taken off) with a word wrap at W columns undone (a tracker's plain text at 80,
    ``fold -s``): a line
    was broken there when the next line's first word would not have fitted after it, and that next
    line begins at its first column, not with a decoration ``known`` takes (a logger's next record),
    an exception's class or a traceback's header.
    Full lines mostly of exactly W are a terminal's folds, :func:`canary.signature.lines.unwrap`'s. A
    text is word-wrapped when its lines over half its widest are
    mostly (60%) full, within 12 columns of it, three or more, and 80% of those were broken so (a
    log's own lines are of every length); a traceback's source lines are indented, so a frame and
    its code are never one line."""
    widths = [len(line.rstrip()) for line in raw]
    width = max(widths, default=0)
    if width < MIN_REFLOW or len(raw) < 3:
        return raw
    broken = [
        i + 1 < len(raw)
        and widths[i] > 0
        and raw[i + 1][:1].strip() != ""
        and widths[i] + 1 + len(raw[i + 1].split(None, 1)[0]) > width
        and not known(raw[i + 1])
        and not _CLASS_LINE.match(raw[i + 1])
        and not raw[i + 1].startswith("Traceback")
        and raw[i + 1][:16] != raw[i][:16]  # (lines begun alike: one output's records, a compiler's errors)
        for i in range(len(raw))
    ]
    near = [i for i, n in enumerate(widths) if n >= width - 12 and i + 1 < len(raw)]
    long = sum(1 for n in widths if n > width // 2)
    if len(near) < 3 or len(near) < 0.6 * long or sum(broken[i] for i in near) < 0.8 * len(near):
        return raw
    if sum(1 for i in near if widths[i] == width) >= 0.5 * len(near):
        return raw  # most full lines of one width: a terminal's folds (lines.unwrap's), not a word wrap
    out: list[str] = []
    joining = False
    for line, wrap in zip(raw, broken, strict=True):
        if joining:
            out[-1] = out[-1].rstrip() + " " + line
        else:
            out.append(line)
        joining = wrap
    return out


def _single_spaced(raw: list[str]) -> list[str]:
    """``raw`` without the blank line a double-spaced copy put after every line (``\\r\\r\\n`` read as
    two line ends, a page's paragraphs): every other line blank, and a traceback's frames among the
    text lines (no traceback has a blank line between its frames; a message's paragraphs may)."""
    if len(raw) < 4 or any(raw[i].strip() for i in range(1, len(raw) - 1, 2)):
        return raw
    text = raw[::2]
    frames = sum(1 for line in text if line.lstrip().startswith('File "'))
    return text if frames >= 2 else raw


def untag(raw: list[str], known: Callable[[str], bool]) -> list[str]:
    """``raw``'s lines (a terminal's folds undone: a collector tags a line before a terminal folds
    it) without a tag that begins (nearly) every line and that ``known`` (a decoration
    :mod:`~canary.signature.lines` strips by name) does not already take."""
    tag = _tag(raw, known)
    if tag is None:
        return raw
    return [line[m.end() :] if (m := tag.match(line)) else line for line in raw]


def _dedent(raw: list[str]) -> list[str]:
    """The lines without the leading blanks every non-blank line has (a list item's, a quote's)."""
    indents = [line[: len(line) - len(line.lstrip(" \t"))] for line in raw if line.strip()]
    if not indents or not (common := min(indents, key=len)) or any(not i.startswith(common) for i in indents):
        return raw
    n = len(common)
    return [line[n:] if line.strip() else line.strip(" \t") for line in raw]


def _tag(raw: list[str], known: Callable[[str], bool]) -> re.Pattern[str] | None:
    """The tag (nearly) every non-blank line begins with, as a pattern that takes it off: the
    longest run of tokens SHARE of them share, cut after a blank (a tag is a word apart from what
    follows it); digit runs in it match any digits. None when there is none, when it is a decoration
    ``known`` takes, or when it holds a failure's words."""
    lines = [line.lstrip(" \t") + " " for line in raw if line.strip()]  # right-aligned tags: "  9 " and " 10 "
    if len(lines) > SAMPLE:  # a tag on nearly every line is on nearly every line of an even sample
        lines = lines[:: -(-len(lines) // SAMPLE)]
    if len(set(lines)) < 2:
        return None  # (one line, or one line repeated, is the log's words whatever it begins with)
    need = SHARE * len(lines)
    if Counter("0" if line[0].isdigit() else line[0] for line in lines).most_common(1)[0][1] < need:
        return None  # most logs: no first character on nearly every line
    tokens, widths = zip(*(_tokens(line) for line in lines), strict=True)
    prefix: list[str] = []
    blanks: dict[int, int] = {}
    alive = list(range(len(lines)))
    for depth in range(MAX_TOKENS):
        votes = Counter(tokens[i][depth] for i in alive if len(tokens[i]) > depth)
        if not votes:
            break
        token, count = votes.most_common(1)[0]
        if count < need:
            break
        prefix.append(token)
        alive = [i for i in alive if len(tokens[i]) > depth and tokens[i][depth] == token]
        if token == " ":  # the tag's own blanks are as many as the fewest of them on a line that goes on
            going = [widths[i][depth] for i in alive if len(tokens[i]) > depth + 1]
            blanks[len(prefix)] = min(going or [widths[i][depth] for i in alive])
    sample = lines[alive[0]] if alive else lines[0]
    if not prefix or prefix[0] in (" ", "{"):
        return None  # (a record that is a dict, the Trainer's "{'loss': 0.0, ...", is the log's words)
    # cut after a blank: the longest such cut, or the first after which a known decoration begins
    # (a logger's record prefix after the tag stays, for lines to read the record by)
    cut = None
    for n in range(2, len(prefix) + 1):
        if prefix[n - 1] != " ":
            continue
        cut = _pattern(prefix[:n], blanks[n])
        m = cut.match(sample)
        if m is None or known(sample[m.end() :]):
            break
    if cut is None or (m := cut.match(sample)) is None or known(sample) or _SPOKEN.search(m.group()):
        return None
    if _SENTENCE.search(m.group()):
        return None  # a sentence every line begins with (a warning logged at each step) is the log's words, not a tag
    if len(lines) < MIN_LINES and not _MARKED.search(m.group()):
        return None
    return cut


def _pattern(tokens: list[str], last: int) -> re.Pattern[str]:
    """The tag's tokens as a pattern: blanks before it (a right-aligned tag's), digits any digits,
    blanks any blanks but the last run, which is ``last`` blanks (those after it are the line's own
    indentation)."""
    body = "".join(r"\d+" if t == "0" else r"[ \t]+" if t == " " else re.escape(t) for t in tokens[:-1])
    return re.compile("[ \t]*" + body + "(?:[ \t]{" + str(last) + "}|[ \t]*$)")


def _tokens(line: str) -> tuple[list[str], list[int]]:
    """The first MAX_TOKENS tokens of ``line`` (digit runs as ``0``, blank runs as `` ``) and their lengths."""
    out: list[str] = []
    widths: list[int] = []
    for m in _TOKEN.finditer(line):
        t = m.group()
        out.append("0" if t[0].isdigit() else " " if t[0] in " \t" else t)
        widths.append(len(t))
        if len(out) == MAX_TOKENS:
            break
    return out, widths


# A traceback a relay printed without its indentation (alphafold's run_docker.py logs each line of the
# container's output stripped): its frames at the line's start, each source line under its frame
_FLAT_FRAME = re.compile(r'^File "[^"]+", line \d+, in \S')
_RAISED = re.compile(r"^[\w.]*(?:Error|Exception|Exit|Interrupt|Warning)\b")


def reindent(lines: list[str]) -> None:
    """Indent, in place, the frames of a traceback printed without its indentation as Python does
    (``  File ...``), and the source line under each (``    code``): a line after a frame that is
    not a frame, an exception's line or a traceback's end."""
    if not any(line.startswith('File "') for line in lines):
        return
    for i, line in enumerate(lines):
        if not _FLAT_FRAME.match(line):
            continue
        lines[i] = "  " + line
        nxt = lines[i + 1] if i + 1 < len(lines) else ""
        if nxt.strip() and not nxt[0].isspace() and not _FLAT_FRAME.match(nxt) and not _RAISED.match(nxt):
            if i + 2 < len(lines):  # (the last line of a log is its exception's)
                lines[i + 1] = "    " + nxt


# A frame's line cut at one of its blanks by a word wrap: 'File "<path>", line <n>, in' and what it cut
_FRAME_HEAD = re.compile(r'^\s{2,}File(?: "[^"]+",(?: line(?: \d+,(?: in)?)?)?)?\s*$')
_FRAME_LINE = re.compile(r'^\s{2,}File "')
# an exception's line (Ray prints a remote traceback's frames after "RayTaskError(ValueError): ...")
_CLASS_LINE = re.compile(r"^[A-Za-z_][\w.]*(?:\([\w.]+\))?(?::|$)")


def rejoin(raw: list[str]) -> list[str]:
    """``raw`` with a traceback's lines that a word wrap broke joined again: a frame's line cut at a
    blank and the rest of it on the next line, and a line of no indentation between a traceback's
    lines that is followed by a frame (an exception's line ends a traceback; this is the end of the
    line above it, its source line's, moved down; not an exception's line, after which Ray prints a
    remote traceback's frames)."""
    if not any('File "' in ln for ln in raw):
        return raw
    out: list[str] = []
    inside = False
    for i, line in enumerate(raw):
        if "Traceback (most recent call last)" in line or _FRAME_LINE.match(line):
            inside = True
        elif not line.strip():
            inside = False
        head = out and inside and line[:1].strip() and not _FRAME_LINE.match(line)
        nxt = raw[i + 1] if i + 1 < len(raw) else ""
        cut_frame = head and _FRAME_HEAD.match(out[-1])
        if cut_frame or (head and _FRAME_LINE.match(nxt) and not _CLASS_LINE.match(line) and "Traceback" not in line):
            out[-1] = out[-1].rstrip() + " " + line
            continue
        out.append(line)
    return out


_DIGITS = re.compile(r"\d+")
_WORD = re.compile(r"[A-Za-z]")
_PROMPT = re.compile(r"(?:@[\w.-]{1,64}:\S{0,300}|^\([\w.-]{1,40}\) .{0,200})[$#]$")  # a shell's, nothing typed after
COPIES = 200  # the lines before a cut one its whole copy is looked for in (ranks print one record together)
MIN_CUT = 40  # the shortest cut line taken for a copy: a shorter one is too little to tell a copy from a new line


def uncut(raw: list[str]) -> list[str]:
    """``raw`` with its last line read whole where a copy of the log ends inside it and an earlier line says it whole
    (the same words, its numbers aside: every rank prints one watchdog timeout, and a stored copy cut inside the last
    rank's reads "... OpType=ALLR"): the whole line is what was printed there, the cut one only a part of it."""
    ends = [i for i, line in enumerate(raw) if line.strip()]
    if len(ends) < 2:
        return raw
    last = _DIGITS.sub("0", raw[ends[-1]].strip())
    # (a traceback cut inside a frame's path is cut, but not a copy of another frame in the same directory or a prompt)
    if len(last) < MIN_CUT or last.startswith("File ") or _PROMPT.search(last):
        return raw
    head = last.rstrip("0")  # (cut inside a number, or after one)
    for i in reversed(ends[-COPIES:-1]):
        whole = _DIGITS.sub("0", raw[i].strip())
        # what the cut took holds words: a line that only lacks a closing quote or bracket is a line of its own
        if whole.startswith(head) and _WORD.search(whole[len(last) :]):
            # with the lines a terminal wrapped it onto (indented, not a frame's; a double-spaced copy's blanks between)
            j = i + 1
            while j < ends[-1] and (
                not raw[j].strip() or raw[j][:1].isspace() and not raw[j].lstrip().startswith("File ")
            ):
                j += 1
            return [*raw[: ends[-1]], *raw[i:j], *raw[ends[-1] + 1 :]]
    return raw
