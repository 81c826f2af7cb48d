"""Libraries beside a training job in their own words: Chroma, Optuna, TensorFlow Probability, PyYAML and ruamel.yaml,
Lightning's unused GPU, ComfyUI's report of a custom node it could not import, xformers without its Triton,
TensorBoard's port and file systems. Pure.

Chroma refuses a Python whose sqlite3 is older than it needs ("Your system has an unsupported version of sqlite3.
Chroma requires sqlite3 >= 3.35.0. Please visit ... to learn how to upgrade.", a terminal may run the shell's prompt
onto it): the check, not its advice. Optuna's storage refuses a schema another release set up ("The runtime optuna
version 2.9.1 is no longer compatible with the table schema (set up by optuna 2.9.1). Please try updating optuna ...",
or "... Please execute `$ optuna storage upgrade ...`", logged by its CLI as "[E ...]"): which way, not the releases.
TensorFlow Probability checks the TensorFlow beside it ("This version of TensorFlow Probability requires TensorFlow
version >= 2.10; Detected an installation of version 2.9.0. ...") and warns where TF-Keras is missing ("Failed to import
TF-Keras. Please note that TF-Keras is not installed by default ..."). PyYAML's and ruamel.yaml's loaders: ruamel 0.18
removed its old functions ('"safe_load()" has been removed, use', an AttributeError's message on the line below its
class) and warned of the default loader before ("The default 'Loader' for 'load(stream)' without further arguments can
be unsafe."); pip cannot uninstall a package distutils installed ("ERROR: Cannot uninstall 'PyYAML'. It is a distutils
installed project and thus ..."), by the package. The folds take their place in
:data:`canary.signature.word_folds.WORD_RULES`, the recognisers in :data:`canary.signature.stacks.STACK_ERRORS` and
the checks in :data:`canary.signature.toolchain_checks.TOOLCHAIN_CHECKS`.
"""

from __future__ import annotations

import re

from canary.signature.recogniser import BareError, environment_check
from canary.signature.rewordings import Parts, Rule, rewrite

_CHROMA = re.compile(
    r"^(Your system has an unsupported version of sqlite3\. Chroma requires sqlite3 >= [\d.]{1,12}\d)\b.*$"
)
_OPTUNA = re.compile(
    r"^The runtime optuna version \S{1,40} is no longer compatible with the table schema \(set up by optuna "
    r"\S{1,40}\)\. Please (?:(?P<update>try updating optuna)|execute `?\$ optuna storage upgrade)\b.*$"
)
_TFP = re.compile(
    # (and TensorFlow Datasets' check, in the same words: "This version of TensorFlow Datasets requires TensorFlow
    # version >= 2.1.0; Detected an installation of version 1.15.0. Please upgrade TensorFlow to proceed.")
    r"^(This version of TensorFlow (?:Probability|Datasets) requires TensorFlow version) >= \S{1,20}; Detected an "
    r"installation of "
    r"version \S{1,40}?\.? (?:Please upgrade TensorFlow to proceed)?.*$"
)


def _optuna(exc: str | None, message: str, frames: list[str]) -> Parts:
    if not message.startswith("The runtime optuna version") or not (m := _OPTUNA.match(message)):
        return exc, message, frames
    said = "try updating optuna" if m["update"] else "upgrade the storage (optuna storage upgrade)"
    return exc, f"The runtime optuna version is no longer compatible with the table schema: {said}", frames


COMPANION_RULES: tuple[Rule, ...] = (
    Rule(
        "chroma-sqlite",
        "Chroma's check of the sqlite3 Python was built with names the release it needs, then advice a terminal may "
        "run the shell's prompt onto: the check is the failure",
        rewrite("Chroma requires sqlite3", _CHROMA, r"\1"),
    ),
    Rule(
        "optuna-schema",
        "Optuna's storage names the runtime's release and the one that set up its schema, and which way to go (update "
        "optuna, or upgrade the storage): which way is the failure, the releases are the machine's",
        _optuna,
    ),
    Rule(
        "lightning-unused-gpu",
        "Lightning's warning of a GPU it does not use advises the flag of its release ('--gpus', 'Trainer(gpus=1)', "
        "'Trainer(accelerator='gpu', devices=1)'): that a GPU goes unused is the failure",
        rewrite("GPU available but not used", re.compile(r"^(GPU available but not used)\b.*$"), r"\1"),
    ),
    Rule(
        "tfp-tensorflow",
        "TensorFlow Probability names the TensorFlow it needs and the one it found: that the one beside it is too old "
        "is the failure, the releases the machine's",
        rewrite("This version of TensorFlow ", _TFP, r"\1 >= <version>; Detected an older version"),
    ),
)

COMPANION_WORDS: list[BareError] = [
    # ComfyUI's report of a custom node it could not import ("Cannot import X module for custom nodes: cannot import
    # name 'PositionNet' from 'diffusers.models.embeddings' (...)"): the import that failed, by its class's words
    BareError(
        "comfyui-custom-node",
        ("module for custom nodes: ",),
        re.compile(
            r"module for custom nodes: (?P<msg>cannot import name '[\w.]{1,200}' from '[\w.]{1,200}'|"
            r"No module named '[\w.]{1,200}')"
        ),
        lambda m: "ImportError" if m["msg"].startswith("cannot") else "ModuleNotFoundError",
    ),
    BareError(
        "lightning-unused-gpu",
        ("GPU available but not used",),
        re.compile(r"^(?P<msg>GPU available but not used)\. Set "),
        "UserWarning",
        weak=True,
    ),
    BareError(
        "optuna-log-schema",
        ("is no longer compatible with the table schema",),
        re.compile(r"^\[E [\d :,-]{10,30}\] (?P<msg>The runtime optuna version .{1,400})$"),
        "RuntimeError",
    ),
    BareError(
        "ruamel-removed",
        ('" has been removed, use',),
        re.compile(r'^(?P<msg>"\w{1,40}\(\)" has been removed, use)$'),
        "AttributeError",
    ),
    BareError(
        "ruamel-unsafe-loader",
        ("without further arguments can be unsafe",),
        re.compile(r"(?P<msg>The default 'Loader' for 'load\(stream\)' without further arguments can be unsafe)"),
        "UnsafeLoaderWarning",
        weak=True,
    ),
]

# (the checks an environment look-back reads: a missing TF-Keras explains the ModuleNotFoundError logged after it)
COMPANION_CHECKS: list[BareError] = [
    # TensorBoard beside a job: its port taken or refused ("TensorBoard could not bind to port 6006, it was already in
    # use", "TensorBoard must be run as superuser to bind to port 6006"), a log directory on a file system its build has
    # no driver for (TensorFlow's "File system scheme 's3' not implemented", TensorBoard's own "No recognized filesystem
    # for prefix s3" without TensorFlow): which, not which port
    BareError(
        "tensorboard-port",
        ("TensorBoard could not bind to port", "TensorBoard must be run as superuser"),
        re.compile(
            r"TensorBoard (?:could not bind to port \d{1,5}, it was (?P<used>already in use)|must be run as superuser)"
        ),
        None,
        "infrastructure",
        message=lambda m: (
            "TensorBoard could not bind to its port: " + ("already in use" if m["used"] else "not superuser")
        ),
    ),
    BareError(
        "tf-filesystem-scheme",
        ("File system scheme '",),
        re.compile(r"(?:^|(?<=[\s`]))File system scheme '(?P<scheme>\w{1,20})' not implemented"),
        "UnimplementedError",
        message=lambda m: f"File system scheme '{m['scheme']}' not implemented",
    ),
    environment_check(
        "tensorboard-filesystem",
        ("No recognized filesystem for prefix",),
        r"No recognized filesystem for prefix (?P<prefix>\w{1,20})",
        None,
        message=lambda m: f"TensorBoard: No recognized filesystem for prefix {m['prefix']}",
    ),
    # xformers without the Triton it was built for ("A matching Triton is not available, some optimizations will not be
    # enabled." above "Error caught was: No module named 'triton'"): a notice the job goes on after
    environment_check(
        "xformers-triton",
        ("A matching Triton is not available",),
        r"A matching Triton is not available, some optimizations will not be enabled",
        None,
        message=lambda m: "xformers: A matching Triton is not available, some optimizations will not be enabled",
        weak=True,
    ),
    environment_check(
        "tfp-tf-keras",
        ("Failed to import TF-Keras",),
        r"(?P<msg>Failed to import TF-Keras)\. ?",
        None,
        message=lambda m: "TensorFlow Probability: Failed to import TF-Keras (not installed by default)",
    ),
    environment_check(
        "pip-distutils-uninstall",
        ("It is a distutils installed project",),
        r"Cannot uninstall '(?P<pkg>[\w.-]{1,100})'\. It is a distutils installed project",
        None,
        message=lambda m: f"pip: Cannot uninstall '{m['pkg']}': it is a distutils installed project",
    ),
]
