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
from canary.history.store import StoreUnavailable, select, since_key
from canary.record import RunRecord

TIMEOUT = (5.0, 30.0)  # connect, read (seconds)
MAX_CAS_TRIES = 60
ENV_RETRY_S = "CANARY_GCS_RETRY_S"
DEFAULT_RETRY_S = 60.0
PROBE_DIR = "doctor"
T = TypeVar("T")


def retry_deadline(environ=os.environ) -> float:
    raw = environ.get(ENV_RETRY_S)
    if raw is None:
        return DEFAULT_RETRY_S
    try:
        value = float(raw)
    except ValueError:
        raise ConfigError(f"{ENV_RETRY_S}={raw!r} is not a number of seconds") from None
    if value < 0:
        raise ConfigError(f"{ENV_RETRY_S}={raw!r} must not be negative")
    return value


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


class GcsStore:
    def __init__(self, url: str, client_factory: Callable[[], Any] | None = None):
        self.location = url
        self.bucket_name, self.prefix = parse_url(url)
        self._client_factory = client_factory or _default_client
        self._client = None
        self._bucket = None
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
            runs, generation = self._read_index(name)
            runs = [r for r in runs if r.get("run_id") != record.run_id] + [entry]
            runs.sort(key=lambda r: (r.get("started_at") or "", r.get("run_id") or ""))
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
            return json.loads(data).get("runs", []), generation
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
            runs, _ = self._read_index(self._name("index", f"{name}.json"))
            entries += [r for r in runs if key is None or (r.get("started_at") or "") >= key]
        with ThreadPoolExecutor(max_workers=8) as pool:
            found = list(pool.map(lambda e: self.get(e["run_id"]), entries))
        return select([r for r in found if r is not None], lane, since)

    def get(self, run_id: str) -> RunRecord | None:
        from google.api_core import exceptions as gexc

        blob = self.bucket().blob(self._name("runs", f"{run_id}.json"))
        try:
            data = self._call(lambda: blob.download_as_bytes(timeout=TIMEOUT, retry=self.read_retry))
        except gexc.NotFound:
            return None
        return RunRecord.from_dict(json.loads(data))

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
