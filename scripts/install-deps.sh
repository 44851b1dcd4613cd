#!/usr/bin/env bash
# Installs every build, test and GUI dependency from Debian 12 packages (scripts/debian-packages.txt).
# Idempotent; needs root (or sudo). Says which packages could not be installed, and how to retry.
set -euo pipefail
cd "$(dirname "$0")/.."
list=${SPARSEMAP_PACKAGE_LIST:-scripts/debian-packages.txt}
mapfile -t packages < <(sed -e 's/#.*//' -e 's/[[:space:]]//g' "$list" | grep -v '^$')
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]} == 0)); then
  echo "install-deps: all ${#packages[@]} packages of $list already installed"
  exit 0
fi
SUDO=""
if [[ $(id -u) -ne 0 ]]; then
  if ! command -v sudo >/dev/null; then
    echo "install-deps: missing packages: ${missing[*]}" >&2
    echo "install-deps: run as root: apt-get install --no-install-recommends ${missing[*]}" >&2
    exit 1
  fi
  SUDO="sudo"
fi
echo "install-deps: installing ${missing[*]}"
if ! $SUDO apt-get update -qq; then
  echo "install-deps: 'apt-get update' failed; the package lists may be stale" >&2
fi
if ! DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"; then
  still=()
  for p in "${missing[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || still+=("$p")
  done
  echo "install-deps: could not install: ${still[*]}" >&2
  echo "install-deps: try by hand: apt-get update && apt-get install --no-install-recommends ${still[*]}" >&2
  exit 1
fi
