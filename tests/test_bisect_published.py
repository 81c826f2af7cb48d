"""`canary bisect --package` against the real registry and the real published packages: marin's
levanter and haliax on Python 3.12 (their versions from 0.2.21 on need it), each candidate laid
over one venv kept in the user cache dir, so a second run asks pip almost nothing.

The boundary it finds is checked by reading the two versions' own sources: haliax's megablox
wrapper passes the incident's static tile tuple up to 0.2.97 and a callable tiling from 0.2.98."""

from __future__ import annotations

import ast
import json
import re
import subprocess
import zipfile
from pathlib import Path

import pytest

from canary.bisect.envs import find_python
from tests.conftest import run_cli

pytestmark = pytest.mark.slow

PACKAGES = ["--package", "marin-levanter", "--package", "marin-haliax"]
LAST_STATIC, FIRST_CALLABLE = "0.2.97.dev33389124828", "0.2.98.dev33498022413"
OLD, NEW = "0.2.95.dev33250980001", "0.2.99.dev33617068238"


def _bisect(*args: str) -> tuple[subprocess.CompletedProcess, dict]:
    p = run_cli("bisect", *PACKAGES, "--python", "3.12", "--json", *args, timeout=3000)
    try:
        return p, json.loads(p.stdout)
    except ValueError:
        raise AssertionError(f"exit {p.returncode}, no JSON:\n{p.stdout[-2000:]}\n{p.stderr[-4000:]}") from None


def megablox_tiling(version: str, tmp: Path) -> ast.expr:
    """The ``tiling=`` argument haliax ``version``'s megablox wrapper passes to megablox's gmm, read
    from the wheel the registry serves (fetched here by pip itself, apart from the bisect)."""
    python = find_python("3.12").path
    subprocess.run(
        [python, "-m", "pip", "download", "--quiet", "--no-deps", "--pre", "-d", str(tmp), f"marin-haliax=={version}"],
        check=True,
        capture_output=True,
        timeout=600,
    )
    wheel = next(tmp.glob(f"marin_haliax-{version}-*.whl"))
    tree = ast.parse(zipfile.ZipFile(wheel).read("haliax/nn/ragged_dot.py"))
    wrapper = next(f for f in tree.body if isinstance(f, ast.FunctionDef) and f.name == "_ragged_dot_megablox_impl")
    call = next(c for c in ast.walk(wrapper) if isinstance(c, ast.Call) and any(k.arg == "tiling" for k in c.keywords))
    tiling = next(k.value for k in call.keywords if k.arg == "tiling")
    if isinstance(tiling, ast.Name):  # a callable: the function it names is the module's own
        assert any(isinstance(f, ast.FunctionDef) and f.name == tiling.id for f in tree.body), tiling.id
    return tiling


def test_the_two_versions_sources_differ_in_the_megablox_tiling(tmp_path):
    static = megablox_tiling(LAST_STATIC, tmp_path)
    assert isinstance(static, ast.Tuple) and len(static.elts) == 3  # (min(m, 512), min(k, 1024), min(n, 1024))
    assert isinstance(megablox_tiling(FIRST_CALLABLE, tmp_path), ast.Name)


def test_bisect_names_the_first_haliax_that_lowers_grug_for_tpu_and_its_sources_say_why(tmp_path):
    p, d = _bisect("--old", OLD, "--new", NEW, "--test", "lower", "--ferry", "grug-moe-canary", "--lane", "tpu")
    assert p.returncode == 0, (d["reason"], d["log"])
    assert d["direction"] == "fix" and d["first_fixed"] == FIRST_CALLABLE and d["first"] == FIRST_CALLABLE
    assert d["first_bad"] is None and d["found"] and d["bad"] == OLD and d["good"] == NEW
    assert d["python_version"].startswith("3.12.") and d["versions"][0] == OLD and len(d["versions"]) == 5
    assert {"marin-levanter", "marin-haliax", "marin-fray"} <= set(d["moved"])
    verdicts = {s["sha"]: s["verdict"] for s in d["log"]}
    assert verdicts[OLD] == "bad" and verdicts[NEW] == "good" and verdicts[FIRST_CALLABLE] == "good"
    assert verdicts.get(LAST_STATIC) == "bad"  # the boundary is tested from both sides
    failing = next(s for s in d["log"] if s["sha"] == OLD)
    assert failing["detail"].startswith("tpu:") and d["fingerprint"] in failing["detail"]
    # the boundary, read from the two versions' sources: a static tile tuple, then a callable
    assert isinstance(megablox_tiling(LAST_STATIC, tmp_path), ast.Tuple)
    assert isinstance(megablox_tiling(FIRST_CALLABLE, tmp_path), ast.Name)


UNTESTABLE, FIRST_TESTABLE = "0.2.41.dev202607090907", "0.2.42.dev202607100853"


def _wheel(dist: str, version: str | None, tmp: Path) -> zipfile.ZipFile:
    """A wheel the registry serves (``version`` None: its newest), fetched by pip itself, apart from the bisect."""
    want = f"{dist}=={version}" if version else dist
    python = find_python("3.12").path
    d = tmp / want
    subprocess.run(
        [python, "-m", "pip", "download", "--quiet", "--no-deps", "--pre", "-d", str(d), want],
        check=True,
        capture_output=True,
        timeout=600,
    )
    return zipfile.ZipFile(next(d.glob("*.whl")))


def _imports(wheel: zipfile.ZipFile, path: str) -> set[str]:
    """The modules a source file of the wheel imports at its top level."""
    tree = ast.parse(wheel.read(path))
    return {n.module for n in tree.body if isinstance(n, ast.ImportFrom) and n.module} | {
        a.name for n in tree.body if isinstance(n, ast.Import) for a in n.names
    }


def test_from_an_old_end_that_cannot_be_tested_it_steps_inward_to_the_oldest_that_can(tmp_path):
    p, d = _bisect("--old", UNTESTABLE, "--new", NEW, "--test", "lower", "--ferry", "grug-moe-canary", "--lane", "tpu")
    assert p.returncode == 0, (d["reason"], d["log"])
    [end] = d["untestable"]
    assert end["end"] == "old" and end["version"] == UNTESTABLE and end["stand_in"] == FIRST_TESTABLE
    assert "No module named 'rigging.filesystem.factory'" in end["error"] and end["untested"] == []
    verdicts = {s["sha"]: s["verdict"] for s in d["log"]}
    # the boundary is tested from both sides, and the bisect runs from the stand-in to the fix
    assert verdicts[UNTESTABLE] == "skip" and verdicts[FIRST_TESTABLE] == "bad" and d["skipped"] == [UNTESTABLE]
    assert d["direction"] == "fix" and d["first_fixed"] == FIRST_CALLABLE and d["bad"] == FIRST_TESTABLE
    assert d["good"] == NEW and d["versions"][0] == UNTESTABLE
    assert len(d["log"]) <= 2 + 2 * len(d["versions"]).bit_length()  # binary searches, not a walk
    # the boundary, read from the wheels: today's marin-finelog client imports
    # rigging.filesystem.factory, which marin-rigging 0.2.42 does not have either; marin-fray 0.2.41
    # reaches it at `import fray` (its package imports current_client, which imports iris.client),
    # and from 0.2.42 fray's package imports none of its submodules, so the lowering never gets there
    finelog = _wheel("marin-finelog", None, tmp_path)
    assert "rigging.filesystem.factory" in _imports(finelog, "finelog/client/object_query_client.py")
    assert "rigging/filesystem/factory.py" not in _wheel("marin-rigging", FIRST_TESTABLE, tmp_path).namelist()
    old_fray, new_fray = (_wheel("marin-fray", v, tmp_path) for v in (UNTESTABLE, FIRST_TESTABLE))
    assert "fray.current_client" in _imports(old_fray, "fray/__init__.py")
    assert "iris.client.client" in _imports(old_fray, "fray/current_client.py")
    assert not {m for m in _imports(new_fray, "fray/__init__.py") if m.startswith(("fray", "iris"))}


# a crash's fingerprint no version of the window shows: the bug a bisect of one failure looks for
ABSENT = "0123456789ab"


def test_a_cpu_run_over_versions_whose_verdicts_agree_names_none():
    # moe-canary is canary's own model: no haliax version changes its run, so neither end fails with the bug looked
    # for. A machine busy enough to miss the golden's throughput fails an end on that gate alone, another failure than
    # the bug (the machine's), which --other-failure good counts as good: the ends agree however busy the machine is
    p, d = _bisect(
        *("--old", FIRST_CALLABLE, "--new", NEW, "--test", "run", "--ferry", "moe-canary", "--lane", "cpu"),
        *("--fingerprint", ABSENT, "--other-failure", "good"),
    )
    assert p.returncode == 1 and not d["found"] and d["first"] is None, d
    assert d["reason"] == "--old and --new both pass: no version between them changes the verdict"
    assert [(s["sha"], s["role"], s["verdict"]) for s in d["log"]] == [
        (FIRST_CALLABLE, "old end", "good"),
        (NEW, "new end", "good"),
    ]
    machine = re.compile(r"^another failure, perf_regression \w{12}: failed gates: throughput \(ferry moe-canary\)$")
    assert all(s["detail"].startswith("passed: ") or machine.match(s["detail"]) for s in d["log"]), d["log"]
    assert d["python_version"].startswith("3.12.")
    env = Path(d["environment"])
    assert (env / "canary-base.json").is_file() and not list(env.glob("lib/python3.12/site-packages/haliax"))


def test_the_registry_answers_bad_input_with_exit_2():
    p = run_cli(
        "bisect",
        "--package",
        "marin-haliax-never-published",
        "--old",
        "1.0",
        "--new",
        "2.0",
        "--lane",
        "tpu",
        "--python",
        "3.12",
    )
    assert p.returncode == 2 and "--package marin-haliax-never-published: the registry publishes nothing" in p.stderr
    p = run_cli("bisect", *PACKAGES, "--old", "0.2.97.dev1", "--new", NEW, "--lane", "tpu", "--python", "3.12")
    assert p.returncode == 2 and f"nearest are {LAST_STATIC}" in p.stderr, p.stderr
    # Python 3.11 is offered nothing after 0.2.20: pip's own view decides what a Python can bisect
    p = run_cli("bisect", *PACKAGES, "--old", OLD, "--new", NEW, "--lane", "tpu", "--python", "3.11")
    assert p.returncode == 2
    assert "--old 0.2.95.dev33250980001: no such version of marin-levanter and marin-haliax" in p.stderr
