"""``canary list``: the ferries, lanes and gates that are defined."""

from __future__ import annotations

import click
from rich.table import Table

from canary.commands._common import emit_json, handle_errors, json_option
from canary.config import load_ferry, load_gates, load_lanes, search_dirs
from canary.errors import ConfigError
from canary.ferries import kind_of
from canary.render import console, narrow_table


def inventory() -> dict:
    lanes, lanes_path = load_lanes()
    ferries = []
    for d in search_dirs("ferries"):
        for f in sorted(d.glob("*.toml")) if d.is_dir() else []:
            if any(x["path"] == str(f) for x in ferries):
                continue
            ferry, _ = load_ferry(str(f))
            try:
                gates, _ = load_gates(ferry.name)
                gate_lanes = {k: v.model_dump() for k, v in gates.lanes.items()}
            except ConfigError:
                gate_lanes = {}
            ferries.append(
                {
                    "name": ferry.name,
                    "version": ferry.version,
                    "kind": ferry.kind,
                    "path": str(f),
                    "description": ferry.description,
                    **kind_of(ferry).listed(ferry),
                    "lanes": {
                        k: {**v.model_dump(exclude={"why", "data"}), "gates": gate_lanes.get(k)}
                        for k, v in ferry.lanes.items()
                    },
                }
            )
    return {"lanes_file": str(lanes_path), "lanes": {k: v.model_dump() for k, v in lanes.items()}, "ferries": ferries}


def launcher_cell(launcher: dict) -> str:
    """``ray TPU=4`` / ``command srun ...`` / ``local`` (``--json`` has every setting)."""
    kind = launcher["kind"]
    if kind == "ray":
        res = " ".join(f"{k}={v:g}" for k, v in launcher["resources"].items())
        return f"ray {res}".strip() + (f" @ {launcher['address']}" if launcher["address"] else "")
    if kind == "command":
        return "command " + " ".join(launcher["command"] or [])
    return kind


def command_ferry_table(f: dict) -> Table:
    t = narrow_table(
        f"Ferry {f['name']} v{f['version']}, command ({f['path']})", ("lane", "steps", "min steps", "max loss")
    )
    t.caption, t.caption_justify = " ".join(f["command"]["argv"]), "left"
    t.min_width = len(t.caption)  # the command on as few lines as the terminal allows
    for name, lane in f["lanes"].items():
        g = lane["gates"] or {}
        t.add_row(name, str(lane["steps"]), str(g.get("min_steps", "—")), str(g.get("max_final_loss", "—")))
    return t


@click.command("list")
@json_option
@handle_errors
def list_(as_json):
    """Show the lanes (where and how each runs) and each ferry's per-lane settings and gates."""
    inv = inventory()
    if as_json:
        emit_json(inv)
        return
    c = console()
    t = narrow_table(
        f"Lanes ({inv['lanes_file']})",
        ("lane", "accelerator", "devices", "launcher", "attempts", "timeout", "cache", "W&B"),
    )
    for name, lane in inv["lanes"].items():
        t.add_row(
            name,
            lane["accelerator"],
            f"{lane['devices']}" + (f" x {lane['hosts']} hosts" if lane["hosts"] > 1 else ""),
            launcher_cell(lane["launcher"]),
            str(lane["attempts"]),
            f"{lane['timeout_s']:g}s",
            lane["cache_dir"] or "local default",
            lane["wandb"],
        )
    c.print(t)
    for f in inv["ferries"]:
        if f["kind"] == "command":
            c.print(command_ferry_table(f))
            continue
        t = narrow_table(
            f"Ferry {f['name']} v{f['version']} ({f['path']})",
            ("lane", "batch", "seq", "steps", "vocab", "dtype", "ragged_dot", "min steps", "max loss", "golden"),
        )
        inherited = False
        for name, lane in f["lanes"].items():
            g = lane["gates"] or {}
            vocab, dtype = (
                own_or_inherited(lane[k], f[part][k])
                for part, k in (("model", "vocab_size"), ("trainer", "compute_dtype"))
            )
            inherited = inherited or vocab.endswith("*") or dtype.endswith("*")
            t.add_row(
                name,
                str(lane["batch_size"]),
                str(lane["seq_len"]),
                str(lane["steps"]),
                vocab,
                dtype,
                lane["ragged_dot"],
                str(g.get("min_steps", "—")),
                str(g.get("max_final_loss", "—")),
                g.get("golden") or "—",
            )
        if inherited:
            t.caption = "* inherited: the ferry's own \\[model] vocab_size or \\[trainer] compute_dtype"
            t.caption_justify = "left"
        c.print(t)


def own_or_inherited(own, ferry_value) -> str:
    """A lane's setting, or (marked ``*``) the ferry-wide one it inherits when it sets none."""
    return str(own) if own is not None else f"{ferry_value}*"
