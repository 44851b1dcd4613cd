#!/usr/bin/env bash
# Configures and builds into ./build (Release with debug info, warnings on). Checks first that the
# packages of scripts/debian-packages.txt are installed, and names the missing ones; a failed
# configure removes its cache so that the next run configures from scratch.
set -euo pipefail
cd "$(dirname "$0")/.."
if command -v dpkg-query >/dev/null; then
  missing=()
  while read -r p; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
  done < <(sed -e 's/#.*//' -e 's/[[:space:]]//g' scripts/debian-packages.txt | grep -v '^$')
  if ((${#missing[@]} > 0)); then
    echo "build: missing Debian packages: ${missing[*]}" >&2
    echo "build: install them with: bash scripts/install-deps.sh" >&2
    exit 1
  fi
fi
if ! cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo >build-configure.log 2>&1; then
  cat build-configure.log >&2
  rm -rf build/CMakeCache.txt build/CMakeFiles
  echo "build: configure failed (log above, kept in build-configure.log); its cache was removed." >&2
  echo "build: a missing package? run bash scripts/install-deps.sh; scripts/check-deps.sh names packages the build uses." >&2
  exit 1
fi
rm -f build-configure.log
cmake --build build --parallel "$(nproc)"
