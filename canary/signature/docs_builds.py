"""Sphinx's reports of a documentation build that stopped, in the box it prints them in ("Extension error:", "Theme
error:", "Sphinx version error:", nbsphinx's "Notebook error:", each above its message). Pure.

An extension Sphinx could not import names the import's error inside its own words ("Could not import extension
sphinxcontrib.mermaid (exception: cannot import name 'ENOENT' from 'sphinx.util.osutil' (/x/osutil.py))", a name a
Sphinx release removed, a module a Python release removed): that error is the failure, under the class Python raises
it with; the extension's module path the machine's. A theme not installed ("no theme named 'sphinx_rtd_theme' found
(missing theme.conf?)", 7.3's "(missing theme.toml?)"), an extension that needs a newer Sphinx or a newer release of
itself, and nbsphinx without pandoc ("PandocMissing in tutorial.ipynb:" then "Pandoc wasn't found.") are named by what
is missing, not by which notebook, which Sphinx was running or which file the theme lacked. The recognisers take
their place in :data:`canary.signature.stacks.STACK_ERRORS`, the rule in :data:`canary.signature.stacks.STACK_RULES`.
"""

from __future__ import annotations

import re

from canary.signature.recogniser import BareError
from canary.signature.rewordings import Parts

_PANDOC = re.compile(r"^PandocMissing in \S{1,300}:?.*$")
_PANDOC_WORDS = "PandocMissing: Pandoc wasn't found"


# (what Sphinx adds after the release it needs: "; it therefore cannot be built with this version.", "and therefore
# cannot be built with the loaded version (unknown version).")
_CANNOT_BUILD = re.compile(r";? (?:it |and )?therefore cannot be built with (?:this|the loaded) version\b.*$")


def sphinx_words(exc: str | None, message: str, frames: list[str]) -> Parts:
    """The ``sphinx-builds`` rule: nbsphinx's missing pandoc without the notebook it was converting; a release an
    extension needs without Sphinx's words after it."""
    if message.startswith("PandocMissing in "):
        message = _PANDOC.sub(_PANDOC_WORDS, message)
    elif exc == "VersionRequirementError" and "therefore cannot be built" in message:
        message = _CANNOT_BUILD.sub("", message)
    return exc, message, frames


DOCS_BUILD_ERRORS: list[BareError] = [
    # (a post may begin inside its first word: "d not import extension ...")
    BareError(
        "sphinx-extension",
        ("not import extension ",),
        re.compile(
            r"(?:^|Coul)d not import extension \S{1,200} \(exception: "
            r"(?P<msg>(?:(?P<mod>No module named)|cannot import name) [^()]{1,300}?)(?: \([^()]{1,500}\))?\)$"
        ),
        lambda m: "ModuleNotFoundError" if m["mod"] else "ImportError",
    ),
    BareError(
        "sphinx-theme",
        ("no theme named '",),
        re.compile(r"(?:^|ThemeError: )(?P<msg>no theme named '[^']{1,100}' found)\b"),
        "ThemeError",
    ),
    BareError(
        "sphinx-version",
        ("needs at least Sphinx v", "at least in version "),
        re.compile(
            r"(?P<msg>The \S{1,200} extension used by this project needs at least Sphinx v[\d.]{1,12}\d|"
            r"This project needs the extension \S{1,200} at least in version [\d.]{1,12}\d)"
        ),
        "VersionRequirementError",
    ),
    BareError(
        "nbsphinx-pandoc",
        ("PandocMissing in ",),
        re.compile(r"^(?:[\w.]{0,60}NotebookError: )?PandocMissing in \S{1,300}:"),
        "NotebookError",
        message=lambda m: _PANDOC_WORDS,
    ),
]
