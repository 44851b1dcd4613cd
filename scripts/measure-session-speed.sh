#!/usr/bin/env bash
# Long sessions (issue 16 item 5): memory per million points, session file size, save and open time of
# three runs of POINTS points each (63-gene mm13/cloud genomes, synthetic: tests/synthetic_session.hpp)
# and the longest gap of the GUI thread's 10 ms heartbeat while the workbench saves and opens them.
#   bash scripts/measure-session-speed.sh [BUILD_DIR] [POINTS_PER_RUN]
# (defaults: build, 2000000). Needs the benchmarks (SPARSEMAP_BUILD_BENCHMARKS) and the GUI tests.
# An older build's test_session_background can be measured the same way: pass its build folder.
# docs/results/session-speed.md holds a measured table.
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD=${1:-build}
POINTS=${2:-2000000}
export QT_QPA_PLATFORM=offscreen

if [[ -x $BUILD/tests/bench/bench_session_speed ]]; then
  echo "## core: bench_session_speed, 3 runs x $POINTS points"
  SPARSEMAP_BENCH_POINTS=$POINTS "$BUILD/tests/bench/bench_session_speed" --benchmark_counters_tabular=true
fi

echo "## workbench: test_session_background, 3 runs x $POINTS points (save, then open in a second store)"
TIME_LOG=$(mktemp)
trap 'rm -f "$TIME_LOG"' EXIT
SPARSEMAP_HEARTBEAT_POINTS=$((3 * POINTS)) /usr/bin/time -v -o "$TIME_LOG" \
  "$BUILD/tests/ui/test_session_background" millionPointsSaveAndLoadWithoutBlocking 2>&1 |
  grep -E "QINFO|FAIL|Totals" | sed 's/^QINFO *: *[A-Za-z:()]* *//'
grep -E "Maximum resident set size" "$TIME_LOG" | sed 's/^\s*//'
