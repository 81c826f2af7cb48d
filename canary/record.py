"""The run record: everything canary remembers about one run, pass or fail.

Plain dataclasses with a JSON round trip (``to_dict`` / ``from_dict``). The runner produces one,
``result.json`` in the run directory holds it (:mod:`canary.run.directory` reads and writes it),
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

    def to_dict(self) -> dict[str, Any]:
        return plain(self)

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
            error=_scrub(self.error, scrub),
            signature=_scrub_signature(self.signature, scrub),
            attempts=[
                replace(
                    a,
                    error=_scrub(a.error, scrub),
                    detail=_scrub(a.detail, scrub),
                    signature=_scrub_signature(a.signature, scrub),
                    cache=_scrub(a.cache, scrub),
                )
                for a in self.attempts
            ],
            summary=_scrub(self.summary, scrub),
            context=_scrub(self.context, scrub),
            cache=_scrub(self.cache, scrub),
        )

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> RunRecord:
        d = dict(d)
        check_id(d.get("run_id"), "run_id")  # it names files: a spool entry, a run directory
        d["attempts"] = [Attempt.from_dict(a) for a in d.get("attempts", [])]
        d["signature"] = Signature.from_dict(d.get("signature"))
        d["final_loss"] = as_float(d.get("final_loss"))
        return cls(**{k: d[k] for k in _field_names(cls) if k in d})


# ----------------------------------------------------------------------------- compilation cache facts
# What the workload's cache.json says of one attempt: mode (warm | cold | off), requests, hits,
# misses, errors (the "Error reading/writing persistent compilation cache entry" warnings), dir,
# compile_seconds.

COLD_MODES = ("cold", "off", "disabled", "bypass")


def cache_read_errors(cache: dict[str, Any] | None) -> list[str]:
    """The cache's read failures ("Error reading ... cache entry"). A failed *write* does not count:
    JAX writes an entry only after compiling the program, so the miss that made it compile is
    already counted, and a write error says nothing about whether what ran was served from the
    cache. Counting it would call a run cache-masked that read every program it ran from the cache.
    (The August incident's tell was a read failure before lowering.)"""
    errors = (cache or {}).get("errors") or []
    if not isinstance(errors, (list, tuple)):
        errors = [errors]
    texts = [str(e.get("text", e)) if isinstance(e, dict) else str(e) for e in errors]
    return [t for t in texts if "writing" not in t.lower()]


def lowered_cold(cache: dict[str, Any] | None) -> bool | None:
    """Whether an attempt's program was lowered and compiled rather than served from the persistent
    compilation cache: ``True`` cold, ``False`` served warm, ``None`` unknown (no facts, or a cache
    never asked). Cold when the cache was bypassed (mode ``cold``/``off``), a read failed
    (:func:`cache_read_errors`), it missed, or it was asked and served nothing."""
    if not cache:
        return None
    if str(cache.get("mode", "")).lower() in COLD_MODES:
        return True
    if cache_read_errors(cache):
        return True
    requests, hits, misses = (_int(cache.get(k)) for k in ("requests", "hits", "misses"))
    if misses:
        return True
    if requests:
        return not hits
    if hits:
        return False
    return None


def cold_reason(cache: dict[str, Any] | None) -> str | None:
    """Why an attempt lowered cold, in words (None when :func:`lowered_cold` says it did not, or
    cannot say). Raises nothing on partial facts."""
    if not cache or lowered_cold(cache) is not True:
        return None
    mode = str(cache.get("mode", "")).lower()
    reasons = []
    if mode == "cold":
        reasons.append("cache bypassed (--cold)")
    elif mode in COLD_MODES:
        reasons.append(f"cache {mode}")
    misses = _int(cache.get("misses"))
    if misses > 0:
        reasons.append(f"{misses} cache miss{'es' if misses != 1 else ''}")
    errors = cache_read_errors(cache)
    if errors:
        reasons.append(f"{len(errors)} cache read error{'s' if len(errors) != 1 else ''}")
    return ", ".join(reasons) or "no program was served from the cache"


def _int(v: Any) -> int:
    try:
        return int(v or 0)
    except (TypeError, ValueError):
        return 0


def _scrub(v: Any, scrub: Callable[[str], str]) -> Any:
    if isinstance(v, str):
        return scrub(v)
    if isinstance(v, dict):
        return {k: _scrub(x, scrub) for k, x in v.items()}
    if isinstance(v, (list, tuple)):
        return type(v)(_scrub(x, scrub) for x in v)
    return v


def _scrub_signature(sig: Signature | None, scrub: Callable[[str], str]) -> Signature | None:
    if sig is None:
        return None
    return replace(
        sig,
        exception=_scrub(sig.exception, scrub),
        message=scrub(sig.message),
        frames=[scrub(f) for f in sig.frames],
        excerpt=scrub(sig.excerpt),
    )


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
