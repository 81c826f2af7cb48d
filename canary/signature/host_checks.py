"""What a library or a test runner finds missing on the host and prints, not raises: a display for GLFW, ale_py's game
ROMs, DGL's adapter for the installed torch or its backend, and pytest's own words for two test files of one name and
for a worker it lost. Pure. They take their place in :data:`canary.signature.toolchain_checks.TOOLCHAIN_CHECKS`.
"""

from __future__ import annotations

import re

from canary.signature.recogniser import BareError
from canary.signature.recogniser import environment_check as _environment

_FAILED_TEST = re.compile(r"^\[gw\d{1,4}\] \[\s{0,2}\d{1,3}%\] FAILED (?P<test>\S{1,300})")


def _lost_test(lines: list[str], i: int, said: str) -> str:
    """pytest-xdist's report of the test its lost worker was running, on the worker's next line ("[gw5] [ 95%] FAILED
    tests/test_x.py::test_y"), in the words of its "worker 'gw5' crashed while running" line."""
    m = next((m for line in lines[i + 1 : i + 4] if (m := _FAILED_TEST.match(line.strip()))), None)
    return f"pytest-xdist: worker crashed while running {m['test']}" if m else said


HOST_CHECKS: list[BareError] = [
    # the GLFW binding's warning, raised as its GLFWError class, that the window system is not there ("GLFWError:
    # (65544) b'X11: The DISPLAY environment variable is missing'"; GLFW 3.4 numbers its platform error 65550): a
    # headless machine rendering; the code is the GLFW release's, the program goes on to fail at its first window
    _environment(
        "glfw-display",
        ("GLFWError: (",),
        r"GLFWError: \(\d{5}\) b?'(?P<msg>[^']{1,300})'",
        "GLFWError",
        weak=True,
    ),
    # ale_py refusing an Atari game whose ROM is not installed ("Error: We're Unable to find the game "Assault". Note:
    # Gymnasium no longer distributes ROMs. ...", gym's wording with its link), raised as gym's error.Error: the ROMs
    # missing are the machine's; which game the program's
    _environment(
        "ale-rom",
        ("Unable to find the game",),
        r"We're Unable to find the game \"[^\"]{1,100}\"",
        "Error",
        message=lambda m: "We're Unable to find the game: its ROM is not installed",
    ),
    # DGL not finding its tensor adapter for the installed torch ("[23:48:28] /opt/dgl/src/runtime/tensordispatch.cc:43:
    # TensorDispatcher: dlopen failed: /x/dgl/tensoradapter/pytorch/libtensoradapter_pytorch_1.9.0.so: cannot open
    # shared object file: No such file or directory"), a DGL built for another torch (the adapter is named by torch's
    # version), or the torch library the adapter needs ("dlopen failed: libtorch_cuda.so: ..."): which library; DGL
    # goes on without it
    _environment(
        "dgl-tensoradapter",
        ("TensorDispatcher: dlopen failed",),
        r"TensorDispatcher: dlopen failed: (?:\S{0,500}/)?(?P<lib>[\w.+-]{1,100}?)(?:_\d[\d.]{0,20})?\.so\b",
        None,
        message=lambda m: f"DGL TensorDispatcher: dlopen failed: {m['lib']}.so",
        weak=True,
    ),
    # DGL with no backend chosen ("DGL backend not selected or invalid.  Assuming PyTorch for now."): it goes on
    _environment(
        "dgl-backend",
        ("DGL backend not selected",),
        r"(?P<msg>DGL backend not selected or invalid)",
        None,
        weak=True,
    ),
    # pytest collecting a test module whose basename one it already imported has ("import file mismatch:" above
    # "imported module 'test_utils' has this __file__ attribute:"): two test files of one name outside packages, or a
    # stale __pycache__; which module
    _environment(
        "pytest-import-mismatch",
        ("has this __file__ attribute",),
        r"^imported module '(?P<mod>[\w.]{1,200})' has this __file__ attribute:",
        None,
        message=lambda m: f"pytest: import file mismatch: imported module '{m['mod']}'",
    ),
    # pytest-xdist losing a worker ("[gw5] node down: Not properly terminated"), then naming the test it was running on
    # the worker's next line: the same failure as its "worker 'gw5' crashed while running ..." line (devices.py)
    BareError(
        "xdist-node-down",
        ("node down: Not properly terminated",),
        re.compile(r"^\[gw\d{1,4}\] node down: Not properly terminated"),
        None,
        message=lambda m: "pytest-xdist: worker crashed (node down: Not properly terminated)",
        below=_lost_test,
    ),
]
