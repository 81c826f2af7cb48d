"""Python's installers and build tools refusing the machine they run on: pip refusing an interpreter its distribution
manages (PEP 668), setup.py without the wheel package, uv finding no wheel of a locked release for the interpreter,
CMake newer than a project's minimum or without a compiler. Pure. They take their place in
:data:`canary.signature.checks.ENVIRONMENT_ERRORS`; all are the tool's checks, with no class.
"""

from __future__ import annotations

from canary.signature.recogniser import BareError
from canary.signature.recogniser import environment_check as _environment

INSTALL_CHECKS: list[BareError] = [
    # pip on an interpreter its distribution marks as managed (PEP 668: Debian's and Ubuntu 24.04's Python 3.12, a
    # runner's system Python): "error: externally-managed-environment", then the advice box; the same words when a
    # provisioning tool relays pip's stderr inside its own JSON ("msg": "\n:stderr: error: ...")
    _environment(
        "pep668",
        ("externally-managed-environment",),
        r"error: externally-managed-environment",
        None,
        message=lambda m: "error: externally-managed-environment",
    ),
    # setup.py asked for a command no installed package provides ("error: invalid command 'bdist_wheel'": the wheel
    # package missing from the build's environment), after distutils' usage lines: which command
    _environment(
        "setup-command",
        ("error: invalid command '",),
        r"^error: invalid command '(?P<cmd>[\w-]{1,60})'",
        None,
        message=lambda m: f"error: invalid command '{m['cmd']}'",
    ),
    # uv finding no wheel of a locked release for the interpreter ("error: Distribution `jaxlib==0.4.24 @
    # registry+https://pypi.org/simple` can't be installed because it doesn't have a source distribution or wheel for
    # the current platform", then a hint naming the interpreter's tag): which package; the pinned release and the
    # interpreter are the lock's and the machine's (a post may turn the registry's address into a link)
    _environment(
        "uv-no-wheel",
        ("or wheel for the current platform",),
        r"Distribution `(?P<pkg>[\w.-]{1,100})(?:==|@)\S{1,100} @ .{1,300}? can't be installed because it doesn't have "
        r"a source distribution or wheel for the current platform",
        None,
        message=lambda m: (
            f"Distribution `{m['pkg']}` can't be installed because it doesn't have a source distribution or wheel for "
            "the current platform"
        ),
    ),
    # CMake 4 refusing a project whose cmake_minimum_required is older than it keeps ("CMake Error at CMakeLists.txt:15
    # (cmake_minimum_required): Compatibility with CMake < 3.5 has been removed from CMake."), building an sdist pip
    # found no wheel for; and a generator without a compiler ("CMake Error: CMAKE_CXX_COMPILER not set, after
    # EnableLanguage"): the machine's build tools against the project's
    _environment(
        "cmake",
        ("has been removed from CMake", "_COMPILER not set"),
        r"(?P<msg>Compatibility with CMake < [\d.]{1,10} has been removed from CMake|"
        r"CMAKE_[A-Z]{1,10}_COMPILER not set, after EnableLanguage)",
        None,
    ),
]
