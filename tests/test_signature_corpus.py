"""Signatures on real failure logs copied from public issue trackers (tests/logs/real/, see its
INDEX.toml for where each comes from and which are one failure)."""

import tomllib
from itertools import combinations
from pathlib import Path

import pytest

from canary.signature import extract

REAL = Path(__file__).parent / "logs" / "real"
INDEX = tomllib.loads((REAL / "INDEX.toml").read_text())
LOGS = {entry["file"]: entry for entry in INDEX["log"]}


def sig(name: str):
    return extract((REAL / name).read_text(encoding="utf-8"))


SIGS = {name: sig(name) for name in LOGS}


def test_every_log_has_its_provenance():
    on_disk = {p.name for p in REAL.glob("*.log")}
    assert on_disk == set(LOGS)
    assert len(LOGS) >= 40
    for entry in INDEX["log"]:
        assert entry["url"].startswith("https://github.com/"), entry
    named = {n for group in INDEX["same"] + INDEX["different"] for n in group["logs"]}
    assert named <= set(LOGS)


def test_the_pairs_added_for_recurrence_identity_have_their_provenance_and_count():
    added = [e for e in INDEX["log"] if "date" in e or "versions" in e]
    assert all(e.get("versions") for e in added), [e["file"] for e in added if not e.get("versions")]
    same = [g for g in INDEX["same"] if g.get("issue") == 28]
    assert sum(len(g["logs"]) - 1 for g in same) >= 12
    assert len([d for d in INDEX["different"] if d.get("issue") == 28]) >= 12
    for g in same:
        # where only the group can match, the entry says why
        assert g["grain"] == "fingerprint" or "only the group" in g["why"].lower() or "by design" in g["why"], g["name"]


def test_a_failure_is_found_in_nearly_every_log():
    found = [n for n, s in SIGS.items() if s is not None]
    assert len(found) >= 0.95 * len(LOGS), sorted(set(LOGS) - set(found))


def _named(s) -> str:
    return (s.exception or f"kind:{s.kind}") if s else "nothing"


def test_the_failure_found_is_the_one_a_person_reads():
    # a declaration the rules answer otherwise by a stated policy says so (``named``: the class, and why)
    wrong = {
        n: (_named(SIGS[n]), e["expect"])
        for n, e in LOGS.items()
        if _named(SIGS[n]) not in (e["expect"], e.get("named", "").partition(": ")[0])
    }
    assert len(wrong) <= 0.05 * len(LOGS), wrong
    stale = {n: _named(SIGS[n]) for n, e in LOGS.items() if e.get("named") and _named(SIGS[n]) == e["expect"]}
    assert not stale, stale  # the rules now name it as declared: the note is stale


def _known_miss(request, entry):
    """A pair the rules still miss, said so in INDEX.toml (``missed``): expected to fail, and to be
    noticed (strict) the day a rule closes it."""
    if entry.get("missed"):
        request.applymarker(pytest.mark.xfail(reason=entry["missed"], strict=True))


@pytest.mark.parametrize("group", INDEX["same"], ids=lambda g: g["name"])
def test_one_failure_has_one_identity(group, request):
    _known_miss(request, group)
    sigs = [SIGS[n] for n in group["logs"]]
    assert all(sigs), group["logs"]
    key = "fingerprint" if group["grain"] == "fingerprint" else "group"
    values = {n: getattr(s, key) for n, s in zip(group["logs"], sigs, strict=True)}
    assert len(set(values.values())) == 1, values


@pytest.mark.parametrize("pair", INDEX["different"], ids=lambda p: "-vs-".join(n[:-4] for n in p["logs"]))
def test_different_bugs_are_never_merged(pair, request):
    _known_miss(request, pair)
    a, b = (SIGS[n] for n in pair["logs"])
    assert a and b
    assert a.fingerprint != b.fingerprint, pair["why"]


def _one_failure() -> dict[str, str]:
    """Each group's name -> a name standing for every group of its failure: groups that share a log,
    or that a later batch declares ``same_as`` an earlier one."""
    root = {g["name"]: g["name"] for g in INDEX["same"]}

    def find(n: str) -> str:
        while root[n] != n:
            n = root[n]
        return n

    for g1, g2 in combinations(INDEX["same"], 2):
        if set(g1["logs"]) & set(g2["logs"]) or g1["name"] == g2.get("same_as") or g2["name"] == g1.get("same_as"):
            root[find(g1["name"])] = find(g2["name"])
    return {n: find(n) for n in root}


def test_groups_of_one_failure_do_not_merge_with_each_other():
    exact = [g for g in INDEX["same"] if g["grain"] == "fingerprint"]
    failure = _one_failure()
    assert len(failure) == len(INDEX["same"])  # names are unique
    # a group is stood for by its first log found; a group none of whose logs is found cannot merge
    # with another (its misses are test_a_failure_is_found_in_nearly_every_log's)
    first = {g["name"]: next((SIGS[n] for n in g["logs"] if SIGS[n]), None) for g in exact}
    # a merge that a [[different]] pair of the two failures' logs already says is missed is that pair's (expected)
    missed = {frozenset(p["logs"]) for p in INDEX["different"] if p.get("missed")}
    # a merge a group's ``merges`` says is a rule's policy (expected, and checked to hold)
    policy = {
        frozenset((g["name"], other))
        for g in INDEX["same"]
        if g.get("merges")
        for other in g["merges"].partition(":")[0].split(", ")
    }
    assert {n for pair in policy for n in pair} <= set(failure), policy
    logs_of: dict[str, set[str]] = {}
    for g in INDEX["same"]:
        logs_of.setdefault(failure[g["name"]], set()).update(g["logs"])
    for g1, g2 in combinations(exact, 2):
        a, b = first[g1["name"]], first[g2["name"]]
        f1, f2 = failure[g1["name"]], failure[g2["name"]]
        if f1 == f2 or a is None or b is None:
            continue
        if any(frozenset((x, y)) in missed for x in logs_of[f1] for y in logs_of[f2]):
            continue
        if frozenset((g1["name"], g2["name"])) in policy:
            assert a.fingerprint == b.fingerprint, (g1["name"], g2["name"])  # the note is stale
            continue
        assert a.fingerprint != b.fingerprint, (g1["name"], g2["name"])


def test_renamed_jaxlib_modules_and_spellings_are_one_class():
    alphafold, colabfold, old = SIGS["alphafold-1023.log"], SIGS["colabfold-65.log"], SIGS["jax-788.log"]
    assert alphafold.exception == colabfold.exception == old.exception == "XlaRuntimeError"
    assert alphafold.message == old.message == "RESOURCE_EXHAUSTED: Out of memory while trying to allocate <bytes>"
    renamed = (REAL / "alphafold-1023.log").read_text().replace("jaxlib.xla_extension.", "jaxlib._jax.")
    assert extract(renamed).fingerprint == alphafold.fingerprint
    assert (
        extract(renamed.replace("jaxlib._jax.XlaRuntimeError", "jax.errors.JaxRuntimeError")).fingerprint
        == alphafold.fingerprint
    )


def test_what_identifies_a_failure_is_kept():
    assert "ncclCommInitRank" in SIGS["jax-17399.log"].message
    assert "cuMemcpyDtoHAsync_v2" in SIGS["jax-3017.log"].message
    assert "'jit_convert_element_type'" in SIGS["jax-22281.log"].message
    assert "size=(1, s1, 24)" in SIGS["vllm-10987.log"].message
    # and what varies is not: sizes, free memory, the tasks that timed out, CHECK operands
    assert "There are <bytes> free" in SIGS["pytorch-xla-8020.log"].message
    assert SIGS["levanter-432.log"].message == "DEADLINE_EXCEEDED: Barrier timed out. Id: multihost_broadcast_sync<n>"
    assert SIGS["marin-1921.log"].message == "Check failed: result->children_start_id >= 0"  # (not its operands)
