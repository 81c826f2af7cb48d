"""The tools a repository's CI runs around its tests, in their own words across releases: pytest's yield tests
(deprecated in 3, removed in 4, refused in 8.4), a fixture that yields under pytest before 3.0, a conftest below the
rootdir defining pytest_plugins (refused since 4), a plugin's hook a release removed, two test files of one name,
Hypothesis' checks; mypy's and pyright's diagnostics and crashes after an upgrade; pre-commit's manifests, commands
and hooks, ruff's rules and a TOML config's unknown field, pylint's removed options, flake8 5's plugin codes,
poetry-core refusing a hook's pyproject, pytest's fixture scopes, coverage.py's Python tracer. Pure.

pytest 3 warns "yield tests are deprecated, and scheduled to be removed in pytest 4.0" with the test's path before it;
pytest 4 to 8.3 collects nothing from one ("PytestCollectionWarning: yield tests were removed in pytest 4.0 - test_x
will be ignored"), an issue's title says it without its class or its test; pytest 8.4 refuses it ("'yield' keyword is
allowed in fixtures, but not in tests (test_x)"). Which test is the suite's, the release's words are the failure. A
plugin registering a hook the release removed ("PluginValidationError: unknown hook 'pytest_namespace' in plugin
<module 'x.plugin' from '/x/plugin.py'>") is the hook, whichever plugin. mypy prints each diagnostic on the line of
the program's file it is in ('x.py:3: error: Library stubs not installed for "yaml"  [import-untyped]', mypy 0.9's
'... (or incompatible with Python 3.6)  [import]'), then "Found 4 errors in 4 files": which library or module, and
what about it, is the failure (the machine's stubs, or a library's exports), which file is the program's. mypy's own
crash names the program's file and line before its advice ("x.py:12: : note: use --pdb to drop into pdb"). The folds
take their place in :data:`canary.signature.word_folds.WORD_RULES`, the checks in
:data:`canary.signature.toolchain_checks.TOOLCHAIN_CHECKS`.
"""

from __future__ import annotations

import re

from canary.signature import toolkits
from canary.signature.recogniser import BareError, environment_check, match_below
from canary.signature.rewordings import Parts, Rule, rewrite

_MYPY_PDB = re.compile(r"^(.{1,1000}?) \S{1,300}:(?:\d{1,6}|<line>): : note: use --pdb to drop into pdb$")

# pre-commit's refusal of a hook's manifest or a config, by where and what it got ("==> File /x/.pre-commit-hooks.yaml
# ==> At Hook(id='black') ==> At key: stages ==> At index 0 =====> Expected one of commit, commit-msg, ... but got:
# 'pre-commit'"): the key and the value; the file, the hook and the release's list of values are not
_MANIFEST = re.compile(
    r"^==> File .{1,2000}?==> At key: (?P<key>\w{1,100}) .{0,200}?=====> Expected one of .{1,1000}? but got: "
    r"'(?P<got>[^']{1,200})'.*$"
)
# poetry-core refusing a pyproject's field, in 2023's and 2025's words ("[extras.x.2] 'pip-shims<=0.3.4' does not match
# '^[a-zA-Z-_.0-9]+$'", "data.extras.x[2] must match pattern ^[a-zA-Z-_.0-9]+$"): which field and pattern
_POETRY = re.compile(
    r"^(The Poetry configuration is invalid:) - (?:\[(?P<a>[\w.-]{1,200})\] '[^']{0,200}' does not match|"
    r"(?:data\.)?(?P<b>[\w.\[\]-]{1,200}) must match pattern) '?(?P<pat>\S{1,200}?)'?$"
)
_INDEX = re.compile(r"\[(\d{1,4})\]")


def pre_commit_words(exc: str | None, message: str, frames: list[str]) -> Parts:
    if message.startswith("==> File ") and (m := _MANIFEST.match(message)):
        return exc, f"At key: {m['key']}: expected one of its values but got: '{m['got']}'", frames
    if message.startswith("The Poetry configuration is invalid:") and (m := _POETRY.match(message)):
        field = _INDEX.sub(r".\1", m["a"] or m["b"])
        return exc, f"{m[1]} {field} does not match {m['pat']}", frames
    return exc, message, frames


CI_TOOL_RULES: tuple[Rule, ...] = (
    Rule(
        "hypothesis",
        "Hypothesis names a missed deadline by the test's times (schemathesis by its API response's), a failed health "
        "check by its head and the run's counts (a function-scoped fixture by neither test nor fixture), unreliable "
        "timings by both runs' times: the check is the failure",
        toolkits.hypothesis,
    ),
    Rule(
        "pytest-hook",
        "pytest names the plugin that registered a hook its release does not know, by its module and path: the hook is "
        "the failure, the plugin the program's",
        rewrite("unknown hook '", re.compile(r"^(unknown hook '\w{1,100}') in plugin .*$"), r"\1"),
    ),
    Rule(
        "pre-commit-config",
        "pre-commit names the manifest's file and hook and its release's list of values before the value it got, and "
        "poetry-core words a field that does not match its pattern in two releases' words: the key, the field and "
        "what they got are the failure",
        pre_commit_words,
    ),
    Rule(
        "mypy-crash",
        "mypy's INTERNAL ERROR runs the program's file and line, then its advice to use --pdb, onto the exception's "
        "message: the message is the failure",
        rewrite(": note: use --pdb to drop into pdb", _MYPY_PDB, r"\1"),
    ),
    Rule(
        "pytest-yield-test",
        "pytest 4 to 8.3 names the yield test it will not collect: the release's words are the failure, the test the "
        "suite's",
        rewrite(
            "yield tests were removed",
            re.compile(r"^(yield tests were removed in pytest 4\.0) - \S{1,300} will be ignored$"),
            r"\1",
        ),
    ),
)

_PATHSPEC = re.compile(r"^\s*error: pathspec '[^']{1,200}' did not match any file\(s\) known to git")


def _manifest_below(lines: list[str], i: int, said: str) -> str:
    """pre-commit's refusal of a manifest or a config, in the words of the lines below its report (``pre_commit_words``
    folds them)."""
    return " ".join(ln.strip() for ln in lines[i + 1 : i + 8] if ln.strip().startswith("==")) or said


def _stderr_below(lines: list[str], i: int, said: str) -> str:
    """A command pre-commit ran, with git's reason on the stderr below it, where it says one (its revision is the
    config's)."""
    m = match_below(_PATHSPEC, lines, i + 1, i + 8)
    return f"{said}: error: pathspec <revision> did not match any file(s) known to git" if m else said


CI_TOOL_CHECKS: list[BareError] = [
    # (the removal said without its class, as an issue's title does: "Fix pytest warn: yield tests were removed in
    # pytest 4.0")
    BareError(
        "pytest-yield-removed",
        ("yield tests were removed in pytest 4.0",),
        re.compile(r"(?:^|\s)yield tests were removed in pytest 4\.0(?: - \S{1,300} will be ignored)?$"),
        "PytestCollectionWarning",
        message=lambda m: "yield tests were removed in pytest 4.0",
    ),
    environment_check(
        "pytest-yield-deprecated",
        ("yield tests are deprecated",),
        r"(?:^|\s)yield tests are deprecated, and scheduled to be removed in pytest 4\.0",
        None,
        message=lambda m: "pytest: yield tests are deprecated, and scheduled to be removed in pytest 4.0",
    ),
    environment_check(
        "pytest-yield-refused",
        ("keyword is allowed in fixtures, but not in tests",),
        r"'yield' keyword is allowed in fixtures, but not in tests \(\S{1,300}\)",
        None,
        message=lambda m: "pytest: 'yield' keyword is allowed in fixtures, but not in tests",
    ),
    # pytest 4 refusing a conftest below the rootdir that defines pytest_plugins, by release ("... is no longer
    # supported because it affects the entire directory tree in a non-explicit way.", later "... no longer supported:"
    # and a sentence below): which conftest is the suite's
    environment_check(
        "pytest-plugins-conftest",
        ("in a non-top-level conftest is no longer supported",),
        r"Defining 'pytest_plugins' in a non-top-level conftest is no longer supported",
        None,
        message=lambda m: "pytest: Defining 'pytest_plugins' in a non-top-level conftest is no longer supported",
    ),
    # pytest before 3.0 refusing a fixture that yields ("pytest.fixture functions cannot use ``yield``. Instead write
    # and return an inner function/generator and let the consumer call and iterate over it.")
    environment_check(
        "pytest-fixture-yield",
        ("pytest.fixture functions cannot use",),
        r"pytest\.fixture functions cannot use ``yield``",
        None,
        message=lambda m: "pytest: pytest.fixture functions cannot use yield (pytest before 3.0)",
    ),
    # pytest collecting a test module whose basename one it already imported has ("import file mismatch:" above
    # "imported module 'test_utils' has this __file__ attribute:"): two test files of one name outside packages, or a
    # stale __pycache__; which module
    environment_check(
        "pytest-import-mismatch",
        ("has this __file__ attribute",),
        r"^imported module '(?P<mod>[\w.]{1,200})' has this __file__ attribute:",
        None,
        message=lambda m: f"pytest: import file mismatch: imported module '{m['mod']}'",
    ),
    # mypy's diagnostics of what a library lacks: its stubs not installed (mypy 0.900 split them into types-*
    # packages: 'Library stubs not installed for "requests" (or incompatible with Python 3.9)', later '...  [import-
    # untyped]'), a library without type hints (before numpy 1.20: "Skipping analyzing 'numpy': found module but no
    # type hints or library stubs"), a name a module does not re-export or lacks ('Module "torch.optim" does not
    # explicitly export attribute "SGD"  [attr-defined]', 'Module "numpy.typing" has no attribute "NDArray"', mypy
    # 0.7's "Module 'torch.optim' has no attribute 'AdamW'; maybe "Adam"?"); pyright's ('"bfloat16" is not exported from
    # module "torch"'): which library and which name, by the checker
    environment_check(
        "mypy-stubs",
        ("Library stubs not installed for ",),
        r"Library stubs not installed for [\"'](?P<lib>[\w.-]{1,100})[\"']",
        None,
        message=lambda m: f'mypy: Library stubs not installed for "{m["lib"]}"',
    ),
    environment_check(
        "mypy-untyped",
        ("found module but no type hints", "missing library stubs or py.typed marker"),
        r"Skipping analyzing [\"'](?P<lib>[\w.-]{1,100})[\"']: (?:found module but no type hints or library stubs|"
        r"module is installed, but missing library stubs or py\.typed marker)",
        None,
        message=lambda m: f"mypy: Skipping analyzing '{m['lib']}': no type hints or library stubs",
    ),
    environment_check(
        "mypy-module-attribute",
        ("does not explicitly export attribute", "has no attribute"),
        # (mypy's own "error: " may be taken off with the file's name before it, never TorchScript's 'Module 'x' has no
        # attribute 'y' (This attribute exists on the Python module, ...)')
        r"(?:\berror: Module [\"']|^Module \")(?P<mod>[\w.]{1,200})[\"'] "
        # (a terminal may wrap the attribute's name onto the next line)
        r"(?:(?P<export>does not explicitly export)|has no) attribute(?: [\"'](?P<attr>\w{1,200})[\"']|$)",
        None,
        message=lambda m: (
            f'mypy: Module "{m["mod"]}" does not explicitly export its attributes'
            if m["export"]
            else f'mypy: Module "{m["mod"]}" has no attribute' + (f' "{m["attr"]}"' if m["attr"] else "")
        ),
    ),
    environment_check(
        "pyright-not-exported",
        ("is not exported from module",),
        r"\berror: \"(?P<name>\w{1,200})\" is not exported from module \"(?P<mod>[\w.]{1,200})\"",
        None,
        message=lambda m: f'pyright: "{m["name"]}" is not exported from module "{m["mod"]}"',
    ),
    # pre-commit's own report of an error above what it read ("An error has occurred: InvalidManifestError:" above
    # "==> File ..."), of a command it ran ("An unexpected error has occurred: CalledProcessError: command:
    # ('/usr/bin/git', 'checkout', 'v1.6.0.rc1')" above its return code and stderr), a hook the repository lacks
    # ("[ERROR] `x` is not present in repository https://... Typo?"); ruff's selector a config names that its release
    # does not know ("Unknown rule selector: `UP045`", under a TOML parse error) and rules it removed; flake8 5
    # refusing a plugin's code ("plugin code for `flake8-future-import[...]` does not match ^[A-Z]{1,3}[0-9]{0,3}$"):
    # which refusal, not which hook, rule, revision or plugin
    BareError(
        "pre-commit-error",
        ("error has occurred: ",),
        re.compile(r"^An (?:unexpected )?error has occurred: (?P<cls>[A-Z]\w{1,60}Error):\s*$"),
        lambda m: m["cls"],
        message=lambda m: "",
        below=_manifest_below,
    ),
    BareError(
        "pre-commit-command",
        ("error has occurred: CalledProcessError: command: ",),
        re.compile(
            r"^An unexpected error has occurred: CalledProcessError: command: \('[^']{0,300}?(?P<prog>[\w.-]{1,60})', "
            r"'(?P<sub>[\w-]{1,60})'"
        ),
        "CalledProcessError",
        message=lambda m: f"command: {m['prog']} {m['sub']}",
        below=_stderr_below,
    ),
    environment_check(
        "pre-commit-hook-missing",
        ("is not present in repository",),
        r"`[^`]{1,200}` is not present in repository \S{1,300}?\.\s{1,4}Typo\?",
        None,
        message=lambda m: "pre-commit: a hook is not present in the repository (a typo, or a newer version's)",
    ),
    environment_check(
        "ruff-rules",
        ("Unknown rule selector: ", "The following rules have been removed"),
        r"(?P<unknown>Unknown rule selector: `[\w-]{1,40}`)|(?P<removed>The following rules have been removed)",
        None,
        message=lambda m: (
            "ruff: Unknown rule selector (a release older than the config)"
            if m["unknown"]
            else "ruff: the following rules have been removed"
        ),
    ),
    # a TOML config's key the tool's release does not know, below the parse error's box or run onto it ("unknown field
    # `lint`, expected one of `allowed-confusables`, ...": ruff older than a config's [tool.ruff.lint]); pylint refusing
    # an option a release removed ("E0015: Unrecognized option found: no-space-check (unrecognized-option)"): which key
    # or option, not the file, the line or the release's list of fields
    environment_check(
        "config-unknown-field",
        ("unknown field `",),
        r"(?:^|\^ )unknown field `(?P<f>[\w.-]{1,100})`(?:, expected|$)",
        None,
        message=lambda m: f"TOML config: unknown field `{m['f']}` (a release older than the config)",
    ),
    environment_check(
        "pylint-unrecognized-option",
        ("Unrecognized option found: ",),
        r"\bE0015: Unrecognized option found: (?P<opts>[\w, -]{1,300}?) \(unrecognized-option\)",
        None,
        message=lambda m: f"pylint: E0015: Unrecognized option found: {m['opts']}",
    ),
    environment_check(
        "flake8-plugin-code",
        ("plugin code for `",),
        r"plugin code for `[^`]{1,200}` does not match\b",
        None,
        message=lambda m: "flake8: a plugin's code does not match ^[A-Z]{1,3}[0-9]{0,3}$ (flake8 5)",
    ),
    # pytest refusing a narrower fixture asked for by a wider one ("ScopeMismatch: You tried to access the 'function'
    # scoped fixture 'event_loop' with a 'session' scoped request object, involved factories", pytest-asyncio's loop
    # under a session fixture), its class not an Error's: which fixture and which scopes
    BareError(
        "pytest-scope-mismatch",
        ("ScopeMismatch: You tried to access the ",),
        re.compile(
            r"^ScopeMismatch: (?P<msg>You tried to access the '\w{1,20}' scoped fixture '\w{1,100}' with a '\w{1,20}' "
            r"scoped request object)"
        ),
        "ScopeMismatch",
    ),
    # Hypothesis' report of a test that missed its deadline once and then not ("Unreliable test timings! On an initial
    # run, this test took 1330.21ms, which exceeded the deadline of 1000.00ms, but on a subsequent run ..."), which it
    # raises as Flaky: the times are the run's
    BareError(
        "hypothesis-timings",
        ("Unreliable test timings!",),
        re.compile(r"(?:^|(?<=[\s`\"]))(?P<msg>Unreliable test timings)! On an initial run"),
        "Flaky",
    ),
    # coverage.py's refusal of a concurrency library its Python tracer cannot follow ("Can't support concurrency=gevent
    # with PyTracer, only threads are supported", 4.x's CoverageException, where the C tracer was not built), posted
    # without its class
    BareError(
        "coverage-pytracer",
        ("with PyTracer, only threads are supported",),
        re.compile(r"(?P<msg>Can't support concurrency=\w{1,20} with PyTracer, only threads are supported)"),
        "CoverageException",
    ),
]
