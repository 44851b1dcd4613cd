#!/usr/bin/env bash
# Checks that every Debian package the build uses is installed by scripts/install-deps.sh: either
# named in the package list or in that list's dependency closure without recommends. A machine that
# happens to have a package from an earlier hand install passes the build but fails here.
#
# What counts as used (every file below is mapped to its package with dpkg's file lists):
#   - every CMake file a fresh configure reads (cmake --trace-expand: config files of each
#     find_package, the modules they include);
#   - every file and program the configure cache points at (find_path, find_library, find_program);
#   - every header the compiler read for each object of the build dir (ninja -t deps);
#   - every library on a link line, and every shared library the built programs load (ldd).
#
# Usage: check-deps.sh [--packages FILE] [--build-dir DIR] [--save-used FILE] [--used FILE]
#   --packages FILE   the package list to check (default scripts/debian-packages.txt)
#   --build-dir DIR   a built build dir (default build)
#   --save-used FILE  also write the used packages, one "package<TAB>example file" a line
#   --used FILE       take the used packages from such a file instead of collecting them
# Exit: 0 all covered, 1 a used package is not installed by the list, 2 bad usage, 77 not Debian.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
list="$root/scripts/debian-packages.txt"
build="$root/build"
save_used=""
used_in=""
while (($#)); do
  case "$1" in
  --packages) list=$2; shift 2 ;;
  --build-dir) build=$2; shift 2 ;;
  --save-used) save_used=$2; shift 2 ;;
  --used) used_in=$2; shift 2 ;;
  *) echo "check-deps: unknown argument '$1' (see the usage at the top of $0)" >&2; exit 2 ;;
  esac
done
if ! command -v dpkg-query >/dev/null || ! command -v apt-cache >/dev/null; then
  echo "check-deps: not a Debian system (no dpkg-query / apt-cache); nothing checked" >&2
  exit 77
fi
[[ -f $list ]] || { echo "check-deps: package list '$list' not found" >&2; exit 2; }
if [[ -z $used_in ]]; then
  [[ -d $build ]] || { echo "check-deps: build dir '$build' not found (build first: bash scripts/build.sh)" >&2; exit 2; }
  build=$(cd "$build" && pwd)
fi

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

collect_used() {
  local files="$work/files"
  : >"$files"
  # 1. A fresh configure's trace: every CMake file it read.
  cmake -S "$root" -B "$work/configure" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    --trace-expand --trace-format=json-v1 --trace-redirect="$work/trace.json" >"$work/configure.log" 2>&1 || {
    echo "check-deps: the trace configure failed (see below); run bash scripts/install-deps.sh" >&2
    tail -20 "$work/configure.log" >&2
    exit 1
  }
  grep -o '"file":"[^"]*"' "$work/trace.json" | sed 's/^"file":"//; s/"$//' >>"$files"
  # 2. Paths in the configure cache (find_path, find_library, find_program, compilers).
  sed -n 's/^[^#/][^:]*:\(FILEPATH\|PATH\|STRING\|INTERNAL\)=//p' "$work/configure/CMakeCache.txt" |
    tr ';' '\n' | grep '^/' >>"$files" || true
  # 3. Headers each object of the build read.
  if [[ -f $build/build.ninja ]]; then
    ninja -C "$build" -t deps 2>/dev/null | sed -n 's/^    \(\/.*\)/\1/p' >>"$files"
    # 4. Libraries on the link lines (absolute paths and -l names).
    ninja -C "$build" -t commands 2>/dev/null | tr ' ' '\n' | grep -E '^/.*\.(so|a)(\.[0-9.]+)?$' >>"$files" || true
    local cxx
    cxx=$(sed -n 's/^CMAKE_CXX_COMPILER:[A-Z]*=//p' "$build/CMakeCache.txt")
    ninja -C "$build" -t commands 2>/dev/null | tr ' ' '\n' | sed -n 's/^-l\([A-Za-z0-9_+.-]*\)$/\1/p' | sort -u |
      while read -r lib; do "${cxx:-c++}" -print-file-name="lib$lib.so"; done | grep '^/' >>"$files" || true
    # 5. Shared libraries the built programs load.
    find "$build" -type f -perm -u+x -not -path '*/CMakeFiles/*' |
      while read -r exe; do
        [[ $(head -c 4 "$exe") == $'\x7fELF' ]] || continue
        ldd "$exe" 2>/dev/null | sed -n 's/.*=> \(\/[^ ]*\).*/\1/p'
      done >>"$files" || true
  else
    echo "check-deps: warning: '$build' is not built; headers and libraries not checked" >&2
  fi
  # Keep system files only: drop the source tree, the build dirs and temporary files.
  grep -v -e "^$root/" -e "^$build/" -e "^$work/" -e '^/tmp/' "$files" | sort -u >"$work/system-files"

  # dpkg's file lists as one "path<TAB>package" index (usr-merged paths looked up both ways).
  awk '{ p = FILENAME; sub(/.*\//, "", p); sub(/\.list$/, "", p); sub(/:.*/, "", p); print $0 "\t" p }' \
    /var/lib/dpkg/info/*.list >"$work/index"
  # Regular files only (a directory belongs to many packages), each with its resolved path.
  while read -r f; do [[ -f $f ]] && printf '%s\n' "$f"; done <"$work/system-files" >"$work/existing"
  tr '\n' '\0' <"$work/existing" | xargs -0 -r realpath -e -- | paste "$work/existing" - >"$work/resolved"
  awk -F'\t' '
    FNR == NR { if ($1 in owner) owner[$1] = owner[$1] "," $2; else owner[$1] = $2; next }
    function look(path,   alt) {
      if (path in owner) return owner[path]
      alt = path
      if (sub(/^\/usr\//, "/", alt) && (alt in owner)) return owner[alt]
      alt = "/usr" path
      if (alt in owner) return owner[alt]
      return ""
    }
    {
      o = look($1)
      if (o == "") o = look($2)
      if (o == "") { print "?\t" $1; next }
      print o "\t" $1
    }' "$work/index" "$work/resolved" | sort |
    awk -F'\t' '$1 == "?" || !seen[$1]++' >"$work/used"
}

if [[ -n $used_in ]]; then
  cp "$used_in" "$work/used"
else
  collect_used
fi
[[ -n $save_used ]] && cp "$work/used" "$save_used"

# Files owned by no package: a hand-built or non-Debian file the build read.
if grep -q $'^?\t' "$work/used"; then
  while IFS=$'\t' read -r _ f; do
    case "$f" in
    /usr/local/* | /opt/* | /root/* | /home/*)
      echo "check-deps: warning: the build read '$f', which no Debian package installs" >&2 ;;
    esac
  done < <(grep $'^?\t' "$work/used")
fi

# The closure of the list: the packages, their dependencies without recommends, and the essential
# packages every Debian system has.
mapfile -t listed < <(sed -e 's/#.*//' -e 's/[[:space:]]//g' "$list" | grep -v '^$')
mapfile -t essential < <(dpkg-query -W -f='${Package} ${Essential}\n' | awk '$2 == "yes" { print $1 }')
apt-cache depends --recurse --no-recommends --no-suggests --no-conflicts --no-breaks --no-replaces \
  --no-enhances "${listed[@]}" "${essential[@]}" 2>"$work/apt.err" |
  sed -n -e 's/^\([^ ].*\)$/\1/p' -e 's/^    \([^ ].*\)$/\1/p' | tr -d '<>' | sed 's/:.*//' |
  sort -u >"$work/closure" || true
if [[ -s $work/apt.err ]] && ! [[ -s $work/closure ]]; then
  echo "check-deps: apt-cache failed:" >&2
  cat "$work/apt.err" >&2
  exit 1
fi
printf '%s\n' "${listed[@]}" >>"$work/closure"
sort -u -o "$work/closure" "$work/closure"

missing=0
while IFS=$'\t' read -r owners file; do
  [[ $owners == "?" ]] && continue
  covered=0
  IFS=',' read -ra each <<<"$owners"
  for o in "${each[@]}"; do
    if grep -qxF "$o" "$work/closure"; then covered=1; break; fi
  done
  if ((covered == 0)); then
    echo "check-deps: package '${each[0]}' is used by the build (e.g. $file) but $list does not install it, nor anything that depends on it. Add '${each[0]}' to $list (install now: apt-get install --no-install-recommends ${each[0]})" >&2
    missing=$((missing + 1))
  fi
done <"$work/used"
packages_used=$(grep -vc $'^?\t' "$work/used" || true)
if ((missing > 0)); then
  echo "check-deps: $missing used package(s) missing from $list" >&2
  exit 1
fi
echo "check-deps: all $packages_used packages the build uses are installed by $list"
