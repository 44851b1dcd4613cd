#!/usr/bin/env bash
# Installs the dependencies, builds, and runs the main job on a bundled sample and preset:
# the genome layout and design-space size of mm3 on the cloud preset, then a random design decoded
# into its loop nest. Extra arguments replace the workload and preset: run-main.sh WORKLOAD PRESET.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
bash scripts/build.sh
workload=${1:-samples/workloads/mm3.yaml}
arch=${2:-cloud}
./build/app/sparsemap info "$workload" --arch "$arch"
echo
./build/app/sparsemap random "$workload" "$arch" --seed 1
