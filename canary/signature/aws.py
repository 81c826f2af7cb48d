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


# a refusal of the credentials a request was signed with, whichever operation sent it ("An error occurred
# (ExpiredToken) when calling the PutObject operation: The provided token has expired."; STS's "Token expired: current
# date/time 1624482533 must be before the expiration date/time1624482335"): the code and its words, not the operation
# or the times; a clock off by too much is the machine's, as printed (containers.py's clock-skew)
_CREDENTIAL_REFUSAL = re.compile(
    r"^An error occurred \((?P<code>ExpiredToken(?:Exception)?|InvalidToken|InvalidClientTokenId|"
    r"RequestTimeTooSkewed)\) when calling the \w{1,100} operation(?P<said>: .*)?$"
)
# boto3's transfer naming the file it moved around the ClientError ("Failed to upload /x/abc.csv to bucket/abc.csv: An
# error occurred (ExpiredToken) ...")
_TRANSFER = re.compile(r"^Failed to (?:upload|download) \S{1,1000} to \S{1,1000}: (?=An error occurred \()")


def _credential_refusal(exc: str | None, m: re.Match[str]) -> tuple[str | None, str]:
    if m["code"] == "RequestTimeTooSkewed":
        return "RequestTimeTooSkewed", "RequestTimeTooSkewed: the request time and the current time differ too much"
    said = re.sub(r"\d{9,}", "<n>", m["said"] or "").rstrip(".")
    return exc, f"An error occurred ({m['code']}){said}"


def _limit(m: re.Match[str], operation: str) -> str:
    name = m["name"] or f"{m['type']} for {m['kind'].replace('-', ' ')} usage"
    if m["name"] and " for " not in name and name.startswith("ml."):  # (cut at the terminal's wrap)
        name += f" for {operation} usage"
    return f"The account-level service limit '{name}'"


def botocore_words(exc: str | None, message: str, frames: list[str]) -> tuple[str | None, str, list[str]]:
    """The ``botocore`` rule: a refusal without the retries before it; a credential refused without the operation, and
    boto3's transfer around it; SageMaker's limits by their names; its failed job by the reason's class."""
    exc, message, frames = _WITHOUT_RETRIES(exc, message, frames)
    if message.startswith("Failed to ") and _TRANSFER.match(message):
        exc, message = "ClientError", _TRANSFER.sub("", message)
    if message.startswith("An error occurred (") and (m := _CREDENTIAL_REFUSAL.match(message)):
        return (*_credential_refusal(exc, m), frames)
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
    # botocore finding a credentials file with a key but not its secret ("Partial credentials found in
    # shared-credentials-file, missing: aws_secret_access_key"), printed by a tool without its class
    BareError(
        "aws-partial-credentials",
        ("Partial credentials found in ",),
        re.compile(r"(?P<msg>Partial credentials found in [\w-]{1,60}, missing: \w{1,60})"),
        "PartialCredentialsError",
    ),
    BareError(
        "aws-cli-credentials",
        ("fatal error: Unable to locate credentials",),
        re.compile(r"(?:^|: )fatal error: (?P<msg>Unable to locate credentials)\b"),
        "NoCredentialsError",
    ),
]
