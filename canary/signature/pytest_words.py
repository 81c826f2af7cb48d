"""pytest's own words across its releases, as a test suite meets them after an upgrade: yield tests (deprecated in
3, removed in 4, refused in 8.4), a fixture that yields under pytest before 3.0, a plugin's hook a release removed, two
test files of one name. Pure.

pytest 3 warns "yield tests are deprecated, and scheduled to be removed in pytest 4.0" with the test's path before it;
pytest 4 to 8.3 collects nothing from one ("PytestCollectionWarning: yield tests were removed in pytest 4.0 - test_x
will be ignored"), an issue's title says it without its class or its test; pytest 8.4 refuses it ("'yield' keyword is
allowed in fixtures, but not in tests (test_x)"). Which test is the suite's, the release's words are the failure. A
plugin registering a hook the release removed ("PluginValidationError: unknown hook 'pytest_namespace' in plugin
<module 'x.plugin' from '/x/plugin.py'>") is the hook, whichever plugin. The folds take their place in
:data:`canary.signature.word_folds.WORD_RULES`, the checks in
:data:`canary.signature.toolchain_checks.TOOLCHAIN_CHECKS`.
"""

from __future__ import annotations

import re

from canary.signature.recogniser import BareError, environment_check
from canary.signature.rewordings import Rule, rewrite

PYTEST_RULES: tuple[Rule, ...] = (
    Rule(
        "pytest-hook",
        "pytest names the plugin that registered a hook its release does not know, by its module and path: the hook is "
        "the failure, the plugin the program's",
        rewrite("unknown hook '", re.compile(r"^(unknown hook '\w{1,100}') in plugin .*$"), r"\1"),
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

PYTEST_CHECKS: list[BareError] = [
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
]
