#!/usr/bin/env python3
"""Summarizes scripts/optimum-study.sh output (issue 13, "how far from the optimum").

For each method: the geometric mean of run / mapping optimum of its own sparse strategy (what a better
mapping alone would gain), the runs already at that optimum (within 0.1 %), and the geometric mean of
run / reference, where the reference of a cell is the lowest of every mapping optimum found in the
study and the best-known table given (an upper bound on the cell's exact optimum).

  python3 scripts/optimum-summary.py STUDY.tsv [--best-known-from docs/results/best-known-table4.tsv]
"""
import argparse
import math
import sys
from collections import defaultdict


def read_tsv(path, required):
    with open(path, encoding="utf-8") as f:
        header = f.readline().rstrip("\n").split("\t")
        missing = [c for c in required if c not in header]
        if missing:
            sys.exit(f"{path}:1: missing column(s) {', '.join(missing)}")
        for number, line in enumerate(f, start=2):
            fields = line.rstrip("\n").split("\t")
            if fields == [""]:
                continue
            if len(fields) != len(header):
                sys.exit(f"{path}:{number}: expected {len(header)} tab-separated fields, found {len(fields)}")
            yield number, dict(zip(header, fields))


def number(path, line, row, column):
    try:
        value = float(row[column])
    except ValueError:
        return math.inf  # "none": no valid design
    if not value > 0:
        sys.exit(f"{path}:{line}: {column} must be positive, not {row[column]}")
    return value


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("study")
    ap.add_argument("--best-known-from", default=None)
    args = ap.parse_args()

    runs = []
    reference = {}
    for line, row in read_tsv(args.study, ["architecture", "workload", "method", "seed", "run_edp",
                                           "mapping_optimum_edp"]):
        cell = (row["architecture"], row["workload"])
        run = number(args.study, line, row, "run_edp")
        opt = number(args.study, line, row, "mapping_optimum_edp")
        runs.append((cell, row["method"], run, opt))
        reference[cell] = min(reference.get(cell, math.inf), opt, run)
    if args.best_known_from:
        for line, row in read_tsv(args.best_known_from, ["architecture", "workload", "best_known_edp"]):
            cell = (row["architecture"], row["workload"])
            if cell in reference:
                reference[cell] = min(reference[cell], number(args.best_known_from, line, row, "best_known_edp"))

    by_method = defaultdict(list)
    for cell, method, run, opt in runs:
        by_method[method].append((cell, run, opt))
    print("| method | runs | run / mapping optimum of its sparse strategy (geometric mean) "
          "| runs at that optimum (within 0.1 %) | run / reference (geometric mean) | runs within 1 % of reference |")
    print("|---|---|---|---|---|---|")
    for method in sorted(by_method, key=lambda m: (m != "sparsemap", m)):
        rows = by_method[method]
        own = [run / opt for _, run, opt in rows if math.isfinite(run)]
        ref = [run / reference[cell] for cell, run, _ in rows if math.isfinite(run)]
        geo = lambda xs: math.exp(sum(math.log(x) for x in xs) / len(xs)) if xs else math.nan
        print(f"| {method} | {len(rows)} | {geo(own):.3f} | {sum(1 for x in own if x <= 1.001)} / {len(rows)} "
              f"| {geo(ref):.3f} | {sum(1 for x in ref if x <= 1.01)} / {len(rows)} |")
    print("\nReference per cell (the lowest mapping optimum or best-known):\n")
    for cell in sorted(reference):
        print(f"- {cell[0]} {cell[1]}: {reference[cell]:.10g}")


if __name__ == "__main__":
    main()
