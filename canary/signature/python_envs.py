"""What Python's environment tools and a notebook's front end print without a class: venv without ensurepip, an
interpreter without the module ``-m`` asked for, pip too old for a flag, refusing a download whose hash differs or
giving up resolving, python-build's extensions not compiled, gzip and tar on an archive cut short, uv's lockfile and
its missing wheel, pkg_resources' and setuptools' requirement checks, pip's invalid metadata and build backend,
conda's solver plugin, mamba 2's arguments and micromamba's shell, asyncio's task destroyed while pending, and
ipywidgets' front end missing or out of step with the kernel. Pure. They take their place in
:data:`canary.signature.toolchain_checks.TOOLCHAIN_CHECKS`.
"""

from __future__ import annotations

import re

from canary.signature.recogniser import BareError, match_below
from canary.signature.recogniser import environment_check as _environment

_CORO = re.compile(r"coro=<(?P<coro>[\w.<>]{1,200}?)\(\)")


def _pending_coroutine(lines: list[str], i: int, said: str) -> str:
    """asyncio's destroyed task with the coroutine it was running, on its line (a JSON record's) or the next."""
    m = match_below(_CORO, lines, i, i + 2)
    return f"{said}: {m['coro']}" if m else said


# (BuildKit's plain output keeps its step's time before each line: "#15 0.332 ")
_TOML_SOURCE = re.compile(r"^(?:[\d.]{1,12}\s)?\s{0,8}\d{1,7} \| (?P<src>\S{1,40})")
_TOML_CAUSE = re.compile(r"^(?:[\d.]{1,12}\s)?\s{0,8}(?![|\d]|Caused by)(?P<cause>[a-z][\w `=,-]{2,120})$")


def _lock_parse(lines: list[str], i: int, said: str) -> str:
    """uv's refusal to parse its lockfile with the TOML error's cause ("missing field `version`") and the line it met
    it on by its first word ("[[package]]", "revision", "version" of a Git LFS pointer), not its number."""
    if not said.endswith("Failed to parse `uv.lock`"):
        return said  # (its refusal of a stale lockfile has no TOML error below it)
    src = cause = None
    for line in lines[i + 1 : i + 9]:
        if src is None and (m := _TOML_SOURCE.match(line)):
            src = m["src"]
        elif src is not None and (m := _TOML_CAUSE.match(line.strip())):
            cause = m["cause"]
            break
    return f"{said}: {cause} (at {src})" if cause and src else said


_UV_PLATFORM = re.compile(
    r"hint: You're on (?P<os>\w{1,20}) \(`[\w.]{0,60}?(?P<arch>x86_64|arm64|aarch64|amd64|i686|universal2)`\)"
)


def uv_platform(lines: list[str], i: int, said: str) -> str:
    """uv's refusal of a release without a wheel for the platform with the platform its hint names ("hint: You're on
    macOS (`macosx_15_0_x86_64`), but `torch` (v2.6.0) only has wheels for ..."): which OS and architecture lack
    one, not the OS's release; a Python tag the hint names instead is not the platform."""
    m = match_below(_UV_PLATFORM, lines, i + 1, i + 4)
    return f"{said} ({m['os']} {m['arch']})" if m else said


_SSL_REASON = re.compile(r"\[SSL: (?P<reason>\w{1,80})\]")


def _ssl_reason(lines: list[str], i: int, said: str) -> str:
    """pip's refusal of an index's TLS with OpenSSL's reason, on its line or the two a terminal wrapped it onto."""
    m = _SSL_REASON.search(lines[i]) or match_below(_SSL_REASON, lines, i + 1, i + 3)
    return f"{said}: [SSL: {m['reason']}]" if m else said


_PDM_FOR = re.compile(
    r"Unable to find a resolution for (?P<pkg>[\w.-]{1,100})|^\s{1,8}(?P<first>[\w.-]{1,100})[=<>!~ ]"
)


def _pdm_package(lines: list[str], i: int, said: str) -> str:
    """PDM's refusal by the package it could not resolve, named above it ("Unable to find a resolution for pystac") or
    first under "the following requirements conflict:"."""
    for k in range(i - 1, max(-1, i - 16), -1):
        if m := _PDM_FOR.search(lines[k]):
            if m["pkg"] or (k and lines[k - 1].rstrip().endswith("requirements conflict:")):
                return f"{said} for {m['pkg'] or m['first']}"
    return said


PYTHON_ENV_CHECKS: list[BareError] = [
    # get-pip.py refusing a Python its release no longer supports ("ERROR: This script does not work on Python 3.8.
    # The minimum supported Python version is 3.9. Please use https://bootstrap.pypa.io/pip/3.8/get-pip.py instead.",
    # earlier without the full stop), and its notice that the URL it was fetched from moved ("The URL you are using to
    # fetch this script has changed, and this one will no longer work."): which Python, and which minimum, are it
    _environment(
        "get-pip",
        ("This script does not work on Python", "The URL you are using to fetch this script has changed"),
        r"This script does not work on Python (?P<py>\d\.\d{1,2})\.? The minimum supported Python version is "
        r"(?P<min>\d\.\d{1,2})|(?P<moved>The URL you are using to fetch this script has changed)",
        None,
        message=lambda m: (
            f"get-pip.py: {m['moved']}"
            if m["moved"]
            else f"get-pip.py does not work on Python {m['py']}; the minimum supported Python version is {m['min']}"
        ),
    ),
    # transformers finding no framework to run models on at import ("None of PyTorch, TensorFlow >= 2.0, or Flax have
    # been found. Models won't be available and only tokenizers, configuration and file/data utilities can be used.",
    # 3.x's "Neither PyTorch nor TensorFlow >= 2.0 have been found."), and 4.5x's that its TensorFlow and JAX classes
    # will go in v5: the environment against the library; the run goes on
    _environment(
        "transformers-no-framework",
        ("or Flax have been found", "Neither PyTorch nor TensorFlow >= 2.0 have been found", "classes are deprecated"),
        r"None of PyTorch, TensorFlow >= 2\.0, or Flax have been found|"
        r"Neither PyTorch nor TensorFlow >= 2\.0 have been found|"
        r"(?P<v5>TensorFlow and JAX classes are deprecated and will be removed in Transformers v5)",
        None,
        message=lambda m: (
            f"transformers: {m['v5']}" if m["v5"] else "transformers: none of PyTorch, TensorFlow >= 2.0 or Flax found"
        ),
        weak=True,
    ),
    # Debian's venv without its ensurepip ("The virtual environment was not created successfully because ensurepip is
    # not" / "available.  On Debian/Ubuntu systems, you need to install the python3-venv"): the machine lacks the
    # package, which Python's the advice names
    _environment(
        "venv-ensurepip",
        ("was not created successfully because ensurepip",),
        r"(?P<msg>The virtual environment was not created successfully because ensurepip is not)",
        None,
        message=lambda m: "The virtual environment was not created successfully because ensurepip is not available",
    ),
    # an interpreter without the module `python -m` was asked to run ("/usr/bin/python3: No module named pip",
    # "... No module named ensurepip"): which module; where the interpreter is, the machine's
    _environment(
        "python-m-module",
        ("No module named ",),
        r"(?:^|`)\S{0,300}python[\d.]{0,5}m?(?:\.exe)?: No module named (?P<mod>[\w.]{1,100})",
        None,
        message=lambda m: f"python -m: No module named {m['mod']}",
    ),
    # pip refusing an index's TLS ("Could not fetch URL https://pypi.python.org/simple/keras/: There was a problem
    # confirming the ssl certificate: [SSL: TLSV1_ALERT_PROTOCOL_VERSION] tlsv1 alert protocol version (_ssl.c:645) -
    # skipping", pip 9 on an OpenSSL older than PyPI's TLS 1.2): OpenSSL's reason, not the package or the index's URL
    _environment(
        "pip-ssl",
        ("There was a problem confirming the ssl certificate",),
        # (OpenSSL's reason after it or on the lines a terminal wrapped it onto; urllib3's wrapper is read elsewhere)
        r"There was a problem confirming the ssl certificate:\s?(?:\[SSL: |$)",
        None,
        message=lambda m: "pip: There was a problem confirming the ssl certificate",
        below=_ssl_reason,
    ),
    # torch.compile's dynamo refusing the Python it runs on, posted without its RuntimeError ("Dynamo is not supported
    # on Python 3.13+", in a title): in its words, which Pythons kept (each torch release refuses its own)
    BareError(
        "dynamo-python",
        ("Dynamo is not supported on Python",),
        re.compile(r"(?P<msg>Dynamo is not supported on Python 3\.\d{1,2}\+)"),
        "RuntimeError",
    ),
    # the lock files of Poetry, Pipenv and PDM out of step with the project or the tool: Poetry's "pyproject.toml
    # changed significantly since poetry.lock was last generated. Run `poetry lock [--no-update]` ..." (the advice by
    # release) and its warning "poetry.lock is not consistent with pyproject.toml" (weak), its RuntimeError "The lock
    # file is not compatible with the current version of Poetry." (in its source, as its traceback shows it), Pipenv's
    # "Your Pipfile.lock (48bdc8) is out of date. Expected: (2bfadf)." (by no hash), PDM's "[ResolutionImpossible]:
    # Unable to find a resolution" by the package it names above
    _environment(
        "lock-file-stale",
        (
            "changed significantly since poetry.lock",
            "is out of date. Expected: (",
            "is not compatible with the current ",
        ),
        r"(?P<msg>pyproject\.toml changed significantly since poetry\.lock was last generated|Your Pipfile\.lock) ?"
        r"(?:\(\w{1,64}\) is out of date\. Expected|\.)|(?P<poetry>The lock file is not compatible with the current "
        r"version of Poetry)",
        None,
        message=lambda m: (
            "poetry: The lock file is not compatible with the current version of Poetry"
            if m["poetry"]
            else "pipenv: Your Pipfile.lock is out of date"
            if m["msg"].startswith("Your")
            else f"poetry: {m['msg']}"
        ),
    ),
    _environment(
        "poetry-lock-inconsistent",
        ("poetry.lock is not consistent with pyproject.toml",),
        r"poetry\.lock is not consistent with pyproject\.toml",
        None,
        message=lambda m: "poetry: poetry.lock is not consistent with pyproject.toml",
        weak=True,
    ),
    _environment(
        "pdm-resolution",
        ("[ResolutionImpossible]: ",),
        r"^\[ResolutionImpossible\]: (?P<msg>Unable to find a resolution)",
        "ResolutionImpossible",
        below=_pdm_package,
    ),
    # pip older than a flag it is given ("no such option: --break-system-packages", under its usage; in Markdown bold):
    # which flag
    _environment(
        "pip-no-such-option",
        ("no such option: ",),
        r"^\**(?P<msg>no such option: --?[\w-]{1,60})\**$",
        None,
        message=lambda m: f"pip: {m['msg']}",
    ),
    # python-build's check after it built an interpreter ("WARNING: The Python lzma extension was not compiled. Missing
    # the lzma lib?"): which extension the machine's headers lacked; the build goes on
    _environment(
        "python-build-extension",
        ("extension was not compiled",),
        r"(?P<msg>The Python \w{1,20} extension was not compiled)",
        None,
        weak=True,
    ),
    # pip refusing a download whose hash is not the one its index or requirements give ("THESE PACKAGES DO NOT MATCH THE
    # HASHES FROM THE REQUIREMENTS FILE. If you have updated the package versions, ..."): a download cut or corrupted
    BareError(
        "pip-hashes",
        ("DO NOT MATCH THE HASHES",),
        re.compile(r"(?P<msg>THESE PACKAGES DO NOT MATCH THE HASHES FROM THE REQUIREMENTS FILE)"),
        None,
        "infrastructure",
    ),
    # gzip on an archive cut short or not gzip at all ("gzip: stdin: unexpected end of file", "gzip: stdin: invalid
    # compressed data--format violated"), tar's lines after it following from it
    BareError(
        "gzip",
        ("gzip: ",),
        re.compile(r"^\"?gzip: \S{1,300}: (?P<msg>unexpected end of file|invalid compressed data--format violated)$"),
        None,
        "infrastructure",
        message=lambda m: f"gzip: {m['msg']}",
    ),
    # asyncio's logger on a task garbage-collected before it finished ("Task was destroyed but it is pending!", then
    # "task: <Task pending name='Task-12' coro=<TTSForwarder._main_task() running at ...>>"): which coroutine
    BareError(
        "asyncio-task-destroyed",
        ("Task was destroyed but it is pending",),
        re.compile(r"Task was destroyed but it is pending"),
        None,
        message=lambda m: "asyncio: Task was destroyed but it is pending",
        below=_pending_coroutine,
        weak=True,
    ),
    # uv refusing a lockfile that its project no longer matches under --locked ("The lockfile at `uv.lock` needs to be
    # updated, but `--locked` was provided.") or that it cannot read ("error: Failed to parse `uv.lock`", the TOML
    # error below it: a lockfile a newer uv wrote, a Git LFS pointer checked out in its place)
    _environment(
        "uv-lockfile",
        ("needs to be updated, but `--locked`", "Failed to parse `uv.lock`", "Failed to parse lockfile; "),
        # (uv 0.2's words: "Failed to parse lockfile; ignoring locked requirements: TOML parse error at ...")
        r"(?P<stale>The lockfile at `uv\.lock` needs to be updated, but `--locked` was provided)|"
        r"(?P<parse>Failed to parse `uv\.lock`|Failed to parse lockfile; ignoring locked requirements)",
        None,
        message=lambda m: "uv: " + (m["stale"] or "Failed to parse `uv.lock`"),
        below=_lock_parse,
    ),
    # pkg_resources' and packaging's classes, whose names end in neither Error nor Exception, on a line of their own,
    # in a code span or ending a traceback ("pkg_resources.ContextualVersionConflict: (numpy 1.19.1 (/x/site-packages),
    # Requirement.parse('numpy<1.19.0,>=1.16.0'), {'tensorflow'})", "...packaging.version.InvalidVersion: Invalid
    # version: '0.23ubuntu1' (package: distro-info)"): the environment's packages against what one of them requires
    BareError(
        "pkg-resources",
        ("pkg_resources.", "packaging.version."),
        re.compile(
            r"(?:^|(?<=[\s`\"]))(?:pkg_resources|packaging)(?:\.\w{1,40}){0,3}\.(?P<cls>ContextualVersionConflict|"
            r"VersionConflict|DistributionNotFound|InvalidVersion|InvalidRequirement|InvalidSpecifier): "
            r"(?P<msg>.{1,1000}?)[`\"]?\s*$"
        ),
        lambda m: m["cls"],
    ),
    # setuptools' own check of what an installed package requires ("error: setuptools 38.2.4 is installed but
    # setuptools>=41.0.0 is required by {'tensorboard'}", setup.py install; pip's is builds.py's): which requirement of
    # which package; the version installed the machine's
    _environment(
        "setuptools-requirement",
        ("is installed but ",),
        r"[\w.-]{1,100} [\w.+!-]{1,40} is installed but (?P<need>[\w.-]{1,100}[<>=!~,\d.*]{1,60}) is "
        r"required by \{'(?P<by>[\w.-]{1,100})'",
        None,
        message=lambda m: f"setuptools: {m['need']} is required by {m['by']}, another is installed",
    ),
    # conda unable to load its solver plugin ("Error while loading conda entry point: conda-libmamba-solver
    # (libarchive.so.19: cannot open shared object file: No such file or directory)", "... (module 'libmambapy' has no
    # attribute 'QueryFormat')"), mamba 2 refusing mamba 1's arguments ("The following arguments were not expected:
    # bash init"), and pip's resolver giving up or backtracking: pip 25's "error: resolution-too-deep", pip 23's
    # resolvelib class ("ResolutionTooDeep: 200000", in a title), pip 21's notice "INFO: This is taking longer than
    # usual." (weak, a timeout)
    _environment(
        "conda-entry-point",
        ("Error while loading conda entry point",),
        r"Error while loading conda entry point: (?P<plugin>[\w.-]{1,100}) \((?P<why>[^():]{1,200}?)(?::|\))",
        None,
        message=lambda m: f"conda: Error while loading conda entry point: {m['plugin']} ({m['why']})",
    ),
    _environment(
        "mamba-arguments",
        ("The following arguments were not expected",),
        r"(?P<msg>The following arguments were not expected: \S.{0,100}?)(?:\s+Run with --help.*)?\s*$",
        None,
        message=lambda m: f"mamba: {m['msg']}",
    ),
    _environment(
        "pip-resolution-too-deep",
        ("resolution-too-deep",),
        r"^error: resolution-too-deep",
        None,
        message=lambda m: "pip: resolution-too-deep (the dependency graph is too complex)",
    ),
    BareError(
        "resolvelib-too-deep",
        ("resolvers.ResolutionTooDeep: ",),
        re.compile(r"resolvers\.ResolutionTooDeep: (?P<msg>\d{1,9})\b"),
        "ResolutionTooDeep",
    ),
    BareError(
        "pip-backtracking",
        ("This is taking longer than usual",),
        re.compile(r"(?P<msg>This is taking longer than usual)"),
        None,
        "timeout",
        message=lambda m: "pip: dependency resolution is taking longer than usual",
        weak=True,
    ),
    # ipywidgets' front end not there or of another release than the kernel's ("Widget Javascript not detected.  It
    # may not be installed properly.", ipywidgets 7's "Failed to display Jupyter Widget of type HBox", JupyterLab's
    # "Error displaying widget: model not found"): which way; the notebook goes on with the text
    _environment(
        "ipywidgets-front-end",
        ("Widget Javascript not detected", "Failed to display Jupyter Widget", "Error displaying widget"),
        r"(?P<msg>Widget Javascript not detected|Failed to display Jupyter Widget|Error displaying widget: model not "
        r"found)",
        None,
        weak=True,
    ),
    # packaging 22's stricter specifiers as pip meets them in a package's metadata: 24.1 ignoring a release ("WARNING:
    # Ignoring version 2.0.6 of omegaconf since it has invalid metadata:") or failing to parse what is installed
    # ("WARNING: Error parsing dependencies of torchsde: .* suffix can only be used with `==` or `!=` operators"), and
    # 23.x's warning before it ("DEPRECATION: pytorch-lightning 1.7.7 has a non-standard dependency specifier
    # torch>=1.9.*. pip 23.3 will enforce this behaviour change.", quoted without its head too): which package and
    # release, not which pip, nor the specifier pip's caret points at
    _environment(
        "pip-invalid-metadata",
        ("since it has invalid metadata", "WARNING: Error parsing dependencies of ", "non-standard dependency spec"),
        r"Ignoring version (?P<ver>\S{1,40}) of (?P<pkg>[\w.-]{1,100}) since it has invalid metadata|"
        r"Error parsing dependencies of (?P<parse>[\w.-]{1,100}):|"
        r"(?:^|DEPRECATION: |\")(?P<dep>[\w.-]{1,100}) (?P<dver>\S{1,40}) has a non-standard dependency specifier",
        None,
        message=lambda m: (
            f"pip: {m['pkg']} {m['ver']} has invalid metadata"
            if m["pkg"]
            else f"pip: error parsing the dependencies of {m['parse']}"
            if m["parse"]
            else f"pip: {m['dep']} {m['dver']} has a non-standard dependency specifier (deprecated)"
        ),
    ),
    # setuptools refusing a package's own setup arguments ("error in gym setup command: 'extras_require' must be a
    # dictionary whose values are strings or lists of strings containing valid project/version requirement
    # specifiers."): which package and which argument, not the parser's words after them; and setuptools 58 refusing
    # the use_2to3 it removed ("error in kmax setup command: use_2to3 is invalid."), whichever old package passed it
    _environment(
        "setup-command",
        (" setup command: '", " setup command: use_2to3 is invalid"),
        r"error in (?P<pkg>[\w.-]{1,100}) setup command: (?:'(?P<arg>\w{1,60})' must be|"
        r"(?P<removed>use_2to3) is invalid)",
        None,
        message=lambda m: (
            f"setuptools: error in {m['pkg']} setup command: '{m['arg']}' is invalid"
            if m["arg"]
            else "setuptools: error in setup command: use_2to3 is invalid"
        ),
    ),
    # pip's build frontend without the build backend a project names ("pip._vendor.pyproject_hooks._impl.
    # BackendUnavailable: Cannot import 'setuptools.build_meta'"), raised as a class named neither Error nor Exception
    _environment(
        "build-backend",
        ("BackendUnavailable: ",),
        r"(?:^|[\s`.])BackendUnavailable: (?P<msg>Cannot import '[\w.:]{1,100}')",
        "BackendUnavailable",
    ),
    # micromamba asked to activate in a shell it was not hooked into ("'micromamba' is running as a subprocess and can't
    # modify the parent shell.", 2.x's "critical libmamba Shell not initialized"), and conda 4.3 handed its own path as
    # the command ("conda: error: argument command: invalid choice: '/x/miniconda/bin/conda'"): the shell's setup
    _environment(
        "conda-shell",
        ("is running as a subprocess and can't modify the parent shell", "Shell not initialized", "invalid choice: '"),
        r"(?P<mm>'micromamba' is running as a subprocess and can't modify the parent shell|libmamba Shell not "
        r"initialized)|conda: error: argument command: invalid choice: '\S{0,300}/conda'",
        None,
        message=lambda m: (
            "micromamba: the shell is not initialized" if m["mm"] else "conda: given its own path as the command"
        ),
    ),
]
