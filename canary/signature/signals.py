"""What a process that died of a signal says of it: the shell's words (in the system's language), the launcher's
"killed by signal", an exit status past 128. Pure.
"""

from __future__ import annotations

import re
import signal as signal_mod

from canary.signature.lines import last_output

# a shell's words for a signal in the system's language (glibc's strsignal: zh_CN, de_DE, ja_JP, ru_RU, es, fr)
_LOCALISED_SIGNALS = {
    "已杀死": "Killed",
    "段错误": "Segmentation fault",
    "已放弃": "Aborted",
    "总线错误": "Bus error",
    "非法指令": "Illegal instruction",
    "浮点数例外": "Floating point exception",
    "Getötet": "Killed",
    "Speicherzugriffsfehler": "Segmentation fault",
    "Abgebrochen": "Aborted",
    "セグメンテーション違反です": "Segmentation fault",
    "中止": "Aborted",
    "Ошибка сегментирования": "Segmentation fault",
    "Аварийный останов": "Aborted",
    "Violación de segmento": "Segmentation fault",
    "Erreur de segmentation": "Segmentation fault",
}
_SHELL_SIGNAL = re.compile(
    r"(?:^|(?<=[\s\]*`]))(?P<name>[Kk]illed|[Ss]egmentation fault|Aborted|Bus error|Terminated|Illegal instruction|"
    r"Floating point exception|" + "|".join(_LOCALISED_SIGNALS) + r")"
    # ("(core dumped)" in the system's language: "(核心已转储)", "(Speicherabzug geschrieben)")
    r"(?:\s{1,8}\(core dumped\)|\s{0,8}[(（][^()（）]{1,40}[)）])?\s{0,80}(?:python\S{0,200}.{0,300})?[`*]{0,3}$"
)
_SIGNAL_WORDS = {
    "Killed": "SIGKILL",
    "Segmentation fault": "SIGSEGV",
    "Aborted": "SIGABRT",
    "Bus error": "SIGBUS",
    "Terminated": "SIGTERM",
    "Illegal instruction": "SIGILL",  # a binary built for instructions the CPU lacks (jaxlib's AVX)
    "Floating point exception": "SIGFPE",
}
_SIGNAL_TEXT = re.compile(r"(?:killed|terminated) by signal (?P<sig>SIG[A-Z]+|\d+)", re.I)
_EXIT_CODE = re.compile(r"exit(?:ed with)? (?:code|status) (?P<rc>\d+)", re.I)


def signal_name(value: str | int) -> str:
    if isinstance(value, str) and value.startswith("SIG"):
        return value
    try:
        return signal_mod.Signals(abs(int(value))).name
    except (ValueError, TypeError):
        return f"signal {value}"


def signal_from_text(lines: list[str]) -> str | None:
    for line in reversed(last_output(lines, 5)):
        m = _SIGNAL_TEXT.search(line)
        if m:
            return signal_name(m.group("sig"))
        m = _SHELL_SIGNAL.search(line.strip())
        if m:
            name = _LOCALISED_SIGNALS.get(m.group("name"), m.group("name"))
            return _SIGNAL_WORDS[name.capitalize()]  # zsh's job report is in lower case
        m = _EXIT_CODE.search(line)
        if m and int(m.group("rc")) > 128:
            return signal_name(int(m.group("rc")) - 128)
    return None
