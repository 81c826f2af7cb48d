#!/usr/bin/env bash
# The ray launcher's cost per attempt: the same STEPS-step cpu run [default: 20] through the local
# launcher and as a Ray job on a local head (entrypoint resources {TPU = 4}), REPEAT times each
# [default: 2]. Run as root:
#
#   unshare --net --pid --fork --kill-child --mount-proc bash bench/ray_overhead.sh
#
# (a loopback-only namespace, as in the tests: Ray binds 127.0.0.1 and its processes end with
# the namespace). PY is the interpreter with canary, ray and jax [default: .venv-test/bin/python,
# the test virtualenv .ci/run makes].
set -euo pipefail
cd "$(dirname "$0")/.."
PY=${PY:-.venv-test/bin/python}
RAY="$(dirname "$PY")/ray"
REPEAT=${REPEAT:-2}
STEPS=${STEPS:-20}
work=$(mktemp -d /tmp/rayoh.XXXX)
ip link set lo up
export PYTHONPATH=$PWD RAY_USAGE_STATS_ENABLED=0
"$RAY" start --head --port=6391 --node-ip-address=127.0.0.1 --dashboard-host=127.0.0.1 --dashboard-port=8266 \
  --num-cpus=2 --resources='{"TPU": 4}' --temp-dir="$work/ray" --disable-usage-stats >/dev/null
printf '[lanes.cpu]\nmin_steps = 200\nmax_final_loss = 10.0\n' > "$work/gates.toml"
cat > "$work/ray-lanes.toml" <<'T'
[lanes.cpu]
platform = "cpu"
timeout_s = 900
launcher = { kind = "ray", address = "http://127.0.0.1:8266", resources = { TPU = 4 }, start_timeout_s = 120 }
T
for i in $(seq "$REPEAT"); do
  for how in local ray; do
    lanes=$PWD/lanes.toml
    if [ "$how" = ray ]; then lanes=$work/ray-lanes.toml; fi
    CANARY_LANES=$lanes "$PY" -m canary run cpu --steps "$STEPS" --gates "$work/gates.toml" --out "$work/runs" \
      --no-history --json > "$work/$how$i.json" 2>/dev/null || true
    "$PY" - "$how" "$work/$how$i.json" <<'P'
import json, sys
how, path = sys.argv[1:]
r = json.load(open(path)); a = r["attempts"][0]; s = r["summary"]
print(f"{how:5} {r['verdict']}  attempt {a['duration_s']:.1f}s  workload {s['_runtime']:.1f}s  "
      f"overhead {a['duration_s'] - s['_runtime']:.1f}s  median step {s['throughput/median_step_seconds']:.3f}s")
P
  done
done
"$RAY" stop --force >/dev/null 2>&1 || true  # this namespace's head only
rm -rf "$work"
