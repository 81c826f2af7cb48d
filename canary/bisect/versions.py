"""Published versions, pure: pip's listing read, the window between two versions ordered, which
distributions move together, and the search for the first version whose verdict differs from the
old end's. No I/O: :mod:`canary.bisect.published` asks pip and runs the tests.

    window(["0.2.99.dev1", "0.2.97.dev3", "0.2.98.dev2"], "0.2.97.dev3", "0.2.99.dev1")
    # ['0.2.97.dev3', '0.2.98.dev2', '0.2.99.dev1']: ordered as packaging.version orders them
    probe = next_probe(len(versions), {0: "good", len(versions) - 1: "bad"})
    # Probe("test", index) -> test versions[index]; Probe("found", index) -> the first that differs
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

from packaging.requirements import InvalidRequirement, Requirement
from packaging.utils import canonicalize_name
from packaging.version import InvalidVersion, Version

from canary.errors import CanaryError, ConfigError


class IndexUnreachable(CanaryError):
    """The package index did not answer: what it publishes is unknown, not nothing."""


def parse_listing(text: str) -> list[str]:
    """The versions in ``pip index versions NAME --pre``'s answer (its ``Available versions:`` line)."""
    m = re.search(r"^Available versions:\s*(.*)$", text, re.M)
    return [v.strip() for v in m.group(1).split(",") if v.strip()] if m else []


# pip's words (at -vv) for an index page it could not fetch: refused, timed out, a 5xx, a proxy
_FETCH_FAILED = re.compile(r"^(?:Could not fetch URL|WARNING: Retrying) .*$", re.M)
_NOT_FOUND = re.compile(r"\b(?:404|410) Client Error")  # the index answering: no such project


def fetch_failures(text: str) -> list[str]:
    """The index fetches that failed in pip's ``-vv`` output, a 404 or 410 (an answer) aside."""
    return [ln.strip() for ln in _FETCH_FAILED.findall(text) if not _NOT_FOUND.search(ln)]


def _version(text: str, flag: str) -> Version:
    try:
        return Version(text)
    except InvalidVersion:
        raise ConfigError(f"{flag} {text!r} is not a version (PEP 440: e.g. 0.2.20.dev202606180959)") from None


def ordered(versions: Iterable[str]) -> list[str]:
    """Distinct parseable versions, oldest first (pre-releases and .dev builds in their PEP 440 place)."""
    parsed: dict[Version, str] = {}
    for v in versions:
        try:
            parsed.setdefault(Version(v), v)
        except InvalidVersion:
            continue
    return [parsed[k] for k in sorted(parsed)]


def window(published: Iterable[str], old: str, new: str, package: str = "the package") -> list[str]:
    """The published versions from ``old`` to ``new``, both ends included, oldest first. Raises
    ConfigError naming the bad flag when either end is not published or ``old`` is not older."""
    lo, hi = _version(old, "--old"), _version(new, "--new")
    if lo >= hi:
        raise ConfigError(f"--old {old} is not older than --new {new}: there is nothing to bisect")
    versions = ordered(published)
    known = {Version(v) for v in versions}
    for flag, text, want in (("--old", old, lo), ("--new", new, hi)):
        if want not in known:
            near = sorted(versions, key=lambda v: _distance(Version(v), want))[:3]
            hint = f"; the nearest are {', '.join(near)}" if near else "; none is published"
            raise ConfigError(f"{flag} {text}: no such version of {package} is published for this Python{hint}")
    return [v for v in versions if lo <= Version(v) <= hi]


def _distance(a: Version, b: Version) -> tuple[int, ...]:
    """How far apart two versions are, for naming the nearest ones: release part by part, then .dev number."""
    ra, rb = (a.release + (0, 0, 0))[:3], (b.release + (0, 0, 0))[:3]
    return (*(abs(x - y) for x, y in zip(ra, rb, strict=True)), abs((a.dev or 0) - (b.dev or 0)))


def between(versions: Iterable[str], old: str, new: str) -> list[str]:
    """The versions from ``old`` to ``new`` (both included), oldest first."""
    lo, hi = Version(old), Version(new)
    return [v for v in ordered(versions) if lo <= Version(v) <= hi]


def common(listings: Mapping[str, list[str]]) -> tuple[list[str], list[str]]:
    """(versions every package publishes, versions only some do), each oldest first."""
    sets = [{Version(v) for v in ordered(vs)} for vs in listings.values()]
    everyone = set.intersection(*sets) if sets else set()
    by_version = {Version(v): v for vs in listings.values() for v in ordered(vs)}
    some = set.union(*sets) - everyone if sets else set()
    return [by_version[v] for v in sorted(everyone)], [by_version[v] for v in sorted(some)]


def pinned_along(packages: Iterable[str], version: str, requires: Mapping[str, Iterable[str]]) -> list[str]:
    """The distributions that move with ``packages`` at ``version``: the packages themselves and,
    transitively, every distribution one of them pins to that same version (``marin-levanter``
    pins ``marin-haliax==V``, ``marin-fray==V``, ...). ``requires`` maps a distribution's name
    to its Requires-Dist lines (those without a known entry add nothing)."""
    want = Version(version)
    reqs = {canonicalize_name(k): list(v) for k, v in requires.items()}
    moving = [canonicalize_name(p) for p in packages]
    i = 0
    while i < len(moving):
        for line in reqs.get(moving[i], ()):
            try:
                req = Requirement(line)
            except InvalidRequirement:
                continue
            if req.marker is not None and not req.marker.evaluate({"extra": ""}):
                continue
            pins = [s for s in req.specifier if s.operator in ("==", "===")]
            if pins and all(_matches(s.version, want) for s in pins):
                name = canonicalize_name(req.name)
                if name not in moving:
                    moving.append(name)
        i += 1
    return moving


def _matches(pin: str, want: Version) -> bool:
    try:
        return Version(pin) == want
    except InvalidVersion:
        return False


# ----------------------------------------------------------------------------- the search


@dataclass(frozen=True)
class Probe:
    """What to do next: test ``index``; or the first version that differs is ``index`` ("found");
    or only untestable versions are left ("only-skipped": it is one of ``candidates``)."""

    kind: str  # test | found | only-skipped
    index: int | None = None
    candidates: tuple[int, ...] = field(default_factory=tuple)
    left: int = 0  # roughly how many tests are left (test)


def next_probe(n: int, verdicts: Mapping[int, str]) -> Probe:
    """Binary search over versions ``0 .. n-1`` (oldest first) for the first whose verdict differs
    from version 0's. ``verdicts`` holds what is known (good | bad | skip); both ends must be known,
    testable and different. A skipped version is stepped round, as ``git bisect skip`` does: the
    untested version nearest the middle is tested instead."""
    old, new = verdicts.get(0), verdicts.get(n - 1)
    if n < 2 or old in (None, "skip") or new in (None, "skip") or old == new:
        raise ValueError("both ends must be tested, testable and of different verdicts")
    lo = max(i for i, v in verdicts.items() if v == old)
    above = [i for i, v in verdicts.items() if v not in (old, "skip") and i > lo]
    hi = min(above) if above else n - 1
    inside = range(lo + 1, hi)
    untested = [i for i in inside if i not in verdicts]
    if untested:
        middle = (lo + hi) / 2
        index = min(untested, key=lambda i: (abs(i - middle), i))
        return Probe("test", index, left=math.ceil(math.log2(len(untested) + 1)))
    skipped = tuple(i for i in inside if verdicts.get(i) == "skip")
    if skipped:
        return Probe("only-skipped", candidates=skipped + (hi,))
    return Probe("found", hi)


def remaining(n: int, verdicts: Mapping[int, str]) -> list[int]:
    """The versions the first that differs can still be (when the search stops early)."""
    old = verdicts.get(0)
    lo = max((i for i, v in verdicts.items() if v == old), default=0)
    above = [i for i, v in verdicts.items() if v not in (old, "skip") and i > lo]
    hi = min(above) if above else n - 1
    return list(range(lo + 1, hi + 1))


# ----------------------------------------------------------------------------- untestable ends


@dataclass(frozen=True)
class Ends:
    """Where the bisect can start: test ``index`` next ("test"); the testable versions ``lo`` and
    ``hi`` stand in for the window's ends ("ready": ``lo`` is 0 or the oldest testable found, ``hi``
    ``n - 1`` or the newest); only one version, ``lo``, can be tested ("one"); none can ("none")."""

    kind: str  # test | ready | one | none
    index: int | None = None
    lo: int = 0
    hi: int = 0
    left: int = 0  # roughly how many tests are left before the ends are known (test)


def next_end(n: int, verdicts: Mapping[int, str]) -> Ends:
    """Step inward from an end that cannot be tested (verdict "skip") to the nearest version that
    can, as a user would: both ends are tested first; when no version is known to be testable, the
    untested version farthest from every tested one is tried (the window's middle, then its
    quarters, ...), so each is tested before "none" is said; from an untestable end, a binary search
    between the testable version nearest it and the untestable one nearest that finds where
    untestability stops. The search assumes that the versions it steps over between two untestable
    ones are untestable too; the caller names them (those outside ``lo``..``hi`` never tested)."""
    for end in (0, n - 1):
        if end not in verdicts:
            return Ends("test", end, left=2)
    testable = sorted(i for i, v in verdicts.items() if v != "skip" and 0 <= i < n)
    if not testable:
        untested = [i for i in range(n) if i not in verdicts]
        if not untested:
            return Ends("none")
        tested = sorted(verdicts)
        index = max(untested, key=lambda i: (min(abs(i - t) for t in tested), -i))
        return Ends("test", index, left=len(untested))
    lo, hi = testable[0], testable[-1]
    below = max(i for i in verdicts if i < lo) if lo > 0 else lo
    above = min(i for i in verdicts if i > hi) if hi < n - 1 else hi
    if lo - below > 1:
        return Ends("test", (below + lo) // 2, left=_log2(lo - below - 1) + _log2(above - hi - 1))
    if above - hi > 1:
        return Ends("test", (hi + above + 1) // 2, left=_log2(above - hi - 1))
    return Ends("one", lo=lo, hi=hi) if lo == hi else Ends("ready", lo=lo, hi=hi)


def _log2(k: int) -> int:
    return math.ceil(math.log2(k + 1)) if k > 0 else 0
