#!/usr/bin/env bash
# Builds the core, the CLI, the core and CLI tests and the fuzz targets with clang and
# AddressSanitizer + UndefinedBehaviorSanitizer (UBSan halts on the first finding) in their own build
# folder, then runs them with CTest: every core and CLI suite, and every fuzz target for
# SPARSEMAP_FUZZ_RUNS (default 2000) executions over its seed corpus (tests/data/fuzz/).
# No GUI and no benchmarks: they add build time and nothing the sanitizers check here.
# Usage: scripts/run-sanitizers.sh [build-dir]   (default build-asan; ccache is used when installed)
set -euo pipefail
cd "$(dirname "$0")/.."
dir=${1:-build-asan}
cxx=$(command -v clang++-14 || command -v clang++ || true)
if [[ -z $cxx ]]; then
  echo "run-sanitizers: clang++ not found; install the Debian packages clang-14 and libclang-rt-14-dev" >&2
  exit 1
fi
launcher=()
if command -v ccache >/dev/null; then
  launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
fi
start=$(date +%s)
cmake -S . -B "$dir" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_CXX_COMPILER="$cxx" "${launcher[@]}" \
  -DSPARSEMAP_SANITIZE=address,undefined -DSPARSEMAP_BUILD_GUI=OFF -DSPARSEMAP_BUILD_BENCHMARKS=OFF \
  -DSPARSEMAP_FUZZ_RUNS="${SPARSEMAP_FUZZ_RUNS:-2000}"
cmake --build "$dir" --parallel "$(nproc)"
built=$(date +%s)

# No suppressions: the CMA-ES teardown report (Eigen's allocator with and without ASan) is fixed in
# CMakeLists.txt (EIGEN_MALLOC_ALREADY_ALIGNED).
export ASAN_OPTIONS="detect_leaks=1:abort_on_error=1:strict_string_checks=1:detect_stack_use_after_return=1"
export UBSAN_OPTIONS="halt_on_error=1:print_stacktrace=1"
export QT_QPA_PLATFORM=offscreen
status=0
# test_check_deps checks the package list against the normal build; it has nothing to sanitize.
ctest --test-dir "$dir" --output-on-failure --parallel "$(nproc)" -E '^test_check_deps$' || status=$?
end=$(date +%s)
echo "run-sanitizers: build $((built - start)) s, tests $((end - built)) s, total $((end - start)) s"
exit $status
