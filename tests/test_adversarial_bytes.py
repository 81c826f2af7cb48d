"""Hostile bytes in every file canary reads as text: binary and non-UTF-8 content, torn lines,
absurd numbers. Bad input is one line naming the file and the byte offset, exit 2; a finished
run's own bad metrics never lose its record."""

from __future__ import annotations

import json

import pytest
from adversary import PY, WRITER, canary_cli, lanes_toml

from canary.errors import ConfigError
from canary.formats.metrics import load_run_metrics, parse_step_metrics, parse_tracker_summary
from canary.textio import decode, read_text

HOSTILE = [  # (name, bytes, the offset the message must give)
    ("latin-1", "loss = 1 # caf\u00e9\n".encode("latin-1"), 14),
    ("utf-16", "a = 1\n".encode("utf-16"), 0),
    ("binary", b"\x7fELF\x02\x01\x01\x00\x00\x00", 7),
    ("nul in text", b'version = 1\nname = "x\x00y"\n', 21),
    ("lone continuation", b"x = 1\n\x80\n", 6),
    ("truncated multibyte", b"x = '\xe2\x82'", 5),
]


@pytest.mark.parametrize("name, data, offset", HOSTILE, ids=[h[0] for h in HOSTILE])
def test_non_utf8_and_binary_text_is_one_line_naming_the_file_and_the_byte_offset(tmp_path, name, data, offset):
    p = tmp_path / "f.toml"
    p.write_bytes(data)
    with pytest.raises(ConfigError) as e:
        read_text(p)
    msg = str(e.value)
    assert "\n" not in msg and str(p) in msg and f"byte offset {offset}" in msg, msg


def test_a_bom_is_not_an_error_and_logs_replace_stray_bytes_but_refuse_binary():
    assert decode(b"\xef\xbb\xbfa = 1\n", "f") == "a = 1\n"
    assert decode(b"Traceback \xff\n", "<stdin>", lenient=True) == "Traceback \ufffd\n"
    with pytest.raises(ConfigError, match=r"<stdin>: binary content.*byte offset 3"):
        decode(b"abc\x00def", "<stdin>", lenient=True)


@pytest.mark.parametrize("kind", ["ferry", "gates", "lanes"])
@pytest.mark.parametrize("name, data, offset", HOSTILE[:3], ids=[h[0] for h in HOSTILE[:3]])
def test_config_files_with_hostile_bytes_are_bad_input(tmp_path, kind, name, data, offset):
    from canary.config import load_ferry, load_gates, load_lanes

    p = tmp_path / f"{kind}.toml"
    p.write_bytes(data)
    load = {"ferry": load_ferry, "gates": load_gates, "lanes": load_lanes}[kind]
    with pytest.raises(ConfigError, match=rf"{p}: .*byte offset {offset}"):
        load(str(p))


@pytest.mark.parametrize("name, data, offset", HOSTILE, ids=[h[0] for h in HOSTILE])
@pytest.mark.parametrize("file", ["metrics.jsonl", "tracker_metrics.jsonl"])
def test_metrics_files_with_hostile_bytes_are_bad_input(tmp_path, name, data, offset, file):
    (tmp_path / file).write_bytes(data)
    with pytest.raises(ConfigError, match=rf"{tmp_path / file}: .*byte offset {offset}"):
        load_run_metrics(tmp_path)
    with pytest.raises(ConfigError, match=r"byte offset"):
        load_run_metrics(tmp_path / file)


def test_a_torn_line_in_the_middle_is_skipped_with_a_warning():
    text = '{"global_step": 0, "train/loss": 5.0}\n{"global_step": 1, "tr\n{"global_step": 2, "train/loss": 4.0}\n[1]\n'
    m = parse_step_metrics(text, source="m.jsonl")
    assert (m.steps_completed, m.final_loss) == (3, 4.0)
    assert m.warnings == [
        "m.jsonl:2: skipped a line that is not JSON (torn or truncated)",
        "m.jsonl:4: skipped a line that is not a JSON object",
    ]
    # the expected torn end of a killed writer is silent
    assert parse_step_metrics('{"global_step": 0, "train/loss": 5.0}\n{"glo', source="m").warnings == []


@pytest.mark.parametrize(
    "text, match",
    [
        ('{"global_step": 1e400, "train/loss": 1.0}\n', r"step inf is not a step number"),
        ('{"global_step": -3, "train/loss": 1.0}\n', r"step -3 is not a step number"),
        ('{"global_step": "nan", "train/loss": 1.0}\n', r"step 'nan' is not a step number"),
        ('{"global_step": 1e20, "train/loss": 1.0}\n', r"step 1e\+20 is not a step number"),
    ],
)
def test_absurd_step_numbers_are_bad_input(text, match):
    with pytest.raises(ConfigError, match=match):
        parse_step_metrics(text, source="m.jsonl")
    with pytest.raises(ConfigError, match=match):
        parse_tracker_summary(text, source="t.jsonl")


@pytest.mark.parametrize("summary", ["[1, 2]", '"x"', "3", "null"])
def test_a_summary_that_is_not_an_object_is_bad_input(summary):
    with pytest.raises(ConfigError, match=r't.jsonl: "summary" is a JSON \w+, not an object of metrics'):
        parse_tracker_summary('{"config": {}, "summary": ' + summary + "}\n", source="t.jsonl")


@pytest.mark.parametrize(
    "content, match",
    [
        (b"\x00\x01binary", r"result.json: binary content, .*byte offset 0"),
        (b'{"lane": "cpu\xff"}', r"result.json: not UTF-8 text .*byte offset 13"),
        (b"[1, 2]", r"result.json: expected a JSON object, found list"),
        (b'{"lane": ["cpu"]}', r"result.json: 'lane' is a JSON list, expected str"),
        (b'{"lane": "cpu", "steps_requested": "many"}', r"'steps_requested' is a JSON str, expected int"),
        (b"[" * 100000, r"result.json: (not valid JSON|JSON nested too deeply)"),
    ],
)
def test_a_hostile_result_json_is_bad_input_for_gate(tmp_path, content, match):
    from canary.run.gate import judge_path

    (tmp_path / "result.json").write_bytes(content)
    (tmp_path / "metrics.jsonl").write_text('{"global_step": 0, "train/loss": 1.0}\n')
    with pytest.raises(ConfigError, match=match):
        judge_path(tmp_path, None, None)


@pytest.mark.slow
def test_the_command_line_says_one_line_and_exits_2_for_hostile_bytes(tmp_path):
    bad = tmp_path / "bad.toml"
    bad.write_bytes(b"name = 'caf\xe9'\n")
    metrics = tmp_path / "tracker_metrics.jsonl"
    metrics.write_bytes(b'{"summary": {"_step": 1e400}}\n')
    cases = [
        canary_cli("run", "cpu", "--ferry", str(bad), tmp_path=tmp_path),
        canary_cli("run", "cpu", "--gates", str(bad), tmp_path=tmp_path),
        canary_cli("run", "cpu", tmp_path=tmp_path, CANARY_LANES=str(bad)),
        canary_cli("list", tmp_path=tmp_path, CANARY_LANES=str(bad)),
        canary_cli("gate", str(metrics), "--lane", "cpu", tmp_path=tmp_path),
        canary_cli("signature", "-", tmp_path=tmp_path, stdin=b"\x7fELF\x02\x01\x01\x00\x00"),
        canary_cli("run", "cpu", "--steps", "1e20", tmp_path=tmp_path),
    ]
    for r in cases:
        err = r.stderr.decode()
        assert r.returncode == 2, (r.args, err)
        assert "Traceback" not in err, err
    for r in cases[:6]:
        lines = r.stderr.decode().strip().splitlines()
        assert len(lines) == 1, lines
    assert "byte offset 11" in cases[0].stderr.decode() and str(bad) in cases[0].stderr.decode()
    assert "<stdin>: binary content" in cases[5].stderr.decode()
    assert "step inf is not a step number" in cases[4].stderr.decode()


@pytest.mark.slow
@pytest.mark.parametrize(
    "metrics, verdict",
    [
        (
            '{"global_step": 0, "train/loss": 5.0}\n{"global_step": 1, "tr\n{"global_step": 2, "train/loss": 4.0}\n',
            "fail",
        ),
        ('{"global_step": 1e400, "train/loss": 1.0}\n', "fail"),
        ("\x00\x00\x00", "fail"),
    ],
)
def test_a_finished_run_with_bad_metrics_is_recorded_never_bad_input(tmp_path, metrics, verdict):
    lanes = lanes_toml(tmp_path, [PY, "-c", WRITER, "{entrypoint}", metrics.encode().hex()])
    r = canary_cli("run", "cpu", "--out", str(tmp_path / "runs"), "--json", tmp_path=tmp_path, CANARY_LANES=str(lanes))
    assert r.returncode == 1, r.stderr.decode()
    result = json.loads(r.stdout)
    assert result["verdict"] == verdict
    assert result["context"]["history"]["status"] == "stored"
    assert result["warnings"], "what was skipped is said"
