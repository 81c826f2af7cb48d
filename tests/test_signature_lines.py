"""Reading log lines: wrappings taken off, long logs read in bounded memory, linear normalising."""

import io
from pathlib import Path

import pytest

from canary.signature import extract, normalize, read_window, strip_prefix, window
from canary.signature.lines import MAX_LINE, clean_lines, unwrap
from canary.signature.windows import REGION_AFTER, REGION_BEFORE, TAIL_LINES

ERROR = "ValueError: The Pallas TPU lowering currently requires that the last two dimensions of your block shape"


@pytest.mark.parametrize(
    "line",
    [
        "> " + ERROR,  # a markdown quote
        "> > " + ERROR,
        "# " + ERROR,  # a markdown heading
        "#" + ERROR,
        "```" + ERROR,  # a code fence on the error's line
        "E   " + ERROR,  # pytest's failure lines
        "FAILED tests/test_gmm.py::test_tpu - " + ERROR,  # pytest's summary
        "2024-05-02T10:11:12.1234567Z " + ERROR,  # GitHub Actions' timestamps
        "##[error]" + ERROR,  # GitHub Actions' annotations
        "0: " + ERROR,  # srun --label
        "[rank7]: " + ERROR,  # torchrun
        "[1,0]<stderr>:" + ERROR,  # mpirun --tag-output
        "pod/trainer-0-7f9c " + ERROR,  # kubectl logs --prefix
        "[pod/trainer-0-7f9c/main] " + ERROR,
        "(VllmWorker rank=0 pid=225) ERROR 06-17 19:23:59 [multiproc_executor.py:527] " + ERROR,  # vLLM
        "ERROR 01-26 17:51:44 engine.py:387] " + ERROR,
        "2019-06-13 01:17:08.886805: E external/xla/local_client.cc:672] " + ERROR,  # TensorFlow's logger
        "host-1:843:843 [5] " + ERROR,  # NCCL's
        "WARNING:pt-xla-profiler:" + ERROR,  # Python logging
    ],
)
def test_wrappings_are_taken_off(line):
    assert strip_prefix(line) == ERROR


def test_a_hash_that_is_not_a_heading_stays():
    assert strip_prefix("# of tasks that reached the barrier: 1/2.") == "# of tasks that reached the barrier: 1/2."


def test_ipython_frames_read_as_pythons():
    lines = clean_lines(
        [
            "ValueError                                Traceback (most recent call last)",
            "Cell In[3], line 1",
            "----> 1 y = f(x)",
            "File ~/proj/model.py:97, in create(env_name, **kwargs)",
            "     96 def create(env_name):",
            "---> 97   return _envs[env_name]()",
            "ValueError: bad env",
        ]
    )
    assert lines[1] == '  File "<ipython-cell>", line 1, in <module>'
    assert lines[3] == '  File "~/proj/model.py", line 97, in create'
    assert lines[5].strip() == "return _envs[env_name]()"


def test_ipython_7s_frames_read_as_pythons():
    assert strip_prefix("/usr/lib/python3.7/dist-packages/haiku/_src/stateful.py in difference(before, after)") == (
        '  File "/usr/lib/python3.7/dist-packages/haiku/_src/stateful.py", line 0, in difference'
    )
    assert strip_prefix("[/content/a/model.py](https://localhost:8080/#) in mapped_fn(*args)") == (
        '  File "/content/a/model.py", line 0, in mapped_fn'
    )
    assert strip_prefix("[<ipython-input-4-20>](https://localhost:8080/#) in <cell line: 1>()") == (
        '  File "<ipython-cell>", line 0, in <module>'  # (a cell's file is named by a number drawn each run)
    )
    assert strip_prefix("/tmp/out.txt in 3 parts") == "/tmp/out.txt in 3 parts"  # not a frame


def test_makes_failed_recipe_ends_a_message():
    log = "Traceback (most recent call last):\n  File \"a.py\", line 1, in <module>\nKeyError: 'x'\n"
    assert extract(log + "make: *** [Makefile:35: run] Error 1\n").message == extract(log).message


def test_an_excerpt_starting_inside_a_traceback_is_read():
    text = '  File "/home/u/canary/canary/workload/train.py", line 144, in train\n    step()\n' + ERROR + "\n"
    s = extract(text)
    assert (s.exception, s.frames) == ("ValueError", ["canary/workload/train.py:train"])


def test_a_long_log_keeps_its_tail_and_its_error_region():
    lines = [f"step {i} loss 4.{i % 97}" for i in range(60_000)]
    lines[20_000] = ERROR
    text = "\n".join(lines) + "\n"
    kept = read_window(io.StringIO(text), chunk=4096).splitlines()
    assert len(kept) == REGION_BEFORE + REGION_AFTER + 1 + TAIL_LINES
    assert kept[REGION_BEFORE] == ERROR and kept[-1] == "step 59999 loss 4.53"
    assert window(text, limit=1000).splitlines() == kept
    assert extract(text).exception == "ValueError"


def test_one_huge_line_is_read_as_its_head_and_tail():
    huge = "x" * 5_000_000 + " /opt/a/b" * 300_000
    kept = read_window(io.StringIO(huge + "\n" + ERROR + "\n"), chunk=65536).splitlines()
    assert [len(k) for k in kept] == [MAX_LINE + 3, len(ERROR)]
    assert extract(huge + "\n" + ERROR).exception == "ValueError"


def test_normalizing_long_path_like_runs_is_linear_and_capped():
    # Nested quantifiers over runs of path characters made this quadratic (minutes for 200 KB).
    run = "/home/u/site-packages/" + "a/b-c.d_" * 25_000
    assert len(normalize(run)) <= 2000
    assert normalize(run, limit=len(run)).startswith("a/b-c.d_")


def test_pytest_framing_and_a_message_wrapped_over_its_lines():
    text = "\n".join(
        [
            "    def test_gmm_tpu():",
            ">       lower(gmm, (512, 128, 32))",
            "",
            "tests/test_gmm.py:12: ",
            "_ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _",
            "E   ValueError: The Pallas TPU lowering currently requires that the last two",
            "E   dimensions of your block shape are divisible by 8 and 128 respectively",
            "",
            "jax/_src/pallas/mosaic/lowering.py:611: ValueError",
        ]
    )
    s = extract(text)
    assert (s.exception, s.kind) == ("ValueError", "compile_error")
    assert s.message.endswith("dimensions of your block shape are divisible by 8 and 128 respectively")


# ----------------------------------------------------------------------------- terminal wraps

LOGS = Path(__file__).parent / "logs"


def test_a_saved_lowering_reads_the_same_at_80_and_at_250_columns():
    """`canary lower`'s failure saved from terminals 80 and 250 columns wide (rich wraps at the
    width): at 80 the path of the failing kernel is split, `…/ops/tpu/me` / `gablox/gmm.py:393`."""
    narrow, wide = ((LOGS / f"lower-static-tiling-{w}.log").read_text() for w in (80, 250))
    assert "/ops/tpu/me\ngablox/gmm.py" in narrow
    a, b = extract(narrow), extract(wide)
    assert a.fingerprint == b.fingerprint and a.message == b.message
    assert "pallas/ops/tpu/megablox/gmm.py:<line> has block shape" in a.message


def test_unwrap_joins_only_a_fold_at_the_wrap_width():
    path = '  File "/home/ci01/.venv/lib/python3.11/site-packages/jax/_src/interpreters/mlir.py", line 12, in f'
    folded = [path[:60], path[60:]]
    tail = ["    raise ValueError(x)", "ValueError: " + "y" * 48]  # the text's wrap width is 60 ...
    assert len(tail[1]) == 60 and unwrap(folded + tail) == [path] + tail
    assert unwrap([path[:60], path[60:]]) == [path[:60], path[60:]]  # ... one line of 60 is no wrap width
    table = ["┃ platform ┃" + " " * 48 + "┃", "┡━━━━━━━━━━╇" + "━" * 48 + "┩", "│ tpu      │" + " " * 48 + "│"]
    assert unwrap(table) == table  # borders end where a word of no "/" ends
    spaced = ["Block spec for outputs in pallas_call kernel at /home/ci01/g", "mm.py:393 has block shape"]
    assert len(spaced[0]) == 60 and unwrap(spaced + tail)[0] == "".join(spaced)
    # a path over three lines: the middle one has no "/" of its own
    long = "at /x/" + "k" * 120 + "/gmm.py:3"
    assert unwrap([long[:60], long[60:120], long[120:], "z" * 60]) == [long, "z" * 60]


def test_a_paste_hard_wrapped_at_a_fixed_width_is_joined_mid_word():
    text = "UserWarning: cloud_tpu_init failed: KeyError('<!DOCTYPE html>\\n<html lang=en>\\n  <meta charset=utf-8>\\n"
    text += (
        "  <title>Error 404 (Not Found)!!1</title>\\n  <style>\\n    *{margin:0;padding:0}html,code{font:15px/22px}')"
    )
    raw = [text[i : i + 50] for i in range(0, len(text), 50)]
    assert len(raw) >= 4 and raw[0].endswith("<!DO")  # cut mid-word
    assert unwrap(raw) == [text]
    # two lines of one width are no fixed width; nor are a table's rows, nor lines most of which are shorter
    assert unwrap(raw[:2]) == raw[:2]
    lines = ["x" * 50, "short", "y" * 50, "z" * 50, "a" * 49, "b" * 48, "c" * 47]
    assert unwrap(lines) == lines


def test_a_traceback_a_relay_printed_without_its_indentation_reads_as_pythons():
    flat = [
        "Traceback (most recent call last):",
        'File "/app/alphafold/run_alphafold.py", line 303, in <module>',
        "app.run(main)",
        'File "/opt/conda/lib/python3.7/site-packages/absl/app.py", line 312, in run',
        "_run_main(main, args)",
        "ValueError: the shapes do not match",
    ]
    plain = [flat[0], "  " + flat[1], "    " + flat[2], "  " + flat[3], "    " + flat[4], flat[5]]
    relayed, indented = extract("\n".join(flat)), extract("\n".join(plain))
    assert relayed.exception == "ValueError" and relayed.fingerprint == indented.fingerprint
    # a source line is never an exception's line, even cut where it is the last
    assert extract("\n".join(flat[:3])) is None


def test_a_glog_record_begun_inside_another_line_is_its_own_line():
    glued = (
        "Failed to get agent-worker-number with error: Timeout was reachedE0221 14:49:23.280024242     375 "
        "oauth2_credentials.cc:238] oauth2 failed"
    )
    assert list(clean_lines(glued)) == [
        "Failed to get agent-worker-number with error: Timeout was reached",
        "oauth2 failed",
    ]
    new_format = "reachedI0000 00:00:1676990894.686695      14 common_lib.cc:145] Failed to fetch URL"
    assert list(clean_lines(new_format)) == ["reached", "Failed to fetch URL"]
    # a record's own header, and a word that only looks like one, are not cut
    assert list(clean_lines("E0221 14:49:23.280024 375 x.cc:1] boom")) == ["boom"]
    assert list(clean_lines("see RFC1234 07:00:00 notes")) == ["see RFC1234 07:00:00 notes"]
