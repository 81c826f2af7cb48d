"""What a web framework's debug page says when a post copies its header, not its traceback. Pure.

Django's debug page heads its report with the exception's class and the path it was raised at ("TemplateDoesNotExist
at /accounts/login/") and puts the exception's message on the line below ("bootstrap4/uni_form.html", the template
django-crispy-forms 2 no longer ships without its template pack): the class and the message are the failure; which
page raised it is the site's. The recogniser takes its place in :data:`canary.signature.stacks.STACK_ERRORS`.
"""

from __future__ import annotations

import re

from canary.signature.recogniser import BareError, match_below

_BELOW = re.compile(r"^\s{0,8}(?P<msg>\S.{0,500}?)\s*$")


def _message_below(lines: list[str], i: int, said: str) -> str:
    """The exception's message, on the line below the page's header."""
    m = match_below(_BELOW, lines, i + 1, i + 2)
    return m["msg"] if m else said


WEB_PAGE_ERRORS = [
    BareError(
        "django-debug-page",
        (" at /",),
        re.compile(r"^(?P<cls>[A-Z]\w{0,60}(?:Error|Exception|DoesNotExist|NotFound|Invalid)) at /\S{0,300}$"),
        lambda m: m["cls"],
        message=lambda m: "",
        below=_message_below,
    ),
]
