#!/usr/bin/env bash
# How far each method's best design stays from the exact optimum of the mapping for its sparse strategy
# (issue 13, docs/results/search-quality.md "How far from the optimum"). For every workload x preset x
# method x seed: a 20,000-evaluation search, then `sparsemap optimum` on its best design (every canonical
# mapping with the design's format and S/G genes held). Prints one TSV row per run:
#   architecture workload method seed run_edp mapping_optimum_edp mappings seconds
#
#   bash scripts/optimum-study.sh OUT_DIR [WORKLOADS] [PRESETS] [METHODS] [SEEDS]
# defaults: mm1,mm3  edge,mobile,cloud  sparsemap,es-pfce,ga  1,2,3
# Only workloads whose canonical mapping space is small can be done: of Table III mm1 (421,875 tilings) and
# mm3 (1.95e6). The loop orders multiply it by design: 5.1e6 and 2.8e7 mappings with every tensor
# uncompressed, 7.1e7 and 3.9e8 with compressed ones (the unit loops a storage level binds a tile's ranks
# to are ordered too: orderedLoopMasks). Designs beyond --max-mappings (OPTIMUM_MAX_MAPPINGS, default
# 2e8: mm3 with compressed tensors, ~20 min each) are refused and print "none".
set -euo pipefail
cd "$(dirname "$0")/.."
out=${1:?usage: optimum-study.sh OUT_DIR [WORKLOADS] [PRESETS] [METHODS] [SEEDS]}
workloads=${2:-mm1,mm3}
presets=${3:-edge,mobile,cloud}
methods=${4:-sparsemap,es-pfce,ga}
seeds=${5:-1,2,3}
bin=./build/app/sparsemap
[[ -x $bin ]] || { echo "optimum-study.sh: $bin not found (build first: bash scripts/build.sh)" >&2; exit 1; }
mkdir -p "$out"
printf 'architecture\tworkload\tmethod\tseed\trun_edp\tmapping_optimum_edp\tmappings\tseconds\n'
IFS=, read -ra W <<<"$workloads"
IFS=, read -ra P <<<"$presets"
IFS=, read -ra M <<<"$methods"
IFS=, read -ra S <<<"$seeds"
for w in "${W[@]}"; do
  file=samples/workloads/$w.yaml
  [[ -f $file ]] || file=$w
  for p in "${P[@]}"; do
    for m in "${M[@]}"; do
      for s in "${S[@]}"; do
        run=$out/$p-$(basename "$file" .yaml)-$m-$s
        if [[ ! -f $run/best.design.yaml ]]; then
          $bin search --workload "$file" --arch "$p" --method "$m" --seed "$s" --threads 0 --out "$run" >/dev/null
        fi
        if [[ ! -f $run/optimum.txt ]]; then
          $bin optimum "$file" "$p" "$run/best.design.yaml" --threads 0 \
            --max-mappings "${OPTIMUM_MAX_MAPPINGS:-200000000}" >"$run/optimum.txt.tmp" 2>/dev/null || true
          mv "$run/optimum.txt.tmp" "$run/optimum.txt"
        fi
        given=$(sed -n 's/^given design: edp \([^ ]*\).*/\1/p' "$run/optimum.txt")
        best=$(sed -n 's/^optimum: edp \([^ ]*\).*/\1/p' "$run/optimum.txt")
        mappings=$(sed -n 's/^enumerated: \([0-9]*\) mappings.*/\1/p' "$run/optimum.txt")
        seconds=$(sed -n 's/.* in \([0-9.]*\) s$/\1/p' "$run/optimum.txt")
        printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$p" "$(basename "$file" .yaml)" "$m" "$s" \
          "${given:-none}" "${best:-none}" "${mappings:-0}" "${seconds:-0}"
      done
    done
  done
done
