"""Java builds under a Python project's CI refusing the JDK a runner image gives them, by what they asked for. Pure.

The Android Gradle plugin checks the JDK that runs Gradle ("Android Gradle plugin requires Java 17 to run. You are
currently using Java 11.", in Gradle's box after "> Failed to apply plugin", or raised as EvalIssueException with
its frames); javac under Maven refuses a release newer than itself ("Fatal error compiling: invalid target release:
17", "error: invalid target release" by release). Which JDK the build needs is the failure, the environment's; the
JDK found, its path and the project are the job's. The recognisers take their place in
:data:`canary.signature.stacks.STACK_ERRORS`.
"""

from __future__ import annotations

from canary.signature.recogniser import BareError, environment_check

JVM_BUILD_ERRORS: list[BareError] = [
    environment_check(
        "gradle-agp-java",
        ("Android Gradle plugin requires Java ",),
        r"^(?:> )?(?P<msg>Android Gradle plugin requires Java (?P<v>[\d.]{1,6}) to run)\.",
        "EvalIssueException",
    ),
    environment_check(
        "maven-target-release",
        ("invalid target release: ",),
        r"Fatal error compiling: (?:error: )?invalid target release: (?P<v>[\d.]{1,6})",
        None,
        message=lambda m: f"javac: invalid target release: {m['v']}",
    ),
]
