"""Sphinx's reports of a documentation build that stopped, in the box it prints them in ("Extension error:", "Theme
error:", "Sphinx version error:", nbsphinx's "Notebook error:", each above its message). Pure.

An extension Sphinx could not import names the import's error inside its own words ("Could not import extension
sphinxcontrib.mermaid (exception: cannot import name 'ENOENT' from 'sphinx.util.osutil' (/x/osutil.py))", a name a
Sphinx release removed, a module a Python release removed): that error is the failure, under the class Python raises
it with; the extension's module path the machine's. A theme not installed ("no theme named 'sphinx_rtd_theme' found
(missing theme.conf?)", 7.3's "(missing theme.toml?)"), an extension that needs a newer Sphinx or a newer release of
itself, and nbsphinx without pandoc ("PandocMissing in tutorial.ipynb:" then "Pandoc wasn't found.") are named by what
is missing, not by which notebook, which Sphinx was running or which file the theme lacked; an extension's handler by
what it raised, in any language. MkDocs' removed options and Read the Docs' configuration keys are the build's
environment, named by the option or key. The recognisers take
their place in :data:`canary.signature.stacks.STACK_ERRORS`, the rule in :data:`canary.signature.stacks.STACK_RULES`.
"""

from __future__ import annotations

import re

from canary.signature.recogniser import BareError, environment_check
from canary.signature.rewordings import Parts

_PANDOC = re.compile(r"^PandocMissing in \S{1,300}:?.*$")
_PANDOC_WORDS = "PandocMissing: Pandoc wasn't found"


# (what Sphinx adds after the release it needs: "; it therefore cannot be built with this version.", "and therefore
# cannot be built with the loaded version (unknown version).")
_CANNOT_BUILD = re.compile(r";? (?:it |and )?therefore cannot be built with (?:this|the loaded) version\b.*$")


# Sphinx's ExtensionError around what an extension's handler raised, in the build's language ("Handler <function
# html_collect_pages at 0x7f...> for event 'html-collect-pages' threw an exception (exception: module 'sphinx.util' has
# no attribute 'console')"): the exception is the failure, not which handler or which language said so
_HANDLER = re.compile(r"^.{1,300}?'[\w-]{1,100}'.{1,200}?\(exception: (?P<inner>.{1,1000})\)$")


def sphinx_words(exc: str | None, message: str, frames: list[str]) -> Parts:
    """The ``sphinx-builds`` rule: nbsphinx's missing pandoc without the notebook it was converting; a release an
    extension needs without Sphinx's words after it; a handler's exception without Sphinx's words around it."""
    if exc == "ExtensionError" and message.endswith(")") and (m := _HANDLER.match(message)):
        return exc, m["inner"], frames
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
        # (or a library's own ImportError, its words wrapped onto the next line: "(exception: lxml.html.clean module is
        # now a separate project lxml_html_clean." above "Install lxml[html_clean] ...)")
        re.compile(
            r"(?:^|Coul)d not import extension \S{1,200} \(exception: "
            r"(?:(?P<msg>(?:(?P<mod>No module named)|cannot import name) [^()]{1,300}?)(?: \([^()]{1,500}\))?\)$|"
            r"(?P<own>[^()]{1,300}?\.)(?: .{0,300})?\)?$)"
        ),
        lambda m: "ModuleNotFoundError" if m["mod"] else "ImportError",
        message=lambda m: m["msg"] or m["own"],
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
    # MkDocs refusing an option a release removed ("ERROR    -  Config value 'pages': The configuration option 'pages'
    # was removed from MkDocs. Use 'nav' instead."), and Read the Docs refusing a configuration its builds no longer
    # take ('The configuration key "build.os" is required to build your documentation.', 'Invalid configuration option
    # "build.os": build not found'): which option or key, not the advice
    environment_check(
        "mkdocs-option-removed",
        ("was removed from MkDocs",),
        r"The configuration option '(?P<opt>[\w.-]{1,100})' was removed from MkDocs",
        None,
        message=lambda m: f"MkDocs: the configuration option '{m['opt']}' was removed",
    ),
    environment_check(
        "mkdocs-config-value",
        ("Config value",),
        r"Config value:? '(?P<opt>[\w.-]{1,100})'[.:] (?:Error: )?(?!The configuration option )(?P<why>[^.{]{1,200})",
        None,
        message=lambda m: f"MkDocs: config value '{m['opt']}': {m['why'].strip()}",
    ),
    # PyYAML's loader of a config's "!!python/name:" tag that could not import its module, below MkDocs' "error parsing
    # the configuration file: while constructing a Python object" ("cannot find module 'material.extensions.emoji' (No
    # module named 'material.extensions')"): the module not found, as Python raised it
    BareError(
        "yaml-python-name",
        ("cannot find module '",),
        re.compile(r"^cannot find module '[\w.]{1,200}' \((?P<msg>No module named '[\w.]{1,200}')\)"),
        "ModuleNotFoundError",
    ),
    environment_check(
        "readthedocs-config",
        ("is required to build your documentation", 'Invalid configuration option "'),
        r"(?:The configuration key \"(?P<key>[\w.-]{1,100})\" is required to build your documentation|Invalid "
        r"configuration option \"(?P<opt>[\w.-]{1,100})\": (?P<why>[^.]{1,200}))",
        None,
        message=lambda m: (
            f'Read the Docs: the configuration key "{m["key"]}" is required'
            if m["key"]
            else f'Read the Docs: invalid configuration option "{m["opt"]}": {m["why"]}'
        ),
    ),
    BareError(
        "nbsphinx-pandoc",
        ("PandocMissing in ",),
        re.compile(r"^(?:[\w.]{0,60}NotebookError: )?PandocMissing in \S{1,300}:"),
        "NotebookError",
        message=lambda m: _PANDOC_WORDS,
    ),
]
