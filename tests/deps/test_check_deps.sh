#!/usr/bin/env bash
# Tests scripts/check-deps.sh: on the project's own list it passes; on copies of the list without a
# package the build needs (qt6-charts-dev: its headers and CMake config; libqt6opengl6-dev: needed only
# by Qt6Charts' CMake config, the package the install script once missed) it fails and names that
# package; a bad argument is a usage error.
set -uo pipefail
root=$1
build=$2
check="$root/scripts/check-deps.sh"
source "$(dirname "$0")/../expect.sh"

bash "$check" --build-dir "$build" --save-used "$work/used" >"$work/out" 2>&1
status=$?
if [[ $status -eq 77 ]]; then
  cat "$work/out"
  exit 77
fi
expect "own list passes" 0 $status "$work/out" "packages the build uses are installed by"
# The used set must name what the build reads: Qt Charts, yaml-cpp and the compiler's C++ library.
for p in qt6-charts-dev libqt6opengl6-dev libyaml-cpp-dev libstdc++-12-dev; do
  cut -f1 "$work/used" | tr ',' '\n' | grep -qxF "$p" >"$work/grep" 2>&1
  s=$?
  echo "used set: $(cut -f1 "$work/used" | tr '\n' ' ')" >>"$work/grep"
  [[ $s -eq 0 ]] && echo "$p" >>"$work/grep"
  expect "used set names $p" 0 $s "$work/grep" "used set"
done

for p in qt6-charts-dev libqt6opengl6-dev libyaml-cpp-dev; do
  grep -vx "$p" "$root/scripts/debian-packages.txt" >"$work/list-$p"
  bash "$check" --packages "$work/list-$p" --used "$work/used" >"$work/out-$p" 2>&1
  expect "list without $p fails naming it" 1 $? "$work/out-$p" "package '$p' is used by the build"
done

bash "$check" --no-such-option >"$work/usage" 2>&1
expect "unknown argument" 2 $? "$work/usage" "unknown argument '--no-such-option'"

echo "$passed passed, $failed failed"
((failed == 0))
