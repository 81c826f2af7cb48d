"""Programs a Python library runs that the machine lacks, the browsers a test or a scraper drives, and Node on OpenSSL 3
beside them, in their libraries' words by release. Pure.

pytesseract names Tesseract by the path it tried and its advice by release ("tesseract is not installed or it's not in
your PATH. See README file for more information."); pdfkit quotes what ``which`` printed ("No wkhtmltopdf executable
found: "b''"") with advice by release; camelot adds where to read how to install Ghostscript; the graphviz package
names the command it ran as a list or a path object by release ("failed to execute ['dot', '-Tpng', ...]",
"failed to execute PosixPath('dot')"), GitPython a git it cannot run at import by release ("Failed to initialize: Bad
git executable.", later bare): the program missing is the failure. Selenium's exceptions open with "Message: ";
ChromeDriver names the Chrome release it supports and the one it found, a Chrome that died at start with where it was
and the crash it assumes, a driver that exited by its path; Chromium's own log names its source line; Playwright names
the browser's executable by where its release keeps it, and an installed browser's channel by its path; Puppeteer names
the browser it pins by release: which browser, which refusal and which exit are the failure.
The rule takes its place in :data:`canary.signature.stacks.STACK_RULES`, the recognisers in
:data:`canary.signature.stacks.STACK_ERRORS`.
"""

from __future__ import annotations

import re

from canary.signature.recogniser import BareError, environment_check
from canary.signature.rewordings import Parts

_MISSING = (
    (re.compile(r"^(?:\S{0,300}/)?(tesseract) is not installed or it's not in your path\b.*$", re.I), r"\1"),
    (re.compile(r"^No (wkhtmltopdf) executable found\b.*$"), r"\1"),
    (re.compile(r"^(Ghostscript) is not installed\b.*$"), r"\1"),
    # (GitPython at import: 2.1's "Failed to initialize: Bad git executable.", later releases' bare, both with advice)
    (re.compile(r"^(?:Failed to initialize: )?Bad (git) executable\b.*$"), r"\1"),
)
_GRAPHVIZ = re.compile(
    r"^failed to execute (?:\[?'|\w{0,20}Path\(')(?P<cmd>[\w.-]{1,40})'.{0,1000}?, make sure the Graphviz executables "
    r"are on your systems' PATH$"
)
_CHROMEDRIVER = re.compile(
    r"^(session not created: This version of ChromeDriver only supports Chrome version) \d{1,4}\b.*$"
)
# (a post may drop the colon after "unknown error")
_CHROME_START = re.compile(
    r"^(?:(unknown error):?|(session not created):) (Chrome failed to start: exited (?:ab)?normally)\b.*$"
)
_SERVICE = re.compile(r"^Service \S{0,500}?([\w.-]{1,60}) unexpectedly exited\. Status code was: (-?\d{1,4})\b.*$")
_CHROMIUM_LOG = re.compile(r"^(ERROR:[\w.]{1,100}\.cc)\(\d{1,6}\)\]")
# (Python's client names the call "BrowserType.launch"; Windows' path has backslashes, one copied from a CI run's page a
# link to its log line inside it)
_PLAYWRIGHT = re.compile(
    r"^(?:[Bb]rowserType\.launch: )?Executable doesn't exist at \S{0,500}?[\\/]ms-playwright[\\/]"
    r"(?P<browser>[a-z]{1,20})-\d{1,8}.*$"
)


def program_words(exc: str | None, message: str, frames: list[str]) -> Parts:
    """The ``helper-programs`` rule: a program missing by its name, not where the library looked or its advice; a
    browser's refusal, exit or missing executable by which, not its release, path or source line."""
    if message.startswith("Message: ") and exc and ("WebDriver" in exc or "SessionNotCreated" in exc):
        message = message[len("Message: ") :]
    for rx, name in _MISSING:
        if rx.match(message):
            return exc, rx.sub(name, message) + " is not installed or not on the PATH", frames
    if message.startswith("failed to execute ") and (m := _GRAPHVIZ.match(message)):
        return (
            exc,
            f"failed to execute '{m['cmd']}', make sure the Graphviz executables are on your systems' PATH",
            frames,
        )
    if message.startswith(("session not created: ", "unknown error")):
        message = _CHROME_START.sub(r"\1\2: \3", _CHROMEDRIVER.sub(r"\1 <version>", message))
    elif message.startswith("Service ") and (m := _SERVICE.match(message)):
        message = f"Service {m[1]} unexpectedly exited. Status code was: {m[2]}"
    elif message.startswith("ERROR:"):
        message = _CHROMIUM_LOG.sub(r"\1]", message)
    elif "Executable doesn't exist" in message and (m := _PLAYWRIGHT.match(message)):
        message = f"Playwright: Executable doesn't exist ({m['browser']}): the browsers are not installed"
    return exc, message, frames


HELPER_PROGRAM_ERRORS: list[BareError] = [
    # Node 17 and later on OpenSSL 3 refusing a digest or a key format an old webpack or library asks for ("Error:
    # error:0308010C:digital envelope routines::unsupported", "error:1E08010C:DECODER routines::unsupported"): Node's
    # Error, by OpenSSL's code and words
    environment_check(
        "node-openssl",
        (" routines::",),
        r"^(?:\w{0,40}Error: )?(?P<msg>error:[0-9A-F]{8}:[\w ]{1,60} routines::\w[\w ]{0,60})$",
        "Error",
    ),
    # the graphviz package's ExecutableNotFound and Playwright's missing browser printed without a traceback (a
    # notebook's last line, Node's "browserType.launch: ..." above its box of advice): the program the machine lacks
    environment_check(
        "graphviz-missing",
        ("make sure the Graphviz executables are on your systems",),
        r"(?:^|\s)(?:[\w.]{1,100}\.)?ExecutableNotFound: (?P<msg>failed to execute .{1,1000}?, make sure the Graphviz "
        r"executables are on your systems' PATH)",
        "ExecutableNotFound",
    ),
    environment_check(
        "playwright-missing",
        ("Executable doesn't exist at ",),
        r"(?:^|: )(?P<msg>(?:[Bb]rowserType\.launch: )?Executable doesn't exist at \S{0,500}[\\/]ms-playwright[\\/]"
        r"\S{1,500})",
        "Error",
    ),
    # Playwright asked for an installed browser's channel the machine lacks ("Error: browserType.launch: Chromium
    # distribution 'chrome' is not found at C:\\...\\chrome.exe", then "Run "npx playwright install chrome""): which
    # channel, not where its platform keeps it
    environment_check(
        "playwright-channel",
        ("distribution '",),
        r"^(?:Error: )?(?:[Bb]rowserType\.launch: )?(?P<b>Chromium|Firefox|WebKit) distribution "
        r"'(?P<ch>[\w-]{1,40})' is not found\b",
        "Error",
        message=lambda m: f"Playwright: {m['b']} distribution '{m['ch']}' is not found",
    ),
    # Playwright's check of the host's libraries before it starts a browser, in its box ("Host system is missing
    # dependencies to run browsers."): the machine's packages, whichever libraries it lists
    environment_check(
        "playwright-host",
        ("Host system is missing dependencies to run browsers",),
        r"Host system is missing dependencies to run browsers",
        None,
        message=lambda m: "Playwright: Host system is missing dependencies to run browsers",
    ),
    # Selenium's refusal to start a session posted without its class, its "Message: " first ("Message: session not
    # created: This version of ChromeDriver only supports Chrome version 89"): the SessionNotCreatedException it raises
    BareError(
        "selenium-session",
        ("Message: session not created: ",),
        re.compile(r"^Message: (?P<msg>session not created: .{1,500})$"),
        "SessionNotCreatedException",
    ),
    # Puppeteer without the browser its release pins in its cache ("Error: Could not find Chrome (ver. 131.0.6778.204).
    # This can occur if either", before 19.x "Could not find Chromium (rev. 1108766)."), as Node or Bun prints it: the
    # Error it throws; which browser is missing is the failure, the release pinned is Puppeteer's
    BareError(
        "puppeteer-browser",
        ("Could not find Chrom",),
        re.compile(r"^(?:[Ee]rror: )?Could not find (?P<b>Chrome|Chromium) \((?:ver|rev)\. [\w.]{1,40}\)"),
        "Error",
        "environment",
        message=lambda m: f"Puppeteer: Could not find {m['b']} (the release it pins)",
    ),
    # ChromeDriver's Chrome that died at start, printed without Python's traceback (Java's exception after Guice's
    # "Error injecting constructor, ", a test's output): Selenium's WebDriverException
    BareError(
        "chrome-start",
        ("Chrome failed to start",),
        re.compile(
            r"(?:^|\s)(?:[\w.]{1,100}Exception: (?:Message: )?)?(?P<msg>unknown error:? Chrome failed to start: exited "
            r"abnormally)"
        ),
        "WebDriverException",
    ),
]
