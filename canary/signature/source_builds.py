"""Building jaxlib, XLA or TensorFlow from source on a machine whose tools are not the ones the build pins: Bazel's
release, the host's gcc, the CUDA headers and the hermetic Python and CUDA releases the build knows. Pure. It takes its
place among :data:`canary.signature.builds.BUILD_CHECKS`; versions are masked in its words.
"""

from __future__ import annotations

import re

from canary.signature.recogniser import environment_check as _environment

# the words each alternative is named by (versions are the machine's and the build's, masked), by the group that matched
_SOURCE_BUILD_WORDS = {
    "gnu": "unsupported GNU version! gcc versions later than <version> are not supported",
    "bazel": "{bazel} <version> (.bazelversion), but it wasn't found",
    "exp": "Current Bazel version is <version>{sep} expected at {bound} <version>",
    "lock": "{lock}",
    "hermetic": "{hermetic} <versions>. Please provide a supported version in HERMETIC_CUDA_VERSION",
    "flag": "gcc: unrecognized command-line option '{flag}'",
    "header": "Could not find any {header} matching version <version> in any subdirectory",
    "analysis": "{analysis}",
    "include": "fatal error: '{include}' file not found",
}


def version_tuple(version: str) -> tuple[int, ...]:
    """A dotted release's numbers ("0.10.0" -> (0, 10, 0)), to compare releases as numbers, not strings."""
    return tuple(int(p) for p in version.strip(".").split(".") if p.isdigit())


def _misread(m: re.Match[str]) -> str:
    """A Bazel version check that refuses a release satisfying it (TensorFlow 1.5's, comparing "0.10.0" and "0.5.4"
    as strings) is its own failure: the check's, not the machine's Bazel."""
    if m.lastgroup != "exp":
        return ""
    cur, exp = version_tuple(m["cur"]), version_tuple(m["exp"])
    accepted = cur >= exp if m["bound"] == "least" else cur <= exp
    return "a version check misreading a release it accepts: " if accepted else ""


# building jaxlib, XLA or TensorFlow from source on a machine whose tools are not the ones the build pins: nvcc
# refusing a newer gcc ("#error -- unsupported GNU version! gcc versions later than 6 are not supported!"), bazel
# not the release .bazelversion names ("The project you're trying to build requires Bazel 6.5.0 (specified in
# /x/.bazelversion), but it wasn't found in ...") or older than a rule needs ("Current Bazel version is 5.3.0;
# expected at least 5.4.0"), gcc given clang's flag ("unrecognized command-line option '--cuda-path=...'"), and
# TensorFlow's configure without a CUDA header ("Could not find any cudnn.h matching version '8' in any
# subdirectory"): the machine's tools, each its check; which versions are the machine's and the build's
SOURCE_BUILD = _environment(
    "source-build",
    (
        "unsupported GNU version",
        "you're trying to build requires Bazel",
        "Current Bazel version is",
        "unrecognized command-line option '--cuda",
        "Analysis of target",
        "file not found",
        "matching version",
        "requirements_lock.txt",
        "The supported CUDA versions are",
    ),
    r"(?P<gnu>unsupported GNU version! gcc versions later than \d{1,2} are not supported)|"
    r"(?P<bazel>The project you're trying to build requires Bazel) \S{1,60}(?: \(specified in|`?$)|"
    r"Current Bazel version is (?P<cur>\d[\d.]{0,20})\S{0,30}(?: \(@\w{1,40}\))?(?P<sep>[;,]) expected at "
    r"(?P<bound>least|most) (?P<exp>\d[\d.]{0,20})|"
    # (hermetic Python and CUDA in jaxlib's and TensorFlow's builds without the machine's release)
    r"(?P<lock>Could not find requirements_lock\.txt file matching specified Python version)|"
    r"(?P<hermetic>The supported CUDA versions are) \[|"
    r"unrecognized command-line option '(?P<flag>--cuda-[\w-]{1,40})|"
    r"Could not find any (?P<header>\w{1,20}\.h) matching version '[\w.]{0,20}' in any subdirectory|"
    # (bazel refusing a target it cannot analyse, a compile without a CUDA library's header)
    r"(?P<analysis>Analysis of target '[\w/:.-]{1,200}' failed)|"
    r"fatal error: '(?P<include>[\w/.-]{0,200}(?:cudnn|cuda|nccl|cublas)\w{0,20}\.h)' file not found",
    None,
    message=lambda m: _misread(m) + _SOURCE_BUILD_WORDS[m.lastgroup].format(**m.groupdict()),
)
