"""Training libraries' own checks by release: PyTorch Lightning's trainer and the reinforcement-learning environments
(gym, gymnasium, mujoco_py) a training loop steps. Pure.

Lightning 2.0 refuses a hook it removed and names the program's model class ("Support for `training_epoch_end` has
been removed in v2.0.0. `MLD` implements this method. You can use the `on_train_epoch_end` hook instead. ..."): which
hook is the failure, whose model is not. It refused a distributed strategy in a notebook in 1.x's words ("Selected
distributed backend ddp is not compatible with an interactive environment. ...") and 2.x's ("`Trainer(strategy='ddp')`
is not compatible with an interactive environment. ..."), and GPUs the machine lacks as "GPUs" or "gpu" by release.
gym and gymnasium word a namespace no package registered differently ("Namespace `ALE` does not exist." and "Namespace
ALE not found. Have you installed the proper package for ALE?"), an id not registered by name ("Environment
`PongNoFrameskip` doesn't exist. Did you mean: ..."), a version no longer registered by release ("Env Pendulum-v0 not
found (valid versions include ['Pendulum-v1'])", later "Environment version v0 for `Pendulum` is deprecated. Please
use `Pendulum-v1` instead."), and atari_py a game whose ROM it no longer ships ("ROM is missing for pong, see ..."):
which check refused is the failure, which namespace, id or game is the program's, as it is in ale_py's refusal of a
game; mujoco_py names the library path it looked in, which is the machine's. NeMo says an optional piece
is missing in one sentence ("Apex was not found. Please see the NeMo README for installation instructions: ..."),
raised as ImportError where it is needed and logged as a warning where it is not ("[NeMo W ...] megatron-core was not
found. ..."); a post quotes it without the class. stable-baselines3 2 names shimmy missing with its release's pin.
"""

from __future__ import annotations

import re

from canary.signature.recogniser import BareError, environment_check
from canary.signature.rewordings import Parts

_NEMO_README = re.compile(r"^(.{1,100} was not found\. Please see the NeMo README for installation instructions)\b.*$")
_HOOK_REMOVED = re.compile(r"^(Support for `?\w{1,100}`? has been removed in v\d{1,2}\.\d{1,2}\.\d{1,2})\b.*$")
_INTERACTIVE = re.compile(
    r"^(?:Selected distributed backend (?P<old>\w{1,60})|`?Trainer\(strategy='?(?P<new>\w{1,60})'?\)`?) is not "
    r"compatible with an interactive environment\b.*$"
)
_GPUS = re.compile(r"^You requested (?:GPUs|gpus?): ")
_NAMESPACE = re.compile(r"^Namespace `?[\w-]{1,100}`? (?:does not exist|not found)\b.*$")
_ENV_NAME = re.compile(r"^Environment `?[\w:./-]{1,200}`? doesn't exist\b.*$")
# (gym 0.21 words a retired version as not found: "Env Pendulum-v0 not found (valid versions include ['Pendulum-v1'])";
# where the versions it lists hold the id asked for, "Env seals/CartPole-v0 not found (valid versions include
# ['CartPole-v0', ...])", the namespace is what is missing, another failure, left in its words)
_ENV_VERSION = re.compile(
    r"^(?:Env (?:[\w:.-]{1,100}/)?(?P<name>[\w:.-]{1,200}-v\d{1,4}) not found "
    r"\(valid versions include \[(?P<valid>.{0,500})\]\)|"
    r"Environment version v?\d{1,4} for `?[\w:./-]{1,200}`? is deprecated\b.*)$"
)
_MUJOCO_PATH = "Missing path to your environment variable"
# stable-baselines3 2 given a gym environment without shimmy to wrap it ("Missing shimmy installation. You provided an
# OpenAI Gym environment. ... you need to install shimmy (`pip install 'shimmy>=2.0'`).")
_SHIMMY = "Missing shimmy installation. You provided an OpenAI Gym environment"
# DeepSpeed's ZeRO naming the parameter it reduced twice, an op its setup could not build followed by the build's
# warnings a post runs on, and CUDA_HOME missing, asserted until its op builder raised MissingCUDAException
# (its op builder's CUDA check, raised as Exception until CUDAMismatchException, later behind ">- DeepSpeed Op
# Builder: ": "Installed CUDA version 9.0 does not match the version torch was compiled with 10.1, unable to compile
# ...", by no version; its launcher's "No slot '1' specified on host 'localhost'" by no slot or host)
_DEEPSPEED = re.compile(
    r"^(?:(The parameter) \d{1,9}( has already been reduced)\b.*|(Unable to pre-compile \w{1,60})\b.*|"
    r"(CUDA_HOME does not exist, unable to compile CUDA op\(s\)).*|(?:>- DeepSpeed Op Builder: )?(Installed CUDA "
    r"version) [\d.]{1,10} (does not match the version torch was compiled with) [\d.]{1,10}\b.*|"
    r"(No slot) '\d{1,4}' (specified on host) '[^']{1,200}'.*)$"
)
_DEEPSPEED_STARTS = (
    "The parameter ",
    "Unable to pre-compile ",
    "CUDA_HOME does not exist",
    ">- DeepSpeed Op Builder: ",
)
_DEEPSPEED_STARTS += ("Installed CUDA version ", "No slot '")


def _deepspeed_words(m: re.Match[str]) -> str:
    if m[5] or m[7]:
        return f"{m[5]} <version> {m[6]} <version>" if m[5] else f"{m[7]} <n> {m[8]} <host>"
    return f"{m[1]} <n>{m[2]}" if m[1] else m[3] or m[4]


def _deepspeed(exc: str | None, message: str) -> str | None:
    missing = message.startswith("CUDA_HOME does not exist") and exc in ("AssertionError", None)
    mismatch = "does not match the version torch was compiled with" in message and exc in ("Exception", None)
    return "MissingCUDAException" if missing else "CUDAMismatchException" if mismatch else exc


def trainer_words(exc: str | None, message: str, frames: list[str]) -> Parts:
    """The ``trainers`` rule: Lightning's removed hook without the model's name and advice, its strategy refused in a
    notebook in one wording, its GPUs requested in one; gym's namespace, id or version not found, and atari_py's ROM
    missing, in one wording without the program's name for it; mujoco_py's path check
    without the machine's paths."""
    if message.startswith("Support for "):
        message = _HOOK_REMOVED.sub(r"\1", message)
    elif "compatible with an interactive environment" in message and (m := _INTERACTIVE.match(message)):
        message = f"strategy {m['old'] or m['new']} is not compatible with an interactive environment"
    elif message.startswith("You requested "):
        message = _GPUS.sub("You requested gpus: ", message)
    elif message.startswith("Namespace "):
        message = _NAMESPACE.sub("Namespace <namespace> not found", message)
    elif message.startswith("Environment ") and _ENV_NAME.match(message):
        message = "Environment <id> doesn't exist"
    elif message.startswith(("Env ", "Environment version ")) and (m := _ENV_VERSION.match(message)):
        if not (m["name"] and f"'{m['name']}'" in m["valid"]):
            message = "Environment version <version> is deprecated"
    elif message.startswith("ROM is missing for "):
        message = "ROM is missing: its game's ROM is not installed"
    elif message.startswith(_MUJOCO_PATH):
        message = _MUJOCO_PATH
    elif "Please see the NeMo README" in message:
        message = _NEMO_README.sub(r"\1", message)
    elif message.startswith(_SHIMMY):
        message = _SHIMMY  # (stable-baselines3's pin of shimmy in its advice is its release's)
    elif message.startswith(_DEEPSPEED_STARTS):
        return _deepspeed(exc, message), _DEEPSPEED.sub(_deepspeed_words, message), frames
    return exc, message, frames


SIMULATOR_ERRORS = [
    # MuJoCo's window without an OpenGL context to draw in (a headless machine, a driver's GL missing), printed by its
    # GLEW loader before it exits: "ERROR: GLEW initalization error: Missing GL version" (its spelling)
    environment_check(
        "glew",
        ("GLEW initalization error", "GLEW initialization error"),
        r"GLEW initi?alization error: (?P<msg>[^.]{1,200})",
        None,
        message=lambda m: f"GLEW initialization error: {m['msg'].strip()}",
    ),
    BareError(
        "sb3-shimmy",
        ("Missing shimmy installation",),
        re.compile(r"(?:^|(?<=[\s\"'`]))Missing shimmy installation\. You provided an OpenAI Gym environment"),
        "ImportError",
        message=lambda m: _SHIMMY,
    ),
    environment_check(
        "nemo-missing",
        ("Please see the NeMo README",),
        r"(?:^|(?<=[\s\"'`]))(?P<nemo>\[NeMo W [^\]]{0,100}\] )?"
        r"(?P<msg>[\w.-]{1,60} was not found\. Please see the NeMo README for installation instructions)",
        lambda m: None if m["nemo"] else "ImportError",
        message=lambda m: m["msg"],
    ),
]
