#!/usr/bin/env bash
# Long sessions (issue 16 item 5): memory per million points, session file size, save and open time of
# three runs of POINTS points each (63-gene mm13/cloud genomes, synthetic: tests/synthetic_session.hpp)
# and the longest gap of the GUI thread's 10 ms heartbeat while the workbench saves and opens them.
#   bash scripts/measure-session-speed.sh [BUILD_DIR] [POINTS_PER_RUN]
# (defaults: build, 2000000). Needs the benchmarks (SPARSEMAP_BUILD_BENCHMARKS) and the GUI tests.
# CLOSE_AFTER_MS (default 60000): how long the run goes before the window is closed during it.
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

# Closing the window during a long run (the issue's "Running..." for seconds): a run of mm3/cloud goes
# for CLOSE_AFTER_MS (default 60 s, over a million points on an idle machine), then the window is closed.
echo "## workbench: closing during a run of ${CLOSE_AFTER_MS:-60000} ms (test_main_window)"
SPARSEMAP_CLOSE_AFTER_MS=${CLOSE_AFTER_MS:-60000} "$BUILD/tests/ui/test_main_window" closingDuringARunStopsAndKeepsIt 2>&1 |
  grep -E "QINFO|FAIL|Totals" | sed 's/^QINFO *: *[A-Za-z:()]* *//'
