"""What a paste did to a whole log is undone: a viewer's tag on every line, a list item's indentation,
a page's HTML entities and non-breaking spaces. One failure pasted with and without them is one
fingerprint; what only looks like a tag stays."""

import html
import textwrap
from pathlib import Path

import pytest

from canary.signature import extract
from canary.signature.lines import clean_lines, unwrap
from canary.signature.paste import reflow, rejoin, unpage, untag

REAL = Path(__file__).parent / "logs" / "real"
# a Python traceback, a glog record whose level matters (jax's INFO-level backend attempt), NCCL's
# runtime line wrapped by a terminal, and a pytest report with IPython frames
LOGS = ["diffusers-2410.log", "jax-10461.log", "easydel-78.log", "levanter-1138.log", "jax-17399.log"]


def _lines(text, fn):
    """Each line of ``text`` through ``fn``, as a collector tags them: before a terminal folds them
    (so the lines of a log saved from a terminal are its lines unfolded)."""
    return "\n".join(fn(i, line) for i, line in enumerate(unwrap(text.splitlines())))


def _paste(text, fn):
    """Each line of ``text`` through ``fn``, as a paste marks them: after the terminal."""
    return "\n".join(fn(i, line) for i, line in enumerate(text.splitlines()))


PASTES = {
    "a viewer's tag": lambda t: _lines(t, lambda i, line: "[trainer] " + line),
    "a compose service's tag": lambda t: _lines(t, lambda i, line: "trainer-1  | " + line),
    "a clock's tag": lambda t: _lines(t, lambda i, line: f"12:{i % 60:02d}:{(7 * i) % 60:02d} " + line),
    "a worker's tag": lambda t: _lines(t, lambda i, line: f"[worker {i % 12}] " + line),
    "line numbers' tag": lambda t: _lines(t, lambda i, line: f"{i + 1:>4}  " + line),
    "a list item's indentation": lambda t: _paste(t, lambda i, line: "    " + line),
    "tabs": lambda t: _paste(t, lambda i, line: "\t" + line),
    "HTML entities": lambda t: html.escape(t, quote=True),
    "non-breaking spaces": lambda t: t.replace("  ", "\u00a0\u00a0"),
    "a typesetter's quotes": lambda t: t.replace("'", "\u2019").replace('"', "\u201c"),
    "a byte order mark and zero-width spaces": lambda t: "\ufeff" + t.replace("_", "_\u200b"),
    "a double-spaced copy": lambda t: t.replace("\n", "\n\n"),
    "markdown's escapes": lambda t: t.replace("_", "\\_"),
}


# jax-10461's lines were padded to a terminal's width: tagged, they would be a terminal's folds; a
# double-spaced copy is told by a traceback's frames, which diffusers-2410's one message has not
CASES = [
    (log, paste)
    for log in LOGS
    for paste in PASTES
    if not (log == "jax-10461.log" and "tag" in paste) and not (log == "diffusers-2410.log" and "double" in paste)
]


@pytest.mark.parametrize(("log", "paste"), CASES)
def test_a_paste_leaves_the_fingerprint(log, paste):
    text = (REAL / log).read_text(encoding="utf-8")
    plain, pasted = extract(text), extract(PASTES[paste](text))
    assert plain is not None and pasted is not None
    assert (pasted.fingerprint, pasted.exception, pasted.message) == (plain.fingerprint, plain.exception, plain.message)


def test_a_tag_before_a_loggers_record_leaves_the_record():
    lines = clean_lines(
        "job-7 | I0808 10:00:00.000000  4242 xla_bridge.py:863] Unable to initialize backend 'tpu': NOT_FOUND\n"
        "job-7 | Traceback (most recent call last):\n"
        'job-7 |   File "train.py", line 3, in <module>\n'
        "job-7 | ValueError: the shapes do not match\n"
    )
    assert lines[0].startswith("Unable to initialize backend")
    assert lines[2] == '  File "train.py", line 3, in <module>'  # its own indentation kept
    assert 0 in lines.records and 0 in lines.info


def test_what_only_looks_like_a_tag_stays():
    # three failures of one class are three failures, not a tag
    same_class = ["ValueError: a is 1", "ValueError: b is 2", "ValueError: c is 3"]
    assert untag(same_class, lambda s: False) == same_class
    # on two lines, only a tag with a bracket, a pipe or a number is told from a sentence
    two = ["Resource exhausted: OOM when allocating", "Resource exhausted: in the step"]
    assert untag(two, lambda s: False) == two
    assert untag(["[x] Traceback (most recent call last):", "[x] ValueError: y"], lambda s: False)[1] == "ValueError: y"
    # a decoration the reader strips by name is its own (a glog record's prefix, with its level)
    glog = [f"E0828 03:15:0{i}.123456  4242 pjit.py:12] line {i}" for i in range(4)]
    assert untag(glog, lambda s: s.startswith("E0828")) == glog


def test_a_tag_on_most_lines_is_taken_where_it_is():
    raw = ["[w] Traceback (most recent call last):", '[w]   File "a.py", line 1, in <module>'] * 5
    raw += ["continued without it", "[w] ValueError: boom"]
    out = untag(raw, lambda s: False)
    assert out[1] == '  File "a.py", line 1, in <module>'
    assert out[-2:] == ["continued without it", "ValueError: boom"]


def test_a_messages_paragraphs_are_not_a_double_spaced_copy():
    paragraphs = ["ValueError: shard_map applied to f", "", "The mesh given has shape (1, 8)", "", "* args[0] of shape"]
    assert unpage(paragraphs) == paragraphs
    # markdown's escapes are undone only where every underscore is escaped
    assert unpage([r"a\_b c_d e_f", "x"]) == [r"a\_b c_d e_f", "x"]
    assert unpage([r"a\_b c\_d", r"\*x"]) == ["a_b c_d", "*x"]


def test_indentation_is_taken_only_where_every_line_has_it():
    assert unpage(["  a", "    b", "", "  c"]) == ["a", "  b", "", "c"]
    assert unpage(["a", "  b"]) == ["a", "  b"]


def test_a_traceback_broken_by_a_word_wrap_is_joined_again():
    text = (REAL / "craiyon-low-vram-1.log").read_text(encoding="utf-8")
    wrapped = "\n".join(part for line in text.splitlines() for part in (textwrap.wrap(line, 100) or [""]))
    assert any(line.endswith(", in") for line in wrapped.splitlines())  # a frame's line cut before its function
    assert extract(wrapped).fingerprint == extract(text).fingerprint
    # a word-wrapped message: each line broken where the next word would not have fitted
    prose = textwrap.wrap("ValueError: " + " ".join(f"word{i}" for i in range(60)), 72)
    assert reflow(prose, lambda s: False) == [" ".join(prose)]
    # a log's own lines of every length are no word wrap, nor are a logger's records
    records = [f"E0101 00:00:0{i}.000000 1 x.cc:1] " + "y" * (60 + 3 * i) for i in range(5)]
    assert reflow(records, lambda s: s.startswith("E0101")) == records
    # Ray's remote traceback goes on after its exception's line
    ray = ["Traceback (most recent call last):", '  File "a.py", line 1, in f', "    g()"]
    ray += ["ray.exceptions.RayTaskError(ValueError): ray::f()", '  File "b.py", line 2, in h']
    assert rejoin(ray) == ray
