#!/usr/bin/env bash
# Tests scripts/search-quality.py on a hand-made sweep folder (two cells, two methods, two seeds each)
# against a best-known table, with the expected figures worked out by hand:
#   best-known: cloud X = 100, cloud Y = 10.
#   method a: X 100, 121; Y 10, 10 -> ratios 1, 1.21, 1, 1: geometric mean 1.21^(1/4) = 1.0488;
#     standard error: X's log-ratios 0 and ln 1.21 have variance (ln 1.21)^2 / 2, Y's none, so
#     1.0488 x sqrt(2 x (ln 1.21)^2 / 2) / 4 = 0.04998; within 1 %: 3 of 4, within 5 %: 3.
#   method b: X 104, 104; Y 10.4 and a run without a valid design (counted as 10x):
#     exp((3 ln 1.04 + ln 10) / 4) = 1.8314; error 1.8314 x (ln 10 - ln 1.04) / 4 = 1.0363;
#     within 1 %: 0, within 5 %: 3, 1 dead.
#   medians: X a 1.105, b 1.04 (b best); Y a 1, b infinite (a best): each 1 of 2 cells.
# With --pool 2 each method's two seeds of a cell are one run (their best): a X 100 -> 1, Y 10 -> 1:
#   1.000, no spread (one run a cell), 2 of 2 within 1 %; b X 104 -> 1.04, Y 10.4 -> 1.04: 1.040, 0 within
#   1 %, 2 within 5 %, none dead (the dead seed is pooled with a valid one); a's medians best on both cells.
# And bad input: a folder without cells, a budget that is not a number, --pool 0.
set -uo pipefail
root=$1
script="$root/scripts/search-quality.py"
command -v python3 >/dev/null || { echo "python3 not found (scripts/debian-packages.txt installs it)"; exit 1; }
source "$(dirname "$0")/../expect.sh"
cell() { # folder, method, workload, seed, best
  mkdir -p "$1/cells"
  printf 'format: sparsemap-sweep-cell 2\nworkload: %s\narchitecture: cloud\nmethod: %s\nseed: %s\nbudget: 20000\nbest: %s\n' \
    "$3" "$2" "$4" "$5" >"$1/cells/cloud__$3__$2__seed$4.cell"
}
printf 'architecture\tworkload\tbest_known_edp\tfound_by\ncloud\tX\t100\thand\ncloud\tY\t10\thand\n' >"$work/bk.tsv"
s="$work/sweep"
cell "$s" a X 1 100
cell "$s" a X 2 121
cell "$s" a Y 1 10
cell "$s" a Y 2 10
cell "$s" b X 1 104
cell "$s" b X 2 104
cell "$s" b Y 1 10.4
cell "$s" b Y 2 inf

python3 "$script" "$s" --best-known-from "$work/bk.tsv" --cells >"$work/out" 2>&1
status=$?
expect "method a" 0 $status "$work/out" "| a | 1.049 ± 0.050 | 3 / 4 | 3 / 4 | 0 | 1 / 2 |"
expect "method b" 0 $status "$work/out" "| b | 1.831 ± 1.036 | 0 / 4 | 3 / 4 | 1 | 1 / 2 |"
expect "cell X medians" 0 $status "$work/out" "| cloud X | 1.105 | 1.040 |"
expect "run count" 0 $status "$work/out" "8 runs at 20000 evaluations on 2 cells"

python3 "$script" "$s" --best-known-from "$work/bk.tsv" --pool 2 >"$work/out" 2>&1
status=$?
expect "pooled a" 0 $status "$work/out" "| a (best of 2) | 1.000 ± 0.000 | 2 / 2 | 2 / 2 | 0 | 2 / 2 |"
expect "pooled b" 0 $status "$work/out" "| b (best of 2) | 1.040 ± 0.000 | 0 / 2 | 2 / 2 | 0 | 0 / 2 |"
expect "pooled run count" 0 $status "$work/out" "4 runs (each the best of 2 runs) at 20000 evaluations on 2 cells"

mkdir -p "$work/empty"
python3 "$script" "$work/empty" >"$work/out" 2>&1
expect "folder without cells" 1 $? "$work/out" "no 'cells' folder (not a sweep output folder)"

cell "$work/bad" a X 1 100
sed -i 's/^budget: 20000/budget: lots/' "$work/bad/cells/cloud__X__a__seed1.cell"
python3 "$script" "$work/bad" >"$work/out" 2>&1
expect "budget not a number" 1 $? "$work/out" "budget 'lots' is not a whole number of evaluations"

python3 "$script" "$s" --pool 0 >"$work/out" 2>&1
expect "pool 0" 1 $? "$work/out" "--pool must be at least 1, not 0"

echo "$passed passed, $failed failed"
[[ $failed -eq 0 ]]
