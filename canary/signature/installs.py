"""Python's installers and build tools refusing the machine they run on: pip refusing an interpreter its distribution
manages (PEP 668) or stopped by an error, setup.py without the wheel package, uv finding no wheel of a locked release
for the interpreter, CMake newer than a project's minimum or without a compiler, Rust missing, older than an extension's
minimum or newer than a crate's source, protobuf's runtime against generated code of another release. Pure. They take
their place in :data:`canary.signature.checks.ENVIRONMENT_ERRORS`; the tools' checks have no class, pip's error and
protobuf's have theirs.
"""

from __future__ import annotations

import re

from canary.signature.geospatial import GEOSPATIAL_CHECKS
from canary.signature.managed_pythons import MANAGED_PYTHON_CHECKS
from canary.signature.python_envs import uv_platform
from canary.signature.pythons import win_error
from canary.signature.recogniser import BareError
from canary.signature.recogniser import environment_check as _environment
from canary.signature.rewordings import Parts
from canary.signature.storage import errno_path

# the system's library directories (Debian's multiarch one, Red Hat's lib64), where the distribution's glibc and
# libstdc++ live; a copy anywhere else is an environment's own (conda's "envs/x/bin/../lib", a venv's bundled one)
_SYSTEM_LIBS = re.compile(r"(?:/usr)?/lib(?:32|64)?(?:/[\w-]{1,40}-linux-gnu\w{0,10})?")


def library_home(directory: str | None) -> str:
    """Whose copy of a shared library the loader found in ``directory``: " (the system's)", " (an environment's)",
    or nothing where a post left the directory out."""
    if not directory:
        return ""
    return " (the system's)" if _SYSTEM_LIBS.fullmatch(directory) else " (an environment's)"


_UV_VERSION = re.compile(r"(?:\{[^{}]{0,300}(?:\}|$))?(?:(?:==|>=|<=|!=|~=|<|>)[\w.+*-]{1,60},?)*")
_UV_UNUSABLE = re.compile(r"\bis unusable because no wheels are available with a matching (Python \w{1,20})$")
_UV_TAG_EXAMPLE = re.compile(r" tag \(e\.g\., .{0,200}\)$")


# (a pin's requirement, which a terminal may wrap before: "... and jax[tpu]==0.4.33 depends on" / "libtpu-nightly==...")
_UV_DEPENDS = re.compile(r"^(there is no version of \S{1,100} and \S{1,100} depends on)\b.*$")


def _uv_reason(why: str) -> str:
    """uv's first reason without the release it names or its markers, in one wording across uv's releases."""
    why = _UV_DEPENDS.sub(r"\1", _UV_TAG_EXAMPLE.sub(" tag", _UV_VERSION.sub("", why.strip())))
    return _UV_UNUSABLE.sub(r"has no wheels with a matching \1 tag", why)


# conda's packages no channel has, named with the version the program asked for ("- jaxlib[version='>=0.1.51']",
# "- cudatoolkit=11.3"): which package is the failure, its version the program's; its solver's conflict, by the package
# it is over: conda 4.7's "Package cudatoolkit conflicts for:" under its sentence, 4.5's "- pytorch==0.4.0=... ->
# cudatoolkit=9" in it (a copy cut after the sentence names none)
_CONDA_SPEC = re.compile(
    r"^(The following packages are not available from current channels: - [\w.-]{1,100})\S{0,200}$"
)
_CONFLICT = re.compile(r"^The following specifications were found to be (?:incompatible with each other|in conflict)\b")
_OVER = re.compile(r"\bPackage ([\w.-]{1,100}) conflicts for\b|\s-> ([\w.-]{1,100})")


# setuptools-scm finding no version for a tree without git's metadata, or warning of a shallow one, names the tree
# ("setuptools-scm was unable to detect version for /code.", '"/x/y" is shallow and may cause errors'): the program's
# (a tree 2020's release quotes, with blanks in it: "... for '~/pCloud Drive/x'.")
_SCM_PATH = re.compile(
    r"(setuptools-scm was unable to detect version for) (?:'[^']{1,500}'|\S{1,500}?)\.?$|^\"[^\"]{1,300}\"( is shallow)"
)


def scm_path(exc: str | None, message: str, frames: list[str]) -> tuple[str | None, str, list[str]]:
    if exc in ("LookupError", "UserWarning") and ("setuptools-scm was unable" in message or "is shallow" in message):
        message = _SCM_PATH.sub(lambda m: f"{m[1]} <path>" if m[1] else f'"<path>"{m[2]}', message)
    return exc, message, frames


# conda's check of a package in its cache ("The package for libgcc located at /x/pkgs/libgcc-7.2.0-h69d50b8_2
# appears to be corrupted. The path 'lib/libstdc++.so' specified in the package manifest cannot be found."): that a
# cached package is incomplete is the failure, which package and file the machine's
_CORRUPTED = re.compile(
    r"^The package for \S{1,200} located at .{1,500}?\s?appears to be corrupted\. The path \S{1,500} specified in the "
    r"package manifest cannot be found\b.{0,200}$"
)


# conda 25's refusal of channels whose Terms of Service a non-interactive run has not accepted lists them after advice
# (bullets by the terminal's encoding; a cut post may stop before either): that they are not accepted is the failure;
# which channels are the machine's configuration, and "conda init" before "conda activate" with or without its quotes
_TOS = re.compile(r"^(Terms of Service have not been accepted for the following channels)\b.*$")


_CUDA_DRIVER = "incompatible with your CUDA driver"


def conda(exc: str | None, message: str, frames: list[str]) -> tuple[str | None, str, list[str]]:
    if exc == "CondaToSNonInteractiveError":
        message = _TOS.sub(r"\1", message)
    elif exc == "CondaError" and message.replace("'", "").startswith("Run conda init before conda activate"):
        message = "Run 'conda init' before 'conda activate'"
    elif exc == "CondaVerificationError" and _CORRUPTED.match(message):
        message = "The package for <package> appears to be corrupted: a path in its manifest cannot be found"
    elif exc == "PackagesNotFoundError":
        message = _CONDA_SPEC.sub(r"\1", message)
    elif exc == "UnsatisfiableError" and _CUDA_DRIVER in message:
        # (conda 4.8 may print an empty "incompatible with each other:" section before it, glued to its format line)
        message = f"The following specifications were found to be {_CUDA_DRIVER}"
    elif exc == "UnsatisfiableError" and _CONFLICT.match(message) and (over := _OVER.search(message)):
        message = f"The following specifications were found to be in conflict: {over[1] or over[2]}"
    return exc, message, frames


# pip refusing a package for the interpreter ("ERROR: Package 'frappe' requires a different Python: 3.9.2 not in
# '>=3.10'"): the package and the bound the interpreter misses, which says too old or too new; its own version and the
# package's other bounds are the machine's and the release's
_BOUND = re.compile(r"(>=|<=|==|!=|~=|>|<)\s?(\d{1,3}(?:\.\d{1,4}){0,2})")


def _release(text: str) -> tuple[int, ...]:
    return tuple(int(x) for x in text.split("."))


def missed_bound(version: str, spec: str) -> str:
    have = _release(version)
    for op, bound in _BOUND.findall(spec):
        want = _release(bound)
        width = len(want)
        ok = {
            ">=": have >= want,
            ">": have > want,
            "<=": have[:width] <= want,
            "<": have < want,
            "==": have[:width] == want,
            "!=": have[:width] != want,
            "~=": have >= want,
        }[op]
        if not ok:
            return f"{op}{bound}"
    return spec


# a package's setup refusing the Python it runs on (llvmlite's and numba's "Cannot install on Python version 3.13.3;
# only versions >=3.6,<3.10 are supported."): the bound the Python misses, as pip's refusal above, which says older or
# newer; which Python is the machine's (the ``python-guard`` rule); read without its class too
_PYTHON_GUARD = re.compile(
    r"^Cannot install on Python version (?P<v>\d{1,2}(?:\.\d{1,3}){1,2}); only versions (?P<spec>\S{1,40}) are"
)


def python_guard(exc: str | None, message: str, frames: list[str]) -> Parts:
    m = _PYTHON_GUARD.match(message) if message.startswith("Cannot install on Python") else None
    if m:
        bound = missed_bound(m["v"], m["spec"])
        way = "older" if bound.startswith(">") else "newer"
        message = f"Cannot install on a Python {way} than the package supports ({bound})"
    return exc, message, frames


def _not_found(m: re.Match[str]) -> str:
    return "conda: ResolvePackageNotFound: " + (m["pkg"] or "")


INSTALL_CHECKS: list[BareError] = [
    _environment(
        "python-guard",
        ("Cannot install on Python version",),
        r"(?:^|(?<=[\s`'\"]))(?P<msg>Cannot install on Python version [\d.]{1,12}; only versions [^ ]{1,30} are "
        r"supported)",
    ),
    # poetry: its installer without a file of a locked release for the machine ("Unable to find installation candidates
    # for tensorflow-io-gcs-filesystem (0.28.0)", under cleo's "RuntimeError" and above "at .../chooser.py:73"),
    # its solver's Python range against a package's (1.1's "The current project's Python requirement (>=3.10,<4.0) is
    # not compatible with some of the required packages Python requirement:", 1.7's "... supported Python range ...",
    # raised as SolverProblemError) and the first reason of a failed resolve ("Because no versions of tensorflow match
    # >2.15.0.post1,<3.0.0"): which package, not its version or the project's range
    _environment(
        "poetry-candidates",
        ("Unable to find installation candidates for ",),
        r"Unable to find installation candidates for (?P<pkg>[\w.-]{1,100})(?: \([^)]{0,60}\)|$)",
        message=lambda m: f"poetry: unable to find installation candidates for {m['pkg']}",
    ),
    _environment(
        "poetry-python-range",
        ("is not compatible with some of the required packages",),
        r"The current project's (?:Python requirement|supported Python range) \([^)]{0,60}\) is not compatible with "
        r"some of the required packages Python requirement",
        "SolverProblemError",
        message=lambda m: "poetry: the project's Python range is not compatible with a required package's",
    ),
    _environment(
        "poetry-no-versions",
        ("Because no versions of ",),
        r"^Because no versions of (?P<pkg>[\w.-]{1,100}) match\b",
        None,
        message=lambda m: f"resolver: no versions of {m['pkg']} match",
        weak=True,
    ),
    # the dynamic loader's own words when a binary (not Python's import) meets a library without a symbol it links
    # ("./build/all_reduce_perf: symbol lookup error: ./build/all_reduce_perf: undefined symbol: ncclCommRegister",
    # once a rank): the symbol is the failure, the binary's path the machine's
    _environment(
        "symbol-lookup",
        ("symbol lookup error: ",),
        r"symbol lookup error: \S{0,300}: undefined symbol: (?P<sym>[\w@.]{1,300})",
        None,
        message=lambda m: f"symbol lookup error: undefined symbol: {m['sym']}",
    ),
    # conda's solver without a package for the machine's platform, the specs one per line below it
    # ("ResolvePackageNotFound:", "  - cudatoolkit=11.3"), quoted in a sentence too: which specs are the failure
    BareError(
        "conda-not-found",
        ("ResolvePackageNotFound",),
        re.compile(r"(?:^|(?<=[\s\"'`]))ResolvePackageNotFound:\s*(?P<pkg>(?:- )?\S{1,200})?\s*$"),
        "ResolvePackageNotFound",
        "environment",
        message=_not_found,
        context=12,
    ),
    # mamba's solver refusing a package whose virtual __cuda constraint the driver does not meet ("package
    # cudatoolkit-11.6.0-habf752d_9 has constraint __cuda >=11.6.0 conflicting with __cuda-10.2-0"): the driver is
    # too old
    _environment(
        "mamba-cuda-constraint",
        ("has constraint __cuda",),
        r"package (?P<pkg>[\w.-]{1,100}?)-\d\S{0,60} has constraint __cuda \S{1,30} conflicting with __cuda-\S{1,30}",
        None,
        message=lambda m: f"conda: {m['pkg']} has a __cuda constraint the driver's __cuda does not meet",
    ),
    _environment(
        "requires-python",
        ("requires a different Python",),
        r"Package '(?P<pkg>[\w.-]{1,100})' requires a different Python: (?P<have>\d{1,3}(?:\.\d{1,4}){0,2})\S{0,20} "
        r"not in '(?P<spec>[^']{1,200})'",
        None,
        message=lambda m: (
            f"pip: Package '{m['pkg']}' requires a different Python ({missed_bound(m['have'], m['spec'])})"
        ),
    ),
    *MANAGED_PYTHON_CHECKS,  # (pip and uv on an interpreter a distribution manages, pip's --user in a venv)
    *GEOSPATIAL_CHECKS,  # (PROJ's database missing, or another installation's)
    # the 'sklearn' placeholder package refusing to install since 2023-12 ("The 'sklearn' PyPI package is deprecated,
    # use 'scikit-learn' rather than 'sklearn' for pip commands.", inside pip's box or an installer's): a requirement
    # to change, whichever installer ran it
    _environment(
        "sklearn-package",
        ("The 'sklearn' PyPI package is deprecated",),
        r"The 'sklearn' PyPI package is deprecated",
        None,
        message=lambda m: "pip: the 'sklearn' PyPI package is deprecated, use 'scikit-learn'",
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
        below=uv_platform,
    ),
    # uv's resolver without a solution ("× No solution found when resolving dependencies:", then "╰─▶ Because there
    # is no version of torch==2.1.0+cpu and you require ...", an ASCII terminal's "`-> Because ...", uv 0.1's derivation
    # "Because there is no version of ..." on a line of its own): the first reason
    # uv gives, by package; the release and the markers are the lock's, uv 0.1's "is unusable because no wheels are
    # available with a matching Python implementation" is 2024's "has no wheels with a matching Python implementation
    # tag" (an implementation, an ABI and a platform tag stay three)
    _environment(
        "uv-resolution",
        ("Because ",),
        r"(?:(?:╰─[▶>]|`->)\s{0,4}|^(?=Because there is no version of ))Because (?P<why>.{1,400}?)"
        r"(?: and you require| and (?=[\w.-]{1,100}==)|, we can conclude|$)",
        None,
        message=lambda m: f"uv: no solution found when resolving dependencies: {_uv_reason(m['why'])}",
    ),
    # pip's resolver without a solution ("ERROR: Cannot install jax[cuda]==0.3.10, jax[cuda]==0.3.11 ... because these
    # package versions have conflicting dependencies.", then "ERROR: ResolutionImpossible"): what pip names first
    # that it cannot install, without its releases and extras (a requirements file, "-r ..."); the releases it tried
    # are the index's
    _environment(
        "pip-resolution",
        ("because these package versions",),
        # (a terminal may wrap the sentence after "versions"; a requirement without a name is "None")
        r"Cannot install (?:None, )?(?P<first>-r|[A-Za-z][\w.-]{0,100}).{0,3000} because these package versions"
        r"(?: have conflicting dependencies|\s*$)",
        None,
        message=lambda m: f"pip: cannot install {m['first']}: conflicting dependencies (ResolutionImpossible)",
    ),
    # (the conflict's cause below it, "The user requested torch==1.12.1" above "torchvision 0.13.0 depends on
    # torch==1.12.0": the package the request conflicts over, where pip names a requirements file first)
    _environment(
        "pip-requested",
        ("The user requested ",),
        r"^The user requested (?:\(constraint\) )?(?P<first>[A-Za-z][\w.-]{0,100})",
        None,
        message=lambda m: f"pip: cannot install {m['first']}: conflicting dependencies (ResolutionImpossible)",
    ),
    # pip's error that stopped an install, where a progress bar ran onto it ("... eta 0:00:01ERROR: Could not install
    # packages due to an OSError: [Errno 28] No space left on device") or an older pip printed it without "ERROR: "
    # ("Could not install packages due to an EnvironmentError: [Errno 30] Read-only file system: '...'"): that error,
    # met by an install (a disk full while installing is not one full at run time)
    BareError(
        "pip-install",
        ("Could not install packages due to a",),
        re.compile(r"Could not install packages due to an? (?P<cls>[A-Z]\w{1,60}Error): (?P<msg>.{1,1000})$"),
        lambda m: m["cls"],
        # (which file it could not write is the package's: "[Errno 13] Permission denied: '/usr/lib/.../chardet'")
        message=lambda m: "pip could not install packages: " + win_error(errno_path(m["msg"])),
    ),
    # a package built from source (no wheel for the machine) that needs Rust where none is: setuptools-rust's "error:
    # can't find Rust compiler" (tokenizers, safetensors 0.3), maturin's "Cargo, the Rust package manager, is not
    # installed or is not on PATH." (safetensors 0.4): the machine lacks the toolchain, whichever package found it
    _environment(
        "no-rust",
        ("can't find Rust compiler", "Cargo, the Rust package manager, is not installed"),
        r"error: can't find Rust compiler|Cargo, the Rust package manager, is not installed or is not on PATH",
        None,
        message=lambda m: "error: can't find Rust compiler",
    ),
    # setuptools-rust's check of the rustc found against the extension's minimum ("error: Rust 1.34.2 does not match
    # extension requirement >=1.41.0"): the minimum, not the machine's release
    _environment(
        "rust-too-old",
        ("does not match extension requirement",),
        r"error: Rust [\w.-]{1,40} does not match extension requirement (?P<req>\S{1,40})",
        None,
        message=lambda m: f"setuptools-rust: Rust does not match extension requirement {m['req']}",
    ),
    # a rustc newer than a crate's source denying what it once allowed (1.73 denies invalid_reference_casting, which
    # tokenizers 0.13's trainer.rs does: "error: casting `&T` to `&mut T` is undefined behavior, ..."): the lint
    _environment(
        "rustc-denied",
        ("error: casting `&T` to `&mut T`",),
        r"^[\"'`]?error: (?P<msg>casting `&T` to `&mut T` is undefined behavior)",
        None,
        message=lambda m: f"rustc: {m['msg']}",
    ),
    # pip's cache a user does not own ("The directory '/x/.cache/pip' or its parent directory is not owned or is not
    # writable by the current user. The cache has been disabled.", pip 8-9's "... is not owned by the current user and
    # the cache has been disabled."), an entry it could not read back ("Cache entry deserialization failed, entry
    # ignored"): pip goes on without it, so a warning; uv 0.1.25 cannot read what 0.1.24 wrote, and stops
    _environment(
        "pip-cache-owner",
        ("or its parent directory is not owned",),
        r"The directory '[^']{1,300}' or its parent directory is not owned",
        None,
        message=lambda m: "pip: the cache directory is not owned by the current user; the cache has been disabled",
        weak=True,
    ),
    _environment(
        "pip-cache-entry",
        ("Cache entry deserialization failed",),
        r"(?P<msg>Cache entry deserialization failed, entry ignored)",
        None,
        message=lambda m: "pip: Cache entry deserialization failed, entry ignored",
        weak=True,
    ),
    _environment(
        "uv-cache-entry",
        ("Failed to deserialize cache entry",),
        r"(?:^|Caused by: )Failed to deserialize cache entry",
        None,
        message=lambda m: "uv: Failed to deserialize cache entry",
    ),
    # protobuf's runtime refusing code generated by another release, its VersionError's words posted without the class
    # ("Detected incompatible Protobuf Gencode/Runtime versions when loading client.proto: gencode 5.28.3 runtime
    # 5.27.3. Runtime version cannot be older than the linked gencode version."; folded by ``protobuf-versions``)
    _environment(
        "protobuf-runtime",
        ("Protobuf Gencode/Runtime",),
        r"(?P<msg>Detected (?:mismatched|incompatible) Protobuf Gencode/Runtime (?:major )?versions when loading "
        r".{1,600})",
        "VersionError",
        context=2,  # (a post that breaks the line after the .proto file's name)
    ),
    # protobuf's runtime warning of code generated by another release ("UserWarning: Protobuf gencode version 5.27.2
    # is older than the runtime version 5.28.0 at Feature.proto. Please avoid checked-in Protobuf gencode ...",
    # protobuf 6's "... is exactly one major version older than the runtime version 6.30.2 at service.proto"): the
    # packages installed against each other, which way; the versions and the .proto file are the environment's
    _environment(
        "protobuf-gencode",
        ("Protobuf gencode version",),
        r"Protobuf gencode version [\d.]{1,20} is (?P<how>older than|exactly one major version older than) the runtime "
        r"version",
        "UserWarning",
        message=lambda m: f"Protobuf gencode version <version> is {m['how']} the runtime version <version>",
        weak=True,
    ),
]
