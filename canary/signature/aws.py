"""Amazon S3's refusals as botocore words them, whichever program printed them. Pure.

botocore raises a refusal of the service as ``ClientError: An error occurred (403) when calling the HeadObject
operation: Forbidden``: the error's code (an HTTP status, or S3's own: ``NoSuchBucket``, ``SlowDown``), the operation,
and the service's message. The AWS CLI prints it after its own ``fatal error:``, a test suite inside its JSON report,
a post inside a sentence; each without the class. After retrying, botocore names how many times it did ("when calling
the PutObject operation (reached max retries: 4): ..."): the retries are the client's configuration, the code and the
operation the failure.
"""

from __future__ import annotations

import re

from canary.signature.recogniser import BareError
from canary.signature.rewordings import rewrite

_RETRIES = re.compile(r"(?<= operation) \(reached max retries: \d{1,4}\)")

# the ``botocore`` rule: a refusal without the retries before it
botocore_words = rewrite("reached max retries", _RETRIES, "")


AWS_ERRORS: list[BareError] = [
    BareError(
        "botocore-client",
        ("when calling the ",),
        re.compile(
            r"(?:^|(?<=[\s\"'`]))(?P<msg>An error occurred \([\w.]{1,60}\) when calling the \w{1,100} operation"
            r"(?: \(reached max retries: \d{1,4}\))?(?:: [^\"`]{1,1000}?)?)[\"'`]?,?$"
        ),
        "ClientError",
    ),
]
