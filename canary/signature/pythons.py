"""What Python itself adds to a message or a post adds after it: the guess after a name not found, where a module
was found, escaped quotes, an exception's arguments printed as a tuple, a title's words after the attribute an
AttributeError names; the messages the interpreter words for a program's own mistake, which name no code; and what
the platform words its own way (Windows' errors by code and file). Pure. Each is stated once,
with the reason it is safe, in :data:`canary.signature.folds.RULES`.
"""

from __future__ import annotations

import re

from canary.signature.databases import sqlstate_message
from canary.signature.rewordings import Parts

# Python's "cannot import name 'x' from 'y' (<where y is installed>)"; a post's copy may lose a quote of the module's
# name or the space before where it was found ("... from django.utils.encoding'(<path>)", "... from 'scipy.linalg");
# "(unknown location)" is no place but a namespace without the package in it: a package not installed at all
_IMPORT_FROM = re.compile(r"^(cannot import name '[\w.]{1,200}' from) '?([\w.]{1,200}?)'?(?: ?\((.{0,1000}))?$")


# Python 2 names a module or a name it could not import without quotes ("No module named foo.bar")
_UNQUOTED_IMPORT = re.compile(r"^(No module named|cannot import name) ([A-Za-z_][\w.]{0,200})$")


# a module not found is named on one line, whatever output ran on after it (iconv's complaint from a shell's prompt)
_MODULE_THEN = re.compile(r"^(No module named '[\w.]{1,200}') (?![(;]).*$")


# tempfile's "No usable temporary directory found in ['/tmp', '/var/tmp', '/usr/tmp', '/home/x']": the machine's list
_TEMP_DIRS = re.compile(r"^(\[Errno 2\] No usable temporary directory found) in \[.*$")
# Python 3.6's subprocess named a program it could not run in its words and the error named it again ("[Errno 2] No
# such file or directory: 'tesseract': 'tesseract'"); 3.7's names it once
_NAMED_TWICE = re.compile(r"^(\[Errno \d{1,4}\] [\w ]{1,100}: '([^']{1,300})'): '\2'$")


def import_location(exc: str | None, message: str, frames: list[str]) -> Parts:
    if message.startswith("cannot import name "):
        message = _IMPORT_FROM.sub(
            lambda m: f"{m[1]} '{m[2]}'" + (" (unknown location)" if m[3] == "unknown location)" else ""), message
        )
    elif message.startswith("[Errno 2] No usable temporary"):
        message = _TEMP_DIRS.sub(r"\1", message)
    elif message.startswith("[Errno ") and message.endswith("'"):
        message = _NAMED_TWICE.sub(r"\1", message)
    elif message.startswith("No module named '"):
        message = _MODULE_THEN.sub(r"\1", message)
    return exc, _UNQUOTED_IMPORT.sub(r"\1 '\2'", message), frames


# (a span the post closed after the message, before a comma or the post's own words: "... not callable` issue is hit")
_SPAN_END = re.compile(r"(?<=\S)`(?:, | (?=[a-z]{2,20} [a-z]{2,20}\b))")


def escaped_quotes(exc: str | None, message: str, frames: list[str]) -> Parts:
    """A message's quotes escaped by a repr or a post (``you must use the \\'spawn\\' start method``) are its quotes;
    a backtick that closes no code span at its end (``... float32, uint8` ``, or before a full stop) is the post's, and
    so are the words after one that closes the post's span before a comma or its words (``... 60 seconds`, when
    trying to ...``, ``... not callable` issue is hit when ...``)."""
    if "\\" in message:
        message = message.replace("\\'", "'").replace('\\"', '"')
    if message.endswith("```"):
        message = message[:-3].rstrip()  # (a post's fence glued to the line's end)
    if message.startswith("**") and message.endswith("**") and "*" not in message[2:-2]:
        message = message[2:-2].strip()  # (a post's bold around the whole message)
    if message.count('"') == 1 and message.endswith("'\""):
        message = message[:-1]  # (a double quote after the message's own closing quote, closing nothing, is the post's)
    if message.count("`") == 1 and message.rstrip(".").endswith("`"):
        message = message.rstrip(".")[:-1].rstrip()
    elif message.count("`") == 1 and (end := _SPAN_END.search(message)):
        message = message[: end.start()].rstrip()
    return exc, message, frames


# an exception raised with several arguments prints them as a tuple ("RefreshError: ('invalid_grant: Bad Request',
# {'error': 'invalid_grant', ...})"); the first is its message, the rest the response it carried (a dict in one
# release of google-auth, its JSON text in another)
# (a post cut inside the next argument, a dict or a list, leaves it open: "('invalid_grant: ...', {")
_ARGS = re.compile(r"""^\((?P<q>['"])(?P<first>(?:(?!(?P=q)).){1,1000})(?P=q), (?:.*\)|[{\[].{0,2000})$""")


# (a message a stray comma split into strings is one: "('Quantization scheme is not supported for ', 'the current
# GPU. Min capability: 80. ', 'Current capability: 75.')")
_STRINGS = re.compile(r"""^\((?:'[^'{\[][^']{0,500} ', ){1,9}'[^'{\[][^']{0,500}',?\)$""")
_PIECE = re.compile(r"'([^']{0,500})'")


def exception_args(exc: str | None, message: str, frames: list[str]) -> Parts:
    if message.startswith("('") and (said := sqlstate_message(message)):  # (pyodbc's: its words, not its SQLSTATE)
        return exc, said, frames
    if exc and message == exc.rpartition(".")[2]:
        return exc, "", frames  # (an error whose words are its class's name, kafka-python's: no words)
    if message.startswith("(") and _STRINGS.match(message):
        return exc, "".join(_PIECE.findall(message)).strip(), frames
    m = _ARGS.match(message) if message.startswith("(") else None
    return exc, m["first"] if m else message, frames


# a post that runs its own words on after the message in a script that writes full-width punctuation ("... has no
# attribute 'ds_opt_adam'"，请问这是什么原因？", "... at non-singleton dimension 1]，qwen"): the closing bracket or
# double quote it opened before the message and what follows are the post's (its words, or one word: not code the post
# typed a full-width comma into), or its words in such a script after a blank
_POST_TAIL = re.compile(
    r"^([\x00-\x7f]{8,}?)(?:[\])\"`]{0,3}\s?[\uff0c\u3002\uff1f\uff01\uff1b](?=[^\x00-\x7f]|\w{1,20}$)|\s(?=[\u4e00-\u9fff])).*$"
)


# conda run's report that the program it ran failed, on the line after the program's error ("ERROR
# conda.cli.main_run:execute(124): `conda run python train.py` failed. (See above for error)")
_CONDA_RUN = re.compile(r"\s(?:\*\*)?ERROR conda\.cli\.main_run:execute\(\d{1,6}\): .*$")


def post_tail(exc: str | None, message: str, frames: list[str]) -> Parts:
    if not message.isascii():
        message = _POST_TAIL.sub(r"\1", message)
    if "conda.cli.main_run" in message:
        message = _CONDA_RUN.sub("", message)
    return exc, message, frames


# pickle's refusal of an object, by release: 3.7's "can't pickle _thread.lock objects", 3.8's "cannot pickle
# '_thread.lock' object", 3.14's with notes on where it met it ("... when serializing dict item '_pipe_lock' when
# serializing ..."): which type it could not pickle is the failure, where in the program's object the program's
_PICKLE_OLD = re.compile(r"^can't pickle ([\w.]{1,200}) objects?\.?$")  # (a typed full stop too)
_PICKLE_NOTES = re.compile(r"^(cannot pickle '[\w.]{1,200}' object) when serializing\b.*$")


def pickle_words(exc: str | None, message: str, frames: list[str]) -> Parts:
    if message.startswith("can't pickle "):
        message = _PICKLE_OLD.sub(r"cannot pickle '\1' object", message)
    elif message.startswith("cannot pickle '"):
        message = _PICKLE_NOTES.sub(r"\1", message)
    return exc, message, frames


# Python since 3.10 follows an AttributeError, a NameError or an ImportError with its guess ("... has no attribute
# 'tree_map'. Did you mean: 'tree_util'?"): the same failure under an older Python has none
_DID_YOU_MEAN = re.compile(r"\.? Did you mean: '[\w.]{1,200}'\?$")


# an AttributeError's message ends at the attribute's quote; what a title or a post goes on with after it ("... has
# no attribute 'DeviceLocalLayout' with `jax==0.8.0` and `orbax==0.11.13`") is the reporter's, and what a module's
# __getattr__ adds after its sentence is advice (NumPy 1.24's "... has no attribute 'float'. `np.float` was a
# deprecated alias for the builtin `float`. To avoid this error ..." that a post may quote or leave out)
_ATTRIBUTE_TAIL = re.compile(
    # (or a Chinese sentence run on without a blank: "... has no attribute 'float8_e4m3fn'是什么原因？")
    r"^((?:module '[\w.]{1,200}'|'[\w.]{1,200}' object) has no attribute '\w{1,200}')"
    r"(?:\.?\s.|[\u4e00-\u9fff]).{0,1000}$"
)


# (and a paste that lost the attribute's closing quote: "'Config' object has no attribute 'define_bool_state")
_ATTRIBUTE_UNCLOSED = re.compile(r"^((?:module '[\w.]{1,200}'|'[\w.]{1,200}' object) has no attribute '\w{1,200})$")


# (a name a class lacks, read off the class rather than an instance: "type object 'Web3' has no attribute
# 'toChecksumAddress'", where another program's "'Web3' object has no attribute ..." met the same release)
_TYPE_OBJECT = re.compile(r"^type object ('[\w.]{1,200}') (?=has no attribute ')")


# (a title that drops the quotes, "module jax.core has no attribute NamedShape"; jax's shim for a name it removed,
# "jax.interpreters.xla.pytype_aval_mappings was removed in JAX v0.7.0", until a later release drops the shim and Python
# says the module has no such attribute)
_MODULE_UNCLOSED = re.compile(r"^(No module named '[\w.]{1,200})$")
_MODULE_TAIL = re.compile(r"^(No module named '[\w.]{1,200}')(?: (?=[a-z])[\w ,.]{1,200}|\*\*)$")
_UNQUOTED = re.compile(r"^module ([\w.]{1,200}) has no attribute (\w{1,200})$")
_REMOVED_IN_JAX = re.compile(
    r"^(jax(?:\.\w{1,100}){0,6})\.(\w{1,200}) was (?:deprecated in JAX v[\d.]{1,20} and )?removed in JAX "
    r"v[\d.]{1,20}\b.{0,300}$"
)


def did_you_mean(exc: str | None, message: str, frames: list[str]) -> Parts:
    if exc in ("AttributeError", "NameError", "ImportError", "ModuleNotFoundError") and "Did you mean" in message:
        message = _DID_YOU_MEAN.sub("", message)
    if exc in ("ModuleNotFoundError", "ImportError") and message.startswith("No module named '"):
        message = _MODULE_UNCLOSED.sub(r"\1'", message)  # (a post that lost the module's closing quote)
        message = _MODULE_TAIL.sub(r"\1", message)  # (or wrote on after it: "... 'cgi' when pip install", bold's **)
    if exc == "AttributeError":
        message = _ATTRIBUTE_UNCLOSED.sub(r"\1'", _ATTRIBUTE_TAIL.sub(r"\1", _TYPE_OBJECT.sub(r"\1 object ", message)))
        message = _REMOVED_IN_JAX.sub(
            r"module '\1' has no attribute '\2'", _UNQUOTED.sub(r"module '\1' has no attribute '\2'", message)
        )
    return exc, message, frames


# Python since 3.10 names a call's function by its qualified name in its argument errors ("Trainer.__init__() got an
# unexpected keyword argument 'gpus'", before "__init__() got ..."): the function and the argument are the failure
_CALL_QUALNAME = re.compile(
    r"(?:^|(?<=: ))(?:[A-Za-z_]\w{0,100}\.){1,6}(?=\w{1,100}\(\) (?:got an unexpected keyword argument|got multiple "
    r"values for argument|missing \d{1,3} required|takes \d{1,3} positional arguments? but))"
)


# (a class's special method whose underscores a post's Markdown took for bold: "WebDriver.init() got ...")
_MARKDOWN_DUNDER = re.compile(r"(\b[A-Z]\w{0,100}\.)(init|call|new)(?=\(\) )")


# Python 2's count of a call's arguments ("on_connect() takes exactly 3 arguments (4 given)"), in Python 3's words
_PY2_COUNT = re.compile(r"^(\w{1,100}\(\)) takes exactly (\d{1,3}) arguments? \((\d{1,3}) given\)$")


def call_qualname(exc: str | None, message: str, frames: list[str]) -> Parts:
    # (or relayed in another's message: docker-py's "Error while fetching server API version: HTTPConnection.request()
    # got an unexpected keyword argument 'chunked'")
    if "() " in message and (exc == "TypeError" or "() got " in message):
        message = _CALL_QUALNAME.sub("", _MARKDOWN_DUNDER.sub(r"\1__\2__", message))
        if " takes exactly " in message and (m := _PY2_COUNT.match(message)):
            takes, given = ("argument" if m[2] == "1" else "arguments"), ("was" if m[3] == "1" else "were")
            message = f"{m[1]} takes {m[2]} positional {takes} but {m[3]} {given} given"
    return exc, message, frames


# the interpreter's words for a program's own mistake that name neither a function nor a library: any program
# can make it anywhere, so only where it was made tells two apart (the ``program-frames`` rule keeps its call path)
_INTERPRETER = re.compile(
    r"unsupported operand type\(s\)|can only concatenate|can't multiply sequence|object is not "
    r"(?:subscriptable|callable|iterable|an iterator)|has no len\(\)|index out of range|division (?:or modulo )?by "
    r"zero|unhashable type|referenced before assignment|not supported between instances|cannot unpack non-iterable|"
    r"too many values to unpack|not enough values to unpack|object does not support item assignment|"
    r"must be (?:str|int|real number), not|argument must be a string or a|is not defined$"
)


# pickle's few words that say what it was given, whoever read it: the protocol of a newer Python ("unsupported pickle
# protocol: 5"); not a first byte ("invalid load key, 'v'."), which says what the file is but not which loader met it
_SAYS_FILE = re.compile(r"^unsupported pickle protocol: \d{1,2}$")


def says_file(message: str) -> bool:
    """Whether ``message`` is pickle's few words that name the file it read (the ``program-frames`` rule)."""
    return bool(_SAYS_FILE.match(message))


def interpreter_words(message: str) -> bool:
    """Whether ``message`` is the interpreter's for a program's own mistake (``unsupported operand type(s) for +:
    'int' and 'NoneType'``), not a library's check (PyMongo's attribute that became a collection: "'Collection' object
    is not callable. If you meant to call the 'count' method ...")."""
    return bool(_INTERPRETER.search(message)) and "If you meant to call the '" not in message


# Windows words an OSError's code in the machine's language ("[WinError 126] The specified module could not be
# found.", "[WinError 126] 找不到指定的模块。") and torch names the DLL by where it is installed; a codec's error names
# the position of the byte in whatever it read; Click's refusal of an ASCII interpreter advises differently by release
_WIN_ERROR = re.compile(r"^(\[WinError \d{1,6}\])")
_DLL = re.compile(r'Error loading \\?"(?:[^"]{0,500}?[\\/])?([^"\\/]{1,200}\.dll)\\?"')
# (and names the file it refused by its path: the file, by its name, is the failure, where it lies the machine's; a
# temporary file's random head, a vendored library's hash, which wheel pip downloaded and when and where TensorBoard
# wrote its events are not)
_WIN_FILE = re.compile(r"^\[WinError \d{1,6}\] [^']{0,300}?: '(?:[^']{0,1000}[\\/])?([^'\\/]{1,200})'")
_RANDOM = re.compile(
    r"^tmp[a-z0-9_]{8}(?=_)|(?<=\.)[A-Z0-9]{20,}(?=\.)|^[\w.+-]{1,200}(?=\.whl$)|(?<=tfevents\.).*$|\d{4,}"
)
# (Python raises a Windows error as the OSError subclass of the errno it maps the code to)
_WIN_CLASS = {"2": "FileNotFoundError", "3": "FileNotFoundError", "206": "FileNotFoundError", "5": "PermissionError"}
_WIN_CLASS |= {"32": "PermissionError", "183": "FileExistsError"}


def win_class(message: str) -> str:
    """The class Python raises a Windows error's message (``[WinError 32] ...``) with."""
    code = re.match(r"\[WinError (\d{1,6})\]", message)
    return _WIN_CLASS.get(code[1], "OSError") if code else "OSError"


_TOO_LONG = "[WinError 206] a path too long"


def win_error(message: str) -> str:
    """A Windows error by its code, and the DLL or file it names by name (``[WinError 32] file: *_in_process.py``)."""
    code, dll = _WIN_ERROR.match(message), _DLL.search(message)
    if code is None:
        return message
    if message.startswith(code[1] + " file: ") or message == _TOO_LONG:
        return message  # (already by its file, or by the limit)
    file = _WIN_FILE.match(message) if dll is None else None
    if file and code[1] == "[WinError 206]":
        return _TOO_LONG  # (Windows' limit on a path's length: whichever file met it)
    said = f' Error loading "{dll[1]}" or one of its dependencies' if dll else ""
    return code[1] + said + (f" file: {_RANDOM.sub('*', file[1].strip())}" if file else "")


# Python since 3.8 names the module a DLL failed for ("DLL load failed while importing _C:"): where it was imported
_DLL_MODULE = re.compile(r"^(DLL load failed) while importing \w{1,100}:")
# and Windows words why in the machine's language: a module not found (126), a DLL's initialisation failed (1114)
_DLL_WHY = (
    (
        re.compile(
            r"The specified module could not be found|找不到指定的模块|Das angegebene Modul wurde nicht gefunden|"
            r"Не найден указанный модуль"
        ),
        "The specified module could not be found.",
    ),
    (
        re.compile(
            r"initiali[sz]ation routine failed|failure occurred in the dynamic link library \(DLL\) initiali|"
            r"DLL-Initialisierungsroutine ist fehlgeschlagen|инициализации библиотеки динамической компоновки|"
            r"动态链接库\(DLL\)初始化例程失败"
        ),
        "A dynamic link library (DLL) initialization routine failed.",
    ),
)
_CODEC_POSITION = re.compile(r"(codec can't (?:en|de)code \S{1,60}(?: \S{1,20})? in position) \d{1,12}(?:-\d{1,12})?")
# (which character a console's codec could not encode is the data's, one or several: the codec is the failure; a byte
# it could not decode says which encoding the file was in, and stays)
_CODEC_CHARACTER = re.compile(r"(codec can't encode) characters? (?:'[^']{1,12}' )?(in position)")
# macOS's loader names the library it opened (without the tag of the Python it was built for) and the one it lacks by
# their paths and a mode (6, later 0x0006, quoted), then why: "Reason: image not found" before macOS 12, the paths it
# "tried: '...' (no such file)" since
_DYLD = re.compile(
    r"^dlopen\((?:\S{0,500}/)?([^/\s,]{1,200}?)(?:\.cpython-\w{1,20}-[\w-]{1,60}|\.abi3)?((?:\.so|\.dylib)?), "
    r"\S{1,20}\): "
    r"Library not loaded: '?(?:\S{0,500}/)?([^/\s']{1,200})'?\b.*$"
)
# ... or found, built for another architecture (an x86_64 wheel under an arm64 Python, or the other way): the
# extension by its name, not its path or the tag of the Python it was built for, and the two architectures (macOS 12
# quotes them in parentheses and names Apple silicon's arm64e, later releases quote them as 'x86_64', 'arm64')
_DYLD_ARCH = re.compile(
    r"^dlopen\((?:[^,]{0,500}/)?([^/,]{1,200}?)(?:\.cpython-\w{1,20}-[\w-]{1,60}|\.abi3)?(\.so|\.dylib), [^)]{1,20}\): "
    r".{0,3000}?incompatible architecture \(have \(?'?(\w{1,20})'?\)?, need \(?'?(\w{1,20}?)e?'?\)?\)"
)
# cffi's library it could not load, by its path and the loader's words ("cannot load library '/usr/local/lib/
# libsndfile.dylib': dlopen(..., 0x0002): tried: '...' (mach-o file, but is an incompatible architecture ...)", macOS
# 11's "no suitable image found. Did find: ...", "(no such file)", Linux's "cannot open shared object file")
# (Windows' loader by its error's code, which the masks took: "...\\bin\\libvips-42.dll': error 0xc1", and a note of
# cffi's own after it, "Additionally, ctypes.util.find_library() did not manage to locate ...")
_CFFI = re.compile(r"^cannot load library '(?:[^']{0,500}[/\\])?([^'/\\]{1,200})': ")
_CFFI_WHY = (
    (re.compile(r"architecture|no suitable image found"), "wrong architecture"),
    (re.compile(r"\(no such file\)|image not found|cannot open shared object file"), "not found"),
    (re.compile(r"^error <hex>(?:\.|$)"), "error <hex>"),
)
_CLICK_ASCII = re.compile(
    r"^(Click will abort further execution because Python)(?: 3)?( was configured to use ASCII as encoding for the "
    r"environment)\b.{0,1000}$"
)


def platform_words(exc: str | None, message: str, frames: list[str]) -> Parts:
    """The ``platform-words`` rule: a Windows error by its code and DLL, macOS's loader by the libraries' names, a
    codec's error without the position, Click's
    refusal without its advice."""
    if message.startswith("[WinError "):
        message = win_error(message)
    elif message.startswith("DLL load failed"):
        message = _DLL_MODULE.sub(r"\1:", message)
        why = next((w for rx, w in _DLL_WHY if rx.search(message)), None)
        message = f"DLL load failed: {why}" if why else message
    elif message.startswith("unsupported hash type "):
        message = message.lower()  # (hashlib names the digest as the program spelled it: "MD4", "md4")
    elif "codec can't" in message:
        message = _CODEC_POSITION.sub(r"\1 <n>", _CODEC_CHARACTER.sub(r"\1 characters \2", message))
    elif message.startswith("dlopen(") and (m := _DYLD_ARCH.match(message)):
        message = f"dlopen({m[1]}{m[2]}): incompatible architecture (have {m[3]}, need {m[4]})"
    elif message.startswith("dlopen(") and (m := _DYLD.match(message)):
        arch = " (wrong architecture)" if "architecture" in message else ""
        message = f"dlopen({m[1]}{m[2]}): Library not loaded: {m[3]}{arch}"
    elif message.startswith("cannot load library '") and (m := _CFFI.match(message)):
        why = next((w for rx, w in _CFFI_WHY if rx.search(message[m.end() :])), None)
        message = f"cannot load library '{m[1]}': {why}" if why else message
    elif message.startswith("Click will abort"):
        message = _CLICK_ASCII.sub(r"\1\2", message)
    elif "cannot open shared object file; " in message:
        # (a program's own report of the loader's error, its colon a semicolon)
        message = message.replace("cannot open shared object file; ", "cannot open shared object file: ", 1)
    return exc, message, frames
