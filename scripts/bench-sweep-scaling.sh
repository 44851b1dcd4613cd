#!/usr/bin/env bash
# Scaling of `sparsemap sweep` over MPI ranks: one 200-cell grid (5 workloads x 2 architecture
# variants x 4 methods x 5 seeds) run by a single process and by `mpirun -n 2|3|5` (1, 2, 4 worker
# ranks; rank 0 hands out cells), each from an empty folder, one thread per rank. Prints a Markdown
# table; every run's summaries must be byte-identical to the single-process ones.
#   bash scripts/bench-sweep-scaling.sh [BUILD_DIR] [BUDGET] [RANKS...]
# (defaults: build, 2000, "2 3 5"). docs/results/sweep-scaling.md holds a measured table.
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD=${1:-build}
BUDGET=${2:-2000}
RANKS=("${@:3}")
((${#RANKS[@]})) || RANKS=(2 3 5)
SPARSEMAP=$BUILD/app/sparsemap
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
export OMPI_MCA_btl_vader_single_copy_mechanism=none
W=samples/workloads
GRID=(sweep --workloads $W/toy.yaml,$W/spmm-32x64x48.yaml,$W/mm3.yaml,$W/conv4.yaml,$W/mm11.yaml
      --arch cloud --vary pe.count=16x16,32x32 --methods sparsemap,random,sa,ga --seeds 1,2,3,4,5
      --budget "$BUDGET" --threads 1)
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

run() { # label, command...
  local label=$1; shift
  local start end
  start=$(date +%s.%N)
  "$@" --out "$TMP/$label" >"$TMP/$label.log"
  end=$(date +%s.%N)
  awk -v a="$start" -v b="$end" 'BEGIN { printf "%.2f", b - a }'
}

echo "| ranks | workers | wall s | speed-up | sum of cell searches s | dispatch wait per cell ms | identical summaries |"
echo "|---|---|---|---|---|---|---|"
base=$(run single "$SPARSEMAP" "${GRID[@]}")
cells=$(awk '/cells:/ {print $0}' "$TMP/single.log")
search=$(sed -n 's/.*wall, \([0-9.]*\) s of searches.*/\1/p' "$TMP/single.log")
echo "| 1 (no MPI) | - | $base | 1.00 | $search | - | - |"
for n in "${RANKS[@]}"; do
  wall=$(run "mpi$n" mpirun --oversubscribe -n "$n" "$SPARSEMAP" "${GRID[@]}")
  search=$(sed -n 's/.*wall, \([0-9.]*\) s of searches.*/\1/p' "$TMP/mpi$n.log")
  wait=$(sed -n 's/.*dispatch wait \([0-9.]*\) ms per cell.*/\1/p' "$TMP/mpi$n.log")
  same=yes
  for f in summary.md fig17a.csv fig17b.csv convergence.csv sweep.txt; do
    cmp -s "$TMP/single/$f" "$TMP/mpi$n/$f" || same=NO
  done
  echo "| $n | $((n - 1)) | $wall | $(awk -v a="$base" -v b="$wall" 'BEGIN { printf "%.2f", a / b }') | $search | $wait | $same |"
done
echo
echo "grid: $cells; budget $BUDGET; $(nproc) cores; $(date -u +%Y-%m-%d)"
