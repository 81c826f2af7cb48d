"""Pythons that refuse what pip or uv is asked to install into them, in each tool's words. Pure.

A distribution marks its own interpreter as managed (PEP 668: Debian 12's and Ubuntu 23.04's Python, Homebrew's, Arch's,
Alpine's, a runner's system Python), and pip refuses with "error: externally-managed-environment" above the advice box
its distribution wrote; uv names the interpreter, its own managed builds included ("error: The interpreter at
~/.local/share/uv/python/cpython-3.13.5-macos-aarch64-none is externally managed, and indicates the following:"). pip
refuses a ``--user`` install inside a virtual environment, whose user site is not on its path ("ERROR: Can not perform a
'--user' install. User site-packages are not visible in this virtualenv.", a terminal may wrap it), with --target
("ERROR: Can not combine '--user' and '--target'"), or where the user site would not come first ("ERROR: Will not
install to the user site because it will lack sys.path precedence to setuptools in /usr/lib/..."), and cannot uninstall
a package a distribution's package manager installed without pip's record of its files ("error:
uninstall-no-record-file"), nor reach an index over HTTPS from an interpreter built without the ``ssl`` module ("pip is
configured with locations that require TLS/SSL, however the ssl module in Python is not available."). Which tool refused
and why is the failure; which interpreter and where it lives are the machine's. They take their place in
:data:`canary.signature.installs.INSTALL_CHECKS`.
"""

from __future__ import annotations

from canary.signature.recogniser import BareError
from canary.signature.recogniser import environment_check as _environment

MANAGED_PYTHON_CHECKS: list[BareError] = [
    # a package's setup.py refusing the Python running it ("Sorry, but pony 0.6.1 requires Python of one of the
    # following versions: 2.6, 2.7, 3.3 or 3.4. You have version 3.5.0"): which package, not which releases
    _environment(
        "setup-python-gate",
        ("requires Python of one of the following versions",),
        r"Sorry, but (?P<pkg>[\w.-]{1,60}) [\w.+-]{1,20} requires Python of one of the following versions",
        None,
        message=lambda m: f"{m['pkg']} requires Python of one of the following versions",
    ),
    # (pip's words the same when a provisioning tool relays its stderr inside its own JSON: "msg": "\n:stderr: error:
    # ...")
    _environment(
        "pep668",
        ("externally-managed-environment",),
        r"error: externally-managed-environment",
        None,
        message=lambda m: "error: externally-managed-environment",
    ),
    _environment(
        "uv-externally-managed",
        ("is externally managed",),
        r"error: The interpreter at \S{1,500} is externally managed\b",
        None,
        message=lambda m: "uv: the interpreter is externally managed",
    ),
    _environment(
        "pip-user-in-venv",
        ("Can not perform a '--user' install",),
        r"(?:^|(?<=ERROR: ))Can not perform a '--user' install\. User site-packages are not visible\b",
        None,
        message=lambda m: "pip: Can not perform a '--user' install: user site-packages are not visible in a virtualenv",
    ),
    _environment(
        "pip-user-refused",
        ("Can not combine '--user' and '--target'", "Will not install to the user site because"),
        r"(?P<target>Can not combine '--user' and '--target')|Will not install to the user site because it will lack "
        r"sys\.path precedence to (?P<pkg>[\w.-]{1,100})",
        None,
        message=lambda m: (
            f"pip: {m['target']}" if m["target"] else f"pip: the user site would lack precedence to {m['pkg']}"
        ),
    ),
    _environment(
        "pip-no-record",
        ("uninstall-no-record-file",),
        r"error: uninstall-no-record-file",
        None,
        message=lambda m: "pip: error: uninstall-no-record-file",
    ),
    _environment(
        "pip-no-ssl",
        ("however the ssl module in Python is not available",),
        r"pip is configured with locations that require TLS/SSL, however the ssl module in Python is not available",
        None,
        message=lambda m: "pip: the ssl module in Python is not available",
    ),
]
