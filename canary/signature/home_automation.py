"""Home Assistant's records of an integration it could not load, in its logger's words. Pure.

Home Assistant logs a custom integration that fails to import ("Setup failed for custom integration 'miio_yeelink':
Unable to import component: cannot import name 'DATA_CUSTOMIZE' from 'homeassistant.config' (...)") and a platform that
fails ("Platform error: sensor - cannot import name 'TEMP_CELSIUS' from 'homeassistant.const' (...)") above the
traceback of it, which its log viewer and a post often cut, and names the record's logger, source and times in the
viewer's language. The Python words after the integration's or the platform's name are the failure, raised with the
class they are Python's words for or, since 2024, that the loader names before them; which integration or platform met
them is the job's. The recogniser takes its place in :data:`canary.signature.stacks.STACK_ERRORS`.
"""

from __future__ import annotations

import re

from canary.signature.kinds import words_class
from canary.signature.recogniser import BareError

# (2024's loader names the class of what the import raised, and the module: "RuntimeError importing
# custom_components.dwd_weather: Cannot find the ecCodes library")
_RAISED = re.compile(r"^(?P<cls>[A-Z]\w{0,60}(?:Error|Exception)) importing [\w.]{1,200}: (?P<msg>\S.*)$")


def _said(m: re.Match[str]) -> str:
    return r["msg"] if (r := _RAISED.match(m["msg"])) else m["msg"]


HOME_AUTOMATION_ERRORS = [
    BareError(
        "home-assistant-load",
        ("Unable to import component: ", "Platform error: "),
        re.compile(
            r"^(?:Setup failed for (?:custom )?integration '?[\w.-]{1,100}'?: Unable to import component:|"
            r"Platform error: [\w.-]{1,60}(?: \([\w.-]{1,60}\))? -) (?P<msg>\S.{0,1000}?)\s*$"
        ),
        lambda m: r["cls"] if (r := _RAISED.match(m["msg"])) else words_class(m["msg"]),
        message=_said,
    ),
]
