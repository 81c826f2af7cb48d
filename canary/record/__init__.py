"""The run record: everything canary remembers about one run, pass or fail.

Plain dataclasses with a JSON round trip (``to_dict`` / ``from_dict``) under a schema version
(``schema``: :data:`SCHEMA_VERSION`); a record an older canary wrote is brought up to it in one
place, step by step (:func:`migrate`), so no reader carries "an older canary wrote..." branches,
and a record of a newer schema is a clear error. The runner produces one,
``result.json`` in the run directory holds it (:mod:`canary.formats.directory` reads and writes it),
the history store keeps it, and the notifier and reports read it. What the record says of itself
is asked of it: an attempt's fingerprint, whether it failed, and its compilation cache facts,
above all whether its program was *lowered cold* (one definition, :func:`lowered_cold`, used by
the classification, the notifier's words and the history's queries). Pure data; no I/O.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from dataclasses import asdict, dataclass, field, fields, replace
from functools import cache
from typing import Any

from canary.record import schema
from canary.record.cache_facts import (
    COLD_MODES,
    cache_read_errors,
    cold_in_part,
    cold_reason,
    lowered_cold,
    poisoned_entry,
    verified_words,
)
from canary.record.schema import SCHEMA_VERSION, SchemaError

__all__ = [
    "COLD_MODES",
    "SCHEMA_VERSION",
    "Attempt",
    "RunRecord",
    "SchemaError",
    "Signature",
    "as_float",
    "cache_read_errors",
    "check_id",
    "cold_in_part",
    "cold_reason",
    "jsonable",
    "lowered_cold",
    "migrate",
    "plain",
    "poisoned_entry",
    "scrub_texts",
    "verified_words",
]

# What an id that becomes a file or folder name may hold: no separator, no "..", no control.
_SAFE_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9._:+=-]{0,199}")


def check_id(value: Any, what: str) -> str:
    """``value`` when it is safe as one path component; otherwise ValueError naming ``what``."""
    if not isinstance(value, str) or not _SAFE_ID.fullmatch(value) or ".." in value:
        shown = repr(value)[:80] if isinstance(value, str) else f"a JSON {type(value).__name__}"
        raise ValueError(
            f"{what} {shown} is not a safe id (letters, digits and ._:+=- only, no '..', at most 200 characters)"
        )
    return value


SignatureKind = str  # compile_error | runtime_crash | nan | timeout | gate_regression | infrastructure
Classification = str  # pass | deterministic | intermittent | cache-masked


@dataclass(frozen=True)
class Signature:
    """What identifies a failure across runs. ``fingerprint`` is short and stable."""

    fingerprint: str
    kind: SignatureKind
    exception: str | None = None
    message: str = ""
    frames: list[str] = field(default_factory=list)
    excerpt: str = ""  # the log lines the signature was taken from (for people, not for matching)
    group: str = ""  # a coarser key: error class and failing op or kernel (see canary.signature)
    legacy: list[str] = field(default_factory=list)  # fingerprints this failure had by earlier rules

    @classmethod
    def from_dict(cls, d: dict[str, Any] | None) -> Signature | None:
        if not d:
            return None
        d = dict(d)
        d["frames"] = list(d.get("frames") or [])
        d["legacy"] = list(d.get("legacy") or [])
        return cls(**{k: d[k] for k in _field_names(cls) if k in d})

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    def scrubbed(self, scrub: Callable[[str], str]) -> Signature:
        """This signature with ``scrub`` (e.g. secret redaction) applied to the texts it took from
        the log; its fingerprint and group, taken before, stay as they are."""
        return replace(
            self,
            exception=scrub_texts(self.exception, scrub),
            message=scrub(self.message),
            frames=[scrub(f) for f in self.frames],
            excerpt=scrub(self.excerpt),
        )


@dataclass
class Attempt:
    number: int
    outcome: str  # succeeded | failed | timeout | never_started | stopped | lost
    exit_code: int | None
    duration_s: float
    log_path: str
    steps_completed: int | None = None
    final_loss: float | None = None
    detail: str = ""
    error: str | None = None  # the traceback excerpt of a failed attempt
    cache: dict[str, Any] | None = None  # mode, requests, hits, misses, errors, compile_seconds
    signature: Signature | None = None
    job_id: str | None = None

    @property
    def fingerprint(self) -> str | None:
        return self.signature.fingerprint if self.signature else None

    @property
    def failed(self) -> bool:
        """It did not run to the end, or it carries a failure signature (a completed attempt that
        failed its gates gets a ``gate_regression`` or ``nan`` one)."""
        return self.outcome != "succeeded" or self.signature is not None

    def lowered_cold(self) -> bool | None:
        return lowered_cold(self.cache)

    def cold_reason(self) -> str | None:
        return cold_reason(self.cache)

    def cache_read_errors(self) -> list[str]:
        return cache_read_errors(self.cache)

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Attempt:
        d = dict(d)
        d["signature"] = Signature.from_dict(d.get("signature"))
        d["final_loss"] = as_float(d.get("final_loss"))
        return cls(**{k: d[k] for k in _field_names(cls) if k in d})


_SHAPES = (
    ("attempts", list),
    ("gates", list),
    ("summary", dict),
    ("versions", dict),
    ("context", dict),
    ("cache", dict),
)


@dataclass
class RunRecord:
    run_id: str
    lane: str
    ferry: str
    ferry_version: int
    verdict: str  # pass | fail
    steps_completed: int | None
    final_loss: float | None
    gates: list[dict[str, Any]]
    run_dir: str
    attempts: list[Attempt] = field(default_factory=list)
    error: str | None = None
    started_at: str = ""
    ended_at: str = ""
    summary: dict[str, Any] = field(default_factory=dict)
    versions: dict[str, str] = field(default_factory=dict)  # canary, jax, jaxlib, optax, the stack's
    # the installed distribution that owns the failing call path's innermost frame ("marin-haliax")
    failing_distribution: str | None = None
    commit: str | None = None  # the checkout's git commit
    classification: Classification | None = None
    signature: Signature | None = None
    cache: dict[str, Any] | None = None
    context: dict[str, Any] = field(default_factory=dict)  # job_id, ci_run_url, wandb_url, ...
    steps_requested: int | None = None  # the steps asked for (a quick --steps run asks fewer)
    # The steps the ferry sets for the lane: a run that asked for fewer (a repro, --steps) is short,
    # kept in the history but never its series' last pass or streak. None in older records.
    ferry_steps: int | None = None
    # The ferry and gates files the run used: where they came from, and a sha256 of their bytes
    # (a ferries/ directory in the working directory shadows the pinned ferry). None in records
    # made before these were kept.
    ferry_path: str | None = None
    ferry_sha256: str | None = None
    gates_path: str | None = None
    gates_sha256: str | None = None
    # Why the run is an experiment: its ferry or gates file differs from the pinned one of its
    # ferry's name (canary.config.files.experiment). Recorded, never its series' evidence (last
    # pass, streak, flakiness, charts, notifications). None: the pinned files, or records before.
    experiment: str | None = None

    def to_dict(self) -> dict[str, Any]:
        return {"schema": SCHEMA_VERSION, **plain(self)}

    @property
    def fingerprint(self) -> str | None:
        """The fingerprint as recorded (:func:`canary.history.queries.fingerprint_of` names it by
        today's rules, folding a record an earlier canary wrote again)."""
        return self.signature.fingerprint if self.signature else None

    def run_cache(self) -> dict[str, Any] | None:
        """The run's compilation cache facts: the record's, else its latest attempt's that has them."""
        if self.cache:
            return self.cache
        return next((a.cache for a in reversed(self.attempts) if a.cache), None)

    def lowered_cold(self) -> bool | None:
        """Whether the run's attempts lowered cold: all of them (True), none (False), unknown (None)."""
        facts = [a.lowered_cold() for a in self.attempts] or [lowered_cold(self.cache)]
        if any(f is None for f in facts):
            return None
        return all(facts) if all(facts) or not any(facts) else None

    def cache_read_failed(self) -> bool:
        """Whether any attempt of the run (or the run's own facts) logged a cache read failure."""
        return any(a.cache_read_errors() for a in self.attempts) or bool(cache_read_errors(self.cache))

    def scrubbed(self, scrub: Callable[[str], str]) -> RunRecord:
        """This record with ``scrub`` (e.g. secret redaction) applied to every text that came from
        outside: errors, details, signatures, summary and context values. Ids, paths and
        fingerprints are canary's own and stay as they are."""
        return replace(
            self,
            error=scrub_texts(self.error, scrub),
            signature=_scrub_signature(self.signature, scrub),
            attempts=[
                replace(
                    a,
                    error=scrub_texts(a.error, scrub),
                    detail=scrub_texts(a.detail, scrub),
                    signature=_scrub_signature(a.signature, scrub),
                    cache=scrub_texts(a.cache, scrub),
                )
                for a in self.attempts
            ],
            summary=scrub_texts(self.summary, scrub),
            context=scrub_texts(self.context, scrub),
            cache=scrub_texts(self.cache, scrub),
        )

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> RunRecord:
        """A record read back from its JSON, of any schema this canary knows (:func:`migrate`)."""
        d = migrate(d)
        check_id(d.get("run_id"), "run_id")  # it names files: a spool entry, a run directory
        for key, kind in _SHAPES:  # a shared history's record is input: a list where a dict belongs
            if d.get(key) is not None and not isinstance(d[key], kind):
                raise ValueError(
                    f"{key} is a JSON {type(d[key]).__name__}, not {'a list' if kind is list else 'an object'}"
                )
        d["attempts"] = [Attempt.from_dict(a) for a in d.get("attempts", [])]
        d["signature"] = Signature.from_dict(d.get("signature"))
        d["final_loss"] = as_float(d.get("final_loss"))
        return cls(**{k: d[k] for k in _field_names(cls) if k in d})


def scrub_texts(v: Any, scrub: Callable[[str], str]) -> Any:
    """``v`` (JSON-like) with ``scrub`` applied to every string in it, a mapping's keys too (a
    trainer's config may be keyed by what it should not have printed)."""
    if isinstance(v, str):
        return scrub(v)
    if isinstance(v, dict):
        return {scrub_texts(k, scrub): scrub_texts(x, scrub) for k, x in v.items()}
    if isinstance(v, (list, tuple)):
        return type(v)(scrub_texts(x, scrub) for x in v)
    return v


def _scrub_signature(sig: Signature | None, scrub: Callable[[str], str]) -> Signature | None:
    return None if sig is None else sig.scrubbed(scrub)


def as_float(v: Any) -> float | None:
    """A metric value as a float; 'nan'/'inf' strings (JSON has no NaN) become floats."""
    if isinstance(v, bool) or v is None:
        return None
    if isinstance(v, (int, float)):
        return float(v)
    if isinstance(v, str):
        try:
            return float(v)
        except ValueError:
            return None
    return None


@cache
def _field_names(cls: type) -> tuple[str, ...]:
    return tuple(f.name for f in fields(cls))


def plain(v: Any) -> Any:
    """``jsonable(asdict(v))`` in one walk and without asdict's deep copies (a history of 100,000
    runs is written as JSON): dataclasses as dicts, tuples as lists, NaN and Inf as strings;
    every container is new."""
    kind = type(v)
    if kind in _AS_IS:
        return v
    if kind is float:
        return v if math.isfinite(v) else str(v)
    if isinstance(v, dict):
        return {k: x if type(x) in _AS_IS else plain(x) for k, x in v.items()}
    if isinstance(v, (list, tuple)):
        return [x if type(x) in _AS_IS else plain(x) for x in v]
    if hasattr(kind, "__dataclass_fields__"):
        return {k: plain(getattr(v, k)) for k in _field_names(kind)}
    return jsonable(v)


_AS_IS = frozenset({str, int, bool, type(None)})


def jsonable(v: Any) -> Any:
    """NaN and Inf as strings ("nan", "inf"), as levanter's tracker writes them: JSON has no such
    numbers. :func:`as_float` reads them back."""
    if isinstance(v, float) and not math.isfinite(v):
        return str(v)
    if isinstance(v, dict):
        return {k: jsonable(x) for k, x in v.items()}
    if isinstance(v, (list, tuple)):
        return [jsonable(x) for x in v]
    return v


def migrate(d: dict[str, Any]) -> dict[str, Any]:
    """A run record's JSON brought up to today's schema (:mod:`canary.record.schema`)."""
    return schema.migrate(d, frozenset(_field_names(RunRecord)))
