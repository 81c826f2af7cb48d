"""A run record's schema: its version, and the steps that bring a record an older canary wrote up
to it, one version at a time (asv's ``update_to_N``). Pure: JSON dicts in, JSON dicts out."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

# Version 1: every record written before records carried ``schema`` (a missing key is 1).
# Version 2: a run whose one attempt failed is ``unconfirmed`` (version 1 said ``deterministic``),
# and every record says the steps its ferry sets for the lane (``ferry_steps``).
SCHEMA_VERSION = 2


class SchemaError(ValueError):
    """A record this canary cannot read: a newer schema, or not a schema at all."""


def _update_to_2(d: dict[str, Any], known: frozenset[str]) -> dict[str, Any]:
    """Version 1 said ``deterministic`` of a run whose only attempt failed: one attempt cannot show
    that a failure repeats, so today's word is ``unconfirmed``. It kept no ``ferry_steps`` before
    short runs were told apart: such a record is taken as a full run (its ferry's steps are the
    steps it asked for). Keys that no field holds any more are dropped here, once."""
    d = dict(d)
    attempts = d.get("attempts") or []
    if d.get("classification") == "deterministic" and isinstance(attempts, list) and len(attempts) == 1:
        d["classification"] = "unconfirmed"
    if d.get("ferry_steps") is None:
        d["ferry_steps"] = d.get("steps_requested")
    return {k: v for k, v in d.items() if k in known}


# each step takes a record of version N - 1 to version N
MIGRATIONS: dict[int, Callable[[dict[str, Any], frozenset[str]], dict[str, Any]]] = {2: _update_to_2}


# What a command's --json adds around a record (`canary run --json`: the warnings, what was done
# after the run, the notification; `canary history --json`: each record's series and whether it
# counts): read back as a record, these are the answer's, not the record's, and are left out.
ENVELOPE = frozenset({"warnings", "after_run", "notify", "series", "short", "counted"})


def migrate(d: dict[str, Any], known: frozenset[str]) -> dict[str, Any]:
    """A record's JSON brought up to :data:`SCHEMA_VERSION`, one version at a time, without its
    ``schema`` key (``known``: the fields a record has today). A newer version is a
    :class:`SchemaError`, never keys silently dropped; so is a current one holding a key no field
    has."""
    if not isinstance(d, dict):
        raise SchemaError(f"a run record is a JSON object, not a JSON {type(d).__name__}")
    version = d.get("schema", 1)
    if isinstance(version, bool) or not isinstance(version, int) or version < 1:
        raise SchemaError(f"a run record's schema is a version number from 1, not {str(version)[:40]!r}")
    if version > SCHEMA_VERSION:
        raise SchemaError(
            f"run record of schema {version}: this canary reads up to {SCHEMA_VERSION}; upgrade canary to read it"
        )
    d = {k: v for k, v in d.items() if k != "schema" and k not in ENVELOPE}
    for step in range(version + 1, SCHEMA_VERSION + 1):
        d = MIGRATIONS[step](d, known)
    unknown = sorted(set(d) - known)
    if unknown:
        raise SchemaError(f"run record of schema {version} has keys no field holds: {', '.join(unknown)[:200]}")
    return d
