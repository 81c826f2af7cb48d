"""Ferry kinds behind one protocol (canary.ferries): each pinned ferry's kind, what each kind
accepts and refuses, and that nothing outside the registry tells the kinds apart."""

import re

import pytest
from conftest import ROOT

from canary.config import get_lane, load_ferry
from canary.errors import ConfigError
from canary.ferries import AttemptInputs, kind_of
from canary.formats.spec import CacheSpec

COMMAND = ROOT / "ferries" / "examples" / "levanter-standin.toml"


@pytest.mark.parametrize(
    "ref, kind, lowering, remote",
    [
        ("moe-canary", "builtin", "model", True),
        ("grug-moe-canary", "stack", "stack", True),
        (str(COMMAND), "command", None, False),
    ],
)
def test_each_pinned_ferry_has_its_kind(ref, kind, lowering, remote):
    ferry, _ = load_ferry(ref)
    k = kind_of(ferry)
    assert (k.name, k.lowering, k.checks_remote_cache) == (kind, lowering, remote)
    assert k.stack(ferry) == ("levanter" if kind == "stack" else None)


def test_what_each_kind_refuses_is_said_in_its_own_words():
    builtin, stack, command = (load_ferry(r)[0] for r in ("moe-canary", "grug-moe-canary", str(COMMAND)))
    kind_of(builtin).check_flags(builtin, "xla", "per-shape")  # canary's own kernels: every flag applies
    with pytest.raises(ConfigError, match="--ragged-dot/--tiling: ferry 'grug-moe-canary' is a levanter stack ferry"):
        kind_of(stack).check_flags(stack, None, "per-shape")
    with pytest.raises(ConfigError, match="^--ragged-dot, --tiling: ferry 'levanter-standin' runs its own trainer"):
        kind_of(command).check_flags(command, "xla", "per-shape")
    assert kind_of(builtin).model(builtin, "lower") is builtin
    with pytest.raises(ConfigError, match="is a command ferry .*: it has no built-in model to record a golden of"):
        kind_of(command).model(command, "record a golden of")
    assert kind_of(builtin).why_not_bisected(builtin) is None
    assert "runs a team's own trainer" in kind_of(command).why_not_bisected(command)


def test_an_attempt_is_prepared_by_its_kind(tmp_path):
    lane = get_lane("cpu")
    for ref in ("moe-canary", str(COMMAND)):
        ferry, path = load_ferry(ref)
        attempt_dir = tmp_path / ferry.name
        attempt_dir.mkdir()
        inputs = AttemptInputs(path, attempt_dir, "r1", 1, lane, "r1-attempt-1", CacheSpec(mode="cold"), steps=3)
        prepared = kind_of(ferry).prepare(ferry, inputs)
        assert prepared.steps == 3 and prepared.request.log_path == attempt_dir / "train.log"
        if kind_of(ferry).name == "builtin":  # the workload reads its spec; nothing to collect after
            assert (attempt_dir / "spec.json").is_file() and prepared.collect() is None
        else:  # the trainer's own command line; its summary is collected after it, here missing
            assert "3" in prepared.request.argv and "wrote no summary" in prepared.collect()


def test_nothing_outside_the_registry_tells_ferry_kinds_apart():
    asks = re.compile(r"isinstance\([^)]*\b(Command)?Ferry\b|getattr\(.*[\"'](stack|kind)[\"']|ferry\.kind ==")
    found = [
        f"{p.relative_to(ROOT)}:{n}"
        for p in sorted((ROOT / "canary").rglob("*.py"))
        if "ferries" not in p.parts and "config" not in p.parts
        for n, line in enumerate(p.read_text().splitlines(), 1)
        if asks.search(line)
    ]
    assert found == []
