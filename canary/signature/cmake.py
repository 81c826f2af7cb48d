"""CMake's own words: its errors with where they were raised and by which command, above a message it indents and
wraps, and its checks of the project against the release that runs it (cmake_minimum_required, a compiler not found).
Pure. They take their place in :data:`canary.signature.toolchain_checks.TOOLCHAIN_CHECKS`.
"""

from __future__ import annotations

import re

from canary.signature.recogniser import BareError
from canary.signature.recogniser import environment_check as _environment

# a path in CMake's message, on its own line or in a sentence ("File /opt/dali/third_party/pybind11/CMakeLists.txt not
# found."): the machine's checkout
_CMAKE_PATH = re.compile(r"(?<![\w.])(?:[A-Za-z]:)?[/\\][\w./\\+-]{1,500}")
_CMAKE_SENTENCE = re.compile(r"(?<=\w[.?!])\s.*$")
_PROVIDED_BY = re.compile(r'package configuration file provided by "([\w:.+-]{1,100})"')


def _cmake_message(lines: list[str], i: int, said: str) -> str:
    """CMake's message under its head: the lines indented under it (paths further, after blank lines) up to the first
    that is not, to its first sentence's end, its paths as ``<path>``."""
    words = []
    for line in lines[i + 1 : i + 16]:
        if line.strip() and not line.startswith("  "):
            break
        words += line.split()
    # (find_package's words in module mode, "By not providing "FindTorch.cmake" ...", and in config mode, "Could not
    # find a package configuration file provided by "Torch" with any of ...": which package it did not find)
    if said.endswith("(find_package):") and (m := _PROVIDED_BY.search(" ".join(words))):
        return f'{said} no package configuration file provided by "{m[1]}"'
    text = _CMAKE_SENTENCE.sub("", _CMAKE_PATH.sub("<path>", " ".join(words)))
    return f"{said} {' '.join(text.split()[:24])}"


CMAKE_CHECKS: list[BareError] = [
    # CMake 4 refusing a project whose cmake_minimum_required is older than it keeps ("CMake Error at CMakeLists.txt:15
    # (cmake_minimum_required): Compatibility with CMake < 3.5 has been removed from CMake."), building an sdist pip
    # found no wheel for; and a generator without a compiler ("CMake Error: CMAKE_CXX_COMPILER not set, after
    # EnableLanguage", "No CMAKE_CUDA_COMPILER could be found." at project() or enable_language()): the machine's build
    # tools against the project's; CMake 3.27's warning of the removal to come goes on (weak)
    _environment(
        "cmake",
        ("has been removed from CMake", "_COMPILER not set", "_COMPILER could be found"),
        r"(?P<msg>Compatibility with CMake < [\d.]{1,10} has been removed from CMake|"
        r"CMAKE_[A-Z]{1,10}_COMPILER not set, after EnableLanguage|No CMAKE_[A-Z]{1,10}_COMPILER could be found)",
        None,
    ),
    # find_package's module for a package whose parts the machine lacks ("Could NOT find Python3 (missing:
    # Python3_INCLUDE_DIRS Python3_LIBRARIES Development ...) (found version "3.9.5)", under CMake's head or alone):
    # which package, by the first part missing (a header's directory is not a component), not the version found
    _environment(
        "cmake-find-package",
        ("Could NOT find ",),
        r"^Could NOT find (?P<pkg>[\w.:-]{1,100}) \(missing: (?P<part>[\w.:-]{1,100})",
        None,
        message=lambda m: f"CMake Error (message): Could NOT find {m['pkg']} (missing: {m['part']})",
    ),
    _environment(
        "cmake-deprecation",
        ("will be removed from a future version",),
        r"(?P<msg>Compatibility with CMake < [\d.]{1,10} will be removed from a future version)",
        None,
        weak=True,
    ),
    # CMake's error, with where it was raised and by which command ("CMake Error at thirdparty/CMakeLists.txt:30
    # (add_subdirectory):"), above its message indented and wrapped, paths on lines of their own ("The source directory"
    # / "/x/thirdparty/glm" / "does not contain a CMakeLists.txt file."): a checkout without its submodules, a source
    # missing, a project's own FATAL_ERROR; the command and its message are the failure, the project's line and the
    # machine's paths are not
    _environment(
        "cmake-error",
        ("CMake Error at ",),
        r"^CMake Error at \S{1,300}:\d{1,6} \((?P<cmd>\w{1,60})\):$",
        None,
        message=lambda m: f"CMake Error ({m['cmd']}):",
        below=_cmake_message,
        weak=True,  # (a step's own error above it names the failure: nvcc's "#error -- unsupported GNU version!")
    ),
    # ninja's report of a build step that failed ("FAILED: console-prefix/src/console-stamp/console-configure /x/..."),
    # where a copy ends before the step's own error: the step, by its first output, names the failure (weak)
    BareError(
        "ninja-step",
        ("FAILED: ",),
        re.compile(r"^FAILED: (?P<msg>\S{1,300})"),
        None,
        "compile_error",
        message=lambda m: f"ninja: build step failed: {m['msg']}",
        weak=True,
    ),
]
