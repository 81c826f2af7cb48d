"""IPython's tracebacks read as Python's: its frame headers (IPython 7's, 8's, Colab's links) as
``  File "x.py", line 12, in f``, its numbered source lines told apart, its rules dropped. Pure."""

from __future__ import annotations

import re

# IPython's frames: "Cell In[3], line 5", "File ~/x.py:12, in f(a, b)", "----> 12 y = f(x)" (a file
# in quotes is Python's own frame, its indentation taken off: paste.reindent's); IPython 8's frame of a
# module's own code names no function: "File ~/x/__init__.py:17".
_IPY_FILE = re.compile(
    r"^(?:File|Cell) (?P<file>[^\n\"][^\n]{0,499}?)(?::(?P<line>\d{1,7})|, line (?P<line2>\d{1,7})),"
    r" in (?P<func>[\w.<>]{1,200})"
)
# IPython 7's: "/usr/lib/python3.7/x.py in f(a, b)", "<ipython-input-8-bc07f049eb27> in <module>", and
# Colab's rendering of them as links: "[/content/x.py](https://localhost:8080/#) in f(a)", and Windows paths
_IPY7_FILE = re.compile(
    r"^\[?(?P<file>(?:/|~/|<ipython-input-|[A-Za-z]:\\)[^\s\[\]()]{1,500}?|"
    r"[\w.-]{1,100}/[^\s\[\]()]{1,500}?\.py)(?:\]\([^)\s]{1,300}\))? "
    r"in (?P<func><cell line: \d{1,7}>|<\w{1,40}>|[\w.]{1,200})(?:\(|$)"
)
# a cell's file, named by a number each run draws anew: "<ipython-input-8-bc07f049eb27>", Colab's
# "/tmp/ipython-input-3209941142.py"
_IPY_INPUT_FILE = re.compile(r"(?:^<|/)ipython-input-[\w-]{1,60}(?:\.py|>)$")
_IPY_MODULE = re.compile(r"^File (?P<file>[~/][^\s\"]{1,500}?\.py):(?P<line>\d{1,7})$")
_IPY_CELL = re.compile(r"^Cell In\s?\[\d+\], line (?P<line>\d{1,7})")
# IPython 8.0-8.3's cell: "Input In [1], in <cell line: 1>()"
_IPY_INPUT = re.compile(r"^Input In \[\d{1,7}\], in <cell line: (?P<line>\d{1,7})>\(")
_IPY_ARROW = re.compile(r"^-{1,}> ?\d{1,7} |^ {3,}\d{1,7} ")  # ("-> 1297 ": the arrow shortened for a longer number)
_IPY_RULE = re.compile(r"^-{20,}\s*$")
# VS Code's and JupyterLab's rendering of a notebook's traceback link line numbers and files: "Cell In[17], [line
# 29](vscode-notebook-cell:?execution_count=17&line=29)", "---> [29](vscode-notebook-cell:...) y = f(x)", "File
# [~\\x\\y.py:12](http://localhost:8888/lab/tree/...#line=11), in f(...)": the link's text is the frame's
_NOTEBOOK_LINK = re.compile(
    r"\[((?:line )?\d{1,7}|[^\]\n]{1,500}?\.py(?::\d{1,7})?)\]\((?:vscode-|file:|https?://)[^)\s]{0,800}\)"
)
# (only on a frame's or a source line's head: a GitHub Actions log links its line numbers too)
_LINKED_FRAME = re.compile(r"^(?:File \[|Cell In|-{1,}> ?\[| {3,}\[)")


def _unlinked(line: str) -> str:
    return _NOTEBOOK_LINK.sub(r"\1", line) if "](" in line and _LINKED_FRAME.match(line) else line


def frame(line: str) -> str:
    """IPython's frame headers as Python's (``  File "x.py", line 12, in f``); its arrows dropped."""
    line = _unlinked(line)
    # a Windows path ("C:\\anaconda3\\lib\\x.py in f(a)") or a relative one ("google3/x/scope.py in make_rng(self)")
    other_path = line[1:3] == ":\\" or (".py in " in line and line[:1].isalnum())
    if not line or (line[0] not in "FCI-/[<~" and not other_path):
        return line
    if line[0] in "/[<~" or other_path:
        m = _IPY7_FILE.match(line)
        if m is None:
            return line
        func = "<module>" if m.group("func").startswith("<cell") else m.group("func")
        file = "<ipython-cell>" if _IPY_INPUT_FILE.search(m.group("file")) else m.group("file")
        return f'  File "{file}", line 0, in {func}'
    m = _IPY_FILE.match(line)
    if m and (m.group("line") or m.group("line2")):
        file = m.group("file")
        if line.startswith("Cell "):  # (a cell's number is the run's: "Cell In[17], line 3, in f")
            file = "<ipython-cell>"
        return f'  File "{file}", line {m.group("line") or m.group("line2")}, in {m.group("func")}'
    m = _IPY_MODULE.match(line)
    if m:
        return f'  File "{m.group("file")}", line {m.group("line")}, in <module>'
    m = _IPY_CELL.match(line) or _IPY_INPUT.match(line)
    if m:
        return f'  File "<ipython-cell>", line {m.group("line")}, in <module>'
    if _IPY_RULE.match(line):
        return ""
    return line


def is_source(line: str) -> bool:
    """Whether ``line`` is IPython's numbered source line (``----> 12 y = f(x)``, ``     13 z = 1``)."""
    return bool(_IPY_ARROW.match(_unlinked(line)))
