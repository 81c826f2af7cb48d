"""The Google Cloud Storage history backend: ``gs://bucket/prefix``.

Layout under the prefix::

    runs/<run_id>.json      one object per run: the whole record
    index/<lane>.json       per lane, a small summary of every run (id, start, verdict, fingerprint)

Every call goes through the client library's retry policy (transient errors: 429, 5xx,
connection resets, timeouts), bounded by ``CANARY_GCS_RETRY_S`` seconds (default 60). Writes
retry only with a generation precondition (``DEFAULT_RETRY_IF_GENERATION_SPECIFIED``): a retried
upload whose first try landed meets a 412, never a silent overwrite. Concurrent writers (lanes
running at once, retries, spool uploads) lose nothing because every write carries a generation
precondition: a run's object is created with ``if_generation_match=0``
(or replaced at the generation just read), and a lane's index is read, changed and written back
with ``if_generation_match=<the generation read>``; a 412 means someone else wrote first, so the
writer reads again and retries. Both objects stay far below 8 MiB, so every upload is one
request (GCS and its emulators enforce preconditions on those).

The client honours ``STORAGE_EMULATOR_HOST`` (anonymous credentials, as the emulator expects);
otherwise it uses Application Default Credentials. Any failure to reach or authenticate to the
bucket raises :class:`~canary.history.StoreUnavailable`, which the spool turns into a local copy.
"""

from __future__ import annotations

import json
import os
import random
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from datetime import date, datetime
from typing import Any, TypeVar

from canary.errors import ConfigError
from canary.history.store import BAD_RECORD, StoreUnavailable, select, since_key, warn
from canary.record import RunRecord, check_id
from canary.textio import env_number

TIMEOUT = (5.0, 30.0)  # connect, read (seconds)
MAX_CAS_TRIES = 60
ENV_RETRY_S = "CANARY_GCS_RETRY_S"
DEFAULT_RETRY_S = 60.0
PROBE_DIR = "doctor"
T = TypeVar("T")


def retry_deadline(environ=os.environ) -> float:
    return env_number(ENV_RETRY_S, environ, DEFAULT_RETRY_S)


def policies(deadline: float) -> tuple[Any, Any]:
    """(reads, conditional writes): the library's retry policies, bounded by ``deadline`` seconds.
    A write retries only when it carries ``if_generation_match``, which every write here does."""
    from google.cloud.storage.retry import DEFAULT_RETRY, ConditionalRetryPolicy, is_generation_specified

    reads = DEFAULT_RETRY.with_timeout(deadline)
    return reads, ConditionalRetryPolicy(reads, is_generation_specified, ["query_params"])


def parse_url(url: str) -> tuple[str, str]:
    if not url.startswith("gs://"):
        raise ConfigError(f"--history {url!r}: a GCS location looks like gs://bucket/prefix")
    bucket, _, prefix = url[len("gs://") :].partition("/")
    if not bucket:
        raise ConfigError(f"--history {url!r}: no bucket name; use gs://bucket/prefix")
    return bucket, prefix.strip("/")


def _summary(record: RunRecord) -> dict[str, Any]:
    return {
        "run_id": record.run_id,
        "lane": record.lane,
        "started_at": record.started_at,
        "verdict": record.verdict,
        "classification": record.classification,
        "fingerprint": record.signature.fingerprint if record.signature else None,
    }


class BadObject(StoreUnavailable):
    """A run object that is not a canary run record: listing skips it; getting it fails."""


class GcsStore:
    def __init__(self, url: str, client_factory: Callable[[], Any] | None = None):
        self.location = url
        self.bucket_name, self.prefix = parse_url(url)
        self._client_factory = client_factory or _default_client
        self._client = None
        self._bucket = None
        self.warnings: list[str] = []
        self.read_retry, self.write_retry = policies(retry_deadline())

    # ------------------------------------------------------------------ plumbing

    def _name(self, *parts: str) -> str:
        return "/".join(p for p in (self.prefix, *parts) if p)

    def client(self):
        if self._client is None:
            self._client = self._call(self._client_factory)
        return self._client

    def bucket(self):
        if self._bucket is None:
            self._bucket = self.client().bucket(self.bucket_name)
        return self._bucket

    def _call(self, fn: Callable[[], T]) -> T:
        """Run a storage call; whatever keeps it from reaching the bucket becomes StoreUnavailable."""
        from google.api_core import exceptions as gexc

        try:
            return fn()
        except (gexc.PreconditionFailed, gexc.NotFound, StoreUnavailable):
            raise
        except Exception as e:  # transport, auth, 5xx: the bucket is out of reach now
            raise StoreUnavailable(f"{self.location}: {type(e).__name__}: {e}") from e

    def _url(self, name: str) -> str:
        return f"gs://{self.bucket_name}/{name}"

    def _broken(self, name: str, why: str, kind: type[StoreUnavailable] = StoreUnavailable) -> StoreUnavailable:
        return kind(f"{self.location}: store unavailable: {self._url(name)} {why}")

    def _json(self, name: str, data: bytes) -> Any:
        """An object's JSON; an object that is not JSON makes the store unavailable, named."""
        try:
            return json.loads(data)
        except (ValueError, RecursionError) as e:  # not UTF-8, not JSON, nested too deeply
            why = "nested too deeply" if isinstance(e, RecursionError) else f"{type(e).__name__}: {e}"
            raise self._broken(name, f"is not valid JSON ({why[:200]})") from None

    def _index_runs(self, name: str, data: bytes) -> list[Any]:
        """An index object's entries, as stored; one that is not ``{"runs": [...]}`` makes the
        store unavailable (a record to write is spooled and retried; none is lost)."""
        index = self._json(name, data)
        runs = index.get("runs") if isinstance(index, dict) else None
        if not isinstance(runs, list):
            found = f"a JSON {type(index).__name__}" if not isinstance(index, dict) else f"runs is {runs!r:.40}"
            raise self._broken(name, f"is not a canary index ({found})")
        return runs

    def _warn(self, message: str) -> None:
        """Something skipped while reading (a bad index entry, a missing or broken run object):
        said once on stderr and kept in ``warnings``."""
        if message not in self.warnings:
            self.warnings.append(message)
            warn(message)

    def _entries(self, name: str, runs: list[Any]) -> list[dict[str, Any]]:
        """The index's usable entries: an entry that is no object or names no safe run id is
        skipped, with a warning."""
        good = []
        for i, entry in enumerate(runs):
            if not isinstance(entry, dict) or entry.get("run_id") is None:
                why = "has no run_id" if isinstance(entry, dict) else f"is a JSON {type(entry).__name__}, not an object"
                self._warn(f"{self._url(name)}: entry {i} {why}: skipped")
                continue
            try:
                check_id(entry["run_id"], "run_id")
            except ValueError as e:
                self._warn(f"{self._url(name)}: entry {i} skipped: {e}")
                continue
            good.append(entry)
        return good

    # ------------------------------------------------------------------ writes

    def append(self, record: RunRecord) -> None:
        from google.api_core import exceptions as gexc

        data = json.dumps(record.to_dict()).encode()
        blob = self.bucket().blob(self._name("runs", f"{record.run_id}.json"))
        generation = 0  # create only
        for _ in range(MAX_CAS_TRIES):
            try:
                self._call(
                    lambda generation=generation: blob.upload_from_string(
                        data,
                        content_type="application/json",
                        if_generation_match=generation,
                        timeout=TIMEOUT,
                        retry=self.write_retry,
                    )
                )
                break
            except gexc.PreconditionFailed:
                # the run was stored before (a spool upload retried): replace it at its generation
                current = self._call(lambda: self.bucket().get_blob(blob.name, timeout=TIMEOUT, retry=self.read_retry))
                generation = current.generation if current is not None else 0
            except gexc.NotFound as e:
                raise StoreUnavailable(f"{self.location}: bucket {self.bucket_name!r} not found") from e
        else:
            raise StoreUnavailable(f"{self.location}: could not write {blob.name}: too much contention")
        self._update_index(record)

    def _update_index(self, record: RunRecord) -> None:
        from google.api_core import exceptions as gexc

        name = self._name("index", f"{record.lane}.json")
        entry = _summary(record)
        for attempt in range(MAX_CAS_TRIES):
            stored, generation = self._read_index(name)
            good = self._entries(name, stored)
            usable = {id(g) for g in good}
            kept = [r for r in stored if id(r) not in usable]  # bad entries: left as they are
            runs = [r for r in good if r.get("run_id") != record.run_id] + [entry]
            runs = kept + sorted(runs, key=lambda r: (str(r.get("started_at") or ""), r["run_id"]))
            data = json.dumps({"version": 1, "lane": record.lane, "runs": runs}).encode()
            try:
                self._call(
                    lambda data=data, generation=generation: (
                        self.bucket()
                        .blob(name)
                        .upload_from_string(
                            data,
                            content_type="application/json",
                            if_generation_match=generation,
                            timeout=TIMEOUT,
                            retry=self.write_retry,
                        )
                    )
                )
                return
            except gexc.PreconditionFailed:
                time.sleep(random.uniform(0, min(0.05 * 2 ** min(attempt, 5), 1.0)))  # another writer won
            except gexc.NotFound as e:
                raise StoreUnavailable(f"{self.location}: bucket {self.bucket_name!r} not found") from e
        raise StoreUnavailable(f"{self.location}: could not update {name}: too much contention")

    def _read_index(self, name: str) -> tuple[list[dict[str, Any]], int]:
        """A lane's index entries and the generation they were read at (0: no index yet)."""
        from google.api_core import exceptions as gexc

        for _ in range(MAX_CAS_TRIES):
            blob = self._call(lambda: self.bucket().get_blob(name, timeout=TIMEOUT, retry=self.read_retry))
            if blob is None:
                return [], 0
            generation = blob.generation
            try:
                data = self._call(
                    lambda blob=blob, generation=generation: blob.download_as_bytes(
                        if_generation_match=generation, timeout=TIMEOUT, retry=self.read_retry
                    )
                )
            except (gexc.PreconditionFailed, gexc.NotFound):
                continue  # replaced between the two calls: read the new one
            return self._index_runs(name, data), generation
        raise StoreUnavailable(f"{self.location}: could not read {name}: too much contention")

    # ------------------------------------------------------------------ reads

    def _lanes(self) -> list[str]:
        prefix = self._name("index") + "/"
        blobs = self._call(
            lambda: list(
                self.client().list_blobs(self.bucket_name, prefix=prefix, timeout=TIMEOUT, retry=self.read_retry)
            )
        )
        return [b.name[len(prefix) : -len(".json")] for b in blobs if b.name.endswith(".json")]

    def records(self, lane: str | None = None, since: str | date | datetime | None = None) -> list[RunRecord]:
        key = since_key(since)
        entries = []
        for name in [lane] if lane is not None else self._lanes():
            index = self._name("index", f"{name}.json")
            runs, _ = self._read_index(index)
            entries += [r for r in self._entries(index, runs) if key is None or str(r.get("started_at") or "") >= key]
        with ThreadPoolExecutor(max_workers=8) as pool:
            found = list(pool.map(lambda e: self._listed(e["run_id"]), entries))
        return select([r for r in found if r is not None], lane, since)

    def _listed(self, run_id: str) -> RunRecord | None:
        """A run an index lists; a run object that is gone or broken is skipped, with a warning."""
        try:
            record = self.get(run_id)
        except BadObject as e:
            self._warn(f"{e}: skipped")
            return None
        if record is None:
            self._warn(f"{self._url(self._name('runs', f'{run_id}.json'))}: listed in the index but missing: skipped")
        return record

    def get(self, run_id: str) -> RunRecord | None:
        from google.api_core import exceptions as gexc

        blob = self.bucket().blob(self._name("runs", f"{run_id}.json"))
        try:
            data = self._call(lambda: blob.download_as_bytes(timeout=TIMEOUT, retry=self.read_retry))
        except gexc.NotFound:
            return None
        try:
            record = RunRecord.from_dict(self._json(blob.name, data))
        except StoreUnavailable as e:
            raise BadObject(str(e)) from None
        except BAD_RECORD as e:
            why = f"is not a canary run record ({type(e).__name__}: {str(e)[:200]})"
            raise self._broken(blob.name, why, BadObject) from None
        if record.run_id != run_id:
            raise self._broken(blob.name, f"holds run {record.run_id!r}, not {run_id!r}", BadObject)
        return record

    # ------------------------------------------------------------------ doctor

    def probe(self) -> str:
        """Read the store and write (then delete) one probe object under ``<prefix>/doctor/``;
        raises StoreUnavailable when either fails. Never touches a run or an index."""
        from google.api_core import exceptions as gexc

        self._lanes()
        name = self._name(PROBE_DIR, f"probe-{os.getpid()}-{random.getrandbits(32):08x}")
        blob = self.bucket().blob(name)
        self._call(
            lambda: blob.upload_from_string(
                b"canary doctor probe", if_generation_match=0, timeout=TIMEOUT, retry=self.write_retry
            )
        )
        try:
            self._call(
                lambda: blob.delete(if_generation_match=blob.generation, timeout=TIMEOUT, retry=self.write_retry)
            )
        except gexc.NotFound:
            pass  # a retried delete whose first try landed
        return (
            f"listed gs://{self.bucket_name}/{self._name('index')}/, wrote and deleted gs://{self.bucket_name}/{name}"
        )


def _emulator() -> str | None:
    return os.environ.get("STORAGE_EMULATOR_HOST")


def require_credentials(location: str) -> None:
    """Application Default Credentials must be findable (unless an emulator is used): without
    them every write would fail after the run, so it is a setup error (exit 2) before it."""
    if _emulator():
        return
    import google.auth
    from google.auth.exceptions import DefaultCredentialsError

    try:
        google.auth.default()
    except DefaultCredentialsError:
        raise ConfigError(
            f"--history {location}: no Google Cloud credentials found. In GitHub Actions run "
            "google-github-actions/auth before canary; elsewhere set GOOGLE_APPLICATION_CREDENTIALS or run "
            "`gcloud auth application-default login`; or set STORAGE_EMULATOR_HOST for an emulator"
        ) from None


def _default_client():
    from google.auth.credentials import AnonymousCredentials
    from google.cloud import storage

    emulator = _emulator()
    if emulator:
        return storage.Client(
            project="canary", credentials=AnonymousCredentials(), client_options={"api_endpoint": emulator}
        )
    return storage.Client()


def open(location: str) -> GcsStore:
    parse_url(location)
    require_credentials(location)
    return GcsStore(location)
