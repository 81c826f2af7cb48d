"""Finding and reading the config files: a ``ferries/`` or ``gates/`` folder in the working
directory shadows the pinned one; a load error names the file and the dotted key; every run
records the path and sha256 of what it used, and whether they make it an experiment (not the
pinned files of its ferry's name). The only config module that does file I/O."""

from __future__ import annotations

import hashlib
import os
import re
import tomllib
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ValidationError

from canary.config.ferry import FERRY_KINDS, AnyFerry
from canary.config.gates import GatesFile
from canary.config.lanes import Lane, LanesFile
from canary.errors import ConfigError
from canary.textio import read_text


def project_root() -> Path:
    """The checkout (editable install) or the installed package's bundled data."""
    here = Path(__file__).resolve().parent.parent  # the canary package
    if (here.parent / "ferries").is_dir():
        return here.parent
    return here / "_data"


def search_dirs(kind: str) -> list[Path]:
    env = os.environ.get(f"CANARY_{kind.upper()}_PATH")
    dirs = [Path(p) for p in env.split(os.pathsep)] if env else []
    dirs += [Path.cwd() / kind, project_root() / kind]
    seen: list[Path] = []
    for d in dirs:
        if d not in seen:
            seen.append(d)
    return seen


_LABEL = {"ferries": "ferry", "gates": "gates file"}


def resolve(kind: str, name_or_path: str) -> Path:
    """A ferry or gates file by name (``moe-canary``) or by path."""
    p = Path(name_or_path)
    if p.suffix == ".toml" or os.sep in name_or_path or "/" in name_or_path:
        if p.is_file():
            return p
        raise ConfigError(f"no {_LABEL[kind]} at {name_or_path}")
    for d in search_dirs(kind):
        cand = d / f"{name_or_path}.toml"
        if cand.is_file():
            return cand
    known = sorted({f.stem for d in search_dirs(kind) if d.is_dir() for f in d.glob("*.toml")})
    raise ConfigError(
        f"unknown {_LABEL[kind]} {name_or_path!r}; "
        f"known: {', '.join(known) or 'none'} (searched {', '.join(str(d) for d in search_dirs(kind))})"
    )


def _loc(loc: tuple[Any, ...]) -> str:
    return ".".join(str(p) for p in loc if not str(p).startswith("function-after")) or "(top level)"


_SUBKEY = re.compile(r"^(?P<key>[A-Za-z_][\w.]*): (?P<msg>.+)$", re.S)


def _read_toml(path: Path) -> dict[str, Any]:
    try:
        return tomllib.loads(read_text(path))
    except tomllib.TOMLDecodeError as e:
        raise ConfigError(f"{path}: not valid TOML: {e}") from None
    except RecursionError:
        raise ConfigError(f"{path}: not valid TOML: nested too deeply") from None
    except OSError as e:
        raise ConfigError(f"{path}: cannot read: {e.strerror}") from None


def load_model(model: type[BaseModel], path: Path, data: dict[str, Any] | None = None) -> Any:
    """The file at ``path`` (its TOML ``data``, when already read) as ``model``, or the error naming its keys."""
    data = _read_toml(path) if data is None else data
    try:
        return model.model_validate(data)
    except ValidationError as e:
        lines = []
        for err in e.errors():
            key = _loc(err["loc"])
            msg = err["msg"]
            if err["type"] == "extra_forbidden":
                msg = "unknown key"
            elif err["type"] == "value_error":
                # a validator's "sub.key: what" names a key below the one it checks
                msg = str(err.get("ctx", {}).get("error", msg))
                sub = _SUBKEY.match(msg)
                if sub:
                    key = sub["key"] if key == "(top level)" else f"{key}.{sub['key']}"
                    msg = sub["msg"]
            lines.append(f"  {key}: {msg}")
        label = "ferry" if model in FERRY_KINDS.values() else model.__name__.lower()
        raise ConfigError(f"{path}: invalid {label}:\n" + "\n".join(lines)) from None


def file_sha256(path: Path) -> str:
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()


def config_identity(kind: str, path: Path) -> dict[str, str]:
    """What a run record keeps of the ferry or gates file it used: ``{kind}_path`` (absolute) and
    ``{kind}_sha256`` (of the file's bytes), kind being ``ferry`` or ``gates``."""
    return {f"{kind}_path": str(Path(path).resolve()), f"{kind}_sha256": file_sha256(path)}


def source_note(kind: str, path: str | Path, sha256: str) -> str | None:
    """How the ferry or gates file a run used relates to the pinned one of its name (in the
    checkout or the installed package), given its path and the sha256 it had when used: None when
    it is the pinned file. A ``ferries/`` or
    ``gates/`` directory in the working directory, or ``$CANARY_FERRIES_PATH`` /
    ``$CANARY_GATES_PATH``, is searched first, so a file there shadows the pinned one."""
    path = Path(path).resolve()
    label = _LABEL["ferries" if kind == "ferry" else "gates"]
    pinned = project_root() / ("ferries" if kind == "ferry" else "gates") / path.name
    if pinned.is_file() and pinned.resolve() == path:
        return None
    if not pinned.is_file():
        return f"not a pinned {label}"
    if file_sha256(pinned) == sha256:
        return f"a copy of the pinned {label}"
    return f"local override of the pinned {label}"


def experiment(ferry: str, identity: dict[str, str]) -> str | None:
    """Why a run of the ferry named ``ferry`` with the files ``identity`` (:func:`config_identity`
    of its ferry and of its gates) is an experiment, or None when it is not: a ferry or gates file
    that differs from the pinned one of the ferry's name (a working directory's ``ferries/`` or
    ``gates/`` shadowing it, or a file named by path). A byte-for-byte copy of the pinned file is
    the pinned file; a ferry with no pinned file of its name (one's own) has nothing to differ from."""
    why = []
    for kind, folder in (("ferry", "ferries"), ("gates", "gates")):
        pinned = project_root() / folder / f"{ferry}.toml"
        sha = identity.get(f"{kind}_sha256")
        if sha and pinned.is_file() and file_sha256(pinned) != sha:
            why.append(f"{_LABEL[folder]} {identity.get(f'{kind}_path')} is not the pinned {folder}/{ferry}.toml")
    return "; ".join(why) or None


def load_ferry(name_or_path: str = "moe-canary") -> tuple[AnyFerry, Path]:
    """A ferry by name or path: the built-in kind, or ``kind = "command"``."""
    path = resolve("ferries", name_or_path)
    data = _read_toml(path)
    kind = data.get("kind", "builtin")
    if kind not in FERRY_KINDS:
        raise ConfigError(
            f"{path}: invalid ferry:\n  kind: {kind!r} is not a ferry kind; "
            f"known: {', '.join(repr(k) for k in FERRY_KINDS)}"
        )
    return load_model(FERRY_KINDS[kind], path, data), path


def load_gates(name_or_path: str) -> tuple[GatesFile, Path]:
    path = resolve("gates", name_or_path)
    return load_model(GatesFile, path), path


def load_lanes(path: str | None = None) -> tuple[dict[str, Lane], Path]:
    p = Path(path) if path else Path(os.environ.get("CANARY_LANES", project_root() / "lanes.toml"))
    if not p.is_file():
        raise ConfigError(f"no lanes file at {p}")
    return load_model(LanesFile, p).lanes, p


def get_lane(name: str, path: str | None = None) -> Lane:
    lanes, p = load_lanes(path)
    try:
        return lanes[name]
    except KeyError:
        raise ConfigError(f"unknown lane {name!r}; {p} defines: {', '.join(lanes)}") from None
