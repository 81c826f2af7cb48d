"""APIs a release deprecates or removes, as the failure a newer jax (or any library) meets: jax's words for a
name it removed, and Python's deprecation warnings; orbax's of its legacy APIs; jax's warnings that a fork will
deadlock and that donated buffers went unused; and a warning of any class, read last of all. Pure. They take their
place in :data:`canary.signature.bare.BARE_ERRORS`, but for the last.
"""

from __future__ import annotations

import re

from canary.signature.kinds import line_kind
from canary.signature.recogniser import BareError

_FORK = "os.fork() was called. os.fork() is incompatible with multithreaded code, and JAX is multithreaded"

_PYDANTIC_V1_STYLE = re.compile(r"Pydantic V1 style `?@(\w{1,40})`?")


def _pydantic_sentence(m: re.Match[str]) -> str:
    style = _PYDANTIC_V1_STYLE.match(m["msg"])
    if style:
        return f"Pydantic V1 style @{style[1]} validators are deprecated."
    return re.split(r"(?<=\.) ", m["msg"].replace("`", ""), maxsplit=1)[0]


DEPRECATIONS: list[BareError] = [
    # transformers' logger warning that the Trainer's tokenizer property is deprecated ("Trainer.tokenizer is now
    # deprecated. You should use Trainer.processing_class instead."), with its logger's head, bare, or in a sentence
    BareError(
        "trainer-tokenizer",
        ("Trainer.tokenizer is now deprecated",),
        re.compile(r"(?P<msg>Trainer\.tokenizer is now deprecated)"),
        None,
        "environment",
        message=lambda m: "transformers: Trainer.tokenizer is now deprecated (use Trainer.processing_class)",
        weak=True,
    ),
    # Streamlit's notice of its removed cache ("st.cache is deprecated. Please use one of Streamlit's new caching
    # commands, ...", a later release adding when it goes): the app goes on, so weak
    BareError(
        "streamlit-cache",
        ("st.cache is deprecated",),
        re.compile(r"(?:^|(?<=[\s`>]))st\.cache is deprecated\b"),
        None,
        "environment",
        message=lambda m: "Streamlit: st.cache is deprecated",
        weak=True,
    ),
    # Python 3.12's warning of fork() in a process with threads, posted without its class or its pid (3.15's, in a
    # title: "DeprecationWarning on CPython v3.15: This process is multi-threaded, use of forkpty() may lead to ...")
    BareError(
        "fork-threads",
        ("is multi-threaded, use of fork",),
        re.compile(
            r"(?P<msg>This process (?:\(pid=\d{1,9}\) )?is multi-threaded, use of fork(?:pty)?\(\) may lead to "
            r"deadlocks in the child)"
        ),
        "DeprecationWarning",
        weak=True,
    ),
    # PyTorch Lightning's refusal of a hook a release removed, written without its RuntimeError in a title or a sentence
    # ("The `on_init_start` callback hook was deprecated in v1.6 and is no longer supported as of v1.8", "The
    # `LightningModule.on_epoch_end` hook was removed in v1.8."): its words, as it raises them
    BareError(
        "lightning-removed-hook",
        ("is no longer supported as of v", "hook was removed in v"),
        re.compile(
            r"(?:^|(?<=\s))(?P<msg>The `[\w.<>/]{1,100}` (?:callback )?hook was (?:deprecated in v[\d.]{1,10} and "
            r"is no longer supported as of|removed in) v\d{1,2}\.\d{1,3})"
        ),
        "RuntimeError",
    ),
    # Python's words for a name a module no longer has, in a title or a sentence without the AttributeError ("Bug:
    # module 'numpy' has no attribute 'product'", "Cannot import X module 'ml_dtypes' has no attribute 'float4_e2m1fn'";
    # win32com's generated module named by its type library, "module 'win32com.gen_py.C866CA3A-...x0x5x4'"; flake8's
    # plugin that failed, 'failed during execution due to "module 'pydocstyle' has no attribute 'tokenize_open'"')
    BareError(
        "module-attribute-words",
        ("' has no attribute '",),
        re.compile(
            r"(?:^|(?<=[\s:])|(?<=\s\"))(?<!Error: )(?<!': )"
            r"(?P<msg>module '[\w.-]{1,100}' has no attribute '\w{1,100}')"
        ),
        "AttributeError",
        weak=True,
    ),
    # datasets 4 refusing what 2.x required ("`trust_remote_code` is not supported anymore.", logged as "[ERROR]
    # datasets.load: trust_remote_code is not supported anymore."): a loading script's data set under a newer datasets
    BareError(
        "datasets-trust-remote-code",
        ("trust_remote_code` is not supported anymore", "trust_remote_code is not supported anymore"),
        re.compile(r"(?P<msg>`?trust_remote_code`? is not supported anymore)"),
        None,
        "environment",
        message=lambda m: "datasets: `trust_remote_code` is not supported anymore",
    ),
    # Python's refusal of a keyword a release removed, written in a sentence without its TypeError ("Unable to train due
    # to: Trainer.__init__() got an unexpected keyword argument 'gpus'"): its words (the did-you-mean rule drops the
    # class Python 3.10 names)
    BareError(
        "unexpected-keyword",
        ("got an unexpected keyword argument '",),
        re.compile(
            r"(?:^|(?<=: ))(?P<msg>(?:[\w.]{1,200}\.)?\w{1,100}\(\) got an unexpected keyword argument "
            r"'\w{1,100}')(?=[\s`]|$)"  # (or in a code span)
        ),
        "TypeError",
        weak=True,
    ),
    # ... and of a call given more positional arguments than it takes, as a release that made them keyword-only words
    # it ("melspectrogram() takes 0 positional arguments but 1 positional argument (and 1 keyword-only argument) were
    # given")
    BareError(
        "positional-count",
        (" positional argument",),
        re.compile(
            r"^(?P<msg>(?:[\w.]{1,200}\.)?\w{1,100}\(\) takes (?:from )?\d{1,3}(?: to \d{1,3})? positional arguments? "
            r"but \d{1,3} (?:positional arguments? \(and \d{1,3} keyword-only arguments?\) )?(?:were|was) given)$"
        ),
        "TypeError",
        weak=True,
    ),
    # hashlib refusing a digest the OpenSSL it runs on no longer provides (OpenSSL 3 moved MD4 to its legacy provider),
    # quoted in a tool's result lines ('[-] None\\admin:123456 "unsupported hash type md4"') without the ValueError
    BareError(
        "hashlib-unsupported",
        ('"unsupported hash type ',),
        re.compile(r'"(?P<msg>unsupported hash type \w{1,20})"'),
        "ValueError",
        weak=True,
    ),
    # jax's own words for an API a release removed, quoted without the AttributeError it raises them with
    # ("jax.core.pp_eqn_rules was removed in JAX v0.4.34.", an issue's title)
    BareError(
        "jax-removed",
        ("removed in JAX v",),
        # (also after its deprecation's release, "was deprecated in JAX v0.6.0 and removed in JAX v0.7.0", and after a
        # class a post spells apart, "Attribute Error: jax.interpreters.xla.xe was removed in JAX v0.4.36")
        re.compile(
            r"^(?:Attribute ?Error: )?(?P<msg>jax(?:\.\w{1,100}){1,6} was (?:deprecated in JAX v[\d.]{1,12} and )?"
            r"removed in JAX v\d{1,3}(?:\.\d{1,4}){1,3}\b.{0,500})$"
        ),
        "AttributeError",
    ),
    # Python's warning that a name will go ("/x/mapping.py:49: FutureWarning: jax.tree_flatten is deprecated, and will
    # be removed in a future release. Use jax.tree_util.tree_flatten instead."): a run goes on after it, so it names
    # the failure only when nothing else does
    BareError(
        "deprecation-warning",
        ("DeprecationWarning: ", "FutureWarning: "),
        re.compile(
            r"^(?:\S{1,300}:\d{1,6}: )?(?P<cls>(?:Pending)?DeprecationWarning|FutureWarning): (?P<msg>.{1,1000})$"
        ),
        lambda m: m["cls"],
        line_kind,
        weak=True,
    ),
    # pydantic 2's warnings of its V1 APIs, whose classes end in the release that deprecated them, not in Warning
    # ("x.py:204: PydanticDeprecatedSince20: Pydantic V1 style `@validator` validators are deprecated. You should
    # migrate to ...", a later release without the backticks): the first sentence, which a post may wrap after the
    # decorator's name ("... style `@root_validator`" / "validators are deprecated."); the migration advice is not it
    BareError(
        "pydantic-deprecated",
        ("DeprecatedSince",),
        re.compile(
            r"^`?(?:\S{1,300}:\d{1,6}:? ){0,2}(?P<cls>Pydantic\w{0,30}DeprecatedSince\d{1,4}): (?P<msg>.{1,1000})$"
        ),
        lambda m: m["cls"],
        line_kind,
        message=_pydantic_sentence,
        weak=True,
    ),
    # its words alone, as a title quotes them ("jax.tree_flatten is deprecated, and will be removed in a future
    # release. Use jax.tree_util.tree_flatten instead.")
    BareError(
        "jax-deprecated",
        (" is deprecated, ", "and will be removed in a future release"),
        # (or in a sentence's code span, with the class: "getting `FutureWarning: jax.tree_leaves is deprecated,  and
        # will be removed in a future release. Use jax.tree_util.tree_leaves instead.`.")
        re.compile(
            r"^(?P<msg>jax(?:\.\w{1,100}){1,6} is deprecated, and will be removed in a future release\b.{0,500})$|"
            r"`(?:FutureWarning: )?(?P<span>jax(?:\.\w{1,100}){1,6} is deprecated, {1,3}and will be removed in a "
            r"future release\b[^`]{0,500})`"
        ),
        "FutureWarning",
        line_kind,
        message=lambda m: m["msg"] or m["span"],
        weak=True,
    ),
    # orbax's warnings of an API it deprecated, logged through absl ("Configured `CheckpointManager` using deprecated
    # legacy API. Please follow the instructions at ... to migrate by May 1st, 2024.", later without the date;
    # "SaveArgs.aggregate is deprecated, please use custom TypeHandler ..."): the checkpointing library against the code
    # calling it, an environment mismatch the run goes on after; which API, not the advice or its deadline
    BareError(
        "orbax-deprecated",
        ("using deprecated legacy API", "SaveArgs.aggregate is deprecated"),
        re.compile(
            r"(?P<msg>Configured `?CheckpointManager`? using deprecated legacy API|SaveArgs\.aggregate is deprecated)"
        ),
        None,
        "environment",
        message=lambda m: m["msg"].replace("`", ""),
        weak=True,
    ),
    # jax's warning that a process running it forked ("/x/popen_fork.py:66: RuntimeWarning: os.fork() was called.
    # os.fork() is incompatible with multithreaded code, and JAX is multithreaded, so this will likely lead to a
    # deadlock."): a DataLoader's or multiprocessing's workers after an upgrade made them fork; the run goes on (or
    # hangs) after it, so it names the failure only when nothing else does
    BareError(
        "jax-fork",
        ("os.fork() was called", "and JAX is multithreaded"),
        # (a post may drop the class and the first sentence: "os.fork() is incompatible with multithreaded code, and
        # JAX is multithreaded, so this will likely lead to a deadlock. self.pid = os.fork()")
        re.compile(
            r"(?:^|: )(?P<cls>RuntimeWarning: )?(?:os\.fork\(\) was called\. )?os\.fork\(\) is incompatible with "
            r"multithreaded code, and JAX is multithreaded"
        ),
        "RuntimeWarning",
        message=lambda m: _FORK,
        weak=True,
    ),
    # jax's warning that buffers a jitted call was asked to donate could not be used ("UserWarning: Some donated
    # buffers were not usable: ShapedArray(float32[185,16,16,3]), ...", in 2020 XLA's shapes "f32[524288,32,32,1]";
    # a post may drop the class and its source): which arguments is the program's (folds: donated-unusable)
    BareError(
        "jax-donation",
        ("Some donated buffers were not usable",),
        # (or an issue's title that quotes it: '[Bug] "Some donated buffers were not usable" issue occurred ...')
        re.compile(
            r"(?:^(?:\S{1,300}:\d{1,6}: )?(?:UserWarning: )?|(?<=[\"'`]))"
            r"(?P<msg>Some donated buffers were not usable)\b"
        ),
        "UserWarning",
        weak=True,
    ),
]

# a warning of any other class, as Python's warnings module prints it ("/x/multiprocessing/popen_fork.py:66:
# RuntimeWarning: Using fork() can cause Polars to deadlock in the child process.", or without its source): what
# its first line says; not one of BARE_ERRORS, it is read after every other reader found nothing
# (said.any_warning); where it was raised is the caller's
ANY_WARNING = BareError(
    "python-warning",
    ("Warning:",),
    # (numba's begin on the line after the class: "x.py:188: NumbaDeprecationWarning: " / "Fall-back from ...")
    # (or after what a post kept of its file: ": UserWarning: ...", or the file in brackets: "[.../x.py:232]: ...";
    # a Windows path with blanks in it; logging's record of it, captured: "... | py.warnings | WARNING | x.py:1: ...")
    re.compile(
        r"^(?:.{0,120}?\bpy\.warnings\b[\s|:\]-]{1,10}(?:WARNING[\s|:\]-]{1,10})?)?"
        r"(?:\S{1,300}:\d{1,6}: |[A-Za-z]:\\[^:]{1,300}:\d{1,6}: |\[\S{1,300}:\d{1,6}\]: |: )?"
        r"(?P<cls>[A-Z]\w{0,60}Warning):(?: {1,4}(?P<msg>\S.{0,1000}))?$"
    ),
    lambda m: m["cls"],
    line_kind,
    message=lambda m: m["msg"] or "",
    weak=True,
)
