"""No secret kept or posted: every shape a token, key or password takes in a log
(:mod:`canary.text.secret_shapes`), and the environment's own secret values (whole, in pieces,
in every encoding a log spells them, inside base64).

Everything here but :func:`redact_file` is pure string work, linear in its input. What makes
redacted text safe to post as markdown (mentions, markers, fences, size) is
:mod:`canary.text.markdown`.
"""

from __future__ import annotations

import base64
import json
import os
import re
import urllib.parse
from collections.abc import Iterable, Mapping
from pathlib import Path

from canary.text.secret_shapes import REDACTED
from canary.text.shape_search import replace_shapes
from canary.textio import printable

# A secret's variable: ..._TOKEN, ..._SECRET_KEY (MINIO_SECRET_KEY), any ..._KEY, also as base64,
# JSON or data (GCP_SA_KEY_B64, ..._CREDENTIALS_JSON).
_SECRET_ENV = re.compile(
    r"(?:TOKEN|SECRET|PASSWORD|PASSWD|CREDENTIALS?|(?:^|_)(?:API|ACCESS|PRIVATE|SECRET)?_?KEY)"
    r"(?:_B64|_BASE64|_JSON|_DATA)?$",
    re.I,
)


def env_secrets(environ: Mapping[str, str]) -> tuple[str, ...]:
    """Values of the environment's secret-named variables (GITHUB_TOKEN, WANDB_API_KEY, ...):
    never to be kept or posted, whatever they look like."""
    return tuple(v for k, v in environ.items() if _SECRET_ENV.search(k) and len(v) >= 8)


def encoded_forms(secret: str) -> set[str]:
    """The ways a log may spell one secret: as is, URL-encoded, JSON-escaped, in a Python repr,
    in base64 (standard and URL-safe, without its padding), in hex, as \\u escapes."""
    raw = secret.encode("utf-8", "surrogatepass")
    forms = {
        secret,
        urllib.parse.quote(secret, safe=""),
        urllib.parse.quote_plus(secret),
        json.dumps(secret)[1:-1],
        repr(secret)[1:-1],
        base64.b64encode(raw).decode().rstrip("="),
        base64.urlsafe_b64encode(raw).decode().rstrip("="),
        raw.hex(),
        raw.hex().upper(),
        "".join(f"\\u{ord(c):04x}" for c in secret),
        "".join(c if c in _UNESCAPED else f"\\u{ord(c):04x}" for c in secret),  # as _plain leaves it
    }
    return {f for f in forms if f}


SUBSTRING_MIN = 8  # a secret's fragment this long (a token printed in two halves) is redacted too


def _opaque(secret: str) -> bool:
    """A value whose fragments are worth hunting: not a path or a URL, which share their parts
    with every path and URL in a log."""
    return not (
        any(c.isspace() for c in secret)
        or secret.startswith(("/", "~", "."))
        or "://" in secret
        or os.sep in secret[:3]
    )


def _fragments(text: str, secrets: Iterable[str]) -> str:
    """``text`` with every piece of a secret at least SUBSTRING_MIN characters long redacted (a
    token printed in two halves). Linear: one ``str.find`` pass per fragment start, jumping over
    what is already covered."""
    n = SUBSTRING_MIN
    cover: bytearray | None = None
    for secret in secrets:
        for i in range(len(secret) - n + 1):
            gram = secret[i : i + n]
            pos = text.find(gram)
            while pos != -1:
                if cover is None:
                    cover = bytearray(len(text))
                free = cover.find(0, pos, pos + n)
                if free == -1:  # inside what is already covered: on past it
                    nxt = cover.find(0, pos)
                    pos = -1 if nxt == -1 else text.find(gram, max(pos + 1, nxt - n + 1))
                    continue
                lo, k = pos, i
                while lo > 0 and k > 0 and text[lo - 1] == secret[k - 1]:
                    lo, k = lo - 1, k - 1
                hi, k = pos + n, i + n
                while hi < len(text) and k < len(secret) and text[hi] == secret[k]:
                    hi, k = hi + 1, k + 1
                cover[lo:hi] = b"\x01" * (hi - lo)
                pos = text.find(gram, pos + 1)
    if cover is None:
        return text
    out, at = [], 0
    for m in re.finditer(b"\x01+", cover):
        out += [text[at : m.start()], REDACTED]
        at = m.end()
    return "".join(out) + text[at:]


# A run of base64 (standard or URL-safe) long enough to hide a credential: decoded (its first
# B64_MAX characters), and redacted whole when what it holds is a secret (a token shape, a PEM key,
# an environment secret) or a user:password pair.
# (Base64 of 12 bytes or more mixes cases: a run without both, in its first 256 characters, is a
# path or a word, never tried.)
_B64 = re.compile(
    r"(?<![A-Za-z0-9+/_\-])(?<!%)(?<!%2)(?=(?:[a-z0-9+/_\-]|%2[BbFf]){0,256}+[A-Z])(?=(?:[A-Z0-9+/_\-]|%2[BbFf]){0,256}+[a-z])"
    r"(?:[A-Za-z0-9+/_\-]|%2[BbFf]){16,}+(?:=|%3[Dd]){0,2}"
)
B64_MAX = 1 << 16
_USER_PASS = re.compile(r"[^\s:]{1,128}:[^\s]{6,}")


def _decoded(blob: str) -> str | None:
    """What a run of base64 says, when it says printable text: the whole run, or (a suffix glued
    on) its longest whole 4-character groups."""
    body = urllib.parse.unquote(blob).rstrip("=") if "%" in blob else blob.rstrip("=")
    body = body[:B64_MAX]
    if body.islower() or body.isupper():  # base64 of 12 bytes or more mixes cases
        return None
    decode = base64.urlsafe_b64decode if ("-" in body or "_" in body) else base64.b64decode
    starts = [0] + [i + 1 for i, c in enumerate(body[:64]) if c == "/"][:3]  # a path's folders before it
    for start in starts:
        part = body[start:]
        for cut in dict.fromkeys((len(part), len(part) // 4 * 4, len(part) // 4 * 4 - 4)):
            if cut < 12 or cut % 4 == 1:
                continue
            try:
                text = decode(part[:cut] + "=" * (-cut % 4)).decode("utf-8")
            except (ValueError, UnicodeDecodeError):
                continue
            if text.isprintable() or _LAYOUT.sub("", text).isprintable():  # a JSON file, a PEM key
                return text
    return None


def _redact_base64(text: str, secrets: Iterable[str]) -> str:
    def one(m: re.Match[str]) -> str:
        blob, keep = m.group(0), ""
        if m.start() and text[m.start() - 1] == "\\" and blob[0] in "nrt":  # an escaped line break before it
            blob, keep = blob[1:], blob[0]
        inner = _decoded(blob)
        if inner is None:
            return m.group(0)
        if _USER_PASS.match(inner) or _redact(inner, secrets, nested=True) != inner:
            return keep + REDACTED
        return m.group(0)

    return _B64.sub(one, text)


_LAYOUT = re.compile(r"[\n\r\t]")
# What a log escapes but means as is: a colour escaped in JSON or a repr ("\u001b[31m", "\x1b[0m"),
# which would hide a secret it interrupts as the escape itself does; a letter or digit written
# \u0070 (a secret's name spelled so that no pattern knows it). Quotes and backslashes stay escaped,
# and so does what follows an escaped backslash (JSON stays JSON).
_ESCAPED = re.compile(r"(?<!\\)\\(?:(?:u001[bB]|x1[bB]|033|e)\[[0-?]{0,64}[ -/]{0,16}[@-~]|u00[2-7][0-9a-fA-F])")
_UNESCAPED = frozenset(chr(c) for c in range(0x20, 0x80)) - set('"\\\x7f')


def _unescape(m: re.Match[str]) -> str:
    s = m.group(0)
    if s[1] != "u" or s.startswith(("\\u001b", "\\u001B")):
        return ""
    c = chr(int(s[2:], 16))
    return c if c in _UNESCAPED else s


def _plain(text: str) -> str:
    """``text`` as it reads: terminal controls stripped (so that what they interrupt is seen
    whole), escaped colours dropped and escaped letters written out."""
    text = printable(text)
    if "\\" in text and _ESCAPED.search(text):
        text = _ESCAPED.sub(_unescape, text)
    return text


def redact(text: str, secrets: Iterable[str] = ()) -> str:
    """``text`` without terminal controls (:func:`canary.textio.printable`, first: a secret they
    interrupt is rejoined and seen), and with every secret-looking token, every exact string in
    ``secrets`` in any of its :func:`encoded_forms`, and every fragment of one at least
    SUBSTRING_MIN characters long replaced; base64 that decodes to a secret or a user:password
    pair goes too. Safe to show or keep; redacting it again changes nothing."""
    return _redact(_plain(text), tuple(secrets))


def _redact(text: str, secrets: tuple[str, ...], nested: bool = False) -> str:
    secrets = tuple(s for s in secrets if s and len(s) >= 6)
    exact = {f for s in secrets for f in encoded_forms(s)}
    for s in sorted(exact, key=len, reverse=True):
        text = text.replace(s, REDACTED)
    text = _fragments(text, [s for s in secrets if len(s) >= SUBSTRING_MIN and _opaque(s)])
    text = replace_shapes(text)
    return text if nested else _redact_base64(text, secrets)


CHUNK = 4 << 20  # bytes of a log redacted at a time, cut at a line end


def _safe_cut(text: str) -> int:
    """Where a chunk of a log may end: after its last line end, but before a ``-----BEGIN``
    block that has not ended yet (a key cut in two would keep its second half)."""
    cut = text.rfind("\n") + 1
    begin = text.rfind("-----BEGIN", 0, cut)
    if begin != -1 and text.find("-----END", begin, cut) == -1:
        cut = text.rfind("\n", 0, begin) + 1
    return cut


def redact_file(path: Path, secrets: Iterable[str] = ()) -> bool:
    """Redacts a log file in place (a run directory is uploaded as a CI artifact: no copy of the
    log may keep a secret). Streams it in chunks cut at line ends, so a log of any size costs
    bounded memory; writes a sibling and renames it over the file only when something changed.
    Returns whether it did."""
    path = Path(path)
    tmp = path.with_name(path.name + ".redacting")
    changed = False
    try:
        with (
            path.open("r", encoding="utf-8", errors="replace", newline="") as src,
            tmp.open("w", encoding="utf-8", newline="") as dst,
        ):
            carry = ""
            while True:
                block = src.read(CHUNK)
                text = carry + block
                cut = _safe_cut(text) if block else len(text)
                if cut == 0 and block and len(text) < 16 * CHUNK:
                    carry = text  # no line end yet, or a key block still open: read on
                    continue
                cut = cut or len(text)
                part, carry = text[:cut], text[cut:]
                out = redact(part, secrets)
                changed |= out != part
                dst.write(out)
                if not block:
                    break
        if changed:
            os.replace(tmp, path)
        return changed
    finally:
        tmp.unlink(missing_ok=True)
