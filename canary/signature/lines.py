"""Reading log lines: what a scheduler, logger, markdown or a test runner put around a line, taken
off. Pure.

A log reaches us in many wrappings: Ray's ``(TrainWorker pid=.., ip=..)``, timestamps (ISO,
GitHub Actions', glog/absl headers), ``srun --label`` task numbers, Kubernetes pod prefixes,
markdown quotes (``> ``), headings (``# ``) and HTML's code element of a pasted issue, pytest's ``E   `` lines and
IPython's ``----> 12`` frames. :func:`strip_prefix` takes them off one line; :func:`clean_lines`
does it for a text. Lines longer than :data:`MAX_LINE` keep their head and tail, so one huge line
costs the same as a short one (a long log is cut first, in :mod:`canary.signature.windows`).
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from canary.signature import ipython, paste

MAX_LINE = 8192  # characters of one line that are read (head and tail of longer ones)
MIN_WRAP_WIDTH = 40  # the narrowest terminal whose folds are undone (lines.unwrap)

# Prefixes that begin a log record (a logger's), as against those that tag every line of a
# stream (a scheduler's, markdown's): a message does not run on into the next record.
_RECORD_STARTS: set[re.Pattern[str]] = set()


def _record(pattern: str) -> re.Pattern[str]:
    rx = re.compile(pattern)
    _RECORD_STARTS.add(rx)
    return rx


_PREFIXES = [
    # Ray: "(TrainWorker pid=4242, ip=10.0.0.3) ", "(raylet) ", "(pid=4242) "
    re.compile(r"\((?=[^)\n]{0,200}(?:pid=|ip=|raylet|gcs_server|autoscaler|dashboard))[^()\n]{0,200}\) ?"),
    # ISO timestamps (GitHub Actions prints 7 fractional digits), optionally bracketed: with a
    # logging level or a "file.py:12 --" source they begin a log record, alone they tag a stream
    _record(
        r"\[?\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}:\d{2}(?:[.,]\d{1,9})?(?:Z|[+-]\d{2}:?\d{2})?\]?:?"
        r"(?:(?:\s{1,8}-?\s?|::)\[?(?:DEBUG|INFO|WARNING|WARN|ERROR|CRITICAL|FATAL)\]?\b:?(?:\s{1,8}[\w./-]{1,200}:\d{1,6})?"
        r"|\s{1,8}[\w./-]{1,200}:\d{1,6}(?!: )"  # (not a warning's file: "... /x/git.py:163: UserWarning: ...")
        # (PyTorch 2.1's loggers: "[2023-11-29 22:29:33,093] torch._dynamo.convert_frame: [WARNING] ")
        r"|\s{1,8}[\w.]{1,200}: \[(?:DEBUG|INFO|WARNING|ERROR|CRITICAL)\])(?:\s{1,8}--?)? ?"
    ),
    # (ComfyUI's log tags each line "2025-01-04T15:11:36.838039 - ")
    re.compile(r"\[?\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}:\d{2}(?:[.,]\d{1,9})?(?:Z|[+-]\d{2}:?\d{2})?\]?:? ?(?:- (?=\S))?"),
    # Jenkins' timestamper: "10:27:45 " (a time of day alone, then the line's own words)
    re.compile(r"\d{2}:\d{2}:\d{2}(?: |\s*$)"),  # (a blank line's tag alone)
    # Go's standard logger: "2020/10/14 18:04:53 "; a container runtime's log file after its timestamp: "stderr F "
    re.compile(r"\d{4}/\d{2}/\d{2} \d{2}:\d{2}:\d{2}(?:\.\d{1,9})? |std(?:out|err) [FP] "),
    # syslog's and journald's: "Nov 09 17:07:11 host-1 keylime_verifier[1329931]: " (a service's lines, each tagged)
    _record(r"[A-Z][a-z]{2} [ \d]\d \d{2}:\d{2}:\d{2} [\w.-]{1,100} [\w./@-]{1,100}(?:\[\d{1,10}\])?: "),
    # glog / absl: "E0828 03:15:02.123456  4242 pjit.py:123] " (absl before InitGoogle counts seconds since the
    # epoch: "I0000 00:00:1694099665.260573     484 common_lib.cc:174] "); TensorFlow's after its timestamp:
    # "2019-06-13 01:17:08.886805: E external/xla/local_client.cc:672] "
    _record(r"[IWEF]\d{4} \d{2}:\d{2}:\d{2,10}\.\d{1,9}\s{1,8}\d{1,20} [\w./-]{1,200}:\d{1,6}\] ?"),
    _record(r"[IWEF] [\w./-]{1,300}:\d{1,6}\] ?"),
    # PyTorch's c10 logger (2.x), bracketed, without a thread: "[E626 06:24:44.903881913 ProcessGroupNCCL.cpp:616] "
    _record(r"\[[IWEF]\d{3,4} \d{2}:\d{2}:\d{2}\.\d{1,9} [\w./-]{1,200}:\d{1,6}\] ?"),
    # vLLM's logger: "ERROR 06-17 19:23:59 [multiproc_executor.py:527] ", "ERROR 01-26 17:51:44 engine.py:387] "
    _record(
        r"(?:DEBUG|INFO|WARNING|ERROR|CRITICAL) \d{2}-\d{2} \d{2}:\d{2}:\d{2}(?:\.\d{1,9})? "
        r"\[?[\w./-]{1,200}:\d{1,6}\] ?"
    ),
    # jax's logger: "WARNING:2025-06-06 20:45:54,562:jax._src.xla_bridge:791: "; Transformer Engine's without the
    # module: "DEBUG:2025-05-24 03:30:22,799:Running with config=..."
    _record(
        r"(?:DEBUG|INFO|WARNING|ERROR|CRITICAL):\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2},\d{1,6}:"
        r"(?:[\w.-]{1,100}:\d{1,6}: ?)?"
    ),
    # Determined's trial logs: "<info>    [2021-12-07 10:43:05] 087c0ee7 || ", its records of a task's output "<>"
    _record(r"<(?:info|warning|error|debug)?>\s{1,12}\[\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\] [0-9a-f]{8} \|\| ?"),
    # make's report of a failed recipe: "make: *** [Makefile:35: train] Error 1", "make[2]: *** "
    _record(r"make(?:\[\d{1,4}\])?: \*\*\* "),
    # pytest's live log: "ERROR    cocotb:simulator.py:302 "
    _record(r"(?:DEBUG|INFO|WARNING|ERROR|CRITICAL)\s{1,8}[\w.-]{1,100}:[\w.-]{1,100}\.py:\d{1,6} "),
    # Jupyter's and IPython's loggers: "[W 12:04:31.521 NotebookApp] ", "[TerminalIPythonApp] ERROR | "
    _record(r"\[[DIWEC] (?:\d{4}-\d\d-\d\d )?\d\d:\d\d:\d\d\.\d{1,6} \w{1,40}\] |\[\w{1,60}App\] [A-Z]{4,8} \| "),
    # Python logging: "ERROR:root:", "WARNING:absl:", "WARNING:pt-xla-profiler:"
    _record(r"(?:DEBUG|INFO|WARNING|ERROR|CRITICAL):[\w.-]{1,100}:"),
    # NCCL's own: "host-1:843:843 [5] "; mpirun --tag-output and job labels: "[1,0]<stderr>:", "[1] "
    _record(r"[\w.-]{1,200}:\d{1,10}:\d{1,10} \[\d{1,4}\] "),
    re.compile(r"\[\d{1,4}(?:,\d{1,4})?\](?:<std(?:out|err)>)?:? ?"),
    # TensorFlow's op kernel naming the op whose status it logs: "OP_REQUIRES failed at xla_ops.cc:489 : "
    re.compile(r"OP_REQUIRES failed at [\w./-]{1,200}:\d{1,6} ?: "),
    # an issue title's tag before a class or a warning's source: "[Bug]: RuntimeError: ...", "[BUG] TypeError: ...",
    # "[ENH] pyximport/pyximport.py:51: DeprecationWarning: ..."
    re.compile(
        r"\[(?:[Bb]ug|BUG|[Qq]uestion|[Ff]eature|[Hh]elp|[Uu]sage|ENH|MAINT)\]:? ?"
        r"(?=[A-Za-z_][\w.]{0,200}(?:Error|Warning)\b|[\w./-]{1,300}\.py:\d{1,6}: [A-Z]\w{0,60}Warning:)"
    ),
    # a tqdm bar's tail a line was printed onto: "[00:00<?, ?it/s]"
    re.compile(r"\[\d{1,2}:\d{2}(?::\d{2})?<(?:\?|\d{1,2}:\d{2}(?::\d{2})?), ?(?:\?|[\d.]{1,10})(?:it|s)/(?:s|it)\]"),
    # a runner's stream tag: "[stdout] ", "[stderr] "; NLTK's downloader's "[nltk_data]     " (its wrapped lines too)
    re.compile(r"\[std(?:out|err)\] ?|\[nltk_data\]\s{1,8}"),
    # pytest's summary: "FAILED tests/x.py::test_y - ValueError: ...", a parametrized id with spaces in its brackets
    # ("FAILED x.py::test_or[bitwise_or(x1, x2)] - ...")
    re.compile(r"(?:FAILED|ERROR) [^\s\[]{1,500}(?:\[[^\]]{0,300}\])? - "),
    # GitHub Actions annotations: "##[error]", "::error file=x::"
    re.compile(r"##\[(?:error|warning|notice|debug|group|endgroup)\]|::(?:error|warning|notice)[^:]{0,200}::"),
    # srun --label, fan-out: "0: ", "task 3: ", "[worker-0] ", "tpu-worker-1 | ", "[default1]:", xla_dist "1.2.3.4 [3] "
    re.compile(r"(?:\d{1,4}|task \d{1,6}|[\w.]{1,100}-\d{1,6}):(?: |$)"),
    re.compile(r"\[(?:(?:[\w.]{1,100}-)?(?:worker|host|node|task|rank)[-_ ]?|default)\d{1,6}\]:? ?"),
    re.compile(r"(?:\d{1,3}\.){3}\d{1,3} \[\d{1,4}\] "),
    re.compile(r"[\w.-]{1,100}[-_]\d{1,6}\s{1,8}\| ?"),
    # a US date and a 12-hour time before each line ("4/10/2019 1:49:47 PM "; a copy may lose the space after it)
    re.compile(r"\d{1,2}/\d{1,2}/\d{4},? \d{1,2}:\d\d:\d\d ?[AP]M ?"),
    # a logger's day, month's name and year before its time ("12-Jun-24 03:16:40: ", logging's "%d-%b-%y %H:%M:%S")
    re.compile(r"\d{2}-[A-Z][a-z]{2}-\d{2}(?:\d{2})? \d{2}:\d{2}:\d{2}(?:[.,]\d{1,6})?:? "),
    # Kubernetes / docker compose: "pod/trainer-0-abc12 " "trainer-7f9c-xk2 | "
    re.compile(r"(?:pod|job)/[\w.-]{1,200} "),
    # Docker BuildKit's progress output of a step's log: " => => # "
    re.compile(r" ?=> => # ?"),
    re.compile(r"\[pod/[\w.-]{1,200}/[\w.-]{1,200}\] ?"),
    # markdown: quotes, headings and code fences of a pasted log; R's reprex output, "#> "
    re.compile(r"(?:> ?)+(?=\S|$)|#> ?"),
    # (a span opened at a class, at Ray's worker prefix before one, or at pytest's summary line)
    re.compile(
        r"`{3}(?=\S)|`{1,2}(?=[A-Za-z_][\w.]{0,200}(?:Error|Exception|Warning): |\([^()\n]{0,200}pid=\d"
        r"|(?:FAILED|ERROR) )"
        r"|\\(?=[A-Z]\w{0,100}(?:Error|Exception): )"  # (markdown's escape a post left before a class)
    ),
    # (a heading only before what starts a failure: "# of tasks ..." in a message is the message)
    re.compile(
        r"#{1,6} ?(?=Traceback|File \"|[A-Za-z_][\w.]{0,200}(?:Error|Exception|Warning)\b|[A-Z]{4,}_[A-Z_]{3,}: "
        r"|Check failed|Fatal Python error)"
    ),
    # pytest's failure lines: "E   ValueError: ..." (its "> " source marker goes with the quotes)
    re.compile(r"E(?: {1,8}|$)"),
]
# All of them as one alternation, tried in order by the regex engine (one C call per prefix taken off,
# not one per pattern): the first that matches wins, as in the list. None matches the empty string.
_ANY_PREFIX = re.compile("|".join(f"(?P<p{i}>{rx.pattern})" for i, rx in enumerate(_PREFIXES)))
_RECORD_GROUPS = {f"p{i}" for i, rx in enumerate(_PREFIXES) if rx in _RECORD_STARTS}

_RAY_REPEAT = re.compile(r"\s{0,8}\[repeated \d{1,9}x across cluster\]\s{0,8}$")
_ANSI = re.compile(r"\x1b\[[0-9;?]{0,20}[A-Za-z]")


def cap_line(line: str, limit: int = MAX_LINE) -> str:
    """A line of at most about ``limit`` characters: its head and tail around `` … ``."""
    if len(line) <= limit:
        return line
    half = limit // 2
    return line[:half] + " … " + line[-half:]


def strip_prefix(line: str) -> str:
    """One log line without the scheduler's, logger's and markdown's decorations."""
    return _strip(line)[0]


def _strip(line: str) -> tuple[str, bool]:
    """The line without its decorations, and whether a logger's record began on it."""
    s, record, _ = _strip_record(line)
    return s, record


# A record's prefix that names the INFO or DEBUG level: glog's "I0808 ...", "INFO:...", "... INFO ..."
_INFO_PREFIX = re.compile(r"\[?I\d|I |(?:.{0,40}[\s\[:])?(?:INFO|DEBUG)\b")


def _strip_record(line: str) -> tuple[str, bool, bool]:
    """:func:`_strip`, and whether the record's level is INFO or DEBUG (what a program says it tried,
    not what failed)."""
    line = cap_line(line.rstrip("\r\n"))
    if "\x1b" in line:
        line = _ANSI.sub("", line)
    if line.endswith("cluster]"):
        line = _RAY_REPEAT.sub("", line)
    record = info = False
    for _ in range(6):
        m = _ANY_PREFIX.match(line)
        if m is None or not m.end():
            break
        if m.lastgroup in _RECORD_GROUPS and not record:
            record, info = True, bool(_INFO_PREFIX.match(m.group()))
        line = line[m.end() :]
    if line.startswith("<code>") and line.endswith("</code>"):
        line = line[6:-7]  # (an HTML post's code element around the line)
    return ipython.frame(line), record, info


class Lines(list):
    """A log's cleaned lines; ``records`` holds the indices of lines that began a log record (a
    logger's prefix was taken off them): a message does not run on into one; ``info`` those of
    records logged at INFO or DEBUG level."""

    records: set[int]
    info: set[int]


_BORDER_END = re.compile(r"[\s\u2500-\u257f|+]")


_REPEATED = 16  # the characters two lines begin with alike that make the second the first's output again


def unwrap(raw: list[str]) -> list[str]:
    """``raw`` with a terminal's folds undone, so that one output saved at 80 columns and at 250
    reads as the same lines. A console that wraps at W columns moves a word to the next line and
    splits one longer than the room left (a path, mostly) at exactly W characters. A fold is a line
    of the text's widest length W, which two or more lines have (a wrap width, not one long line),
    ending inside a word that holds a ``/`` and that the next line goes on with; a line of no
    spaces that a fold began goes on folding. A word wrap (a break at a space) needs no undoing:
    a message's lines are read as one."""
    widths = [len(line) for line in raw]
    width = max(widths, default=0)
    if width < MIN_WRAP_WIDTH or widths.count(width) < 2:
        return raw
    # a paste hard-wrapped at a fixed width (a mail, a fixed-width text box) cuts every long line at W, a word
    # or not: three lines or more of exactly W that end in a word, and 80% of the lines over W/2 long
    # (a table's borders are not a word: rich draws every row at one width)
    at_width = sum(1 for line, n in zip(raw, widths, strict=True) if n == width and not _BORDER_END.match(line[-1]))
    fixed = at_width >= 3 and at_width >= 0.8 * sum(1 for n in widths if n > width // 2)
    out: list[str] = []
    folding = False
    prev = ""
    for line, n in zip(raw, widths, strict=True):
        # (pytest's next record, or a logger's: a record is begun, not folded into, "2022-04-21 05:32:57.008529: E ...";
        # and a line that begins as the one before it is that output repeated, each copy at the width)
        again = len(prev) >= _REPEATED and line.startswith(prev[:_REPEATED])
        if (
            folding
            and not again
            and line[:1].strip()
            and not line.startswith(("FAILED ", "ERROR "))
            and not _begins_record(line)
        ):
            out[-1] += line
        else:
            out.append(line)
        prev = line
        word = line.rsplit(None, 1)[-1] if line.strip() else ""
        folding = (
            n == width
            and line.endswith(word)
            and bool(word)
            # (a hard wrap at W seldom falls just after a sentence's end: identical records, each one sentence, do)
            and ((fixed and not word.endswith((".", "!", "?"))) or "/" in word or (folding and word == line))
        )
    return out


# Python 3.11's exception groups draw their tracebacks inside borders: "  + Exception Group Traceback ...",
# "  | ", "+-+---------------- 1 ----------------", "+------------------------------------"
_GROUP_BORDER = re.compile(
    r"^\s{0,40}(?:[|+]-[-+]{0,3}-{3,}(?: (?:\d{1,4}|\.\.\.) -{3,})?\s*$|(?:[|+] ?){1,8}(?=\S| {2}))"
)


def _begins_record(line: str) -> bool:
    """Whether ``line`` begins a logger's record (a timestamp and level, not a decoration any line may have)."""
    return _strip(line)[1]


def _known(line: str) -> bool:
    """Whether ``line`` begins with a decoration this module strips by name."""
    return bool((m := _ANY_PREFIX.match(line)) and m.end())


def _ungrouped(line: str) -> str | None:
    """A line of an exception group's tracebacks without its border (each one then reads as a
    traceback); None for a line that is all border."""
    m = _GROUP_BORDER.match(line)
    if m is None:
        return line
    return line[m.end() :].replace("Exception Group Traceback", "Traceback", 1) if line[m.end() :].strip() else None


# a glog/absl record begun on another writer's unfinished line ("... with error: Timeout was reachedE0221
# 14:49:23.280024242     375 oauth2_credentials.cc:...] ..."): two records, not one message
_GLUED = re.compile(r"[IWEF]\d{4} \d{2}:\d{2}:\d{2,10}(?:\.\d{1,9})?\s{1,12}\d{1,10} [\w.-]{1,100}")


# a header's start, looked for in the whole text at once (a scan in C that skips to the level's letter); glued
# when what comes before it is not a line's start, a blank or a bracket
_HEADER_START = re.compile(r"[IWEF][01]\d{3} \d{2}:\d{2}:")


def _unglued(raw: list[str]) -> list[str]:
    """``raw`` with each glog record that began inside another line on a line of its own."""
    text = "\n".join(raw)
    if not any(m.start() and text[m.start() - 1] not in " \t\n]" for m in _HEADER_START.finditer(text)):
        return raw
    out: list[str] = []
    for line in raw:
        cuts = [
            m.start()
            for m in _GLUED.finditer(line, 1)
            if not line[m.start() - 1].isspace() and line[m.start() - 1] != "]"
        ]
        if cuts:
            out.extend(line[a:b] for a, b in zip([0, *cuts], [*cuts, len(line)], strict=True))
        else:
            out.append(line)
    return out


# a traceback inside one line, its newlines and quotes escaped (a JSON field, an Ansible module's stderr): "  File
# \"/x/ruamel/yaml/main.py\", line 1105, in safe_load\n    ...\nAttributeError: \n\"safe_load()\" has been removed"
_ESCAPED = re.compile(
    r'(?:Traceback \(most recent call last\):|File \\"[^"]{1,300}\\", line \d{1,6}, in \S{1,200})\\n'
    r"|\\n[A-Z]\w{0,60}(?:Error|Exception): "
)


def unescaped(text: str) -> str | None:
    """``text`` with each line that holds a traceback with its newlines escaped written as the lines it escaped, or
    None where no line does (read when nothing was found in the text as it is)."""
    if "\\n" not in text:
        return None
    out: list[str] = []
    for line in text.splitlines():
        out.extend(line.replace('\\"', '"').split("\\n") if "\\n" in line and _ESCAPED.search(line) else [line])
    joined = "\n".join(out)
    return joined if joined != text else None


def clean_lines(text: str | Iterable[str]) -> Lines:
    """The lines of a log, each without its decorations (see :func:`strip_prefix`), a terminal's
    folds undone first (:func:`unwrap`), an exception group's borders taken off."""
    raw = paste.uncut(paste.unpage(text.splitlines() if isinstance(text, str) else list(text)))
    raw = paste.rejoin(paste.reflow(paste.untag(unwrap(raw), _known), _known))
    raw = _unglued(raw)
    grouped = any("Exception Group Traceback" in line for line in raw)
    out = Lines()
    out.records = set()
    out.info = set()
    for line in raw:
        s, record, info = _strip_record(line)
        if grouped and (s := _ungrouped(s)) is None:
            continue
        i = len(out)
        if ipython.is_source(s):
            s = "    " + s.lstrip("-> ").split(" ", 1)[-1]  # IPython's numbered source line
        elif record:
            out.records.add(i)
            if info:
                out.info.add(i)
        out.append(s)
    paste.reindent(out)
    return out


def last_output(lines: list[str], n: int = 1) -> list[str]:
    """The last ``n`` lines of ``lines`` that are not blank, in order."""
    out: list[str] = []
    for line in reversed(lines):
        if line.strip():
            out.append(line)
            if len(out) == n:
                break
    return out[::-1]
