"""What the line that raised an exception says that the exception's own words leave out (the ``source-words`` rule of
:data:`canary.signature.folds.RULES`, read by :mod:`canary.signature.failure` before the parts exist): the module of a
name Python 3.6 could not import, of an attribute Python 2 missed, and the string a raise printed where a post cut it;
and a private extension a package probed for before the fallback whose failure is the log's. Pure.
"""

from __future__ import annotations

import re

# Python before 3.7 named a name it could not import without its module ("cannot import name b"); the statement that
# raised it names the module ("from redis._compat import b, unicode, bytes"), as 3.7's words do
_NAME_ALONE = re.compile(r"^cannot import name '?(\w{1,200})'?$")
_FROM_STATEMENT = re.compile(r"^from ([A-Za-z_][\w.]{0,200}) import \(?([\w, ]{1,1000})")


# Python 2 says a module lacks an attribute without naming it ("'module' object has no attribute 'RAW_OPT'"); the line
# that raised it names it where it reads the attribute off one name alone ("options={em.RAW_OPT: True}")
_PY2_OWNER = "'module' object"
_PY2_MODULE_ATTRIBUTE = re.compile(rf"^{_PY2_OWNER} has no attribute '(\w{{1,200}})'(?![\w'])")


# a package probing for its private compiled extension before a fallback ("import _libvips" in pyvips, whose ABI mode
# loads the C library with cffi while handling the ModuleNotFoundError): the fallback's failure, raised while
# handling the probe's, is the failure; a module not found raised in turn (numpy's advice) keeps the first
_PROBED = re.compile(r"^No module named '(?:[\w.]{1,200}\.)?_[a-z]\w{0,100}'$")


def fallback_probe(first: str, message: str, then: str, link: str) -> bool:
    """Whether an exception ``first`` with ``message`` is a private extension's probe that a fallback raising
    ``then`` while handling it (``link`` "context") followed."""
    probe = first.rsplit(".", 1)[-1] in ("ModuleNotFoundError", "ImportError") and bool(_PROBED.match(message))
    return probe and link == "context" and not then.rsplit(".", 1)[-1].endswith(("ImportError", "ModuleNotFoundError"))


# a raise of a string alone ('raise Exception("yfinance failed to decrypt Yahoo data response")'): what it printed
_RAISE_LITERAL = re.compile(r"""^raise [A-Za-z_][\w.]{0,200}\((["'])([^"'\\{}]{1,1000})\1\)$""")


def words_from_source(message: str, code: str) -> str:
    """``message`` in Python 3.7's words where it names an imported name alone and ``code``, the line that raised it,
    imports that name from a module it names (not a relative one, which names no module by itself; the first line of
    a statement that goes on names it too); in Python 3's where Python 2's names no module and ``code`` reads the
    attribute off one name; whole where a post cut it and ``code`` raised it as a string alone."""
    if a := _PY2_MODULE_ATTRIBUTE.match(message):
        owners = set(re.findall(rf"(?<![\w.])([A-Za-z_]\w{{0,100}})\.{a[1]}\b", code))
        return f"module '{owners.pop()}'{message[len(_PY2_OWNER) :]}" if len(owners) == 1 else message
    if (r := _RAISE_LITERAL.match(code)) and len(message) < len(r[2]) and r[2].startswith(message) and message:
        return r[2]
    m = _NAME_ALONE.match(message)
    s = _FROM_STATEMENT.match(code) if m else None
    names = [name.split(" as ")[0].strip() for name in s[2].split(",")] if s else []
    if m and s and (m[1] in names or (code.count("(") > code.count(")") and code.rstrip().endswith(","))):
        return f"cannot import name '{m[1]}' from '{s[1]}'"
    return message
