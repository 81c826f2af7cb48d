"""torch.hub and timm loading a model, in the words a post copies without their class. Pure.

torch.hub asks GitHub's API whether a branch is the repository's own, and urllib raises what the API answered
("HTTPError: HTTP Error 403: rate limit exceeded", a host's "HTTP Error 403: Forbidden"): a post quotes it alone, and
the code and reason are the failure. It warns once of a repository not yet trusted ("You are about to download and
run code from an untrusted repository. In a future release, this won't be allowed. ..."), a title keeps its first
sentence, a paste may start inside it: its first sentence is the failure. timm refuses a model name it does not know
("RuntimeError: Unknown model (vit_base_resnet50_384)"), and in 2020 went on with random weights where a pretrained
model's URL was gone ("Pretrained model URL is invalid, using random initialization."). They take their place in
:data:`canary.signature.stacks.STACK_ERRORS`.
"""

from __future__ import annotations

import re

from canary.signature.recogniser import BareError, environment_check

UNTRUSTED = "You are about to download and run code from an untrusted repository"

TORCH_HUB_ERRORS: list[BareError] = [
    # (not a class's line: "urllib.error.HTTPError: HTTP Error 403: Forbidden" is read as Python printed it)
    BareError(
        "urllib-http",
        ("HTTP Error ",),
        re.compile(
            r"(?:^|(?<=[\s\"'`(]))(?<!Error: )HTTP Error (?P<code>[1-5]\d\d): (?P<reason>[A-Za-z][\w ,'-]{0,80})"
        ),
        "HTTPError",
        message=lambda m: f"HTTP Error {m['code']}: {m['reason'].rstrip(' ,')}",
    ),
    BareError(
        "hub-untrusted",
        ("an untrusted repository", "this won't be allowed. To add the repository"),
        re.compile(
            rf"{UNTRUSTED}\b|^repository\. In a future release, this won't be allowed\. To add the repository to your "
            r"trusted list"
        ),
        "UserWarning",
        message=lambda m: UNTRUSTED,
        weak=True,
    ),
    BareError(
        "timm-unknown-model",
        ("Unknown model (",),
        re.compile(r"(?:^|(?<=[\s\"'`]))(?<!Error: )(?P<msg>Unknown model \([\w.-]{1,200}\))"),
        "RuntimeError",
    ),
    environment_check(
        "timm-pretrained-url",
        ("Pretrained model URL is invalid",),
        r"(?P<msg>Pretrained model URL is invalid, using random initialization)",
        None,
        weak=True,
    ),
]
