#!/usr/bin/env bash
# Installs the dependencies, builds, and runs the main job: a SparseMap search (20,000 model
# evaluations) of the paper's mm3 SpMM on the cloud preset, printing the best design (metrics and loop
# nest) and writing it with the full point log to ./sparsemap-run. When a display is present
# (DISPLAY or WAYLAND_DISPLAY set), the workbench GUI then opens and runs the same search live.
# Arguments replace the workload and the preset: run-main.sh WORKLOAD PRESET.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
bash scripts/build.sh
workload=${1:-samples/workloads/mm3.yaml}
arch=${2:-cloud}
./build/app/sparsemap search --workload "$workload" --arch "$arch" --method sparsemap --budget 20000 --seed 1 \
    --out sparsemap-run
if [[ -n "${DISPLAY:-}${WAYLAND_DISPLAY:-}" ]]; then
    ./build/app/gui/sparsemap-workbench --demo --workload "$workload" --arch "$arch"
fi
