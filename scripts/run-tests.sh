#!/usr/bin/env bash
# Installs the dependencies, builds, checks that the install script installs every package the build
# uses, and runs every test suite with CTest. Exits non-zero when a check or a test fails.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
bash scripts/build.sh
bash scripts/check-deps.sh --build-dir build
export QT_QPA_PLATFORM=offscreen
ctest --test-dir build --output-on-failure --parallel "$(nproc)"
# The core, the CLI and their tests again with AddressSanitizer + UBSan (README, "Sanitizers and
# fuzzing"); SPARSEMAP_SKIP_SANITIZERS=1 skips it.
if [[ ${SPARSEMAP_SKIP_SANITIZERS:-0} != 1 ]]; then
  bash scripts/run-sanitizers.sh build-asan
fi
