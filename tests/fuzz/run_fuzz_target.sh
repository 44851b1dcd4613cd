#!/usr/bin/env bash
# Runs one fuzz target for a bounded number of executions over a scratch copy of its seed corpus
# (libFuzzer writes new inputs into the first corpus folder; the committed seeds stay untouched).
# Usage: run_fuzz_target.sh <target> <seed-corpus-dir> <scratch-dir> <runs> [libFuzzer options...]
set -euo pipefail
target=$1 seeds=$2 scratch=$3 runs=$4
shift 4
rm -rf "$scratch"
mkdir -p "$scratch"
cp -r "$seeds"/. "$scratch"/
# Crash reproducers go to the scratch folder's parent, named after the target.
exec "$target" "$scratch" -runs="$runs" -seed=1 -max_len=8192 -timeout=20 -rss_limit_mb=2048 \
  -artifact_prefix="$(dirname "$scratch")/$(basename "$target")-" -print_final_stats=1 "$@"
