"""Big models loaded with accelerate and transformers: meta tensors, weights offloaded or dispatched off the GPU, and
the weights a checkpoint and a model do not share. Pure.

transformers advises after each refusal, by release ("The current `device_map` had weights offloaded to the disk.
Please provide an `offload_folder` for them. ...", "... requires Accelerate: `pip install accelerate`", later
"`pip install 'accelerate>=0.26.0'`"), names bitsandbytes' offload setting by release (`load_in_8bit_fp32_cpu_offload`,
later `llm_int8_enable_fp32_cpu_offload`), and warns of the weights a checkpoint and a model class do not share with
the checkpoint's path and the weights' names ("Some weights of the model checkpoint at bert-base-uncased were not used
when initializing BertModel: ['cls.predictions.bias', ...]"): which refusal, and which model class, are the failure.
torch 2.3 advises after copying out of a meta tensor ("Cannot copy out of meta tensor; no data! Please use
torch.nn.Module.to_empty() ...").
"""

from __future__ import annotations

import re

from canary.signature.recogniser import BareError, environment_check
from canary.signature.rewordings import Parts

_ADVISED = re.compile(
    r"^(The current `?device_map`? had weights offloaded to the disk|Cannot copy out of meta tensor; no data|"
    r"Using `?low_cpu_mem_usage=True`? or a `?device_map`? requires Accelerate|"
    r"Some modules are dispatched on the CPU or the disk)\b.*$"
)
_NOT_USED = re.compile(
    r"^(Some weights of the model checkpoint)(?: at \S{1,500})? (were not used when initializing \w{1,100})\b"
)
_NEWLY = re.compile(
    r"^(Some weights of \w{1,100} were not initialized from the model checkpoint) at \S{1,500} (and are newly "
    r"initialized(?: because the shapes did not match)?)\b"
)


def _weights(message: str) -> str:
    m = _NOT_USED.match(message) or _NEWLY.match(message)
    return f"{m[1]} {m[2]}" if m else message


# diffusers names the class and path of a model it could not load ("Cannot load <class '...UNet2DConditionModel'> from
# D:\\models\\Kolors because the following keys are missing: ...", ComfyUI's dialog without the class), and a
# pipeline's components expected and passed as sets, in no order; llama.cpp's converter names the tokenizer's path in a
# vocabulary's mismatch and raised it as Exception, later ValueError
_KEYS_MISSING = re.compile(
    r"^Cannot load (?:<class '[\w.]{1,200}'> )?from \S{1,500} (because the following keys are missing)\b.*$"
)
_PIPELINE_SETS = re.compile(
    r"^(Pipeline <class '[\w.]{1,200}'> expected) (\{[^}]{0,2000}\}), but only (\{[^}]{0,2000}\})"
)
_VOCAB_PATH = re.compile(r"(?<= combined with )\S{0,500}?(added_tokens\.json)")
_VOCAB = re.compile(
    r"(?<=^Vocab size mismatch \(model has )(\d{1,9}, but) \S{0,500}?(tokenizer\.model|added_tokens\.json)"
)


def _sorted_set(text: str) -> str:
    return "{" + ", ".join(sorted(re.findall(r"'[^']{1,200}'", text))) + "}"


# transformers' check of bitsandbytes before a quantized load, by release ("Using `load_in_8bit=True` requires
# Accelerate: `pip install accelerate` and the latest version of bitsandbytes ...", later "Using `bitsandbytes` 8-bit
# quantization requires ..."), its install commands by release; PEFT's modules a config targets and the model lacks, a
# list or a set by release ("Target modules ['q_proj', 'v_proj'] not found in the base model. Please check ...")
_QUANTIZED = re.compile(
    r"^Using `?(?:load_in_(?P<a>\d)bit=True|bitsandbytes`? (?P<b>\d)-bit quantization)`? requires "
    r"(?P<what>Accelerate|the latest version of bitsandbytes)\b(?P<rest>.*)$"
)
_TARGETS = re.compile(
    r"^Target modules (?:\[(?P<l>[^\]]{0,1000})\]|\{(?P<s>[^}]{0,1000})\}) not found in the base model\b.*$"
)


def _quantized(m: re.Match[str]) -> str:
    needs = "Accelerate" if m["what"] == "Accelerate" else "the latest bitsandbytes"
    if m["what"] == "Accelerate" and "bitsandbytes" in m["rest"]:
        needs += " and the latest bitsandbytes"
    return f"Using bitsandbytes {m['a'] or m['b']}-bit quantization requires {needs}"


# transformers' Trainer names the strategies it found mismatched ("--load_best_model_at_end requires the save and eval
# strategy to match, but found - Evaluation strategy: epoch - Save strategy: steps"), accelerate the path of a config
# whose keys it does not know and advises ("The config file at ~/.cache/.../default_config.yaml had unknown keys
# (['enable_cpu_affinity']), please try upgrading ..."): the run's values and paths, not which check refused them
_FOUND = re.compile(r"^(--load_best_model_at_end requires the save and eval strategy to match), but found\b.*$")
_UNKNOWN_KEYS = re.compile(r"^The config file at .{1,500}? (had unknown keys \(\[[^\]]{0,500}\]\)).*$")


def loading_words(exc: str | None, message: str, frames: list[str]) -> Parts:
    """The ``big-models`` rule: a refusal without the advice after it, the weights a checkpoint and a model do not
    share by the model's class, not the checkpoint's path or the weights' names."""
    if message.startswith("Some weights of "):
        message = _weights(message)
    elif message.startswith("Cannot load ") and (m := _KEYS_MISSING.match(message)):
        message = f"Cannot load a model {m[1]}"
    elif message.startswith("Pipeline <class ") and (m := _PIPELINE_SETS.match(message)):
        message = f"{m[1]} {_sorted_set(m[2])}, but only {_sorted_set(m[3])} were passed"
    elif message.startswith("Vocab size mismatch"):
        return (
            "ValueError" if exc in ("Exception", None) else exc,
            _VOCAB_PATH.sub(r"\1", _VOCAB.sub(r"\1 \2", message)),
            frames,
        )
    elif message.startswith("Using ") and (m := _QUANTIZED.match(message)):
        message = _quantized(m)
    elif message.startswith("--load_best_model_at_end"):
        message = _FOUND.sub(r"\1", message)
    elif message.startswith("The config file at ") and (m := _UNKNOWN_KEYS.match(message)):
        message = f"The config file {m[1]}"
    elif message.startswith("Target modules ") and (m := _TARGETS.match(message)):
        names = sorted(n.strip(" '\"") for n in (m["l"] if m["l"] is not None else m["s"]).split(",") if n.strip())
        message = f"Target modules [{', '.join(names)}] not found in the base model"
    elif _ADVISED.match(message):
        message = _ADVISED.sub(r"\1", message)
    return exc, message, frames


LOADING_ERRORS: list[BareError] = [
    # warnings a load goes on after, which name a failure only where nothing else does
    environment_check(
        "model-weights",
        ("Some weights of ",),
        r"(?P<msg>Some weights of (?:the model checkpoint(?: at \S{1,500})? were not used when initializing \w{1,100}|"
        r"\w{1,100} were not initialized from the model checkpoint at \S{1,500} and are newly initialized"
        r"(?: because the shapes did not match)?))",
        None,
        message=lambda m: "transformers: " + _weights(m["msg"]),
        weak=True,
    ),
    # diffusers' refusals posted without their class (ComfyUI's dialog, a sentence)
    BareError(
        "diffusers-load",
        ("because the following keys are missing", "Checkpoint not supported because layer "),
        re.compile(
            r"(?:^|(?<=\s))(?P<msg>Cannot load (?:<class '[\w.]{1,200}'> )?from \S{1,500} because the following keys "
            r"are missing|Checkpoint not supported because layer \S{1,200} not supported)"
        ),
        "ValueError",
    ),
    # xformers' extension that Windows could not load ("Could not find module '...\\xformers\\_C.pyd' (or one of its
    # dependencies)"), a warning the run goes on after without its kernels
    environment_check(
        "xformers-pyd",
        ("_C.pyd' (or one",),
        r"Could not find module '[^']{0,500}xformers\W{0,2}_C\.pyd' \(or one",
        None,
        message=lambda m: "xformers: could not load its C++ extension (_C.pyd)",
        weak=True,
    ),
    # diffusers' config of another release than the library's, warned of as it goes on ("The config attributes
    # {'dropout': 0.0} were passed to UNet2DConditionModel, but are not expected and will be ignored.",
    # "{'trained_betas'} was not found in config. Values will be initialized to default values."): which way, for which
    # class
    environment_check(
        "diffusers-config",
        ("but are not expected and will be ignored", "was not found in config. Values will be initialized"),
        r"(?P<extra>were passed to (?P<cls>\w{1,100}), but are not expected and will be ignored)|"
        r"(?P<missing>was not found in config\. Values will be initialized to default values)",
        None,
        message=lambda m: (
            "diffusers: "
            + (
                f"config attributes passed to {m['cls']} are not expected"
                if m["extra"]
                else "config attributes not found"
            )
        ),
        weak=True,
    ),
    BareError(
        "meta-device",
        ("Tensor on device meta is not on the expected device",),
        re.compile(r"(?P<msg>Tensor on device meta is not on the expected device \S{1,20}?)!?$"),
        "RuntimeError",
    ),
    BareError(
        "bnb-dispatched",
        ("Some modules are dispatched on the CPU or the disk",),
        re.compile(r"^(?P<msg>Some modules are dispatched on the CPU or the disk)\."),
        "ValueError",
    ),
]
