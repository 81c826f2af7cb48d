"""`canary bisect --package`: the pure parts of a bisect over published versions (pip's listing,
PEP 440 order, the window, what moves together, the search, the judge, the output contract) and
its bad input. The runs against the registry and the real packages are in test_bisect_published.py."""

from __future__ import annotations

import itertools
import json
import re
import zipfile
from dataclasses import fields

import pytest

from canary.bisect import BisectResult, Step
from canary.bisect.envs import Layer, canary_requirements, unpack
from canary.bisect.judge import judge_lower_failure, lower_fingerprint
from canary.bisect.published import VersionBisectResult
from canary.bisect.versions import (
    Ends,
    between,
    common,
    next_end,
    next_probe,
    ordered,
    parse_listing,
    pinned_along,
    remaining,
    window,
)
from canary.errors import ConfigError
from tests.conftest import run_cli

# What `pip index versions marin-haliax --pre` prints (its warnings go to stderr), cut short.
LISTING = """marin-haliax (0.2.227.dev40316220070)
Available versions: 0.2.227.dev40316220070, 0.2.99.dev33617068238, 0.2.98.dev33498022413, 0.2.97.dev33389124828, \
0.2.96.dev33307221957, 0.2.60.dev30223685542, 0.2.59.dev202607260759, 0.2.21.dev202606191006, 0.2.20.dev202606180959
"""


def test_reads_pips_listing():
    versions = parse_listing(LISTING)
    assert versions[0] == "0.2.227.dev40316220070" and versions[-1] == "0.2.20.dev202606180959" and len(versions) == 9
    assert parse_listing("ERROR: No matching distribution found for marin-nope") == []


def test_versions_are_ordered_as_pep_440_orders_them_not_as_text():
    # the .dev numbers change scheme at 0.2.60 (a date, then a build number): the release decides first
    assert ordered(parse_listing(LISTING)) == [
        "0.2.20.dev202606180959",
        "0.2.21.dev202606191006",
        "0.2.59.dev202607260759",
        "0.2.60.dev30223685542",
        "0.2.96.dev33307221957",
        "0.2.97.dev33389124828",
        "0.2.98.dev33498022413",
        "0.2.99.dev33617068238",
        "0.2.227.dev40316220070",
    ]
    assert ordered(["1.0", "1.0rc1", "1.0.dev3", "1.0.post1", "0.9", "not-a-version"]) == [
        "0.9",
        "1.0.dev3",
        "1.0rc1",
        "1.0",
        "1.0.post1",
    ]


def test_the_window_holds_both_ends_and_what_lies_between():
    published = parse_listing(LISTING)
    assert window(published, "0.2.96.dev33307221957", "0.2.99.dev33617068238") == [
        "0.2.96.dev33307221957",
        "0.2.97.dev33389124828",
        "0.2.98.dev33498022413",
        "0.2.99.dev33617068238",
    ]
    assert len(window(published, "0.2.20.dev202606180959", "0.2.227.dev40316220070")) == 9
    # a .dev build comes before its release: 0.2.99.dev... < 0.2.99
    assert between(published, "0.2.97.dev0", "0.2.99") == [
        "0.2.97.dev33389124828",
        "0.2.98.dev33498022413",
        "0.2.99.dev33617068238",
    ]


@pytest.mark.parametrize(
    "old, new, match",
    [
        ("0.2.99.dev33617068238", "0.2.96.dev33307221957", "--old 0.2.99.dev33617068238 is not older than --new"),
        ("0.2.96.dev33307221957", "0.2.96.dev33307221957", "is not older than"),
        (
            "0.2.97.dev1",
            "0.2.99.dev33617068238",
            r"--old 0.2.97.dev1: no such version of marin-haliax is published.*"
            r"nearest are 0.2.97.dev33389124828",
        ),
        ("0.2.96.dev33307221957", "0.2.300", r"--new 0.2.300: no such version of marin-haliax is published"),
        ("yesterday", "0.2.99.dev33617068238", r"--old 'yesterday' is not a version"),
    ],
)
def test_a_bad_window_names_the_bad_flag(old, new, match):
    with pytest.raises(ConfigError, match=match):
        window(parse_listing(LISTING), old, new, "marin-haliax")


def test_packages_given_together_bisect_the_versions_all_of_them_publish():
    both, some = common({"marin-levanter": ["0.2.96", "0.2.97", "0.2.98"], "marin-haliax": ["0.2.96", "0.2.98"]})
    assert both == ["0.2.96", "0.2.98"] and some == ["0.2.97"]


# Requires-Dist of marin-levanter 0.2.20.dev202606180959 (from its wheel's METADATA), in part.
LEVANTER_0_2_20 = [
    "marin-haliax==0.2.20.dev202606180959",
    "equinox>=0.11.7,!=0.12.0",
    "jax>=0.9.2,<0.11",
    "marin-fray==0.2.20.dev202606180959",
    "marin-rigging==0.2.20.dev202606180959",
    "marin-zephyr==0.2.20.dev202606180959",
    "einops",
    "humanfriendly==10.0",
    "pydantic<3",
    "jax[cuda13]==0.10.0 ; extra == 'gpu'",
    "jax==0.10.0 ; extra == 'tpu'",
]


def test_what_a_package_pins_to_its_own_version_moves_with_it():
    v = "0.2.20.dev202606180959"
    requires = {"marin-levanter": LEVANTER_0_2_20, "marin-zephyr": [f"marin-iris=={v}", "fsspec"]}
    moving = pinned_along(["marin-levanter"], v, requires)
    assert moving == ["marin-levanter", "marin-haliax", "marin-fray", "marin-rigging", "marin-zephyr", "marin-iris"]
    # a pin to another version (humanfriendly==10.0) or under an extra (jax==0.10.0 for tpu) stays put
    assert not {"humanfriendly", "jax"} & set(moving)
    assert pinned_along(["Marin_Haliax"], v, requires) == ["marin-haliax"]


# ----------------------------------------------------------------------------- the search


def _search(n: int, truth: list[str], skips: set[int], known: dict | None = None) -> tuple[str, object, int]:
    """Drive next_probe against a known answer: (outcome, what it named, tests run)."""
    verdicts = {0: truth[0], n - 1: truth[n - 1], **(known or {})}
    tests = 2
    while True:
        p = next_probe(n, verdicts)
        if p.kind != "test":
            return p.kind, (p.index if p.kind == "found" else p.candidates), tests
        assert p.index not in verdicts and 0 < p.index < n - 1
        verdicts[p.index] = "skip" if p.index in skips else truth[p.index]
        tests += 1


@pytest.mark.parametrize("old", ["good", "bad"])
def test_the_search_names_the_first_version_that_differs_from_the_old_ends(old):
    new = "bad" if old == "good" else "good"
    for n in range(2, 40):
        for first in range(1, n):
            truth = [old] * first + [new] * (n - first)
            kind, named, tests = _search(n, truth, set())
            assert (kind, named) == ("found", first)
            assert tests <= 2 + max(1, (n - 2).bit_length())


def test_the_search_steps_round_skipped_versions():
    n = 9
    for first, skips in itertools.product(range(1, n), [{3}, {4, 5}, {1, 2, 3}, {6, 7}]):
        truth = ["good"] * first + ["bad"] * (n - first)
        kind, named, _ = _search(n, truth, {s for s in skips if 0 < s < n - 1})
        if kind == "found":
            assert named == first
        else:  # it is among the skipped and the first tested that differs
            assert kind == "only-skipped" and first in named and set(named) - {max(named)} <= skips


def test_the_search_needs_both_ends_and_says_what_is_left():
    with pytest.raises(ValueError):
        next_probe(5, {0: "good", 4: "good"})
    with pytest.raises(ValueError):
        next_probe(5, {0: "skip", 4: "bad"})
    assert remaining(10, {0: "good", 9: "bad", 4: "good", 7: "bad"}) == [5, 6, 7]


def _ends(truth: list[str]) -> tuple[Ends, dict[int, str]]:
    """Drive next_end against known verdicts (skip: cannot be tested): where it stops, what it tested."""
    verdicts: dict[int, str] = {}
    while (e := next_end(len(truth), verdicts)).kind == "test":
        assert e.index not in verdicts and 0 <= e.index < len(truth)
        verdicts[e.index] = truth[e.index]
    return e, verdicts


@pytest.mark.parametrize("old", ["good", "bad"])
def test_from_an_untestable_old_end_it_steps_inward_to_the_oldest_that_can_be_tested_and_bisects_from_there(old):
    new = "bad" if old == "good" else "good"
    for n in range(3, 60):
        for untestable in range(1, n - 1):
            for first in range(untestable + 1, n):  # the first version that differs from the stand-in's
                truth = ["skip"] * untestable + [old] * (first - untestable) + [new] * (n - first)
                e, verdicts = _ends(truth)
                assert (e.kind, e.lo, e.hi) == ("ready", untestable, n - 1)
                assert verdicts[untestable - 1] == "skip"  # the boundary is tested from both sides
                assert len(verdicts) <= 2 + (n - 1).bit_length()  # a binary search, not a walk
                inside = {i - e.lo: v for i, v in verdicts.items() if e.lo <= i <= e.hi}
                kind, named, _ = _search(n - e.lo, truth[e.lo :], set(), inside)
                assert (kind, named + e.lo) == ("found", first)


def test_an_untestable_new_end_and_both_ends_untestable_are_stepped_round_the_same_way():
    for n in range(3, 40):
        for lo, hi in itertools.product(range(n), range(n)):
            if lo > hi or (lo, hi) == (0, n - 1):
                continue
            truth = ["skip"] * lo + ["good"] * (hi - lo + 1) + ["skip"] * (n - 1 - hi)
            e, verdicts = _ends(truth)
            assert (e.kind, e.lo, e.hi) == ("one" if lo == hi else "ready", lo, hi), (n, lo, hi)
            assert len(verdicts) <= 2 * (2 + n.bit_length()) + (n - hi + lo if lo and hi < n - 1 else 0)


def test_when_no_version_can_be_tested_every_one_is_tried_before_it_says_so():
    for n in range(2, 20):
        e, verdicts = _ends(["skip"] * n)
        assert e.kind == "none" and sorted(verdicts) == list(range(n))
    # with both ends untestable, the middle is tried first, then the quarters
    assert list(_ends(["skip"] * 4 + ["good"] + ["skip"] * 4)[1])[:3] == [0, 8, 4]


def test_untestability_that_is_not_a_prefix_never_hides_a_testable_version_as_untestable():
    # every pattern of 7 versions: the stand-ins are testable, every version tested outside them
    # is untestable, and a testable version stepped over is one never tested (so named untested)
    for truth in itertools.product(["skip", "good", "bad"], repeat=7):
        e, verdicts = _ends(list(truth))
        testable = [i for i, v in enumerate(truth) if v != "skip"]
        if not testable:
            assert e.kind == "none" and len(verdicts) == 7
            continue
        assert e.kind in ("ready", "one") and truth[e.lo] != "skip" and truth[e.hi] != "skip"
        assert all(truth[i] == "skip" for i in verdicts if i < e.lo or i > e.hi)
        if testable == list(range(testable[0], testable[-1] + 1)):  # untestable only at the ends
            assert (e.lo, e.hi) == (testable[0], testable[-1])
    # 0 and 3 cannot be tested, 1 can: the binary search from 6 stops at 4, and 1 is named untested
    e, verdicts = _ends(["skip", "good", "skip", "skip", "good", "good", "bad"])
    assert (e.lo, 1 in verdicts) == (4, False) and verdicts[3] == "skip"


# ----------------------------------------------------------------------------- the judge


def _report(
    ok: bool,
    error: str = "ValueError: Block spec for outputs in pallas_call kernel at gmm.py:393 has "
    "block shape (Blocked(block_size=512), Blocked(block_size=32)), array shape "
    "(4096, 128)",
    **extra,
) -> str:
    p = {"platform": "tpu", "ok": ok, "error": None if ok else error, "diagnosis": None if ok else "grad-lhs", **extra}
    return json.dumps({"ferry": "grug-moe-canary", "ok": ok, "platforms": [p]})


def test_a_lowering_failure_is_told_apart_by_its_fingerprint():
    verdict, _, fp = judge_lower_failure(1, _report(False))
    assert verdict == "bad" and fp == lower_fingerprint(_report(False)) and len(fp) == 12
    assert judge_lower_failure(1, _report(False), fingerprint=fp)[0] == "bad"
    other = _report(False, "NotImplementedError: megablox GMM is not available")
    assert judge_lower_failure(1, other, fingerprint=fp)[:1] == ("skip",)
    assert judge_lower_failure(1, other, fingerprint=fp, other_failure="good")[0] == "good"
    assert judge_lower_failure(0, _report(True), fingerprint=fp) == ("good", "lowered for tpu", None)
    assert lower_fingerprint(_report(False, fingerprint="abcdef012345")) == "abcdef012345"
    assert judge_lower_failure(1, "Traceback ...", "ModuleNotFoundError: No module named 'levanter'")[0] == "skip"


def test_a_lowering_failures_fingerprint_ignores_where_and_in_which_version_the_library_lies():
    error = (
        "ValueError: Block spec for outputs in pallas_call kernel at {}/jax/experimental/pallas/ops/tpu/"
        "megablox/gmm.py:{} has block shape (Blocked(block_size=512), Blocked(block_size=32))"
    )
    one = _report(False, error.format("/root/.cache/canary/bisect/site/cp312/jax-0.10.2-py3-none-any", 393))
    two = _report(False, error.format("/venv/lib/python3.12/site-packages", 401))
    assert lower_fingerprint(one) == lower_fingerprint(two)
    assert lower_fingerprint(one) != lower_fingerprint(_report(False, error.replace("outputs", "args[0]")))
    # a failure traced to its grouped matmul is named by what was found, whatever the words
    traced = dict(
        kernel="gmm",
        gmm="grad-lhs",
        projection="down",
        tensor="out",
        operand="outputs",
        array_shape=[4096, 128],
        block_shape=[512, 32],
    )
    assert lower_fingerprint(_report(False, "ValueError: one wording", **traced)) == lower_fingerprint(
        _report(False, "ValueError: another wording", **traced)
    )
    assert lower_fingerprint(_report(False, **{**traced, "gmm": "forward"})) != lower_fingerprint(
        _report(False, **traced)
    )


# ----------------------------------------------------------------------------- the output contract


def _fixed(old: str, new: str, first: str, log: list[Step] = (), good: str = "", bad: str = "", **more):
    """A version bisect's result that names ``first`` as the first fixed version."""
    return VersionBisectResult(
        "tpu",
        "lower",
        good or new,
        bad or old,
        3,
        packages=["marin-haliax"],
        old=old,
        new=new,
        direction="fix",
        first_fixed=first,
        log=list(log),
        **more,
    )


def test_a_version_bisect_prints_the_commit_bisects_keys():
    commit = BisectResult("tpu", "lower", "a" * 40, "b" * 40, 3).to_dict()
    version = _fixed(
        "0.2.96",
        "0.2.99",
        "0.2.98",
        [
            Step("0.2.96", "over the base as it is", "bad", 3.0, "tpu: grad-lhs", "old end"),
            Step("0.2.99", "", "good", 2.0, "lowered for tpu", "new end"),
            Step("0.2.97", "", "skip", 1.0, "cannot be installed", ""),
        ],
        good="0.2.98",
    ).to_dict()
    assert set(commit) <= set(version)
    assert {k: type(v) for k, v in commit.items() if v is not None} == {
        k: type(version[k]) for k, v in commit.items() if v is not None
    }
    assert version["found"] and version["first"] == "0.2.98" and version["first_bad"] is None
    assert version["tested"] == 3 and version["skipped"] == ["0.2.97"]
    assert [f.name for f in fields(Step)] == list(version["log"][0])
    assert not VersionBisectResult("tpu", "lower", "", "", 3).to_dict()["found"]


def test_an_untestable_end_its_stand_in_and_what_was_stepped_over_are_in_the_json_and_the_text():
    from rich.console import Console

    from canary.commands.bisect import render

    error = "cannot be tested (exit 1): ModuleNotFoundError: No module named 'rigging.filesystem.factory'"
    result = _fixed(
        "0.2.40",
        "0.2.99",
        "0.2.98",
        bad="0.2.43",
        python_version="3.12.1",
        versions=["0.2.40", "0.2.41", "0.2.42", "0.2.43", "0.2.98", "0.2.99"],
        untestable=[{"end": "old", "version": "0.2.40", "error": error, "stand_in": "0.2.43", "untested": ["0.2.41"]}],
        log=[
            Step("0.2.40", "", "skip", 3.0, error, "old end"),
            Step("0.2.99", "", "good", 2.0, "lowered for tpu", "new end"),
            Step("0.2.42", "", "skip", 3.0, error, ""),
            Step("0.2.43", "", "bad", 3.0, "tpu: grad-lhs", ""),
            Step("0.2.98", "", "good", 3.0, "lowered for tpu", ""),
        ],
    )
    d = json.loads(json.dumps(result.to_dict()))
    assert d["skipped"] == ["0.2.40", "0.2.41", "0.2.42"] and d["tested"] == 5  # 0.2.41 stepped over untested
    assert d["untestable"][0]["stand_in"] == "0.2.43" and d["found"] and d["first"] == "0.2.98"
    c = Console(record=True, width=400)
    render(result, c)
    text = c.export_text()
    assert "--old 0.2.40 cannot be tested (exit 1): ModuleNotFoundError: No module named" in text
    assert "0.2.43 stands in for it, the oldest that can be (1 between them stepped over untested)" in text
    assert "first fixed version: 0.2.98" in text and "5 tested, 3 skipped" in text


def test_a_layer_says_where_the_dependencies_differ():
    layer = Layer([("marin-haliax", "0.2.20"), ("marin_fray", "0.2.20"), ("jax", "0.10.2")], ["/x"])
    assert layer.summary(["marin-haliax", "marin-fray"]) == "also jax 0.10.2"
    assert Layer([("marin-haliax", "0.2.20")]).summary(["marin-haliax"]) == "over the base as it is"


def test_the_base_holds_canarys_requirements_and_the_rest_of_the_extra_that_brings_a_package():
    import tomllib

    from tests.conftest import ROOT

    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    assert canary_requirements() == project["dependencies"]
    # the gcs extra installs google-cloud-storage with etils: bisecting the one brings the other
    gcs = canary_requirements(["google-cloud-storage"])
    assert gcs[: len(project["dependencies"])] == project["dependencies"]
    assert [r for r in gcs if r.startswith("etils")] and not [r for r in gcs if r.startswith("google-cloud")]


def test_a_wheel_is_unpacked_as_installed_once(tmp_path):
    wheel = tmp_path / "demo_pkg-1.0-py3-none-any.whl"
    with zipfile.ZipFile(wheel, "w") as z:
        z.writestr("demo_pkg/__init__.py", "VALUE = 1\n")
        z.writestr("demo_pkg-1.0.dist-info/METADATA", "Name: demo-pkg\nVersion: 1.0\n")
        z.writestr("demo_pkg-1.0.data/purelib/demo_extra.py", "")
        z.writestr("demo_pkg-1.0.data/scripts/demo", "#!python\n")
    site = unpack(wheel, tmp_path / "site")
    assert site == tmp_path / "site" / "demo_pkg-1.0-py3-none-any" / "site-packages"
    assert sorted(p.name for p in site.iterdir()) == ["demo_extra.py", "demo_pkg", "demo_pkg-1.0.dist-info"]
    (site / "demo_pkg" / "__init__.py").write_text("VALUE = 2\n")
    assert unpack(wheel, tmp_path / "site") == site and "2" in (site / "demo_pkg" / "__init__.py").read_text()


# ----------------------------------------------------------------------------- bad input (no registry asked)


@pytest.mark.parametrize(
    "args, match",
    [
        (["--package", "marin-haliax", "--new", "0.2.99", "--lane", "tpu"], "give --old V1 and --new V2"),
        (
            ["--package", "marin-haliax", "--old", "0.2.96", "--new", "0.2.99", "--good", "HEAD", "--lane", "tpu"],
            "--good and --bad are revisions",
        ),
        (
            ["--old", "0.2.96", "--new", "0.2.99", "--good", "HEAD~1", "--bad", "HEAD", "--lane", "tpu"],
            "belong to a version bisect",
        ),
        (
            ["--package", "marin-haliax", "--old", "0.2.96", "--new", "0.2.99", "--lane", "nolane"],
            "unknown lane 'nolane'",
        ),
        (
            ["--package", "marin-haliax", "--old", "0.2.96", "--new", "0.2.99", "--lane", "tpu", "--test", "run"],
            "--test run trains here",
        ),
        (["--package", "marin-haliax", "--old", "0.2.99", "--new", "0.2.96", "--lane", "tpu"], "is not older than"),
        (
            ["--package", "marin-haliax", "--old", "0.2.96", "--new", "0.2.99", "--lane", "tpu", "--ferry", "no-such"],
            "unknown ferry 'no-such'",
        ),
        (
            ["--package", "marin-haliax", "--old", "0.2.96", "--new", "0.2.99", "--lane", "tpu", "--python", "3.99"],
            r"--python 3.99: no Python 3.99 on this machine",
        ),
        (
            [
                "--package",
                "marin-haliax",
                "--old",
                "0.2.96",
                "--new",
                "0.2.99",
                "--lane",
                "tpu",
                "--python",
                "/no/python",
            ],
            r"--python /no/python: no such Python",
        ),
    ],
)
def test_bad_input_exits_2_naming_it(args, match):
    p = run_cli("bisect", *args)
    assert p.returncode == 2, p.stderr
    assert p.stdout == "" and "Traceback" not in p.stderr
    assert re.search(match, p.stderr), p.stderr
