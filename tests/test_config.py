"""Ferry, lanes and gates files: loading, validation, and errors that name the file and key."""

import hashlib

import pytest

from canary.config import (
    config_identity,
    experiment,
    file_sha256,
    get_lane,
    load_ferry,
    load_gates,
    load_lanes,
    project_root,
    source_note,
)
from canary.errors import ConfigError
from canary.formats.spec import build_spec


def test_pinned_ferry_has_the_canary_model():
    ferry, path = load_ferry("moe-canary")
    m = ferry.model
    assert (m.hidden, m.intermediate, m.shared_expert_intermediate) == (32, 128, 128)
    assert (m.num_experts, m.experts_per_token, m.layers, m.heads, m.kv_heads, m.head_dim) == (32, 2, 4, 1, 1, 32)
    assert ferry.optimizer.learning_rate == 3e-3 and ferry.optimizer.weight_decay == 0.1
    assert ferry.optimizer.warmup_steps(238) == 48
    tpu, gpu, cpu = ferry.lane("tpu"), ferry.lane("gpu"), ferry.lane("cpu")
    assert (tpu.batch_size, tpu.seq_len, tpu.steps) == (128, 8192, 238)
    assert (gpu.batch_size, gpu.seq_len, gpu.steps) == (32, 8192, 50)
    assert (cpu.batch_size, cpu.seq_len, cpu.steps, cpu.vocab_size) == (8, 64, 200, 512)
    assert all(lane.why for lane in ferry.lanes.values())


def test_lanes_and_gates_cover_every_ferry_lane():
    ferry, _ = load_ferry("moe-canary")
    lanes, _ = load_lanes()
    gates, _ = load_gates("moe-canary")
    assert set(ferry.lanes) == set(lanes) == set(gates.lanes) == {"cpu", "tpu", "gpu"}
    assert lanes["tpu"].attempts == 4 and lanes["cpu"].attempts == 1
    assert gates.lane("tpu").max_final_loss == 8.0


def _write(tmp_path, text, name="bad.toml"):
    p = tmp_path / name
    p.write_text(text)
    return p


def _ferry_text(**replace):
    from canary.config import project_root

    text = (project_root() / "ferries" / "moe-canary.toml").read_text()
    for old, new in replace.items():
        assert old in text
        text = text.replace(old, new)
    return text


def test_unknown_key_is_named_with_the_file(tmp_path):
    p = _write(tmp_path, _ferry_text(**{"hidden = 32": "hidden = 32\nhiden = 32"}))
    with pytest.raises(ConfigError) as e:
        load_ferry(str(p))
    assert str(p) in str(e.value) and "model.hiden: unknown key" in str(e.value)


def test_impossible_values_are_rejected(tmp_path):
    p = _write(tmp_path, _ferry_text(**{"experts_per_token = 2": "experts_per_token = 64"}))
    with pytest.raises(ConfigError, match="experts_per_token"):
        load_ferry(str(p))
    p = _write(tmp_path, _ferry_text(**{"batch_size = 8": "batch_size = 0"}))
    with pytest.raises(ConfigError, match=r"lanes\.cpu\.batch_size"):
        load_ferry(str(p))
    p = _write(tmp_path, _ferry_text(**{"seq_len = 64": "seq_len = 100000"}))
    with pytest.raises(ConfigError, match="max_seq_len"):
        load_ferry(str(p))


def test_bad_toml_and_unknown_names(tmp_path):
    with pytest.raises(ConfigError, match="not valid TOML"):
        load_ferry(str(_write(tmp_path, "name = ")))
    with pytest.raises(ConfigError, match="unknown ferry 'nope'.*moe-canary"):
        load_ferry("nope")
    with pytest.raises(ConfigError, match="unknown lane 'tpu9'"):
        get_lane("tpu9")


def test_spec_takes_lane_overrides():
    ferry, _ = load_ferry("moe-canary")
    spec = build_spec(ferry, get_lane("cpu"), run_id="r", out_dir="/tmp/x", steps=7)
    assert (spec.steps, spec.batch_size, spec.seq_len, spec.vocab_size) == (7, 8, 64, 512)
    assert spec.compute_dtype == "float32"
    tpu = build_spec(ferry, get_lane("tpu"), run_id="r", out_dir="/tmp/x")
    assert (tpu.vocab_size, tpu.compute_dtype, tpu.ragged_dot, tpu.steps) == (128256, "bfloat16", "megablox", 238)


def test_a_lane_sets_its_own_attention_window_under_its_sequence(tmp_path):
    ferry, _ = load_ferry("grug-moe-canary")
    cpu, tpu = (build_spec(ferry, get_lane(n), run_id="r", out_dir="/tmp/x") for n in ("cpu", "tpu"))
    assert (cpu.seq_len, cpu.sliding_window, tpu.seq_len, tpu.sliding_window) == (60, 16, 8192, 2048)
    rows = cpu.batch_size * cpu.seq_len * ferry.model.experts_per_token  # to haliax's grouped matmul
    assert rows % 512, "the cpu lane's rows are a multiple of 512: haliax's row padding never runs"
    builtin, _ = load_ferry("moe-canary")  # no lane of its own sets one: the model's
    assert build_spec(builtin, get_lane("cpu"), run_id="r", out_dir="/tmp/x").sliding_window == 2048
    p = _write(tmp_path, _ferry_text(**{"seq_len = 64\n": "seq_len = 64\nsliding_window = 64\n"}))
    with pytest.raises(ConfigError, match=r"lanes\.cpu\.sliding_window \(64\) must be under lanes\.cpu\.seq_len"):
        load_ferry(str(p))


def test_the_tpu_lane_blocks_its_loss_and_attention_and_a_block_must_divide_the_sequence(tmp_path, cli):
    ferry, _ = load_ferry("moe-canary")
    tpu, cpu = (build_spec(ferry, get_lane(n), run_id="r", out_dir="/tmp/x") for n in ("tpu", "cpu"))
    assert (tpu.block("loss_block"), tpu.block("attention_block")) == (64, 512)
    assert (cpu.block("loss_block"), cpu.block("attention_block")) == (None, None)  # the cpu lane's program as it was
    for key in ("loss_block", "attention_block"):
        p = _write(tmp_path, _ferry_text(**{"seq_len = 64\n": f"seq_len = 64\n{key} = 48\n"}))
        r = cli("lower", "--ferry", str(p), "--lane", "cpu")
        assert r.returncode == 2 and f"lanes.cpu.{key} (48) must divide lanes.cpu.seq_len (64)" in r.stderr
    grug = (project_root() / "ferries" / "grug-moe-canary.toml").read_text()
    p = _write(tmp_path, grug.replace("[lanes.tpu]\n", "[lanes.tpu]\nloss_block = 64\n", 1))
    with pytest.raises(ConfigError, match=r"lanes\.tpu\.loss_block: a levanter stack ferry's model"):
        load_ferry(str(p))


def test_a_ferries_directory_in_the_working_directory_is_named_an_override(tmp_path, monkeypatch):
    pinned = project_root() / "ferries" / "moe-canary.toml"
    ferry, path = load_ferry("moe-canary")
    ident = config_identity("ferry", path)
    assert ident == {
        "ferry_path": str(pinned.resolve()),
        "ferry_sha256": hashlib.sha256(pinned.read_bytes()).hexdigest(),
    }
    assert source_note("ferry", path, ident["ferry_sha256"]) is None

    monkeypatch.chdir(tmp_path)
    (tmp_path / "ferries").mkdir()
    local = tmp_path / "ferries" / "moe-canary.toml"
    local.write_bytes(pinned.read_bytes())
    _, path = load_ferry("moe-canary")  # the working directory's ferries/ is searched first
    assert path.resolve() == local.resolve()
    assert source_note("ferry", path, file_sha256(local)) == "a copy of the pinned ferry"
    local.write_text(pinned.read_text().replace("learning_rate = 3e-3", "learning_rate = 1e-3"))
    ident = config_identity("ferry", local)
    assert ident["ferry_sha256"] != hashlib.sha256(pinned.read_bytes()).hexdigest()
    assert source_note("ferry", local, ident["ferry_sha256"]) == "local override of the pinned ferry"
    other = tmp_path / "ferries" / "mine.toml"
    other.write_text(pinned.read_text())
    assert source_note("ferry", other, file_sha256(other)) == "not a pinned ferry"
    _, gates_path = load_gates("moe-canary")
    assert source_note("gates", gates_path, file_sha256(gates_path)) is None


def test_a_run_is_an_experiment_when_its_ferry_or_gates_differ_from_the_pinned_ones(tmp_path):
    """The pinned files, or byte-for-byte copies, are no experiment; a gates or ferry file that
    differs from the pinned one of the ferry's name is, wherever it lies and whatever its file is
    called; a ferry with no pinned file of its name (one's own) has nothing to differ from."""
    root = project_root()

    def identity(ferry, gates):
        return {**config_identity("ferry", ferry), **config_identity("gates", gates)}

    pinned_ferry, pinned_gates = root / "ferries" / "moe-canary.toml", root / "gates" / "moe-canary.toml"
    assert experiment("moe-canary", identity(pinned_ferry, pinned_gates)) is None
    copy = tmp_path / "gates" / "moe-canary.toml"
    copy.parent.mkdir()
    copy.write_bytes(pinned_gates.read_bytes())
    assert experiment("moe-canary", identity(pinned_ferry, copy)) is None
    impossible = tmp_path / "impossible.toml"
    impossible.write_text(pinned_gates.read_text().replace("max_final_loss = 4.0", "max_final_loss = 0.01"))
    why = experiment("moe-canary", identity(pinned_ferry, impossible))
    assert why == f"gates file {impossible.resolve()} is not the pinned gates/moe-canary.toml"
    ferry = tmp_path / "f.toml"
    ferry.write_text(pinned_ferry.read_text().replace("learning_rate = 3e-3", "learning_rate = 1e-3"))
    assert experiment("moe-canary", identity(ferry, pinned_gates)).startswith(f"ferry {ferry.resolve()} is not")
    assert experiment("moe-canary", identity(ferry, impossible)).count(" is not the pinned ") == 2
    own = root / "ferries" / "examples" / "levanter-standin.toml"
    assert experiment("levanter-standin", identity(own, root / "gates" / "examples" / "levanter-standin.toml")) is None


def test_records_without_the_config_identity_still_load():
    from canary.record import RunRecord

    old = {
        "run_id": "r",
        "lane": "cpu",
        "ferry": "moe-canary",
        "ferry_version": 1,
        "verdict": "pass",
        "steps_completed": 200,
        "final_loss": 3.0,
        "gates": [],
        "run_dir": "/tmp/r",
    }
    rec = RunRecord.from_dict(old)
    assert (rec.ferry_path, rec.ferry_sha256, rec.gates_path, rec.gates_sha256) == (None, None, None, None)
    new = RunRecord.from_dict({**old, "ferry_sha256": "ab" * 32, "ferry_path": "/x/ferries/moe-canary.toml"})
    assert RunRecord.from_dict(new.to_dict()).ferry_sha256 == "ab" * 32


@pytest.mark.parametrize("key", ['param_dtype = "float32"', "log_every = 1"])
def test_a_key_nothing_reads_is_a_config_error_that_names_it(tmp_path, key):
    # the trainer's parameters are float32 and every step is logged: keys that said so were never read
    p = _write(tmp_path, _ferry_text(**{"router_z_loss = 1e-3": f"router_z_loss = 1e-3\n{key}"}))
    with pytest.raises(ConfigError) as e:
        load_ferry(str(p))
    assert f"trainer.{key.split(' ')[0]}: unknown key" in str(e.value)
