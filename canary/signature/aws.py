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
_WITHOUT_RETRIES = rewrite("reached max retries", _RETRIES, "")
# SageMaker's quota on an instance type for a kind of job, in the service's words by year ("The account-level service
# limit 'ml.p3.8xlarge for training job usage' is 1 Instances, with current utilization of 1 Instances and a request
# delta of 1 Instances.", 2018's "... limit for training-job/ml.p2.xlarge is 0 Instances", a terminal's wrap inside the
# quote): which limit; the counts are the account's
_LIMIT = re.compile(
    r"The account-level service limit (?:'(?P<name>[^']{1,200}?)(?:'|$)|"
    r"for (?P<kind>[\w-]{1,40})/(?P<type>[\w.]{1,60})).*$"
)
# SageMaker's status of a job that failed, raised by the SDK (UnexpectedStatusException, 1.x's ValueError): "Error for
# Training job pytorch-training-2020-10-26-17-35-06-746: Failed. Reason: AlgorithmError: ExecuteUserScriptError:
# Command "/opt/conda/bin/python3 train.py ..."": the reason's class is the failure; the job's name and command its own
_JOB_STATUS = re.compile(
    r"^Error for \w{1,40} job \S{1,200}: Failed\.? Reason: (?:AlgorithmError: |ClientError: )?(?P<cls>[A-Z]\w{1,60}):"
    r" ?(?P<msg>.*)$"
)


def _limit(m: re.Match[str], operation: str) -> str:
    name = m["name"] or f"{m['type']} for {m['kind'].replace('-', ' ')} usage"
    if m["name"] and " for " not in name and name.startswith("ml."):  # (cut at the terminal's wrap)
        name += f" for {operation} usage"
    return f"The account-level service limit '{name}'"


def botocore_words(exc: str | None, message: str, frames: list[str]) -> tuple[str | None, str, list[str]]:
    """The ``botocore`` rule: a refusal without the retries before it; SageMaker's limits by their names; its failed
    job by the reason's class."""
    exc, message, frames = _WITHOUT_RETRIES(exc, message, frames)
    if "service limit" in message and (m := _LIMIT.search(message)):
        job = re.search(r"calling the Create(\w{1,40})Job operation", message)
        kind = re.sub(r"(?<=[a-z])(?=[A-Z])", " ", job[1]).lower() + " job" if job else "job"
        message = message[: m.start()] + _limit(m, kind)
    if message.startswith("Error for ") and (m := _JOB_STATUS.match(message)):
        said = "" if m["cls"] == "ExecuteUserScriptError" else re.split(r"\. |\n", m["msg"], maxsplit=1)[0]
        return m["cls"], said.rstrip("."), frames
    return exc, message, frames


AWS_ERRORS: list[BareError] = [
    # (or quoted in a sentence that goes on after it: 'it returned "An error occurred (301) when calling ..." This')
    BareError(
        "botocore-client",
        ("when calling the ",),
        re.compile(
            r"(?:^|(?<=[\s\"'`]))(?P<msg>An error occurred \([\w.]{1,60}\) when calling the \w{1,100} operation"
            r"(?: \(reached max retries: \d{1,4}\))?(?:: [^\"`]{1,1000}?)?)(?:[\"'`]?,?$|[\"`](?= ))"
        ),
        "ClientError",
    ),
    # the AWS CLI's words for botocore's errors before botocore's own (2014: "A client error (PermanentRedirect)
    # occurred when calling the ListObjects operation: ..."), and its print of botocore's NoCredentialsError ("fatal
    # error: Unable to locate credentials"): the refusal in botocore's words, under the class botocore raises
    BareError(
        "aws-cli-client",
        ("A client error (",),
        re.compile(
            r"(?:^|(?<=[\s\"'`]))A client error \((?P<code>[\w.]{1,60})\) occurred when calling the (?P<op>\w{1,100}) "
            r"operation(?:: (?P<msg>[^\"`]{1,1000}?))?[\"'`]?,?$"
        ),
        "ClientError",
        message=lambda m: (
            f"An error occurred ({m['code']}) when calling the {m['op']} operation"
            + (f": {m['msg']}" if m["msg"] else "")
        ),
    ),
    BareError(
        "aws-cli-credentials",
        ("fatal error: Unable to locate credentials",),
        re.compile(r"(?:^|: )fatal error: (?P<msg>Unable to locate credentials)\b"),
        "NoCredentialsError",
    ),
]
