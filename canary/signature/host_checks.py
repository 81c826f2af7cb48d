"""What a library or a test runner finds missing or wrong on the host and prints, not raises: matplotlib's config
directory where the home is not writable, a display for GLFW, ale_py's game ROMs, musl's loader without glibc, DGL's
adapter for the installed torch or its backend, the worker pytest-xdist lost; the machine's clock behind or ahead (Go's
x509 check, make's and tar's times in the future); a file system git cannot check a tree out onto; TensorFlow's Cloud
Storage client without credentials or a reply. Pure. They take their place in
:data:`canary.signature.toolchain_checks.TOOLCHAIN_CHECKS`.
"""

from __future__ import annotations

import re

from canary.signature.devices import XDIST_CRASH
from canary.signature.recogniser import BareError, match_below
from canary.signature.recogniser import environment_check as _environment

# Qt without the display or the libraries its xcb plugin needs (OpenCV's and PyQt's bundled Qt on a headless machine
# or in a container): Qt 6.5's "qt.qpa.plugin: From 6.5.0, xcb-cursor0 or libxcb-cursor0 is needed to load the Qt
# xcb platform plugin.", Qt 5's "qt.qpa.xcb: could not connect to display " (a display it names, ":0", ":.0", is the
# machine's), then "Could not load the Qt platform plugin "xcb" in "..." even though it was found." (or "Could not
# find ..."), "This application failed to start because no Qt platform plugin could be initialized." and the abort:
# the cause above names the abort, or the plugin where no cause is shown; the plugin's line alone, weak
_QT_CAUSES = (
    _environment(
        "qt-xcb-cursor",
        ("xcb-cursor0 or libxcb-cursor0 is needed",),
        r"From 6\.5\.0, xcb-cursor0 or libxcb-cursor0 is needed to load the Qt xcb platform plugin",
        None,
        message=lambda m: "Qt: From 6.5.0, xcb-cursor0 or libxcb-cursor0 is needed to load the Qt xcb platform plugin",
    ),
    _environment(
        "qt-xcb-display",
        ("qt.qpa.xcb: could not connect to display",),
        r"qt\.qpa\.xcb: could not connect to display",
        None,
        message=lambda m: "Qt: xcb could not connect to display",
    ),
    _environment(
        "qt-platform-plugin",
        ("the Qt platform plugin",),
        r"Could not (?P<how>load|find) the Qt platform plugin \"(?P<plugin>[\w-]{1,40})\"",
        None,
        message=lambda m: f'Qt: Could not {m["how"]} the Qt platform plugin "{m["plugin"]}"',
        weak=True,
    ),
)
_QT_WITHIN = 6  # lines above Qt's words that it could not start within which it says why


def _qt_cause_above(lines: list[str], i: int, said: str) -> str:
    """Why Qt could not start, said on the lines above its words that it could not: a cause, else the plugin."""
    for rec in _QT_CAUSES:
        if m := next((m for line in lines[max(0, i - _QT_WITHIN) : i] if (m := rec.match(line.strip()))), None):
            return rec.message(m)
    return said


_QT_CHECKS = [
    *_QT_CAUSES,
    _environment(
        "qt-no-platform",
        ("no Qt platform plugin could be initialized",),
        r"This application failed to start because no Qt platform plugin could be initialized",
        None,
        message=lambda m: "Qt: no Qt platform plugin could be initialized",
        below=_qt_cause_above,
    ),
]


_FAILED_TEST = re.compile(r"^\s{0,8}\[gw\d{1,4}\] \[\s{0,2}\d{1,3}%\] FAILED (?P<test>\S{1,300})")


def _lost_test(lines: list[str], i: int, said: str) -> str:
    """pytest-xdist's report of the test its lost worker was running, on the worker's next line ("[gw5] [ 95%] FAILED
    tests/test_x.py::test_y"), in the words of its "worker 'gw5' crashed while running" line."""
    m = match_below(_FAILED_TEST, lines, i + 1, i + 4)
    return f"{XDIST_CRASH} {m['test']}" if m else said


HOST_CHECKS: list[BareError] = [
    # matplotlib's config directory where the home is not writable ("mkdir -p failed for path /.config/matplotlib:
    # [Errno 13] Permission denied: '/.config'", a read-only home's Errno 30), then its warning that it made a
    # temporary one, in two releases' words ("... because the default path (...) is not a writable directory", "...
    # because there was an issue with the default path (...)"): why is the failure, whose home the machine's
    _environment(
        "matplotlib-config",
        ("mkdir -p failed for path ",),
        r"mkdir -p failed for path \S{0,300}matplotlib: (?P<why>\[Errno \d{1,4}\] [A-Z][\w -]{1,60})",
        None,
        message=lambda m: f"Matplotlib could not make its config directory: {m['why']}",
    ),
    _environment(
        "matplotlib-temporary",
        ("Matplotlib created a temporary ",),
        r"Matplotlib created a temporary (?:config/)?cache directory at \S{1,300} because "
        r"(?:the default path \(\S{1,300}\) is not a writable directory|there was an issue with the default path)",
        None,
        message=lambda m: "Matplotlib created a temporary config directory: its default path is not writable",
        weak=True,
    ),
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
    # musl's loader (Alpine) refusing a glibc build a Node.js addon loads ("Error: Error loading shared library
    # ld-linux-x86-64.so.2: No such file or directory (needed by /app/node_modules/.../libonnxruntime.so.1.14.0)"): a
    # distribution without glibc; which library is missing and which needed it, not where the addon is installed
    _environment(
        "musl-loader",
        ("Error loading shared library ",),
        r"Error loading shared library (?P<lib>[\w.+-]{1,100}): No such file or directory \(needed by "
        r"\S{0,300}?/(?P<by>[\w.+-]{1,100})\)",
        None,
        message=lambda m: f"Error loading shared library {m['lib']}: No such file or directory (needed by {m['by']})",
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
    # mujoco-py's check of the loader's path for MuJoCo's libraries ("Missing path to your environment variable." over
    # "Current values LD_LIBRARY_PATH=..."), its Exception's message posted without the class or under pytest's "E"
    BareError(
        "mujoco-py-library-path",
        ("Missing path to your environment variable",),
        re.compile(r"^(?:E\s{1,8})?(?P<msg>Missing path to your environment variable)\.?\s*$"),
        "Exception",
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
    # pytest-xdist losing a worker ("[gw5] node down: Not properly terminated"), then naming the test it was running on
    # the worker's next line: the same failure as its "worker 'gw5' crashed while running ..." line (devices.py)
    BareError(
        "xdist-node-down",
        ("node down: Not properly terminated",),
        # (after the progress characters of the tests before it: "....[gw0] node down: ...")
        re.compile(r"^[.FEsxX]{0,200}\[gw\d{1,4}\] node down: Not properly terminated"),
        None,
        message=lambda m: "pytest-xdist: worker crashed (node down: Not properly terminated)",
        below=_lost_test,
    ),
    # Go's TLS check of a certificate by the machine's time ("x509: certificate has expired or is not yet valid: current
    # time 2026-05-17T10:34:05+02:00 is before 2026-07-08T01:10:17Z"): before, the clock is behind; after, the
    # certificate expired; the times are the machine's
    _environment(
        "x509-time",
        ("x509: certificate has expired or is not yet valid",),
        r"x509: certificate has expired or is not yet valid(?:: current time \S{1,40} is (?P<how>before|after)\b)?",
        None,
        message=lambda m: (
            "x509: certificate is not yet valid (the clock is behind)"
            if m["how"] == "before"
            else "x509: certificate has expired"
            if m["how"]
            else "x509: certificate has expired or is not yet valid"
        ),
    ),
    # make and tar finding files from the future ("make: warning:  Clock skew detected.  Your build may be incomplete.",
    # "make[1]: Warning: File 'recorder' has modification time 69 s in the future", "tar: x/y: time stamp 2022-04-09
    # 00:57:46 is 7384.38 s in the future"): the machine's clock behind the files'; they go on
    _environment(
        "clock-skew",
        ("Clock skew detected", "s in the future"),
        r"Clock skew detected|has modification time -?[\d.]{1,20} s in the future|"
        r"(?P<tar>time stamp [\d-]{10} [\d:]{8} is [\d.]{1,20} s in the future)",
        None,
        message=lambda m: (
            "tar: a time stamp in the archive is in the future" if m["tar"] else "make: Clock skew detected"
        ),
        weak=True,
    ),
    # git unable to write a checkout's file ("error: unable to create file library/src/.../x.cpp: Filename too long"),
    # on Windows without core.longpaths; or warning of paths one case-insensitive file system cannot keep apart
    # ("warning: the following paths have collided (e.g. case-sensitive paths on a case-insensitive filesystem)")
    _environment(
        "git-checkout-paths",
        ("Filename too long", "the following paths have collided"),
        r"^(?:error: )?unable to create file \S.{0,1000}: (?P<long>Filename too long)$|"
        r"warning: the following paths have collided",
        None,
        message=lambda m: (
            "git: unable to create file: Filename too long"
            if m["long"]
            else "git: the following paths have collided (a case-insensitive file system)"
        ),
        weak=True,
    ),
    # Google's token endpoint refusing a service account's JWT for its times, quoted without google-auth's
    # RefreshError ("('invalid_grant: Invalid JWT: Token must be a short-lived token (60 minutes) and in a reasonable
    # timeframe. Check your iat and exp values ...', {...})"): a clock off from Google's
    BareError(
        "jwt-timeframe",
        ("invalid_grant: Invalid JWT: Token must be a short-lived token",),
        re.compile(r"(?P<msg>invalid_grant: Invalid JWT: Token must be a short-lived token [^'`]{1,500})"),
        "RefreshError",
    ),
    # TensorFlow's Cloud Storage client finding no credentials ("All attempts to get a Google authentication bearer
    # token failed, returning an empty token. Retrieving token from files failed with ..."), its statuses by release
    # ("Not found:", "NOT_FOUND:"): no credentials on a machine outside Google Cloud; it goes on without them
    _environment(
        "tf-gcs-token",
        ("bearer token failed",),
        r"(?P<msg>All attempts to get a Google authentication bearer token failed)",
        None,
        weak=True,
    ),
    # its request to Cloud Storage that got no reply ("The transmission  of request 0x564da523fa20 (URI:
    # https://www.googleapis.com/storage/v1/b/tfds-data/o/...) has been stuck at 0 of 0 bytes for 61 seconds and will
    # be aborted."): the network's; which bucket, not which object or request
    BareError(
        "tf-gcs-stuck",
        ("has been stuck at",),
        re.compile(
            r"The transmission\s{1,4}of request \S{1,40} \(URI: https?://(?P<host>[\w.-]{1,200})(?:/storage/v1/b/"
            r"(?P<bucket>[\w.-]{1,200}))?\S{0,1000}\) has been stuck at"
        ),
        None,
        "infrastructure",
        message=lambda m: (
            f"a request to {m['host']}{'/' + m['bucket'] if m['bucket'] else ''} has been stuck and will be aborted"
        ),
        weak=True,
    ),
    *_QT_CHECKS,
    # Matplotlib asked to show a figure on a non-GUI backend, in two releases' words ("UserWarning: Matplotlib is
    # currently using agg, which is a non-GUI backend, so cannot show the figure.", 3.8's "FigureCanvasAgg is
    # non-interactive, and thus cannot be shown"), after any program's words: it goes on, so weak
    BareError(
        "matplotlib-non-gui",
        ("which is a non-GUI backend", "is non-interactive, and thus cannot be shown"),
        re.compile(
            r"(?:UserWarning: )?(?P<msg>Matplotlib is currently using \w{1,20}, which is a non-GUI backend, so cannot "
            r"show the figure|FigureCanvas\w{1,20} is non-interactive, and thus cannot be shown)"
        ),
        "UserWarning",
        "environment",
        weak=True,
    ),
    # Lightning on a Slurm machine started without srun ("The `srun` command is available on your system but is not
    # used. HINT: ..."): it goes on as one process, so weak
    _environment(
        "srun-unused",
        ("command is available on your system but is not used",),
        r"The `srun` command is available on your system but is not used",
        None,
        message=lambda m: "Lightning: The `srun` command is available on your system but is not used",
        weak=True,
    ),
]
