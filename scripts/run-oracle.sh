#!/usr/bin/env bash
# Runs a Sparseloop/Timeloop `timeloop-model` binary (built by you, outside this repository; see
# docs/oracle.md) in every case folder of a corpus drawn by `sparsemap oracle-corpus draw`.
# Each folder gets timeloop-model.stats.txt when the oracle accepts the design, and oracle.log
# (its output) and oracle.rc (its exit status; 124 = no result within ORACLE_TIMEOUT seconds, default 20)
# always. Usage: scripts/run-oracle.sh <timeloop-model> <corpus-dir> [jobs]
set -euo pipefail
if [ $# -lt 2 ] || [ ! -x "$1" ] || [ ! -f "$2/manifest.tsv" ]; then
    echo "usage: $0 <timeloop-model binary> <corpus dir with manifest.tsv> [jobs, default 1]" >&2
    exit 2
fi
oracle=$(realpath "$1")
corpus=$2
jobs=${3:-1}
timeout=${ORACLE_TIMEOUT:-20}
export oracle timeout
grep -v '^#' "$corpus/manifest.tsv" | cut -f1 | xargs -P "$jobs" -I{} sh -c '
    cd "$0/{}" && rm -f timeloop-model.stats.txt &&
    { timeout "$timeout" "$oracle" aggregated_input.yaml ERT.yaml > oracle.log 2>&1; echo $? > oracle.rc; }' "$corpus"
echo "ran $(grep -vc '^#' "$corpus/manifest.tsv") cases; accepted: $(ls "$corpus"/*/timeloop-model.stats.txt 2>/dev/null | wc -l)"
