"""Matplotlib's needs of the machine in a headless job, in its releases' words: Tcl/Tk's scripts for its Tk backend
("Can't find a usable init.tcl in the following directories: {C:\\hostedtoolcache\\windows\\Python\\3.7.9\\x64\\tcl
\\tcl8.6}", a Windows runner's Python without them), the fonts a figure asks for ("findfont: Font family ['serif'] not
found. Falling back to DejaVu Sans.", logged or warned, "Bitstream Vera Sans" before 2.0) and the glyphs its text needs
("Glyph 37239 missing from current font", later "Glyph 23435 (\\N{CJK UNIFIED IDEOGRAPH-5B8B}) missing from font(s)
DejaVu Sans."). Pure. Which script or which kind of glyph the machine lacks is the failure; the directories searched,
the family a figure asked for, the fallback and the character are the run's. Pillow built from source names the
library whose headers it could not find, ReportLab the renderPM backend it could not import.
"""

from __future__ import annotations

import re

from canary.signature.recogniser import BareError, environment_check
from canary.signature.rewordings import Parts

_TCL = re.compile(r"^(Can't find a usable [\w.]{1,20}\.tcl in the following directories:)\s.*$")
_FINDFONT = re.compile(r"^findfont: Font family (?:\[[^\]]{0,300}\]|'[^']{0,100}'|\S{1,100}) not found\b.*$")
_GLYPH = re.compile(r"^Glyph \d{1,7} (?:\([^)]{0,200}\) )?missing from (?:current font|font\(s\) .{1,200}?)\.?$")


def plot_words(exc: str | None, message: str, frames: list[str]) -> Parts:
    """The ``plotting`` rule: Tcl's script by name, a font family and a glyph by none."""
    if message.startswith("Can't find a usable "):
        message = _TCL.sub(r"\1 <dirs>", message)
    elif message.startswith("findfont: Font family "):
        message = _FINDFONT.sub("findfont: Font family <family> not found", message)
    elif message.startswith("Glyph "):
        message = _GLYPH.sub("Glyph <n> missing from current font", message)
    return exc, message, frames


PLOTTING_ERRORS = [
    # Pillow built from source without a library's headers ("The headers or library files could not be found for
    # zlib, a required dependency when compiling Pillow from source.", the message of the RequiredDependencyException
    # its setup raises, which opens on a new line below the class, or printed alone): which library
    BareError(
        "pillow-build-dependency",
        ("The headers or library files could not be found for ",),
        re.compile(r"^The headers or library files could not be found for (?P<lib>[\w.+-]{1,60}),"),
        "RequiredDependencyException",
        message=lambda m: (
            f"The headers or library files could not be found for {m['lib']}, a required dependency when compiling "
            "Pillow from source"
        ),
    ),
    # matplotlib's font manager logging that no font of a family is installed (a run goes on after it, and fails on
    # what it drew, or does not): named only where nothing else in the log names a failure; worded as the plotting
    # rule words it, since the environment rule, which reads it as a check, comes first
    environment_check(
        "findfont",
        ("findfont: Font family ",),
        r"^findfont: Font family (?:\[[^\]]{0,300}\]|'[^']{0,100}') not found\. Falling back to ",
        None,
        message=lambda m: "findfont: Font family <family> not found",
        weak=True,
    ),
    # ReportLab 4 without the renderPM backend it asks for ("cannot import desired renderPM backend rlPyCairo", its
    # RenderPMError's message, logged by an application without the class): which backend
    BareError(
        "reportlab-renderpm",
        ("cannot import desired renderPM backend ",),
        re.compile(r"(?:^|\s)(?P<msg>cannot import desired renderPM backend \w{1,40})"),
        "RenderPMError",
    ),
]
