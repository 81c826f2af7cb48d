"""Node.js's package tools refusing a Python project's front end or native build, by what was refused. Pure.

A web app's or a notebook extension's build runs npm, yarn and node-gyp beside Python, and they print their refusals as
lines with no class, under their own prefixes (npm 9's ``npm ERR!``, npm 10's ``npm error``, ``gyp ERR!``, yarn's
``error``): ``npm ci`` refusing a lock file out of step with package.json (npm lists the packages missing from it) or
no lock file at all, yarn refusing a package whose ``engines`` asks for another Node (``error execa@3.4.0: The engine
"node" is incompatible with this module. Expected version "^8.12.0 || >=9.7.0". Got "8.10.0"``), node-gyp finding no
Python (its banner of advice, then ``Error: Could not find any Python installation to use``) or no ``make``. Which
refusal is the failure, and for yarn which package; the packages, versions and paths are the job's. The recognisers
take their place in :data:`canary.signature.stacks.STACK_ERRORS`.
"""

from __future__ import annotations

from canary.signature.recogniser import BareError, environment_check

NODE_ERRORS: list[BareError] = [
    # npm ci with a lock file that package.json has moved past (npm 7 and later, whichever packages it lists)
    environment_check(
        "node-ci-out-of-sync",
        ("can only install packages when your package.json and package-lock.json",),
        r"`npm ci` can only install packages when your package\.json and package-lock\.json (?:or "
        r"npm-shrinkwrap\.json )?are in sync",
        None,
        message=lambda m: "npm ci: package.json and package-lock.json are not in sync",
    ),
    # npm ci in a checkout with no lock file (npm 8's wording, "with an existing package-lock.json or ...")
    environment_check(
        "node-ci-no-lock-file",
        ("command can only install with an existing package-lock.json",),
        r"`npm ci` command can only install with an existing package-lock\.json",
        None,
        message=lambda m: "npm ci: no package-lock.json or npm-shrinkwrap.json",
    ),
    # yarn 1's engines check, as an error (as "info" it only skips an optional package): the package, not the ranges
    environment_check(
        "node-engine",
        ('The engine "',),
        r'^error (?P<pkg>(?:@[\w.-]{1,100}/)?[\w.-]{1,100})@[\w.+-]{1,60}: The engine "(?P<engine>[\w-]{1,40})" is '
        r"incompatible with this module\.",
        None,
        message=lambda m: f'The engine "{m["engine"]}" is incompatible with this module: {m["pkg"]}',
    ),
    # node-gyp without a Python: its banner of advice ("gyp ERR! find Python You need to install the latest version of
    # Python."), or the error after it; or without make (a log whose every line node-gyp's tags begin is read without
    # them)
    environment_check(
        "node-gyp-no-python",
        ("You need to install the latest version of Python", "Could not find any Python installation to use"),
        r"^(?:gyp ERR! (?:find Python |stack )?)?(?:You need to install the latest version of Python\.$|Error: Could "
        r"not find any Python installation to use$)",
        None,
        message=lambda m: "node-gyp: Could not find any Python installation to use",
    ),
    environment_check(
        "node-gyp-not-found",
        ("Error: not found: ",),
        r"^(?:gyp ERR! stack )?Error: not found: (?P<prog>[\w.+-]{1,60})$",
        None,
        message=lambda m: f"node-gyp: not found: {m['prog']}",
    ),
]
