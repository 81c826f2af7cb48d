"""How fingerprints survive what a paste or a log viewer does to a whole log: prints figures, asserts nothing.

    python bench/signature_paste.py [NAME ...]

Each real log of tests/logs/real/INDEX.toml in which a failure is found is marked as a paste or a viewer
would mark it (a list item's indentation, a viewer's tag on every line, a clock, HTML entities, a
terminal's colours, a typesetter's quotes, a double-spaced copy, markdown's escapes, ...), and its
signature taken again. For each marking: the logs whose failure is still found, those whose
fingerprint is the one the plain log has, and those at least linked to it (similarity >= THRESHOLD). Two
markings cut the log's last line (of 40 characters or more) as a post cut short does, at 80% and 60%.
A collector's tag goes on a line before a terminal folds it, so tags are put on the log's lines with the
terminal's folds undone. A tag is only told on two lines or more, so a one-line log keeps it. A word wrap
at 100 columns is not undone, and is shown for what it costs (a break at a space reads as the line's end).
"""

from __future__ import annotations

import argparse
import html
import sys
import textwrap
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from canary.signature import extract  # noqa: E402
from canary.signature.lines import unwrap  # noqa: E402
from canary.signature.similar import THRESHOLD, similarity  # noqa: E402

REAL = ROOT / "tests" / "logs" / "real"


def tagged(fn):
    return lambda t: "\n".join(fn(i, line) for i, line in enumerate(unwrap(t.splitlines())))


def pasted(fn):
    return lambda t: "\n".join(fn(i, line) for i, line in enumerate(t.splitlines()))


MARKS = {
    "indent 4": pasted(lambda i, line: "    " + line),
    "tab": pasted(lambda i, line: "\t" + line),
    "tag [trainer]": tagged(lambda i, line: "[trainer] " + line),
    "tag compose": tagged(lambda i, line: "trainer  | " + line),
    "tag clock": tagged(lambda i, line: f"12:{i % 60:02d}:{(7 * i) % 60:02d} " + line),
    "tag k8s": tagged(lambda i, line: "trainer-0 main " + line),
    "GHA stamp": tagged(lambda i, line: f"2024-05-01T12:00:{i % 60:02d}.1234567Z " + line),
    "CRLF": lambda t: t.replace("\n", "\r\n"),
    "trailing": pasted(lambda i, line: line + "   "),
    "HTML": lambda t: html.escape(t, quote=True),
    "ANSI": pasted(lambda i, line: "\x1b[31m" + line + "\x1b[0m"),
    "nbsp": lambda t: t.replace("  ", "\u00a0\u00a0"),
    "curly quotes": lambda t: t.replace("'", "\u2019").replace('"', "\u201c"),
    "BOM": lambda t: "\ufeff" + t,
    "double-spaced": lambda t: t.replace("\n", "\n\n"),
    "md escapes": lambda t: t.replace("_", "\\_").replace("*", "\\*"),
    "line numbers": pasted(lambda i, line: f"{i + 1:>4}  " + line),
    "cut at 80%": lambda t: cut(t, 0.8),
    "cut at 60%": lambda t: cut(t, 0.6),
    "word wrap 100": lambda t: "\n".join(
        part for line in t.splitlines() for part in (textwrap.wrap(line, 100) or [""])
    ),
    "word wrap 80": lambda t: "\n".join(part for line in t.splitlines() for part in (textwrap.wrap(line, 80) or [""])),
}


def cut(text: str, share: float) -> str | None:
    """The log as a post that ends ``share`` of the way into its last line (of 40 characters or more:
    None for a log whose last line is shorter)."""
    lines = text.rstrip("\n").splitlines()
    if not lines or len(lines[-1]) < 40:
        return None
    return "\n".join([*lines[:-1], lines[-1][: int(len(lines[-1]) * share)]])


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument(
        "names",
        nargs="*",
        metavar="NAME",
        help="markings to apply (all when none): " + ", ".join(MARKS).replace("%", "%%"),
    )
    names = ap.parse_args().names or list(MARKS)
    unknown = [n for n in names if n not in MARKS]
    if unknown:
        ap.error(f"no marking {unknown[0]!r}")
    index = tomllib.loads((REAL / "INDEX.toml").read_text())
    texts = {e["file"]: (REAL / e["file"]).read_text(encoding="utf-8") for e in index["log"]}
    plain = {f: s for f, t in texts.items() if (s := extract(t)) is not None}
    print(f"{len(plain)} of {len(texts)} real logs with a failure found")
    for name in names:
        mark = MARKS[name]
        n = found = same = linked = 0
        lost: list[str] = []
        for f, sig in plain.items():
            text = mark(texts[f])
            if text is None:
                continue
            n += 1
            s = extract(text)
            found += s is not None
            if s is not None and s.fingerprint == sig.fingerprint:
                same += 1
            else:
                lost.append(f)
            linked += s is not None and (s.fingerprint == sig.fingerprint or similarity(s, sig) >= THRESHOLD)
        print(
            f"  {name:15} of {n:>3}: found {found:>3} ({100 * found / n:3.0f}%)"
            f"   same fingerprint {same:>3} ({100 * same / n:3.0f}%)   linked {linked:>3} ({100 * linked / n:3.0f}%)"
            + (f"   e.g. {', '.join(lost[:3])}" if lost else "")
        )


if __name__ == "__main__":
    main()
