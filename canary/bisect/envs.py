"""Throwaway environments for testing published versions: one venv per Python, each candidate's
wheels laid over it.

* The Python: ``--python`` as a path, a command (``python3.12``) or a version (``3.12``: found on
  PATH or among pyenv's versions); by default the running one, else the newest one found that is
  offered both ends (pip lists only the versions an interpreter may install).
* The base venv, built once per Python and set of packages under the user cache dir: canary's own
  requirements and the new end's dependencies, then the moving distributions removed again, so
  every candidate, the new end too, is laid over the same base. The cache keeps the most
  recently used few (:mod:`canary.bisect.cache`).
* A candidate: pip resolves ``NAME==V ...`` against the base (``install --dry-run --report``: what
  it would install, the base's versions kept where they satisfy), those wheels are fetched into a
  wheel cache and each unpacked once into its own directory; the candidate's PYTHONPATH lists them
  first, so what it pins wins over the base. A repeat asks pip nothing: the resolution, the wheels
  and the unpacked trees are all kept.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import shutil
import subprocess
import zipfile
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO

from packaging.utils import InvalidWheelFilename, canonicalize_name, parse_wheel_filename
from packaging.version import Version

from canary.bisect.cache import KEEP_ENVS, READY, build_lock, hold, locked, prune
from canary.errors import CanaryError, ConfigError

PIP_ENV = {"PIP_DISABLE_PIP_VERSION_CHECK": "1", "PIP_NO_INPUT": "1", "PYTHONNOUSERSITE": "1"}


# ----------------------------------------------------------------------------- the Python


@dataclass(frozen=True)
class Python:
    path: str  # the interpreter as found
    version: str  # 3.12.1
    tag: str  # cp312: which wheels fit it

    def describe(self) -> str:
        return f"Python {self.version} ({self.path})"


def probe(path: str) -> Python | None:
    try:
        p = subprocess.run(
            [path, "-c", "import sys; print('%d.%d.%d cp%d%d' % (sys.version_info[:3] + sys.version_info[:2]))"],
            capture_output=True,
            text=True,
            timeout=60,
        )
    except (OSError, subprocess.SubprocessError):
        return None
    parts = p.stdout.split()
    return Python(path, parts[0], parts[1]) if p.returncode == 0 and len(parts) == 2 else None


def _pyenv_pythons() -> list[str]:
    roots = [os.environ.get("PYENV_ROOT", ""), str(Path.home() / ".pyenv")]
    found = []
    for root in dict.fromkeys(r for r in roots if r):
        for d in sorted((Path(root) / "versions").glob("*/bin/python")):
            if re.fullmatch(r"\d+\.\d+\.\d+", d.parent.parent.name):
                found.append(str(d))
    return found


def discovered() -> list[str]:
    """Interpreters on this machine, newest first: python3.N on PATH and pyenv's versions."""
    found = [w for n in range(20, 8, -1) if (w := shutil.which(f"python3.{n}")) and "/shims/" not in w]
    return sorted(dict.fromkeys(found + _pyenv_pythons()), key=_version_of_path, reverse=True)


def _version_of_path(path: str) -> tuple[int, ...]:
    m = re.search(r"(\d+)\.(\d+)(?:\.(\d+))?/bin/python$", path) or re.search(r"python(\d+)\.(\d+)$", path)
    return tuple(int(g or 0) for g in m.groups()) if m else (0,)


def find_python(spec: str) -> Python:
    """``--python``: a path, a command on PATH, or a version (3.12, 3.12.1). ConfigError if none is."""
    if re.fullmatch(r"\d+\.\d+(\.\d+)?", spec):
        want = tuple(int(x) for x in spec.split("."))
        for path in [shutil.which(f"python{spec}") or ""] + discovered():
            py = probe(path) if path else None
            if py and tuple(int(x) for x in py.version.split("."))[: len(want)] == want:
                return py
        raise ConfigError(
            f"--python {spec}: no Python {spec} on this machine (PATH or pyenv); found: "
            f"{', '.join(discovered()) or 'none'}"
        )
    path = spec if os.sep in spec else shutil.which(spec)
    py = probe(path) if path else None
    if py is None:
        raise ConfigError(
            f"--python {spec}: no such Python (not a path to an interpreter, a command on PATH, "
            f"or a version such as 3.12)"
        )
    return py


# ----------------------------------------------------------------------------- pip


def pip(python: str, *args: str, timeout: float = 1800) -> subprocess.CompletedProcess:
    env = {**os.environ, **PIP_ENV}
    env.pop("PYTHONPATH", None)
    try:
        return subprocess.run([python, "-m", "pip", *args], capture_output=True, text=True, timeout=timeout, env=env)
    except subprocess.TimeoutExpired:
        return subprocess.CompletedProcess(
            [python, "-m", "pip", *args], 124, "", f"ERROR: pip ran past {timeout:.0f} s"
        )


def pip_error(p: subprocess.CompletedProcess) -> str:
    """pip's own words for a failure: its ERROR lines, else its last line."""
    lines = [ln.strip() for ln in (p.stderr + "\n" + p.stdout).splitlines() if ln.strip()]
    errors = [ln for ln in lines if ln.startswith("ERROR:")]
    return " ".join(errors or lines[-1:])[:400] or f"pip exited {p.returncode}"


def listing(python: Python, package: str) -> list[str] | None:
    """What the registry publishes of ``package`` for this Python (pre-releases too); None: nothing.
    ConfigError when this Python's pip cannot say (no pip, or one too old for ``pip index``);
    IndexUnreachable when pip found nothing because an index did not answer (pip says "No matching
    distribution" either way, and names the failed fetch only at ``-vv``)."""
    from canary.bisect.versions import IndexUnreachable, fetch_failures, parse_listing

    p = pip(python.path, "index", "versions", "-vv", "--pre", package, timeout=300)
    versions = parse_listing(p.stdout)
    if p.returncode == 0 and versions:
        return versions
    failed = fetch_failures(p.stderr + "\n" + p.stdout)
    if failed:
        raise IndexUnreachable(
            f"--package {package}: index unreachable, so what it publishes is unknown "
            f"(pip: {failed[-1].strip()[:300]}); check the index (PIP_INDEX_URL, pip.conf) and the network"
        )
    if "No matching distribution" in p.stderr + p.stdout:
        return None
    raise ConfigError(f"{python.describe()} cannot list what the registry publishes: {pip_error(p)}")


# ----------------------------------------------------------------------------- the base venv


@dataclass
class Base:
    root: Path
    python: Python
    moving: list[str]  # the distributions removed again: every candidate lays its own
    built: bool = False  # built by this call (not found in the cache)
    held: IO[str] | None = None  # while open, the venv is in use and is not pruned
    pruned: list[Path] = field(default_factory=list)  # the older venvs removed when this one was taken

    @property
    def interpreter(self) -> str:
        return str(self.root / "bin" / "python")

    def release(self) -> None:
        """No longer in use: it may be pruned when other venvs are taken."""
        if self.held is not None:
            self.held.close()
            self.held = None


def _key(*parts: object) -> str:
    return hashlib.sha256(json.dumps(parts, sort_keys=True, default=str).encode()).hexdigest()[:12]


def env_root(python: Python, packages: list[str], new: str, requires: list[str], cache: Path) -> Path:
    """Where the base venv for this Python, these packages, this new end and these requirements lies."""
    pins = sorted(f"{canonicalize_name(p)}=={new}" for p in packages)
    return cache / "envs" / f"py{python.version}-{_key(os.path.realpath(python.path), pins, sorted(requires))}"


def base_env(
    python: Python,
    packages: list[str],
    new: str,
    requires: list[str],
    cache: Path,
    say: Callable[[str], None] = lambda _: None,
    keep: int = KEEP_ENVS,
) -> Base:
    """The venv every candidate is laid over (built once; kept in ``cache``), held in use until
    :meth:`Base.release`; the venvs beyond the ``keep`` most recently used are removed."""
    root = env_root(python, packages, new, requires, cache)
    with locked(build_lock(root)):
        base = _base_env(python, packages, new, requires, root, say)
        base.held = hold(root)
    base.pruned = prune(root.parent, keep, root)
    return base


def _base_env(
    python: Python, packages: list[str], new: str, requires: list[str], root: Path, say: Callable[[str], None]
) -> Base:
    """(Under the venv's build lock.) Find the venv complete, else build it."""
    from canary.bisect.versions import pinned_along

    pins = sorted(f"{canonicalize_name(p)}=={new}" for p in packages)
    ready = root / READY
    if ready.is_file():
        facts = json.loads(ready.read_text())
        return Base(root, python, facts["moving"])
    shutil.rmtree(root, ignore_errors=True)
    say(f"building the {python.describe()} environment: {', '.join(pins)} and their dependencies")
    p = subprocess.run([python.path, "-m", "venv", str(root)], capture_output=True, text=True, timeout=600)
    if p.returncode != 0:
        raise CanaryError(f"cannot make a venv with {python.describe()}: {pip_error(p)}")
    base = Base(root, python, [])
    report = root / "install-report.json"
    p = pip(base.interpreter, "install", "--pre", "--quiet", "--report", str(report), *requires, *pins)
    if p.returncode != 0:
        shutil.rmtree(root, ignore_errors=True)
        raise ConfigError(f"--new {new}: cannot install {' '.join(pins)} on {python.describe()}: {pip_error(p)}")
    installed = json.loads(report.read_text()).get("install", [])
    metadata = {i["metadata"]["name"]: i["metadata"].get("requires_dist") or [] for i in installed}
    base.moving = pinned_along(packages, new, metadata)
    p = pip(base.interpreter, "uninstall", "--yes", "--quiet", *base.moving)
    if p.returncode != 0:
        raise CanaryError(f"cannot remove {' '.join(base.moving)} from {root}: {pip_error(p)}")
    ready.write_text(json.dumps({"moving": base.moving, "python": python.version, "pins": pins}))
    base.built = True
    return base


# ----------------------------------------------------------------------------- a candidate


@dataclass
class Layer:
    """What a candidate is laid as: its distributions, and the directories to put first on PYTHONPATH."""

    dists: list[tuple[str, str]] = field(default_factory=list)  # (name, version) of each laid wheel
    paths: list[str] = field(default_factory=list)
    error: str | None = None  # why it cannot be installed

    def summary(self, moving: list[str]) -> str:
        """The distributions that are not the moving ones: where the candidate's dependencies differ."""
        moved = {canonicalize_name(m) for m in moving}
        other = [f"{n} {v}" for n, v in self.dists if canonicalize_name(n) not in moved]
        return ("also " + ", ".join(other)) if other else "over the base as it is"


def lay(base: Base, packages: list[str], version: str, cache: Path) -> Layer:
    """Resolve, fetch and unpack the candidate ``version`` of ``packages`` over ``base``."""
    wheels_dir = cache / "wheels" / base.python.tag
    resolved = base.root / "candidates" / f"{_key(sorted(canonicalize_name(p) for p in packages), version)}.json"
    if resolved.is_file():
        dists = [tuple(d) for d in json.loads(resolved.read_text())]
    else:
        reqs = [f"{p}=={version}" for p in packages]
        p = pip(base.interpreter, "install", "--dry-run", "--pre", "--quiet", "--report", "-", *reqs, timeout=900)
        if p.returncode != 0:
            return Layer(error=f"cannot be installed: {pip_error(p)}")
        try:
            items = json.loads(p.stdout).get("install", [])
        except ValueError:
            return Layer(error=f"cannot be installed: pip's report is not JSON: {p.stdout[:200]}")
        dists = [(i["metadata"]["name"], i["metadata"]["version"]) for i in items]
        resolved.parent.mkdir(parents=True, exist_ok=True)
        resolved.write_text(json.dumps(dists))
    with locked(wheels_dir / ".lock"):
        wanted = {(canonicalize_name(n), Version(v)) for n, v in dists}
        have = _wheels(wheels_dir)
        missing = [f"{n}=={v}" for n, v in dists if (canonicalize_name(n), Version(v)) not in have]
        if missing:
            p = pip(
                base.interpreter, "wheel", "--no-deps", "--pre", "--quiet", "--wheel-dir", str(wheels_dir), *missing
            )
            if p.returncode != 0:
                return Layer(dists, error=f"cannot be fetched: {pip_error(p)}")
            have = _wheels(wheels_dir)
        gone = wanted - set(have)
        if gone:
            return Layer(dists, error="cannot be fetched: no wheel of " + ", ".join(f"{n} {v}" for n, v in gone))
        paths = [
            str(unpack(have[(canonicalize_name(n), Version(v))], cache / "site" / base.python.tag)) for n, v in dists
        ]
    return Layer(dists, paths)


def _wheels(directory: Path) -> dict[tuple[str, Version], Path]:
    out: dict[tuple[str, Version], Path] = {}
    for f in sorted(directory.glob("*.whl")) if directory.is_dir() else ():
        try:
            name, version, _, _ = parse_wheel_filename(f.name)
        except InvalidWheelFilename:
            continue
        out[(canonicalize_name(name), version)] = f
    return out


def unpack(wheel: Path, site: Path) -> Path:
    """(Called under the wheel cache's lock.) The wheel's files as installed (its ``.data/purelib``
    and ``platlib`` at the top), once. The directory is named ``site-packages``, as an install's
    is, so that the paths in a traceback or an error message read as they would from an install
    (signatures cut them there) and a failure's fingerprint does not change with the cache's
    location or the wheel's version."""
    home = site / wheel.name[: -len(".whl")]
    target = home / "site-packages"
    if target.is_dir():
        return target
    partial = home.with_name(home.name + f".partial-{os.getpid()}")
    for stale in (partial, home):  # an interrupted unpack, or an older layout
        shutil.rmtree(stale, ignore_errors=True)
    with zipfile.ZipFile(wheel) as z:
        for info in z.infolist():
            parts = info.filename.split("/")
            if parts[0].endswith(".data"):
                if len(parts) < 3 or parts[1] not in ("purelib", "platlib"):
                    continue
                parts = parts[2:]
            dest = partial.joinpath("site-packages", *parts)
            if info.is_dir():
                dest.mkdir(parents=True, exist_ok=True)
                continue
            dest.parent.mkdir(parents=True, exist_ok=True)
            with z.open(info) as src, open(dest, "wb") as out:
                shutil.copyfileobj(src, out)
            mode = info.external_attr >> 16
            if mode & 0o111:
                dest.chmod(0o755)
    (partial / "site-packages").mkdir(parents=True, exist_ok=True)
    partial.rename(home)
    return target


def canary_requirements(packages: list[str] = ()) -> list[str]:
    """What canary needs in every base venv: its dependencies, and the rest of each extra that
    installs one of ``packages`` (the levanter extra's GitPython, which levanter 0.2.20 imports
    without declaring it), the packages themselves left to the bisect."""
    from packaging.requirements import Requirement

    deps, extras = _declared()
    moving = {canonicalize_name(p) for p in packages}
    out = list(deps)
    for reqs in extras.values():
        names = {canonicalize_name(Requirement(r).name) for r in reqs}
        if names & moving:
            out += [r for r in reqs if canonicalize_name(Requirement(r).name) not in moving | {"canary"}]
    return list(dict.fromkeys(out))


def _declared() -> tuple[list[str], dict[str, list[str]]]:
    """canary's dependencies and extras: from the checkout's pyproject.toml, else the installed metadata."""
    import importlib.metadata
    import tomllib

    from packaging.requirements import Requirement

    from canary.config import project_root

    pyproject = project_root() / "pyproject.toml"
    if pyproject.is_file():
        project = tomllib.loads(pyproject.read_text())["project"]
        return list(project.get("dependencies", [])), dict(project.get("optional-dependencies", {}))
    deps, extras = [], {}
    for line in importlib.metadata.requires("canary") or []:
        m = re.search(r"""extra\s*==\s*['"]([^'"]+)['"]""", str(Requirement(line).marker or ""))
        if m:
            extras.setdefault(m.group(1), []).append(line.split(";")[0].strip())
        else:
            deps.append(line)
    return deps, extras


def canary_layer(scratch: Path) -> str:
    """A directory holding only canary (a link to this canary's package), for the candidates' PYTHONPATH."""
    import canary

    link = scratch / "canary-src" / "canary"
    link.parent.mkdir(parents=True, exist_ok=True)
    if not link.exists():
        link.symlink_to(Path(canary.__file__).resolve().parent, target_is_directory=True)
    return str(link.parent)


def child_env(layer: Layer, canary_dir: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV", "PYTHONHOME")}
    env.update(
        PYTHONPATH=os.pathsep.join([*layer.paths, canary_dir]), PYTHONNOUSERSITE="1", PYTHONDONTWRITEBYTECODE="1"
    )
    return env
