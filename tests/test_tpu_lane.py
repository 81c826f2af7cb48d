"""`canary lower --lane tpu` on a machine with no TPU: the lane's whole program lowered on its
topology and compiled by the real TPU compiler (libtpu, from the registry), and its grouped-matmul
kernel executed for parity in Pallas interpret mode.

The libtpu tests run where libtpu is importable, or else install it (only it, the version the
installed JAX pins) into a cache directory and put that on the child's PYTHONPATH, so this suite's
own environment keeps its CPU-only JAX; they are skipped, saying why, only when the registry
cannot supply it."""

import importlib.metadata
import importlib.util
import json
import os
import shutil
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from canary.config import load_lanes
from canary.errors import ConfigError
from canary.run import topology
from canary.run.topology import LibtpuStatus, topology_of, wanted_libtpu, worker_env
from canary.run.topology_worker import compiled_fingerprint, memory
from tests.adversary import wait_for
from tests.conftest import ROOT, popen_as_from_a_terminal

GIB = 1 << 30


def _lanes_file(tmp_path: Path, **tpu: str) -> str:
    text = (ROOT / "lanes.toml").read_text()
    for key, value in tpu.items():
        old = {"accelerator": 'accelerator = "v6e-4"', "topology": 'topology = "2x2"'}[key]
        text = text.replace(old, f'{key} = "{value}"', 1)
    p = tmp_path / "lanes.toml"
    p.write_text(text)
    return str(p)


# ----------------------------------------------------------------------------- pure parts


def test_the_tpu_lanes_topology_comes_from_its_accelerator_and_topology_keys():
    t = topology_of(load_lanes()[0]["tpu"])
    assert (t.name, t.generation, t.chips, t.hbm_bytes) == ("v6e:2x2", "v6e", 4, 32 * GIB)


@pytest.mark.parametrize(
    "keys, needle",
    [
        ({"accelerator": "v9z-4"}, "lanes.tpu.accelerator"),
        ({"accelerator": "H100"}, "lanes.tpu.accelerator"),
        ({"topology": "2x4"}, "lanes.tpu.topology"),
        ({"topology": "square"}, "lanes.tpu.topology"),
    ],
)
def test_an_unknown_accelerator_or_topology_is_exit_2_naming_the_key(cli, tmp_path, keys, needle):
    lanes = _lanes_file(tmp_path, **keys)
    with pytest.raises(ConfigError, match=needle.replace(".", r"\.")):
        topology_of(load_lanes(lanes)[0]["tpu"])
    r = cli("lower", "--lane", "tpu", env={"CANARY_LANES": lanes})
    assert r.returncode == 2, r.stdout + r.stderr
    assert needle in r.stderr and "Traceback" not in r.stderr


def test_libtpu_pairing_is_read_from_jaxs_own_tpu_extra():
    assert wanted_libtpu(['libtpu==0.0.42.*; extra == "tpu"', "numpy>=1.26"]) == "==0.0.42.*"
    assert wanted_libtpu(["numpy>=1.26"]) is None
    # the installed JAX names one
    assert wanted_libtpu(importlib.metadata.requires("jax")).startswith("==0.0.")

    missing = LibtpuStatus(None, "==0.0.42.*", "0.10.2")
    assert not missing.ok and "canary[tpu]" in missing.message() and "not installed" in missing.message()
    wrong = LibtpuStatus("0.0.41", "==0.0.42.*", "0.10.2")
    assert not wrong.ok and "does not pair with jax 0.10.2" in wrong.message() and "canary[tpu]" in wrong.message()
    assert LibtpuStatus("0.0.42.1", "==0.0.42.*", "0.10.2").ok


def test_the_child_never_asks_a_metadata_server_and_keeps_jax_on_the_cpu():
    caller = {"PATH": "/bin", "JAX_PLATFORMS": "tpu"}
    env = worker_env(topology_of(load_lanes()[0]["tpu"]), caller)
    assert env["TPU_SKIP_MDS_QUERY"] == "1" and env["JAX_PLATFORMS"] == "cpu"
    assert (env["TPU_ACCELERATOR_TYPE"], env["TPU_WORKER_HOSTNAMES"], env["TPU_WORKER_ID"]) == (
        "v6e-4",
        "127.0.0.1",
        "0",
    )
    assert env["ALLOW_MULTIPLE_LIBTPU_LOAD"] == "1"  # concurrent lowerings share the host
    assert caller == {"PATH": "/bin", "JAX_PLATFORMS": "tpu"}  # the child's alone: the caller's is left as it was


def test_compiled_memory_and_fingerprint():
    class Analysis:
        temp_size_in_bytes, argument_size_in_bytes, output_size_in_bytes = 10, 4, 4
        generated_code_size_in_bytes, alias_size_in_bytes = 2, 4

    assert memory(Analysis()) == {
        "temp": 10,
        "arguments": 4,
        "outputs": 4,
        "generated_code": 2,
        "aliased": 4,
        "total": 16,
    }
    a = 'x = f32[2] add(a, b), metadata={op_name="jit(step)/add" source_file="/a/model.py"}'
    b = 'x = f32[2] add(a, b), metadata={op_name="jit(step)/add" source_file="/b/model.py"}'
    assert compiled_fingerprint(a) == compiled_fingerprint(b) != compiled_fingerprint(a.replace("add", "mul"))


def test_a_child_past_its_timeout_is_killed_and_reported_as_a_timeout(tmp_path, monkeypatch):
    (tmp_path / "hang_worker.py").write_text(
        "import os, sys, time\nopen(sys.argv[2] + '.pid', 'w').write(str(os.getpid()))\ntime.sleep(3600)\n"
    )
    monkeypatch.setenv("PYTHONPATH", f"{tmp_path}{os.pathsep}{ROOT}")
    t = topology_of(load_lanes()[0]["tpu"])
    out = topology.run_worker({}, t, 2, tmp_path / "log.txt", module="hang_worker")
    assert out["ok"] is False and out["timed_out"] is True and "timed out after 2 s" in out["error"]


@pytest.mark.skipif(importlib.util.find_spec("libtpu") is not None, reason="libtpu is installed here")
def test_compile_without_libtpu_is_exit_2_naming_the_extra(cli):
    r = cli("lower", "--lane", "tpu", "--compile")
    assert r.returncode == 2 and "canary[tpu]" in r.stderr and "Traceback" not in r.stderr


@pytest.mark.slow  # lowers the tpu lane's train step for one chip (a few seconds)
@pytest.mark.skipif(importlib.util.find_spec("libtpu") is not None, reason="libtpu is installed here")
def test_without_libtpu_the_one_chip_lowering_is_said_as_such():
    from canary.run.lowering import LowerOptions, lower_lanes

    (p,) = lower_lanes(LowerOptions(lane="tpu", parity=False)).platforms
    assert p.ok and p.topology["ran"] is False and p.topology["name"] == "v6e:2x2"
    assert any("one chip's share only" in n and "canary[tpu]" in n for n in p.notes)


# ----------------------------------------------------------------------------- parity (any CPU)


@pytest.mark.slow  # executes megablox in interpret mode, 12 comparisons (20-30 s on 2 cores)
def test_haliax_megablox_matches_xla_at_the_cpu_and_tpu_lanes_shapes():
    from canary.config import load_ferry
    from canary.run import parity

    lanes = load_lanes()[0]
    out = parity.check(load_ferry("grug-moe-canary")[0], lanes["cpu"], lanes["tpu"])
    assert out["ok"], out.get("mismatch")
    assert out["owner"] == f"marin-haliax {importlib.metadata.version('marin-haliax')}"
    shapes = {(c["shape"], c["rows"], c["dtype"]) for c in out["checks"]}
    assert shapes == {("cpu lane", 480, "float32"), ("tpu lane", 1024, "bfloat16")}  # 480: haliax pads them
    assert {c["gradient"] for c in out["checks"]} == {"forward", "grad-lhs", "grad-rhs"}


MISROUTE = """\
    group_sizes = group_sizes.at[1].add(group_sizes[0]).at[0].set(0)  # group 0's rows sent to expert 1
"""

CHECK_COPY = """
import importlib, json, jax, jax.numpy as jnp
rd = importlib.import_module("haliax.nn.ragged_dot")
from canary.config import load_ferry, load_lanes
from canary.run import parity
# the bug still lowers for the TPU: the forward grouped matmul through the patched copy
lhs, rhs = jax.ShapeDtypeStruct((512, 128), jnp.float32), jax.ShapeDtypeStruct((32, 128, 256), jnp.float32)
sizes = jax.ShapeDtypeStruct((32,), jnp.int32)
jax.export.export(jax.jit(lambda a, b, g: rd._ragged_dot_megablox_impl(a, b, g)), platforms=["tpu"])(lhs, rhs, sizes)
lanes = load_lanes()[0]
print(json.dumps({"file": rd.__file__, **parity.check(load_ferry("grug-moe-canary")[0], lanes["cpu"], lanes["tpu"])}))
"""


@pytest.mark.slow  # a copy of haliax with a megablox bug, checked for parity in a subprocess (20-30 s)
def misrouted_haliax(tmp_path: Path) -> Path:
    """A copy of the installed haliax whose megablox sends group 0's rows to expert 1 (it still
    lowers), in a folder to put ahead on PYTHONPATH; the installed package is untouched."""
    import haliax

    overlay = tmp_path / "overlay"
    shutil.copytree(Path(haliax.__file__).parent, overlay / "haliax")
    source = overlay / "haliax" / "nn" / "ragged_dot.py"
    text = source.read_text()
    head, sep, tail = text.partition("def _ragged_dot_megablox_impl")
    body_start = tail.index(":\n") + 2
    source.write_text(head + sep + tail[:body_start] + MISROUTE + tail[body_start:])
    return overlay


def test_parity_catches_a_megablox_bug_that_still_lowers(tmp_path):
    import haliax

    overlay = misrouted_haliax(tmp_path)

    env = {**os.environ, "PYTHONPATH": f"{overlay}{os.pathsep}{ROOT}", "JAX_PLATFORMS": "cpu"}
    r = subprocess.run(
        [sys.executable, "-c", textwrap.dedent(CHECK_COPY)], env=env, capture_output=True, text=True, timeout=600
    )
    assert r.returncode == 0, r.stderr[-3000:]
    out = json.loads(r.stdout.strip().splitlines()[-1])
    assert out["file"].startswith(str(overlay))  # the copy ran, not the installed package
    assert out["ok"] is False
    bad = {(c["gradient"], c["shape"]) for c in out["checks"] if not c["ok"]}
    assert ("forward", "cpu lane") in bad and ("grad-rhs", "tpu lane") in bad
    m = out["mismatch"]
    assert m.startswith("haliax.nn.ragged_dot (megablox) (marin-haliax ") and f"loaded from {out['file']}" in m
    assert "worst element" in m and "error" in m and "tolerance" in m
    assert any(g in m for g in ("forward", "grad-lhs", "grad-rhs"))
    # and it fails the preflight: `canary lower --lane tpu` with the copy ahead on the path
    r = subprocess.run(
        [
            sys.executable,
            "-m",
            "canary",
            "lower",
            "--lane",
            "tpu",
            "--ferry",
            "grug-moe-canary",
            "--no-history",
            "--out",
            str(tmp_path / "runs"),
            "--json",
        ],
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert r.returncode == 1, r.stdout[-2000:] + r.stderr[-2000:]
    (p,) = json.loads(r.stdout)["platforms"]
    assert p["ok"] is False and p["parity"]["ok"] is False and p["parity"]["mismatch"] == out["mismatch"]
    # the installed package is untouched
    assert "group 0's rows sent" not in Path(haliax.__file__).parent.joinpath("nn", "ragged_dot.py").read_text()


# ----------------------------------------------------------------------------- with libtpu


@pytest.fixture(scope="session")
def libtpu_path(tmp_path_factory):
    """A PYTHONPATH entry holding the libtpu the installed JAX pins ("" when this interpreter has
    it): installed with its own pip, no dependencies, into a cache directory kept between runs."""
    status = topology.libtpu_status()
    if status.ok:
        return ""
    import platformdirs

    spec = status.wanted or ""
    slug = spec.strip("=*").replace("*", "x") or "any"
    target = (
        Path(platformdirs.user_cache_dir("canary-tests"))
        / f"libtpu-{slug}-py{sys.version_info[0]}{sys.version_info[1]}"
    )
    if not (target / "libtpu").is_dir():
        r = subprocess.run(
            [sys.executable, "-m", "pip", "install", "-q", "--no-deps", "--target", str(target), f"libtpu{spec}"],
            capture_output=True,
            text=True,
            timeout=900,
        )
        if r.returncode != 0:
            pytest.skip(f"libtpu{spec} (what jax {status.jax} pins) could not be installed: {r.stderr[-300:]}")
    return str(target)


def _lower(cli, libtpu_path, *args, cache_dir: Path | None = None, **environ: str):
    """``canary lower --lane tpu``; a compile looks its cache key up in ``cache_dir`` (local), never
    in the lane's bucket."""
    env = {"PYTHONPATH": os.pathsep.join(p for p in (str(ROOT), libtpu_path) if p), **environ}
    if cache_dir is not None:
        lanes = cache_dir.parent / "lanes-local-cache.toml"
        text = (ROOT / "lanes.toml").read_text()
        lanes.write_text(text.replace('"gs://canary-compilation-cache/ttl=30d/tpu"', json.dumps(str(cache_dir))))
        env["CANARY_LANES"] = str(lanes)
    return cli("lower", "--lane", "tpu", "--no-history", *args, env=env, own_process=True)


@pytest.mark.slow  # lowers the whole train step on the v6e:2x2 topology with libtpu (about 10 s)
def test_moe_canary_lowers_whole_on_the_lanes_topology(cli, libtpu_path, tmp_path):
    r = _lower(cli, libtpu_path, "--no-parity", "--json", "--out", str(tmp_path))
    assert r.returncode == 0, r.stdout + r.stderr
    (p,) = json.loads(r.stdout)["platforms"]
    t = p["topology"]
    assert t["ran"] is True and t["ok"] is True and t["name"] == "v6e:2x2"
    assert (t["devices"], t["device_kind"], t["mesh"]) == (4, "TPU v6 lite", {"data": 4})
    assert (t["batch_size"], t["seq_len"], t["ragged_dot"]) == (128, 8192, "megablox")  # the lane's global batch
    assert len(t["fingerprint"]) == 64 and t["fingerprint"] != p["fingerprint"]  # not one chip's program
    # libtpu's init warnings are in the log, not on the terminal
    assert "TPU_ACCELERATOR_TYPE" not in r.stderr and "libtpu" not in r.stderr
    assert Path(t["log"]).is_file()

    r = _lower(cli, libtpu_path, "--no-parity", "--out", str(tmp_path))
    assert r.returncode == 0 and "topology     v6e:2x2 (4 x TPU v6 lite" in r.stdout


@pytest.mark.slow  # the grug ferry on the topology (about 15 s, after importing levanter)
def test_grug_ferry_on_the_topology_keeps_the_incidents_diagnosis(cli, libtpu_path, tmp_path):
    from tests.test_grug_lower import _static_tile_in_installed_haliax

    r = _lower(cli, libtpu_path, "--ferry", "grug-moe-canary", "--no-parity", "--json", "--out", str(tmp_path))
    (p,) = json.loads(r.stdout)["platforms"]
    t = p["topology"]
    assert t["name"] == "v6e:2x2" and t["mesh"] == {"data": 4, "expert": 1, "model": 1}
    if not _static_tile_in_installed_haliax():
        assert r.returncode == 0 and t["ok"] is True, r.stdout
        return
    assert r.returncode == 1 and t["ok"] is False
    assert "array shape (524288, 128)" in t["error"]  # 128 x 8192 x top-2 over 4 chips
    assert (t["gmm"], t["projection"], t["tensor"], t["block_shape"]) == ("grad-lhs", "down", "out", [512, 32])
    assert t["call_path"][-1].endswith(" _ragged_dot_megablox_impl")
    assert t["owner"] == f"marin-haliax {importlib.metadata.version('marin-haliax')}"
    assert t["owner"] in t["diagnosis"]
    # recorded in its preflight series, with a reproducer that reproduces
    record = json.loads((tmp_path / json.loads(r.stdout)["runs"][0]["run_id"] / "result.json").read_text())
    assert record["ferry"] == "grug-moe-canary:preflight" and record["context"]["repro"]["reproduced"] is True


def _unblocked_ferry(tmp_path: Path) -> Path:
    """moe-canary with its tpu lane's whole logits and attention scores at once (no
    ``loss_block``/``attention_block``): the program that needed 224 GiB of HBM a chip."""
    text = (ROOT / "ferries" / "moe-canary.toml").read_text()
    for line in ("loss_block = 64\n", "attention_block = 512\n"):
        assert line in text
        text = text.replace(line, "", 1)
    ferry = tmp_path / "moe-unblocked.toml"
    ferry.write_text(text)
    return ferry


@pytest.mark.slow  # compiles the whole train step at the lane's shape: libtpu runs out of HBM in seconds
def test_compile_of_an_oversized_program_reports_the_hbm_it_needs(cli, libtpu_path, tmp_path):
    args = ("--ferry", str(_unblocked_ferry(tmp_path)), "--no-parity", "--compile", "--json", "--out", str(tmp_path))
    r = _lower(cli, libtpu_path, *args, cache_dir=tmp_path / "cache")
    assert r.returncode == 1, r.stdout + r.stderr
    out = json.loads(r.stdout)
    c = out["platforms"][0]["topology"]["compile"]
    assert c["ok"] is False and "RESOURCE_EXHAUSTED" in c["error"] and "HBM" in c["error"]
    assert len(c["error_fingerprint"]) == 64
    # the preflight's record: a compile failure with a fingerprint of its own
    record = json.loads((Path(out["runs"][0]["run_dir"]) / "result.json").read_text())
    assert record["signature"]["kind"] == "compile_error" and "RESOURCE_EXHAUSTED" in record["signature"]["message"]
    assert record["ferry"] == "moe-canary:preflight" and record["verdict"] == "fail"
    # and its repro.py: the train step compiled on the topology, which runs out of HBM the same way
    repro = record["context"]["repro"]
    assert repro["reproduced"] is True, repro["detail"]
    script = Path(repro["path"]).read_text()
    assert len(script.splitlines()) <= 40 and f"libtpu=={out['platforms'][0]['topology']['libtpu']}" in script


@pytest.mark.slow  # compiles the whole train step at the lane's shape with libtpu (about 5 min on a busy 2-core host)
def test_the_lanes_whole_program_compiles_within_a_v6e_chips_hbm(cli, libtpu_path, tmp_path):
    xdg = {"XDG_CACHE_HOME": str(tmp_path / "user-cache")}  # compiled here, never served from the host's cache
    args = ("--no-parity", "--compile", "--json", "--out", str(tmp_path))
    r = _lower(cli, libtpu_path, *args, cache_dir=tmp_path / "cache", **xdg)
    assert r.returncode == 0, r.stdout + r.stderr
    t = json.loads(r.stdout)["platforms"][0]["topology"]
    c = t["compile"]
    assert (t["batch_size"], t["seq_len"], t["mesh"]) == (128, 8192, {"data": 4})
    assert c["ok"] is True and c["verdict"] == "PASS" and c["gate"]["status"] == "PASS"
    assert c["memory"]["total"] < 16 * GIB  # half a chip's HBM at most: blocked, the step is a few GiB


@pytest.mark.slow  # compiles a reduced-shape train step with libtpu (40-70 s on 2 cores)
def test_compile_reports_per_chip_memory_against_hbm(cli, libtpu_path, tmp_path):
    text = (ROOT / "ferries" / "moe-canary.toml").read_text()
    head, sep, tail = text.partition("[lanes.tpu]")
    tail = tail.replace("batch_size = 128", "batch_size = 8", 1).replace("seq_len = 8192", "seq_len = 256", 1)
    tail = tail.replace("attention_block = 512", "attention_block = 128", 1)  # under the shorter sequence
    ferry = tmp_path / "moe-small.toml"
    ferry.write_text(head + sep + tail)
    cache = tmp_path / "cache"
    args = ("--ferry", str(ferry), "--no-parity", "--compile", "--out", str(tmp_path))
    xdg = {"XDG_CACHE_HOME": str(tmp_path / "user-cache")}  # this test's own host compile cache
    r = _lower(cli, libtpu_path, *args, "--json", cache_dir=cache, **xdg)
    assert r.returncode == 0, r.stdout + r.stderr
    out = json.loads(r.stdout)
    t = out["platforms"][0]["topology"]
    # the key JAX would file the program under, and the lane's (empty) cache dir does not hold it
    k = t["cache"]
    assert k["key"].startswith("jit_") and (k["dir"], k["present"]) == (str(cache), False)
    assert k["verdict"] == "the next tpu run will compile cold"
    c = t["compile"]
    assert (t["batch_size"], t["seq_len"]) == (8, 256)
    assert c["ok"] is True and c["verdict"] == "PASS" and c["hbm_bytes"] == 32 * GIB
    m = c["memory"]
    assert m["total"] == m["temp"] + m["arguments"] + m["outputs"] + m["generated_code"] - m["aliased"] > 0
    assert 0 < c["fraction"] < 0.9 and c["seconds"] > 0 and len(c["fingerprint"]) == 64
    # the lane's memory gate, and the footprint in the preflight's record (what --changes searches)
    assert c["gate"]["name"] == "compiled_memory" and c["gate"]["status"] == "PASS"
    record = json.loads((Path(out["runs"][0]["run_dir"]) / "result.json").read_text())
    assert record["summary"]["memory/compiled_bytes"] == m["total"]
    assert record["summary"]["program/compiled_fingerprint"] == c["fingerprint"]
    assert [g["name"] for g in record["gates"]] == ["lowering/tpu", "compiled_memory"]
    # compiled cold and kept in the host's compile cache; the same compile again is served from it
    host = tmp_path / "user-cache" / "canary" / "tpu-compile" / "tpu"
    assert c["host_cache"] == {"dir": str(host), "served": False} and (host / f"{k['key']}.json").is_file()
    r = _lower(cli, libtpu_path, *args, cache_dir=cache, **xdg)
    assert r.returncode == 0, r.stdout + r.stderr
    assert f"(served from the host compile cache {host}; compiled cold in {c['seconds']} s)" in r.stdout
    assert f"program {c['fingerprint'][:12]}; per chip: temp" in r.stdout


# ----------------------------------------------------------------------------- canary doctor tpu


def _fake_libtpu(root: Path, version: str) -> str:
    """A libtpu distribution at ``version`` that no JAX pairs with: the package and its metadata."""
    (root / "libtpu").mkdir(parents=True)
    (root / "libtpu" / "__init__.py").write_text("")
    info = root / f"libtpu-{version}.dist-info"
    info.mkdir()
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: libtpu\nVersion: {version}\n")
    return str(root)


DOCTOR = (
    "import json; from canary.config import get_lane; from canary.doctor import check_libtpu; "
    "print(json.dumps(check_libtpu(get_lane('tpu')).to_dict()))"
)


def _doctor_libtpu(path: str) -> dict:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(p for p in (str(ROOT), path) if p)}
    r = subprocess.run([sys.executable, "-c", DOCTOR], env=env, capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    return json.loads(r.stdout)


@pytest.mark.skipif(importlib.util.find_spec("libtpu") is not None, reason="libtpu is installed here")
def test_doctor_tpu_checks_libtpu(tmp_path):
    from canary.doctor import check_libtpu

    missing = check_libtpu(load_lanes()[0]["tpu"])
    assert missing.name == "libtpu" and missing.ok and "canary[tpu]" in missing.detail and "v6e:2x2" in missing.detail

    wrong = _doctor_libtpu(_fake_libtpu(tmp_path / "site", "0.0.1"))
    assert wrong["ok"] is False and "libtpu 0.0.1 does not pair with jax" in wrong["detail"]
    assert wrong["fix"] == f"pip install 'jax[tpu]=={importlib.metadata.version('jax')}'"


@pytest.mark.slow  # may install libtpu into the test cache
def test_doctor_tpu_with_the_paired_libtpu(libtpu_path):
    c = _doctor_libtpu(libtpu_path)
    assert c["ok"] is True and "lowers on v6e:2x2" in c["detail"]
    assert (
        c["detail"].startswith(f"libtpu {topology.libtpu_status().wanted.strip('=*')}") or "libtpu 0.0." in c["detail"]
    )


def _children(pid: int) -> list[int]:
    """The processes whose parent is ``pid`` (Linux's /proc)."""
    out = []
    for status in Path("/proc").glob("[0-9]*/status"):
        try:
            fields = dict(line.split(":\t", 1) for line in status.read_text().splitlines() if ":\t" in line)
        except OSError:  # gone meanwhile
            continue
        if fields.get("PPid", "").strip() == str(pid):
            out.append(int(status.parent.name))
    return out


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


@pytest.mark.slow  # starts the lane's compile (minutes) with libtpu, twice, and stops each within seconds
@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGKILL])
def test_an_interrupted_compile_leaves_no_compiler_running(libtpu_path, tmp_path, sig):
    """Ctrl-C on `canary lower --compile` stops the topology's child at once and says interrupted
    (exit 130), rather than after the lane's compile (about 5 minutes); a killed canary takes the
    child with it. Signalled once the child exists, not after a delay."""
    env = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join(p for p in (str(ROOT), libtpu_path) if p),
        "XDG_CACHE_HOME": str(tmp_path / "user-cache"),
    }
    args = ["lower", "--lane", "tpu", "--no-history", "--no-parity", "--compile"]
    proc = popen_as_from_a_terminal(
        [sys.executable, "-m", "canary", *args, "--no-compile-cache", "--out", str(tmp_path)],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        workers: list[int] = []
        while not workers and proc.poll() is None:  # the topology's child started: the compile is under way
            workers = [p for p in _children(proc.pid) if "topology_worker" in _cmdline(p)]
            time.sleep(0.2)
        assert workers, proc.communicate()[1][-2000:]
        proc.send_signal(sig)
        _, err = proc.communicate(timeout=120)  # a hang guard: the compile alone takes minutes
        if sig == signal.SIGINT:
            assert proc.returncode == 130 and "canary: interrupted" in err, err[-2000:]
        # the kernel delivers the parent's death to the child; a loaded machine may take a while to
        # let it exit, which is not what is tested: a child left compiling would not exit at all
        wait_for(lambda: not _alive(workers[0]), timeout=60, what="the topology's child to die")
    finally:
        proc.kill()
        proc.wait()


def _cmdline(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
    except OSError:
        return ""
