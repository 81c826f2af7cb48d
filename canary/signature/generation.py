"""Text generation and chat templates in transformers, and the vision and graph libraries beside a model (torchvision,
DGL), in their releases' words. Pure.

generate() checks a prompt against `max_length` in each release's backticks and advice ("Input length of input_ids is
1836, but ``max_length`` is set to 1200. This can lead to unexpected behavior. You should consider increasing ...") and
warns of a mask and a pad token not set with the model's eos id, of a pad token that is the eos token, of right padding
for a decoder, and of the class's default chat template, in two releases' words, and refuses to pad without a pad
token; its config check names the value a flag was given
("`do_sample` is set to `False`. However, `temperature` is set to `0.7` -- this flag is only used in sample-based
generation modes. ..."): which check is the failure, the lengths, values and ids are the run's. torchvision warns of
`pretrained` by release ("... will be removed in 0.15", later "... may be removed in the future"), raises an operator
without a backend's kernel as RuntimeError, later NotImplementedError, and advises after its C++ ops that did not load.
DGL's failed CHECK names when and where in its source, and "gpu", later "cuda", for the device API it lacks.
detectron2's op built without CUDA names where in its source it checked; YOLO warns that its NMS ran over its time
limit and goes on.
"""

from __future__ import annotations

import re

from canary.signature.recogniser import BareError
from canary.signature.rewordings import Parts

_INPUT_LENGTH = re.compile(
    r"^(Input length of input_ids is) \d{1,9}, but `{0,2}max_length`{0,2} is set to \d{1,9}\b.*$"
)
_SAMPLING_FLAG = re.compile(
    r"^(`do_sample` is set to `False`\. However, `\w{1,40}` is set to) `[^`]{1,40}`( -- this flag is "
    r"only used in sample-based generation modes)\b.*$"
)
_MASK = "The attention mask and the pad token id were not set"
# generate()'s other warnings of a tokenizer's padding, by their first sentence (4.43's "... eos token.As a consequence"
# lost its space); the template a tokenizer without one falls back to, in 2023's and 2024's words; and its refusal to
# pad without a pad token, a post's copy wrapped before its advice
_PAD_WORDS = re.compile(
    r"^`?(?P<msg>The attention mask is not set and cannot be inferred from input because pad token is same as eos "
    r"token|"
    r"A decoder-only architecture is being used, but right-padding was detected|"
    r"Asking to pad but the tokenizer does not have a padding token)\b.*$|"
    r"^`?No chat template is (?:defined|set) for this tokenizer\b.*$"
)
_FALLBACK = "No chat template is set for this tokenizer: the class's default template is used"
_PRETRAINED = re.compile(r"^(The parameter '\w{1,40}' is deprecated since 0\.13)\b.*$")
_NO_BACKEND = re.compile(r"^(Could not run '[\w:.]{1,200}' with arguments from the '\w{1,40}' backend)\b.*$")
_NO_OPERATOR = re.compile(r"^(operator [\w:.]{1,200} does not exist)\b.*$")
_CUSTOM_OPS = "Couldn't load custom C++ ops"
_DGL_CHECK = re.compile(r"^\[[^\]]{1,40}\] \S{1,300}?:(?:\d{1,6}|<line>): (Check failed: .{1,500})$")
_DGL_DEVICE = re.compile(r"\bDevice API gpu is not enabled")
# detectron2's and mmcv's op built without CUDA names where in its source it checked ("Not compiled with GPU support
# (ROIAlign_forward at /.../ROIAlign.h:71)"); a post may cut it after the op
_NOT_COMPILED = re.compile(r"^(Not compiled with GPU support) \((\w{1,100})\b.*$")
_DGL_LIBRARY = re.compile(r"^(Cannot find DGL C\+\+ \w{1,40} library) at \S{1,500}$")


def generation_words(exc: str | None, message: str, frames: list[str]) -> Parts:
    """The ``generation`` rule: generate()'s and its config's checks without the run's lengths and values or the
    advice; torchvision's warnings, missing kernels and C++ ops by release; DGL's CHECK and library by no time, source
    or path."""
    if message.startswith("Input length of input_ids"):
        # (logged as a warning until generate() raised it as ValueError: check-class)
        exc = "ValueError" if exc in (None, "UserWarning") else exc
        message = _INPUT_LENGTH.sub(r"\1 <n>, but max_length is set to <n>", message)
    elif message.startswith("`do_sample` is set to `False`"):
        message = _SAMPLING_FLAG.sub(r"\1 <value>\2", message)
    elif message.startswith((_MASK, _CUSTOM_OPS)):
        message = _MASK if message.startswith(_MASK) else _CUSTOM_OPS
    elif message.startswith(("The attention mask is not", "A decoder-only", "Asking to pad", "No chat template is ")):
        message = (m["msg"] or _FALLBACK) if (m := _PAD_WORDS.match(message)) else message
    elif message.startswith("The parameter '"):
        message = _PRETRAINED.sub(r"\1", message)
    elif message.startswith("Could not run '") and (m := _NO_BACKEND.match(message)):
        return "NotImplementedError" if exc == "RuntimeError" else exc, m[1], frames
    elif message.startswith("operator "):
        message = _NO_OPERATOR.sub(r"\1", message)
    elif message.startswith("[") and "Check failed" in message:
        message = _DGL_DEVICE.sub("Device API cuda is not enabled", _DGL_CHECK.sub(r"\1", message))
    elif message.startswith("Cannot find DGL C++"):
        message = _DGL_LIBRARY.sub(r"\1", message)
    elif message.startswith("Not compiled with GPU support ("):
        message = _NOT_COMPILED.sub(r"\1 (\2)", message)
    return exc, message, frames


GENERATION_ERRORS: list[BareError] = [
    # generate()'s warnings posted without their class (a post's sentence before them, a logger's)
    BareError(
        "generate-warnings",
        ("Input length of input_ids is ", _MASK),
        re.compile(
            rf"(?P<msg>Input length of input_ids is \d{{1,9}}, but `{{0,2}}max_length`{{0,2}} is set to \d{{1,9}}|"
            rf"{_MASK})"
        ),
        "UserWarning",
        weak=True,
    ),
    BareError(
        "generate-padding",
        ("pad token is same as eos token", "right-padding was detected", "No chat template is "),
        _PAD_WORDS,
        "UserWarning",
        message=lambda m: m["msg"] or _FALLBACK,
        weak=True,
    ),
    BareError(
        "pad-token-missing",
        ("Asking to pad but the tokenizer does not have a padding token",),
        re.compile(r"(?P<msg>Asking to pad but the tokenizer does not have a padding token)"),
        "ValueError",
    ),
    BareError(
        "chat-template-unset",
        ("tokenizer.chat_template is not set",),
        re.compile(
            r"(?P<msg>Cannot use chat template functions because tokenizer\.chat_template is not set\b.{0,100}?)(?:!|$)"
        ),
        "ValueError",
    ),
    BareError(
        "torchvision-words",
        ("is deprecated since 0.13", _CUSTOM_OPS),
        re.compile(rf"(?P<msg>The parameter '\w{{1,40}}' is deprecated since 0\.13|{re.escape(_CUSTOM_OPS)})"),
        lambda m: "RuntimeError" if m["msg"] == _CUSTOM_OPS else "UserWarning",
        weak=True,
    ),
    # YOLO's non-maximum suppression over its time limit ("WARNING: NMS time limit 0.580s exceeded", Ultralytics 8's
    # "WARNING ⚠️ NMS time limit 3.600s exceeded"), after a progress bar: a validation that goes on past its budget;
    # the limit is the run's batch's
    BareError(
        "nms-time-limit",
        ("NMS time limit",),
        re.compile(r"\bNMS time limit [\d.]{1,10}s exceeded"),
        None,
        "timeout",
        message=lambda m: "NMS time limit exceeded",
        weak=True,
    ),
]
