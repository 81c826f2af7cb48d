"""Reading text canary did not write itself: ferries, gates, lanes, metrics, result.json, logs.

Whatever the bytes, the answer is text or one :class:`~canary.errors.ConfigError` line that names
the file and the byte offset of the first thing wrong (exit 2), never a UnicodeDecodeError's
traceback.

    text = read_text(path)                    # UTF-8 or bad input
    text = decode(sys.stdin.buffer.read(), "<stdin>", lenient=True)   # a log: stray bytes replaced

Config and metrics files are strict: one invalid byte is bad input. Logs are lenient: a crashing
process may tear a multi-byte character, so invalid bytes become U+FFFD; but a NUL byte (a binary
file, a core dump, a log truncated under a writer) still says the input is not a log.

The environment is text from outside too: every numeric ``CANARY_*`` setting is read through
:func:`env_number` and checked when a command starts (:func:`check_environment`); and a URL that
came from outside is a link only when :func:`web_url` says it is http(s).
"""

from __future__ import annotations

import codecs
import json
import os
import re
from pathlib import Path
from typing import Any, BinaryIO

from canary.errors import ConfigError

BOM = b"\xef\xbb\xbf"


def decode(data: bytes, source: str, lenient: bool = False) -> str:
    """``data`` as text, or a ConfigError naming ``source`` and the offset of the first bad byte."""
    skip = len(BOM) if data.startswith(BOM) else 0
    nul = data.find(b"\x00")
    bad = None
    try:
        text = data[skip:].decode("utf-8", errors="replace" if lenient else "strict")
    except UnicodeDecodeError as e:
        bad = e.start + skip
    if nul >= 0 and (bad is None or nul < bad):
        raise ConfigError(f"{source}: binary content, not text (a NUL byte at byte offset {nul})")
    if bad is not None:
        raise ConfigError(f"{source}: not UTF-8 text (byte 0x{data[bad]:02x} at byte offset {bad})")
    return text


MAX_FILE = 256 << 20  # a config, record or golden this big is not one (/dev/zero, a log named by mistake)


def read_bytes(path: Path | str, limit: int = MAX_FILE) -> bytes:
    """A regular file's bytes, at most ``limit`` of them: a FIFO, a device or a file past the
    limit is bad input, never a read that blocks or fills memory."""
    p = Path(path)
    if p.exists() and not p.is_file() and not p.is_dir():
        raise ConfigError(f"{path}: not a regular file")
    with p.open("rb") as f:
        data = f.read(limit + 1)
    if len(data) > limit:
        raise ConfigError(f"{path}: over {limit >> 20} MiB, too big to be what canary reads here")
    return data


def read_text(path: Path | str, lenient: bool = False) -> str:
    """A file's text (see :func:`decode`); an unreadable file is bad input too."""
    try:
        data = read_bytes(path)
    except IsADirectoryError:
        raise ConfigError(f"{path}: is a directory, not a file") from None
    except OSError as e:
        raise ConfigError(f"{path}: cannot read: {e.strerror or e}") from None
    return decode(data, str(path), lenient)


def read_json_object(path: Path | str) -> dict[str, Any]:
    """A file holding one JSON object (result.json, a spec): anything else is bad input."""
    return parse_json_object(read_text(path), str(path))


def parse_json(text: str, label: str) -> Any:
    """``text`` as JSON; text that is not is bad input, said of ``label`` (a path)."""
    try:
        return json.loads(text)
    except json.JSONDecodeError as e:
        raise ConfigError(f"{label}: not valid JSON (line {e.lineno}, column {e.colno}: {e.msg})") from None
    except RecursionError:
        raise ConfigError(f"{label}: JSON nested too deeply") from None


def parse_json_object(text: str, label: str) -> dict[str, Any]:
    """``text`` as one JSON object; anything else is bad input, said of ``label`` (a path)."""
    obj = parse_json(text, label)
    if not isinstance(obj, dict):
        raise ConfigError(f"{label}: expected a JSON object, found {type(obj).__name__}")
    return obj


# What a terminal or a renderer would act on rather than show: escape sequences (CSI, and OSC:
# a window title, a clipboard write, a hyperlink), C0 and C1 control characters but tab and line
# feed, and the bidirectional overrides that make text read other than it is stored.
_TERMINAL = re.compile(
    r"\x1b\][^\x07\x1b\x9c]{0,65536}(?:\x07|\x1b\\|\x9c)?"  # OSC ... BEL or ST (or cut short)
    r"|\x1b[P^_X][^\x1b\x9c]{0,65536}(?:\x1b\\|\x9c)?"  # DCS, PM, APC, SOS strings
    r"|\x9d[^\x07\x1b\x9c]{0,65536}(?:\x07|\x9c)?"  # OSC, as one C1 byte
    r"|(?:\x1b\[|\x9b)[0-?]{0,64}[ -/]{0,16}[@-~]?"  # CSI
    r"|\x1b[ -/]{0,4}[0-~]?"  # any other escape
    r"|[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]"
)


_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")  # where any of them starts
_STRIP = re.compile(r"(?=[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069])(?:" + _TERMINAL.pattern + ")")
# A line that backspaces: each backspace takes back the character before it, as a terminal shows it
# (``p\bp`` is a bold p, ``_\bp`` an underlined one, ``abc\b\b\bxyz`` reads xyz).
_OVERSTRUCK = re.compile(r"[^\n]*\x08[^\n]*")


def _overstrike(m: re.Match[str]) -> str:
    out: list[str] = []
    for c in m.group(0):
        if c != "\b":
            out.append(c)
        elif out:
            out.pop()
    return "".join(out)


def printable(text: str) -> str:
    """``text`` as a terminal shows it, without control sequences: safe to echo or to post. What
    the sequences interrupted reads whole again (``pass\x1b[0mword`` is ``password``), so secrets
    are redacted after this, never before (:func:`canary.text.redact.redact` does both)."""
    if not _CONTROL.search(text):
        return text
    if "\b" not in text:
        return _STRIP.sub("", text)
    text = _STRIP.sub(lambda m: "\b" if m.group(0) == "\b" else "", text)  # sequences first: they print nothing
    return _OVERSTRUCK.sub(_overstrike, text)


# A link a page or a summary may carry: http or https, a host, and nothing a browser would strip
# or act on (whitespace, control characters, quotes, angle brackets, bidirectional marks), so that
# "javascript:", " javascript:", "java\nscript:", "JaVaScRiPt:" and "data:" are never links.
_NOT_IN_URL = r"\s\x00-\x1f\x7f-\x9f<>\"'`\\\u200b-\u200f\u202a-\u202e\u2066-\u2069"
_WEB_URL = re.compile(rf"https?://[^/?#{_NOT_IN_URL}][^{_NOT_IN_URL}]{{0,2040}}", re.I)


def web_url(url: object) -> str | None:
    """``url`` when it is an http(s) URL safe to render as a link; None for anything else."""
    return url if isinstance(url, str) and _WEB_URL.fullmatch(url) else None


class LogStream:
    """A log as text, read in chunks from a binary stream (a file, standard input): bounded
    memory whatever its size. Lenient like :func:`decode` (a torn character becomes U+FFFD), and
    like it, a NUL byte anywhere is bad input, whether the log came by path or on stdin."""

    def __init__(self, raw: BinaryIO, source: str):
        self.raw, self.source = raw, source
        self.offset = 0
        self._decoder = codecs.getincrementaldecoder("utf-8")(errors="replace")

    def read(self, size: int = 1 << 20) -> str:
        data = self.raw.read(max(size, 1))
        if self.offset == 0 and data.startswith(BOM):
            data, self.offset = data[len(BOM) :], len(BOM)
        nul = data.find(b"\x00")
        if nul >= 0:
            raise ConfigError(
                f"{self.source}: binary content, not text (a NUL byte at byte offset {self.offset + nul})"
            )
        self.offset += len(data)
        return self._decoder.decode(data, final=not data)


# ----------------------------------------------------------------------------- the environment

# Every number canary reads from a CANARY_* variable: (kind, least, most, what it is). All are
# checked when the command starts (:func:`check_environment`), so a nan, an inf or a 1e400 is bad
# input naming the variable, never a wait that does not end or a traceback deep in a run.
NUMERIC_ENV: dict[str, tuple[type, float, float, str]] = {
    "CANARY_GCS_RETRY_S": (float, 0, 86_400, "seconds a GCS history call is retried"),
    "CANARY_NUDGE_SEED": (int, 0, 2**32 - 1, "a nudged run's seed"),
    "CANARY_NUM_PROCESSES": (int, 1, 100_000, "the processes of a multi-host run"),
    "CANARY_PROCESS_ID": (int, 0, 99_999, "this process's index in a multi-host run"),
}


def env_number(name: str, environ: Any = None, default: float | None = None) -> Any:
    """The value of the numeric variable ``name`` (one of :data:`NUMERIC_ENV`), ``default`` when
    it is unset or empty; bad input naming the variable when it is not a finite number in range."""
    raw = (os.environ if environ is None else environ).get(name)
    if raw is None or not raw.strip():
        return default
    kind, least, most, what = NUMERIC_ENV[name]
    try:
        value = kind(raw)
    except (ValueError, OverflowError):
        raise ConfigError(
            f"{name}={printable(raw)[:40]!r} is not {'a whole number' if kind is int else 'a number'} ({what})"
        ) from None
    if not least <= value <= most:  # nan fails both comparisons; inf and 1e400 (inf) the second
        raise ConfigError(f"{name}={printable(raw)[:40]!r} must be a finite number from {least} to {most} ({what})")
    return value


def check_environment(environ: Any = None) -> None:
    """Every numeric CANARY_* variable that is set, checked (see :data:`NUMERIC_ENV`)."""
    for name in NUMERIC_ENV:
        env_number(name, environ)
