"""Failures that print a line, not a traceback: which line, which class, which group."""

import pytest

from canary.signature import extract, group_key

# Mosaic's messages as XLA's error-code docs show them (errors/error_2002.md, error_2003.md).
E2002 = (
    "UNIMPLEMENTED: Mosaic failed to compile TPU kernel: Failed to set window params\n"
    "for input 0: Operand of shape (..., 256, 8192) has tiling (16, 128), but its\n"
    "block shape (..., 8, 8192) is not divisible by tiling evenly nor matches the\nfull shape.\n"
)
E2003 = (
    "INTERNAL: Mosaic failed to compile TPU kernel: cannot statically prove that index in dimension 1 is a "
    "multiple of 128\n\nat location: ...\n"
)


def test_mosaic_errors_are_grouped_by_their_code():
    a, b = extract(E2002), extract(E2003)
    assert (a.kind, a.exception) == (b.kind, b.exception) == ("compile_error", "XlaRuntimeError")
    assert group_key(a.kind, a.exception, a.message) == "XlaRuntimeError UNIMPLEMENTED @ Mosaic E2002"
    # (Mosaic's compile failure without the status its release raised it with: a title quotes it without one)
    assert group_key(b.kind, b.exception, b.message) == "XlaRuntimeError @ Mosaic E2003"
    # the block shape identifies the bug: another shape, another fingerprint; the same group
    c = extract(E2002.replace("(..., 8, 8192)", "(..., 4, 8192)"))
    assert c.fingerprint != a.fingerprint and c.group == a.group
    assert "block shape (..., 8, 8192)" in a.message


def test_an_error_code_in_the_message_is_its_group():
    s = extract("E1234 RESOURCE_EXHAUSTED: something new failed\n")
    assert s is not None and s.group == extract("E1234 RESOURCE_EXHAUSTED: something else failed\n").group


@pytest.mark.parametrize(
    "line, exception",
    [
        ("F0828 03:15:02.123456  4242 gpu_compiler.cc:612] Check failed: ok (0 vs. 1)", "CheckFailed"),
        ("Fatal Python error: Aborted", "SIGABRT"),
        ("[12345.678] Out of memory: Killed process 4242 (python) total-vm:123456kB", "SIGKILL"),
        ("ray.exceptions.RayTaskError(ValueError): ray::train() (pid=1, ip=10.0.0.1)", "ValueError"),
        (
            "2024-01-01 00:00:00.000: E external/xla/x.cc:1] INTERNAL: CUDA error: an illegal memory access was "
            "encountered",
            "XlaRuntimeError",
        ),
        ("RuntimeError: CUDA error: an illegal memory access was encountered", "RuntimeError"),
        ("host-1:843:843 [5] transport/net.cc:1 NCCL WARN NET/IB : Got completion with error 12", "NCCLError"),
        ("Traceback (most recent call l", None),  # cut before anything failed
    ],
)
def test_bare_error_lines(line, exception):
    s = extract("step 10 loss 4.2\n" + line + "\n")
    assert (s.exception if s else None) == exception


def test_a_cache_warning_names_a_failure_only_when_nothing_else_does():
    warning = (
        "/usr/lib/python3.11/site-packages/jax/_src/compiler.py:522: UserWarning: Error reading persistent "
        "compilation cache entry for 'jit_train_step': XlaRuntimeError: INTERNAL: Session is closed\n"
    )
    s = extract(warning)
    assert (s.exception, s.kind) == ("CompilationCacheError", "compile_error")
    crash = extract(
        warning + "jaxlib._jax.XlaRuntimeError: RESOURCE_EXHAUSTED: Out of memory while trying to "
        "allocate 1024 bytes.\n"
    )
    assert crash.message.startswith("RESOURCE_EXHAUSTED")
    assert extract(crash.excerpt + "\n" + warning).message.startswith("RESOURCE_EXHAUSTED")
