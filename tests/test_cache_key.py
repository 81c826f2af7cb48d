"""The persistent-cache key JAX itself gives the tpu lane's compiled program (canary.run.cache_key),
and whether the lane's cache directory, local or gs:// (fake-gcs-server), already holds it; the host's
compile cache kept under that key, which serves a second identical compile and misses on a change."""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from canary.run import cache_key
from canary.run.topology import Topology, worker_env
from tests.conftest import ROOT
from tests.test_cache import gcs_bucket  # noqa: F401 - the fake-gcs-server bucket fixture
from tests.test_tpu_lane import libtpu_path  # noqa: F401 - libtpu for the child

KEY = "jit_train_step-" + "ab" * 32

# compiles a small sharded program on the v6e:2x2 topology with JAX's persistent cache on
PROBE = """
import json, os, sys
import jax, jax.numpy as jnp, numpy as np
from jax.experimental import topologies
from jax.sharding import Mesh, NamedSharding, PartitionSpec as P
from canary.run import cache_key
d = sys.argv[1]
for k, v in (("jax_enable_compilation_cache", True), ("jax_compilation_cache_dir", d),
             ("jax_persistent_cache_min_compile_time_secs", 0.0), ("jax_persistent_cache_min_entry_size_bytes", -1),
             ("jax_persistent_cache_enable_xla_caches", "none")):
    jax.config.update(k, v)
mesh = Mesh(np.array(topologies.get_topology_desc(platform="tpu", topology_name="v6e:2x2").devices), ("data",))
x = jax.ShapeDtypeStruct((8, 128), jnp.float32, sharding=NamedSharding(mesh, P("data")))
lowered = jax.jit(lambda a: (a * 2).sum()).lower(x)
with cache_key.captured() as keys:
    lowered.compile()
print(json.dumps({"keys": keys, "files": sorted(os.listdir(d))}))
"""


def test_a_local_cache_dir_without_and_with_the_entry(tmp_path):
    assert cache_key.lookup(str(tmp_path), KEY) == {
        "dir": str(tmp_path),
        "entry": f"{KEY}-cache",
        "present": False,
        "verdict": "the next tpu run will compile cold",
    }
    (tmp_path / f"{KEY}-cache").write_bytes(b"x")  # as jax._src.lru_cache names an entry
    assert cache_key.lookup(str(tmp_path), KEY)["verdict"] == "the next tpu run will be served from the cache"


def test_report_and_lines_say_when_there_is_nothing_to_look_up(tmp_path):
    assert cache_key.report([], str(tmp_path))["key"] is None
    assert cache_key.report(["error: JaxRuntimeError: x"], str(tmp_path))["verdict"].startswith("cannot say")
    r = cache_key.report(["other-1", KEY], str(tmp_path))
    assert r["key"] == KEY and r["present"] is False  # the last program compiled is the train step
    assert cache_key.lines(r) == [f"  cache key {KEY}", f"  cache     {cache_key.COLD} ({tmp_path})"]


@pytest.mark.slow  # starts fake-gcs-server
def test_a_gs_cache_dir_without_and_with_the_entry(gcs_bucket, monkeypatch):  # noqa: F811
    bucket, env = gcs_bucket
    for k, v in env.items():
        monkeypatch.setenv(k, v)
    url = f"gs://{bucket}/ttl=30d/tpu"
    assert cache_key.lookup(url, KEY)["verdict"] == cache_key.COLD
    from jax._src import path as jax_path

    (jax_path.Path(url) / f"{KEY}-cache").write_bytes(b"x")  # as JAX's cache writes an entry
    r = cache_key.lookup(url, KEY)
    assert (r["present"], r["verdict"]) == (True, cache_key.WARM), r


@pytest.mark.slow  # compiles a small program on the v6e:2x2 topology with libtpu (about 6 s)
def test_the_key_is_the_one_jax_writes_its_entry_under(tmp_path, libtpu_path):  # noqa: F811
    d = tmp_path / "cache"
    d.mkdir()
    env = worker_env(Topology("v6e:2x2", "v6e", 4, 32 << 30), dict(os.environ))
    env["PYTHONPATH"] = os.pathsep.join(p for p in (str(ROOT), libtpu_path) if p)
    r = subprocess.run([sys.executable, "-c", PROBE, str(d)], env=env, capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr[-2000:]
    out = json.loads(r.stdout.strip().splitlines()[-1])
    (key,) = out["keys"]
    assert key.startswith("jit__lambda-") and f"{key}-cache" in out["files"]
    assert cache_key.lookup(str(d), key)["verdict"] == cache_key.WARM


# ----------------------------------------------------------------------------- the host's compile cache

# compiles a small sharded program on the v6e:2x2 topology as the topology's child does, with the
# host's compile cache at argv[1]; argv[2] rows
HOST = """
import json, sys
import jax, jax.numpy as jnp, numpy as np
from jax.experimental import topologies
from jax.sharding import Mesh, NamedSharding, PartitionSpec as P
from canary.run.topology_worker import compile_on_host
mesh = Mesh(np.array(topologies.get_topology_desc(platform="tpu", topology_name="v6e:2x2").devices), ("data",))
x = jax.ShapeDtypeStruct((int(sys.argv[2]), 128), jnp.float32, sharding=NamedSharding(mesh, P("data")))
compiled, keys = compile_on_host(jax.jit(lambda a: (a @ a.T).sum()).lower(x), sys.argv[1])
print(json.dumps({"compile": compiled, "keys": keys}))
"""
VERSIONS = {"jax": "0.10.2", "jaxlib": "0.10.2", "libtpu": "0.0.42.1"}


def test_the_host_cache_serves_a_record_only_for_its_key_and_versions(tmp_path):
    compiled = {"ok": True, "seconds": 41.5, "memory": {"total": 1}, "fingerprint": "f" * 64}
    path = cache_key.host_write(str(tmp_path), KEY, VERSIONS, compiled)
    assert path == tmp_path / f"{KEY}.json"
    assert cache_key.host_read(str(tmp_path), KEY, VERSIONS)["compile"] == compiled
    assert cache_key.host_read(str(tmp_path), KEY.replace("ab", "cd"), VERSIONS) is None  # another program
    assert cache_key.host_read(str(tmp_path), KEY, {**VERSIONS, "libtpu": "0.0.43"}) is None  # another libtpu
    assert cache_key.host_read(str(tmp_path / "none"), KEY, VERSIONS) is None
    path.write_text("{not json")
    assert cache_key.host_read(str(tmp_path), KEY, VERSIONS) is None  # a torn file is a miss, not an error
    assert [p.name for p in tmp_path.iterdir()] == [path.name]  # written whole, then renamed: no leftovers


def _compile_small(host: Path, rows: int, libtpu_path: str, **environ: str) -> dict:
    env = worker_env(Topology("v6e:2x2", "v6e", 4, 32 << 30), {**os.environ, **environ})
    env["PYTHONPATH"] = os.pathsep.join(p for p in (str(ROOT), libtpu_path) if p)
    r = subprocess.run(
        [sys.executable, "-c", HOST, str(host), str(rows)], env=env, capture_output=True, text=True, timeout=300
    )
    assert r.returncode == 0, r.stderr[-2000:]
    return json.loads(r.stdout.strip().splitlines()[-1])


@pytest.mark.slow  # four small compiles on the v6e:2x2 topology with libtpu (about 6 s each)
def test_a_second_identical_compile_is_served_from_the_host_cache_and_a_change_misses(tmp_path, libtpu_path):  # noqa: F811
    host = tmp_path / "tpu-compile"
    cold = _compile_small(host, 8, libtpu_path)
    (key,) = cold["keys"]
    assert cold["compile"]["ok"] and cold["compile"]["host_cache"] == {"dir": str(host), "served": False}
    assert (host / f"{key}.json").is_file()
    warm = _compile_small(host, 8, libtpu_path)
    assert warm["keys"] == [key] and warm["compile"]["host_cache"]["served"] is True
    assert warm["compile"]["host_cache"]["cold_seconds"] == cold["compile"]["seconds"]
    for k in ("memory", "fingerprint", "ok"):
        assert warm["compile"][k] == cold["compile"][k]
    # another program (the batch doubled), and other libtpu flags, are other keys: compiled afresh
    bigger = _compile_small(host, 16, libtpu_path)
    flagged = _compile_small(host, 8, libtpu_path, LIBTPU_INIT_ARGS="--xla_tpu_enable_latency_hiding_scheduler=true")
    for other in (bigger, flagged):
        assert other["keys"] != [key] and other["compile"]["host_cache"]["served"] is False
    assert bigger["compile"]["memory"] != cold["compile"]["memory"]
    assert bigger["compile"]["executable"] != cold["compile"]["executable"]
    assert len(list(host.glob("*.json"))) == 3


@pytest.mark.slow  # two small compiles on the v6e:2x2 topology with libtpu (about 6 s each)
def test_libtpu_compiles_one_program_to_the_same_bytes_twice(tmp_path, libtpu_path):  # noqa: F811
    """What `--cache verify` on a tpu lane relies on: libtpu, compiling one program cold in two
    processes, gives byte-identical executables (XLA:CPU does not: docs/lanes.md)."""
    first = _compile_small(tmp_path / "one", 8, libtpu_path)["compile"]
    second = _compile_small(tmp_path / "two", 8, libtpu_path)["compile"]
    assert first["host_cache"]["served"] is False and second["host_cache"]["served"] is False
    assert first["executable"] and len(first["executable"]) == 64
    assert second["executable"] == first["executable"]


@pytest.mark.slow  # one small compile on the v6e:2x2 topology with libtpu (about 6 s)
def test_a_host_cache_that_cannot_be_written_leaves_the_compile_s_outcome_standing(tmp_path, libtpu_path):  # noqa: F811
    """A full disk or a home that cannot be written: the compile's outcome is the result, and it
    says it was not kept (and why) instead of failing the preflight."""
    from canary.run.topology import _served

    blocked = tmp_path / "a-file"
    blocked.write_text("not a directory")
    out = _compile_small(blocked / "tpu-compile", 8, libtpu_path)["compile"]
    assert out["ok"] and out["memory"]["total"] > 0
    assert out["host_cache"]["served"] is False and out["host_cache"]["not_kept"]
    assert "not kept in" in _served(out)


def test_a_write_that_fails_leaves_no_partial_entry(tmp_path):
    """host_write on a directory it cannot finish writing in raises, and leaves nothing behind."""
    path = cache_key.host_write(str(tmp_path), KEY, VERSIONS, {"ok": True})
    path.unlink()
    path.mkdir()  # the entry's name taken by a directory: the rename into place fails
    with pytest.raises(OSError):
        cache_key.host_write(str(tmp_path), KEY, VERSIONS, {"ok": True})
    assert sorted(p.name for p in tmp_path.iterdir()) == [path.name]


def test_a_bucket_that_never_answers_leaves_the_lookup_unanswered_not_the_preflight_waiting(monkeypatch):
    """A gs:// cache dir whose server accepts and never answers (no network, no credentials, a
    stalled endpoint): the lookup says it cannot say, after its timeout, instead of gcsfs's retries."""
    import socket
    import threading

    silent = socket.socket()
    silent.bind(("127.0.0.1", 0))
    silent.listen(8)
    accepted: list[socket.socket] = []
    threading.Thread(target=lambda: accepted.append(silent.accept()[0]), daemon=True).start()
    monkeypatch.setenv("STORAGE_EMULATOR_HOST", f"http://127.0.0.1:{silent.getsockname()[1]}")
    monkeypatch.setenv("NO_GCE_CHECK", "true")
    monkeypatch.setenv("GCSFS_EXPERIMENTAL_ZB_HNS_SUPPORT", "false")
    try:
        r = cache_key.lookup("gs://never-answers/ttl=30d/tpu", KEY, timeout_s=1)
    finally:
        silent.close()
    assert r["present"] is None
    assert r["verdict"] == "cannot say: gs://never-answers/ttl=30d/tpu gave no answer within 1 s"
