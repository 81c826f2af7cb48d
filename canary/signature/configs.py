"""Training configurations as their frameworks refuse them: Hydra's refused override printed without its class, and
what Hydra and OmegaConf print around a refused key. Pure. The recogniser takes its place in
:data:`canary.signature.bare.BARE_ERRORS`, the fold in :data:`canary.signature.folds.RULES`.
"""

from __future__ import annotations

import re

from canary.signature.recogniser import BareError, match_below
from canary.signature.rewordings import Parts

# Hydra's and OmegaConf's words posted without their class, each as its class raises them: an override's grammar
# refused ("mismatched input '=' expecting <EOF>", after "Hydra Override Parsing Error : " in 1.0), a config group that
# could not be merged ("Error merging data/dataset=cstm", OmegaConf's reason on its own line or run on), a value never
# set ("Missing mandatory value: model", quoted in a sentence), a resolver not registered
_HYDRA_WORDS = re.compile(
    r"(?:^|(?<=[\s\"'`]))(?:[\w.]{0,40}(?:Exception|Value|Type): )?"
    r"(?P<msg>mismatched input '[^']{1,200}' expecting \S{1,60}|"
    r"Error merging (?P<merged>\S{1,200})(?:\s{1,4}(?P<why>Key '[^']{1,100}' not in '[^']{1,100}'))?|"
    r"Missing mandatory value: [\w.]{1,200}|Unsupported interpolation type \w{1,100})"
)
_HYDRA_CLASSES = {
    "mismatched": "OverrideParseException",
    "Error": "ConfigCompositionException",
    "Missing": "MissingMandatoryValue",
    "Unsupported": "UnsupportedInterpolationType",
}
_WHY_BELOW = re.compile(r"^\s{0,8}(Key '[^']{1,100}' not in '[^']{1,100}')")


def _hydra_said(m: re.Match[str]) -> str:
    return f"Error merging {m['merged']}: {m['why']}" if m["why"] else m["msg"]


def _merge_why(lines: list[str], i: int, said: str) -> str:
    """Hydra's merge error with OmegaConf's reason on the line below it, where the reason was not run on."""
    if not said.startswith("Error merging ") or ": " in said[14:]:
        return said  # (no merge error, or its reason already run on)
    m = match_below(_WHY_BELOW, lines, i + 1, i + 2)
    return f"{said}: {m[1]}" if m else said


CONFIG_ERRORS: list[BareError] = [
    # Hydra refusing a command-line override prints its exception without the class unless HYDRA_FULL_ERROR=1
    # ("Could not override 'perferences.trait'.", then "To append to your config use +perferences.trait=..." and
    # OmegaConf's "Key 'perferences' is not in struct"), alone or after a title's words: the key is which failure
    BareError(
        "hydra-override",
        ("Could not override '",),
        re.compile(r"(?:^|(?<=\s))(?P<msg>Could not override '[^'\s]{1,300}')\.?$"),
        "ConfigCompositionException",
    ),
    BareError(
        "hydra-words",
        ("mismatched input '", "Error merging ", "Missing mandatory value: ", "Unsupported interpolation type "),
        _HYDRA_WORDS,
        lambda m: _HYDRA_CLASSES[m["msg"].split(" ", 1)[0]],
        message=_hydra_said,
        below=_merge_why,
    ),
    # pydantic 2's line for a validator's ValueError under its ValidationError ("Value error, torch.bfloat16 is not
    # supported for quantization method awq. Supported dtypes: [torch.float16] [type=value_error, input_value=...]"):
    # that ValueError, as the validator raised it
    BareError(
        "pydantic-value-error",
        ("Value error, ",),
        re.compile(r"^\s{0,8}Value error, (?P<msg>.{1,1000}?)(?: \[type=value_error\b.{0,2000})?$"),
        "ValueError",
    ),
    # Hydra's config directory it did not find, printed without its class, the directory on the line below
    BareError(
        "hydra-config-dir",
        ("Primary config directory not found",),
        re.compile(r"^(?P<msg>Primary config directory not found\.?)$"),
        "MissingConfigException",
        context=1,
    ),
]

# OmegaConf (2.1 on) prints where a refused key is after its message ("Key 'x' is not in struct", then "full_key:
# model.x", "reference_type=Any", "object_type=dict"), and Hydra its advice after its own ("Could not override
# 'task.data'." then "To append to your config use +task.data=..."): the key and the check are the failure, where
# the key sits in the run's config and what to type instead are the run's
_OMEGACONF_DETAIL = re.compile(r"\s{0,8}\bfull_key: .*$")
_HYDRA_OVERRIDE = re.compile(r"^(Could not override '[^'\s]{1,300}')\..*$")
_HYDRA_DIR = re.compile(r"^(Primary config directory not found)\.? Check that the config directory .{0,600}$")
# absl names the modules that defined a flag twice and the first one's help: which flag is the failure
_ABSL_TWICE = re.compile(r"^(The flag '[^']{1,200}' is defined twice)\. First from .{0,2000}$")


def omegaconf(exc: str | None, message: str, frames: list[str]) -> Parts:
    if "full_key: " in message:
        message = _OMEGACONF_DETAIL.sub("", message)
    if message.startswith("Could not override '"):
        message = _HYDRA_OVERRIDE.sub(r"\1", message)
    elif message.startswith("Primary config directory not found"):
        message = _HYDRA_DIR.sub(r"\1.", message)
    elif message.startswith("The flag '"):
        message = _ABSL_TWICE.sub(r"\1.", message)
    return exc, message, frames
