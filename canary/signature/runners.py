"""What a CI runner or an image's build meets below Python: git's checkouts (their ownership, history, remotes and LFS),
apt's (:mod:`canary.signature.apt`), the C compiler and linker building an extension, pytest's command line, click's
options. Pure.

Each prints its failure as a line without a class ("fatal: detected dubious ownership in repository at '/x'", "E:
Unable to locate package x", "fatal error: Python.h: No such file or directory", "/usr/bin/ld: cannot find -lcuda",
"pytest: error: unrecognized arguments: -n"), and the tool that ran it ends on its own exit status after it (pip's
"error: command 'gcc' failed with exit status 1", collect2's "ld returned 1 exit status", the runner's "Process
completed with exit code 100"), which names nothing. Which repository, path, commit, package or process is the job's;
what the tool refused is the failure: the machine's checkout, packages or toolchain (an environment check), or the
network and the machine's other processes (infrastructure). They take their place in
:data:`canary.signature.checks.ENVIRONMENT_ERRORS`, so a tool's exit status after one is explained by it.
"""

from __future__ import annotations

import re

from canary.signature.apt import APT_CHECKS
from canary.signature.interpreters import INTERPRETER_CHECKS
from canary.signature.recogniser import ENOENT_WORDS, BareError
from canary.signature.recogniser import environment_check as _environment
from canary.signature.recogniser import infrastructure_check as _infrastructure

# how a build's C compiler the machine lacks is named, in whichever release's words (here and in toolchain_checks)
NO_C_COMPILER = "unable to execute the C compiler"


def _program(prog: str) -> str:
    """The program argparse names: pytest by any of its entry points; a project's own script by no name (train.py and
    main.py refusing a launcher's --local-rank are one failure, the launcher's)."""
    if prog in ("py.test", "__main__.py"):
        return "pytest"
    return "<script>" if prog.endswith(".py") else prog


def _arguments(args: str) -> str:
    """What argparse refused: options by their words (a retyped dash made two), positional ones (tox 4's test paths
    given without "--") as such, the paths being the job's."""
    args = re.sub(r"^\u2013(?=\w)", "--", args)
    return args if any(a.startswith("-") for a in args.split()) else "<positional arguments>"


_STREAM = re.compile(r"stream \d{1,6}")

_SWIG = re.compile(r"^\s{0,8}\S{1,200}\.i(?::\d{1,6}|\(\d{1,6}\)) ?: Error: Unable to find '(?P<h>[\w./\\+-]{1,100})'")


def _swig(header: str) -> str:
    return "swig: Unable to find '" + header.replace("\\", "/") + "'"


def _first_swig(lines: list[str], i: int, said: str) -> str:
    """SWIG's first header of the run of them its error line ends."""
    while i > 0 and (m := _SWIG.match(lines[i - 1])):
        said, i = _swig(m["h"]), i - 1
    return said


RUNNER_CHECKS: list[BareError] = [
    *INTERPRETER_CHECKS,
    # git refusing a repository another user owns (2.35.2's "fatal: unsafe repository ('/x' is owned by someone
    # else)", later "fatal: detected dubious ownership in repository at '/x'"): a container's user, not the checkout's
    _environment(
        "git-ownership",
        ("dubious ownership", "is owned by someone else"),
        r"fatal: (?:detected dubious ownership in repository at |"
        r"unsafe repository \(.{1,500} is owned by someone else)",
        None,
        message=lambda m: "git: the repository is owned by someone else (safe.directory)",
    ),
    # Git LFS not installed where a repository needs it: git's refusal of the subcommand ("git: 'lfs' is not a git
    # command. See 'git --help'.") and a clone's filter that cannot start it (bash's "git-lfs filter-process: git-lfs:
    # command not found", dash's "...: 1: git-lfs: not found"): the machine lacks git-lfs
    _environment(
        "git-lfs-missing",
        ("git: 'lfs' is not a git command", "git-lfs filter-process: "),
        r"git: 'lfs' is not a git command|"
        r"(?P<filter>git-lfs filter-process): (?:\d{1,4}: )?git-lfs: (?:command )?not found",
        None,
        # (which command met it: git's subcommand, or a clone's filter)
        message=lambda m: "git: git-lfs is not installed" + (" (the clone's filter)" if m["filter"] else ""),
    ),
    # a step's shell without the program it runs ("/home/runner/work/_temp/x.sh: line 1: pytest: command not found"):
    # the runner's environment (an activation that did not carry over); the failure only where nothing else is
    _environment(
        "command-not-found",
        (": command not found",),
        r"\bline \d{1,6}: (?P<cmd>[\w.+-]{1,60}): command not found",
        None,
        message=lambda m: f"shell: {m['cmd']}: command not found",
        weak=True,
    ),
    # a checkout without git's metadata (an sdist, a copied tree), in git's and its older capitalised words; a build
    # that asks git for its version prints it and goes on, so only where nothing else names the failure
    _environment(
        "git-no-repository",
        ("ot a git repository",),
        r"fatal: [Nn]ot a git repository \(or any of the parent directories\)",
        None,
        message=lambda m: "git: not a git repository",
        weak=True,
    ),
    # a commit the checkout does not hold: a shallow clone's ("fatal: bad object <sha>"), a submodule's commit a force
    # push took away ("fatal: reference is not a tree: <sha>"); which commit is the job's
    _environment(
        "git-missing-commit",
        ("fatal: bad object ", "fatal: reference is not a tree"),
        r"fatal: (?P<what>bad object|reference is not a tree:) [0-9a-f]{7,40}\b",
        None,
        message=lambda m: f"git: {m['what'].rstrip(':')} <commit>",
    ),
    # git in a shallow checkout without the history or tags a step asks for ("fatal: ambiguous argument 'master':
    # unknown revision or path not in the working tree.", "fatal: No tags can describe 'a2922bd...'.", "fatal: No names
    # found, cannot describe anything."): the checkout's depth; which revision or commit is the job's (in git's Chinese
    # catalogue too: "fatal: 没有标签能描述 '...'。")
    _environment(
        "git-shallow",
        (
            "unknown revision or path not in the working tree",
            "cannot describe anything",
            "No tags can describe",
            "没有标签能描述",
        ),
        # (or quoted in a sentence: 'git describe fails with "fatal: No names found, cannot describe anything."', or
        # after the exit status a program logged it with: "... returned : (128) fatal: No names found, ...")
        r"(?:^|(?<=[\"'`\u201c])|(?<=\(\d{3}\) ))fatal: (?:ambiguous argument '[^']{1,200}': (?P<rev>unknown "
        r"revision or path not in the working tree)|"
        r"(?P<tags>No tags can describe|没有标签能描述) \S{1,100}|(?P<names>No names found, cannot describe anything))",
        None,
        message=lambda m: (
            "git: ambiguous argument: unknown revision or path not in the working tree"
            if m["rev"]
            else "git: No tags can describe the commit"
            if m["tags"]
            else "git: No names found, cannot describe anything"
        ),
    ),
    # ssh (git's, a launcher's) refused the machine's key by the remote, or the remote's host key by the machine
    _infrastructure(
        "ssh-key",
        ("Permission denied (publickey",),
        r"(?:^|: )Permission denied \(publickey[\w,-]{0,60}\)",
        "ssh: Permission denied (publickey)",
    ),
    # gcloud's report that the ssh it ran failed ("ERROR: (gcloud.compute.ssh) [/usr/bin/ssh] exited with return code
    # [255]."): ssh's own line above it says why; the report names the failure only where none does
    BareError(
        "gcloud-ssh-exit",
        ("exited with return code [255]",),
        re.compile(r"\[\S{0,100}ssh\] exited with return code \[255\]"),
        None,
        "infrastructure",
        message=lambda m: "unreachable: ssh to the machine failed",
        weak=True,
    ),
    # a VM's guest agent running its startup script, refused by the shell ("google_metadata_script_runner[523]:
    # startup-script: /bin/bash: line 1: /tmp/metadata-scripts.../startup-script: Permission denied" on a noexec /tmp,
    # "... cannot execute: required file not found" for an interpreter the image lacks): the image's
    _environment(
        "startup-script",
        ("startup-script: ",),
        r"startup-script: /bin/\w{1,10}: line \d{1,6}: \S{1,300}/startup-script: (?P<why>Permission denied|cannot "
        r"execute: [\w ]{1,60}|No such file or directory)",
        None,
        message=lambda m: f"startup-script could not run: {m['why']}",
    ),
    _infrastructure(
        "ssh-host-key",
        ("Host key verification failed",),
        r"(?:^|\[stderr\] )Host key verification failed",
        "ssh: Host key verification failed",
    ),
    # OpenSSH 8.8 and later refusing a server that offers only what it dropped ("Unable to negotiate with 10.0.0.1 port
    # 22: no matching host key type found. Their offer: ssh-rsa"), a key type or a key exchange: which, and the offer
    _environment(
        "ssh-negotiate",
        ("Unable to negotiate with ",),
        r"Unable to negotiate with \S{1,200} port \d{1,5}: no matching (?P<what>[\w ]{1,40}?) found\. Their offer: "
        r"(?P<offer>[\w@.,-]{1,300})",
        None,
        message=lambda m: f"ssh: unable to negotiate: no matching {m['what']} found (their offer: {m['offer']})",
    ),
    # a push the remote refused to the job's token ("remote: Permission to o/r.git denied to github-actions[bot].", then
    # the 403): the token's permissions, whichever repository
    _infrastructure(
        "git-push-denied",
        ("remote: Permission to ",),
        r"remote: Permission to \S{1,200} denied to (?:github-actions\[bot\]|[\w-]{1,60})",
        "git: the remote refused the push to the job's token (403)",
    ),
    # a transfer the network dropped ("error: RPC failed; curl 92 HTTP/2 stream 5 was not closed cleanly: CANCEL (err
    # 8)", curl 56's "Recv failure"): curl's code and why, not which stream
    BareError(
        "git-rpc",
        ("RPC failed; curl",),
        re.compile(r"error: RPC failed; curl (?P<code>\d{1,3}) (?P<why>.{1,200}?)(?: \(err \d{1,4}\))?$"),
        None,
        "infrastructure",
        message=lambda m: f"git: RPC failed; curl {m['code']} " + _STREAM.sub("stream <n>", m["why"]),
    ),
    *APT_CHECKS,
    # Bazel building jaxlib, XLA or TensorFlow from source: a Bazel the tree's configure script refuses ("Please upgrade
    # your bazel installation to version 0.27.1 or higher to build TensorFlow!", "Please downgrade ... or lower"),
    # rules_closure comparing releases as text ("Closure Rules requires Bazel >=0.4.5 but was 0.10.0"), the CUDA
    # compiler wrapper not there to run ('"execvp(external/local_config_cuda/crosstool/clang/bin/
    # crosstool_wrapper_driver_is_not_gcc, ...)": No such file or directory'), a compiler refusing an option
    # ("clang: error: unsupported option '-fopenmp'"), an archive whose checksum changed ("java.io.IOException: Error
    # downloading [<url>] to <dir>: Checksum was <x> but wanted <y>"): which way, which tool, which option; the releases
    # and the archive are the tree's and the machine's
    _environment(
        "bazel-version",
        ("your bazel installation to version", "Rules requires Bazel"),
        r"Please (?P<way>upgrade|downgrade) your bazel installation to version [\w.-]{1,20} or (?:higher|lower)|"
        r"(?P<rules>[\w ]{1,40} Rules) requires Bazel >=",
        None,
        message=lambda m: f"{m['rules']} requires a newer Bazel" if m["rules"] else f"Bazel: please {m['way']} Bazel",
    ),
    _environment(
        "crosstool-wrapper",
        ("crosstool_wrapper_driver_is_not_gcc",),
        r"\"execvp\(\S{0,300}crosstool_wrapper_driver_is_not_gcc, \.\.\.\)\": No such file or directory",
        None,
        message=lambda m: "Bazel: the CUDA compiler wrapper crosstool_wrapper_driver_is_not_gcc could not be run",
    ),
    _environment(
        "compiler-option",
        ("unsupported option '",),
        r"\b(?P<cc>clang|gcc|nvcc)(?:\+\+)?: error: unsupported option '(?P<opt>-{1,2}[\w=-]{1,60})'",
        None,
        message=lambda m: f"{m['cc']}: error: unsupported option '{m['opt']}'",
    ),
    # Apple's toolchain refusing a build before it compiles: Xcode's command line tools missing after a macOS upgrade
    # ("xcrun: error: invalid active developer path (/Library/Developer/CommandLineTools), missing xcrun at: ..."), a
    # deployment target clang does not take ("clang: error: invalid version number in 'MACOSX_DEPLOYMENT_TARGET=11'",
    # "invalid deployment target for -stdlib=libc++ (requires OS X 10.7 or later)"): which check, not the paths
    _environment(
        "apple-toolchain",
        ("invalid active developer path", "DEPLOYMENT_TARGET=", "invalid deployment target"),
        r"\b(?P<tool>xcrun|clang(?:\+\+)?): error: (?P<why>invalid active developer path|invalid version number in "
        r"'[A-Z]{2,10}_DEPLOYMENT_TARGET=[\w.]{1,12}'|invalid deployment target for -stdlib=libc\+\+ \(requires OS X "
        r"[\d.]{1,8} or later\))",
        None,
        message=lambda m: f"{m['tool'].rstrip('+')}: error: {m['why']}",
    ),
    BareError(
        "bazel-checksum",
        ("Checksum was ",),
        re.compile(
            r"java\.io\.IOException: Error downloading \[\S{1,500}\] to \S{1,1000}: Checksum was \w{1,128} but wanted"
        ),
        "IOException",
        "infrastructure",
        message=lambda m: "Error downloading an archive: its checksum is not the one wanted",
    ),
    # the C toolchain building an extension: a header or a library the machine lacks, a compiler it does not have,
    # and a symbol the link did not resolve (the build's own mistake, where the library was found)
    _environment(
        "c-header",
        ("fatal error: ", "fatal error C1083: "),
        # (in gcc's words, clang's "fatal error: 'x.h' file not found" and MSVC's "fatal error C1083: Cannot open
        # include file: 'x.h': No such file or directory"; the c-header fold says them in gcc's)
        # (a terminal may wrap it after "No such file")
        r"fatal error: (?P<header>[\w./+-]{1,100}\.h(?:pp)?): (?:No such file(?: or directory|\s*$)|"
        + ENOENT_WORDS
        + ")|"
        r"fatal error(?: C1083: Cannot open include file)?: '(?P<q>[\w./+-]{1,100}\.h(?:pp)?)'"
        r"(?:: No such| file not found)"
        # (or MSVC's words in the machine's language, the header in its quotes: "fatal error C1083: 无法打开包括文件:
        # “io.h”: No such file or directory")
        r"|fatal error C1083: [^'\"“]{1,60}[\"“](?P<l>[\w./+-]{1,100}\.h(?:pp)?)[\"”]: No such",
        None,
        message=lambda m: f"fatal error: {m['header'] or m['q'] or m['l']}: No such file or directory",
    ),
    # SWIG's ("SWIG/_evp.i:12: Error: Unable to find 'openssl/opensslconf.h'", on Windows "SWIG\\_evp.i(12) : Error:
    # ..."): the first header of its run of them, not the interface file that included it
    _environment(
        "swig-header",
        ("Error: Unable to find '",),
        _SWIG.pattern,
        None,
        message=lambda m: _swig(m["h"]),
        below=_first_swig,
    ),
    # MSVC's linker ("LINK : fatal error LNK1158: cannot run 'rc.exe' [x.vcxproj]", "LNK1104: cannot open file
    # 'build\\temp\\x.exp'"): its code and words, a file by its name, not the project or the build's directories
    _environment(
        "msvc-link",
        ("fatal error LNK",),
        r"\bfatal error (?P<code>LNK\d{4}): (?P<msg>[^\[]{1,300}?)\s*(?:\[[^\]]{1,300}\])?$",
        None,
        message=lambda m: (
            f"LINK : fatal error {m['code']}: " + re.sub(r"'(?:[^']{0,300}[\\/])?([^'\\/]{1,100})'", r"'\1'", m["msg"])
        ),
    ),
    _environment(
        "ld-library",
        ("cannot find -l", "library not found for -l"),
        # (macOS's ld in GNU ld's words: "ld: library not found for -lstdc++")
        r"\bld(?:\.\w{1,10})?: (?:cannot find|library not found for) -l(?P<lib>[\w.+-]{1,100})",
        None,
        message=lambda m: f"ld: cannot find -l{m['lib']}",
    ),
    # the dynamic loader refusing to start a program linked against a library the machine lacks ("serving: error while
    # loading shared libraries: libnvinfer.so.7: cannot open shared object file: No such file or directory", or a
    # kernel that refuses the executable stack it asks for: "libopenblas.so.0: cannot enable executable stack as shared
    # object requires: Permission denied"): which library and why, whichever program
    _environment(
        "ld-so",
        ("error while loading shared libraries: ",),
        r"error while loading shared libraries: (?P<lib>[\w.+-]{1,100}): (?P<why>cannot open shared object file|"
        r"cannot enable executable stack as shared object requires: [\w ]{1,60})",
        None,
        message=lambda m: f"error while loading shared libraries: {m['lib']}: {m['why'].strip()}",
    ),
    # pip cloning a VCS requirement on a machine without git ("ERROR: Cannot find command 'git' - do you have 'git'
    # installed and in your PATH?", pip 9's "Cannot find command 'git'" after the errno): which command
    _environment(
        "pip-vcs-command",
        ("Cannot find command '",),
        r"\bCannot find command '(?P<cmd>[\w.-]{1,40})'(?: - do you have '[\w.-]{1,40}' installed and in your "
        r"PATH\?)?$",
        None,
        message=lambda m: f"pip: cannot find command '{m['cmd']}'",
    ),
    # setuptools' and distutils' later words for a program a build could not start ("error: command 'gcc' failed: No
    # such file or directory", a slim image's; before, "unable to execute 'gcc': ..."; box2d-py's 'swig.exe'): the
    # machine's toolchain; a C compiler named as toolchain_checks' build-compiler names the earlier words, another
    # program by its name without its path or ".exe"
    _environment(
        "spawn-missing",
        ("' failed: No such file or directory",),
        r"error: command '(?:[^']{0,200}[\\/])?(?:(?P<cc>(?:[\w.+-]{1,40}-)?(?:gcc|g\+\+|cc|c\+\+|clang|clang\+\+)"
        r"(?:-\d{1,2})?)|(?P<prog>[\w+-]{1,40}?))(?:\.exe)?' failed: No such file or directory",
        None,
        message=lambda m: NO_C_COMPILER if m["cc"] else f"a build could not run {m['prog']}",
    ),
    _environment(
        "no-compiler",
        ("unable to execute",),
        r"unable to execute '?(?P<cc>[\w.+-]{1,60})'?: No such file or directory",
        None,
        message=lambda m: f"unable to execute {m['cc']}: No such file or directory",
    ),
    BareError(
        "ld-undefined",
        ("undefined reference to",),
        re.compile(r"undefined reference to [`'](?P<sym>[\w:<>~]{1,200})'"),
        None,
        "compile_error",
        message=lambda m: f"ld: undefined reference to `{m['sym']}'",
    ),
    # pytest asked for a fixture no plugin or conftest provides ("E       fixture 'mocker' not found", above the list of
    # those it has): which fixture (pytest-mock's, missing; or the project's own, not loaded)
    BareError(
        "pytest-fixture",
        ("fixture '",),
        re.compile(r"^(?:E\s{1,12})?fixture '(?P<name>[\w-]{1,100})' not found$"),
        "FixtureLookupError",
        message=lambda m: f"fixture '{m['name']}' not found",
    ),
    # click's refusal of an option its command no longer takes, below its usage (Celery 5's worker without "-A", which
    # moved before the subcommand), in click 7's words ("Error: no such option: -A") or 8's ("No such option: -A", with
    # a guess since 8.0): which option
    _environment(
        "click-option",
        ("rror: no such option: ", "rror: No such option: "),
        r"^Error: [Nn]o such option: (?P<opt>-{1,2}[\w-]{1,60})\.?(?: Did you mean .{1,200})?$",
        None,
        message=lambda m: f"click: No such option: {m['opt']}",
    ),
    # pytest's command line with an option a plugin it lacks would add ("pytest: error: unrecognized arguments: -n",
    # "__main__.py: error: ..." under python -m pytest, pytest 7's "ERROR: usage: ..." above it), and any program's
    # argparse refusing what its launcher passed (TorchServe's worker: "model_service_worker.py: error: ...")
    _environment(
        "pytest-arguments",
        ("error: unrecognized arguments: ", "Error: unrecognized arguments: "),
        # (or quoted in a sentence that goes on after it: '"train.py: error: ...", but i didn't use --local_rank')
        # (or as a post retyped it, without the program and with a typographic dash: "Error: unrecognized arguments:
        # \u2013local_rank=19")
        r"(?:^|\s|(?P<q>[\"\u201c`]))(?:ERROR: )?(?:(?P<prog>[\w.-]{1,100}): error|Error): unrecognized arguments: "
        r"(?P<args>.{1,300}?)(?(q)[\"\u201d`].{0,500}|\s*)$",
        None,
        message=lambda m: (
            f"{_program(m['prog']) if m['prog'] else '<script>'}: unrecognized arguments: " + _arguments(m["args"])
        ),
    ),
]
