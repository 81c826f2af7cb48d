"""The version bisect's cache keeps its few most recently used base venvs: small fake venv
directories, pure file operations and real locks (no pip)."""

from __future__ import annotations

import json
import os
import sys
import time
from pathlib import Path

from canary.bisect.cache import READY, build_lock, hold, locked, prune
from canary.bisect.envs import Python, base_env, env_root


def _env(envs, name, age_s, ready=True):
    """A fake base venv last used ``age_s`` seconds ago."""
    root = envs / name
    (root / "bin").mkdir(parents=True)
    (root / "bin" / "python").write_text("")
    if ready:
        (root / READY).write_text(json.dumps({"moving": ["marin-haliax"]}))
    t = time.time() - age_s
    os.utime(root / READY if ready else root, (t, t))
    return root


def _left(envs):
    return sorted(d.name for d in envs.iterdir() if d.is_dir())


def test_all_but_the_most_recently_used_venvs_are_removed_the_one_in_hand_always_kept(tmp_path):
    envs = tmp_path / "envs"
    current = _env(envs, "py3.12.1-current", 500)  # the oldest, but the one in hand
    for name, age in [("a", 100), ("b", 200), ("c", 300), ("d", 400)]:
        _env(envs, name, age)
    _env(envs, "unfinished", 450, ready=False)  # an interrupted build: as old as when it was begun
    removed = prune(envs, 3, current)
    assert sorted(p.name for p in removed) == ["c", "d", "unfinished"]
    assert _left(envs) == ["a", "b", "py3.12.1-current"]
    assert prune(envs, 3, current) == []  # nothing more to do
    assert [p.name for p in prune(envs, 1)] == ["b", "py3.12.1-current"]  # none in hand: the newest kept


def test_a_venv_in_use_or_being_built_is_never_removed(tmp_path):
    envs = tmp_path / "envs"
    current = _env(envs, "current", 0)
    used, building = _env(envs, "used", 300), _env(envs, "building", 400)
    _env(envs, "idle", 500)
    held = hold(used)  # another bisect over it
    assert (used / READY).stat().st_mtime > time.time() - 60  # touched as used now
    os.utime(used / READY, (time.time() - 300, time.time() - 300))
    with locked(build_lock(building)):  # another bisect building (or checking) it
        assert [p.name for p in prune(envs, 1, current)] == ["idle"]
    assert _left(envs) == ["building", "current", "used"]
    held.close()
    assert sorted(p.name for p in prune(envs, 1, current)) == ["building", "used"]
    assert _left(envs) == ["current"]


def test_taking_a_venv_touches_it_holds_it_and_prunes_the_others(tmp_path):
    py = Python(sys.executable, "3.12.1", "cp312")
    args = (["marin-levanter"], "0.2.99", ["click"])
    root = env_root(py, *args, tmp_path)
    envs = root.parent
    _env(envs, root.name, 1000)  # found complete in the cache: nothing is built
    for name, age in [("a", 100), ("b", 200), ("c", 300)]:
        _env(envs, name, age)
    base = base_env(py, *args, tmp_path, keep=3)
    assert base.root == root and base.moving == ["marin-haliax"] and not base.built
    assert [p.name for p in base.pruned] == ["c"] and _left(envs) == sorted(["a", "b", root.name])
    assert (root / READY).stat().st_mtime > time.time() - 60  # now the most recently used
    # while the bisect holds it, a bisect that takes another venv with keep=1 leaves it alone
    other = Python(sys.executable, "3.13.0", "cp313")
    _env(envs, env_root(other, *args, tmp_path).name, 0)
    second = base_env(other, *args, tmp_path, keep=1)
    assert sorted(p.name for p in second.pruned) == ["a", "b"] and root.is_dir()
    base.release()
    third = base_env(other, *args, tmp_path, keep=1)
    assert [p.name for p in third.pruned] == [root.name]
    second.release(), third.release()


def test_the_suite_keeps_its_bisect_cache_and_compilation_cache_out_of_the_home_directory(tmp_path_factory):
    """A bisect's venvs and wheels (gigabytes) and the cpu lane's compilation cache go to the user
    cache dir when no --cache is given; under the tests that is a directory of the session's own
    (tests/conftest.py), removed at its end, in this process and in every command it starts."""
    import subprocess

    from canary.bisect.cache import cache_root
    from canary.formats.compile_cache import default_dir

    session = tmp_path_factory.getbasetemp()
    assert cache_root().is_relative_to(session) and cache_root().name == "bisect"
    child = subprocess.run(
        [sys.executable, "-c", "from canary.bisect.cache import cache_root; print(cache_root())"],
        capture_output=True,
        text=True,
        check=True,
    )
    assert Path(child.stdout.strip()).is_relative_to(session)
    assert Path(default_dir("cpu")).is_relative_to(session)
