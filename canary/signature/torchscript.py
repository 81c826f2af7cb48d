"""TorchScript and torch.compile refusing what they are given, in the words a post copies without their class. Pure.

The tracer cannot export a call into Python ("Could not export Python function call 'MSDeformAttnFunction'. Remove
calls to Python functions before export. Did you forget to add @script or @script_method annotation? ...", a post may
bold the first sentence), and the scripting compiler a builtin it does not know ("Python builtin <built-in method
ms_deform_attn_forward of PyCapsule object at 0x7faa9a4109f0> is currently not supported in Torchscript"): both
``RuntimeError``s, and which function or builtin is the failure, the object's address the process's. They take their
place in :data:`canary.signature.stacks.STACK_ERRORS`.
"""

from __future__ import annotations

import re

from canary.signature.recogniser import BareError

TORCHSCRIPT_ERRORS: list[BareError] = [
    BareError(
        "torchscript-refusal",
        ("Could not export Python function call", "is currently not supported in Torchscript"),
        re.compile(
            r"(?:^|(?<=[\s\"'`*]))(?<!Error: )(?P<msg>Could not export Python function call '[\w.]{1,200}'|"
            r"Python builtin <built-in (?:method|function) [\w.]{1,200}(?: of [\w.]{1,100} object)?)"
            r"(?: at 0x[0-9a-f]{1,16})?>?(?P<tail> is currently not supported in Torchscript)?"
        ),
        "RuntimeError",
        message=lambda m: f"{m['msg']}>{m['tail']}" if m["tail"] else m["msg"],
    ),
    # torch.compile refusing the interpreter before Dynamo supported it ("Python 3.11+ not yet supported for
    # torch.compile", a title may retype it in lower case: "python 3.11+ not yet supported for torch. compile")
    BareError(
        "compile-python",
        ("not yet supported for torch",),
        re.compile(r"(?i:python) 3\.(?P<minor>\d{1,2})\+ not yet supported for torch\. ?compile"),
        "RuntimeError",
        message=lambda m: f"Python 3.{m['minor']}+ not yet supported for torch.compile",
    ),
    # Dynamo's warning of a graph break on a tensor read back to Python ("Graph break from `Tensor.item()`, consider
    # setting:" then torch._dynamo.config.capture_scalar_outputs and the user's frames): weak, the compile goes on
    BareError(
        "graph-break-item",
        ("Graph break from ",),
        re.compile(r"Graph break from `?(?P<call>Tensor\.\w{1,40}\(\))`?, consider setting"),
        None,
        "compile_error",
        message=lambda m: f"Graph break from {m['call']}",
        weak=True,
    ),
]
