"""A training run's numbers turning non-finite, as the run itself reports them. Pure.

A loss logged as nan or inf ("loss: nan", "train/loss=inf", "loss returned in `step` is nan", YOLO's "non-finite
loss, ending training") is the failure. So is a
gradient norm logged as nan, by the Trainer's dict ("{'loss': 0.1474, 'grad_norm': nan, ...}") or OpenMMLab's logger
("... loss: 2.5128  grad_norm: nan"): with the loss at zero beside it (every token masked, or a loss that underflowed)
it is another failure than with a finite loss (fp16's overflow in one step). PyTorch's anomaly mode warns of the
backward function that produced a nan before the RuntimeError it raises ("UserWarning: Error detected in
PowBackward0. Traceback of forward call that caused the error:", before 1.11 "[W python_anomaly_mode.cpp:104]
Warning: ..."), and a post may end there: which function is the failure. PyTorch 1.10 numbered its backward functions
("SqrtBackward" became "SqrtBackward0"): one function either way.
"""

from __future__ import annotations

import re

from canary.signature.recogniser import BareError
from canary.signature.rewordings import rewrite

_LOSS_NAN = re.compile(
    r"\b(?:train/)?loss\b(?:[\s:=]{1,8}|(?: returned in `?\w{1,60}`?)?\sis\s)(?:nan|-?inf)\b|\bnon-finite loss\b", re.I
)
_GRAD_NAN = re.compile(r"\bgrad_norm'?[\s:=]{1,8}(?:nan|-?inf)\b")
# (the loss logged just before it; a terminal's wrap may split the record between the two)
_LOSS_BESIDE = re.compile(r"\bloss'?[\s:=]{1,8}(?P<loss>[^\s,]{1,30}),?\s{1,8}'?grad_norm'?[\s:=]{1,8}(?:nan|-?inf)\b")
_ZERO = re.compile(r"0(?:\.0{1,8})?")


def non_finite(lines: list[str]) -> str | None:
    """What a run's own log says became non-finite: the loss, or the gradient norm (beside a loss of zero or not)."""
    if any(_LOSS_NAN.search(ln) for ln in lines):
        return "loss became non-finite"
    if not any("grad_norm" in ln and _GRAD_NAN.search(ln) for ln in lines):
        return None
    losses = [m["loss"] for m in _LOSS_BESIDE.finditer("\n".join(lines))]
    zero = bool(losses) and all(_ZERO.fullmatch(loss) for loss in losses)
    return "gradient norm became non-finite" + (" with the loss at zero" if zero else "")


# the ``numerics`` rule: a backward function by its name before PyTorch 1.10 numbered it
numeric_words = rewrite("Backward0", re.compile(r"\b(\w{1,80}Backward)0\b"), r"\1")


NUMERIC_ERRORS: list[BareError] = [
    BareError(
        "anomaly-detected",
        ("Error detected in ",),
        re.compile(
            r"\bError detected in (?P<fn>\w{1,80}Backward\d{0,2})\.\s{0,8}(?:Traceback of forward call that caused|$)"
        ),
        "RuntimeError",
        message=lambda m: f"anomaly mode: error detected in {m['fn']}",
    ),
]
