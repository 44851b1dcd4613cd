#!/usr/bin/env python3
"""Tables of docs/results/mindmappings.md from bench_mindmappings CSV output (issue 17).

Usage: python3 scripts/mindmappings-tables.py RUN.csv [RUN.csv ...]

Each benchmark row is one search: <axis>/<workload>/<method>/<seed>. For every axis it prints, per
workload, the geometric mean over seeds of the best EDP of every method with its ratio to SparseMap ES
(> 1: SparseMap is better), the mean seconds per run, then the paper's summary: the geometric mean over
workloads of EDP(method) / EDP(mindmappings) (Mind Mappings' Section 5.4 reports SA 1.40x and GA 1.76x
iso-iteration, 3.16x and 4.19x iso-time). A run without a valid design (best 0) is listed apart and left
out of the means.
"""
import csv
import math
import sys
from collections import defaultdict

METHODS = ["mindmappings", "sparsemap", "sa", "ga", "random"]


def geomean(values):
    return math.exp(sum(math.log(v) for v in values) / len(values)) if values else float("nan")


def main(paths):
    best = defaultdict(list)  # (axis, workload, method) -> [best EDP per seed]
    seconds = defaultdict(list)
    invalid = []
    order = []
    for path in paths:
        with open(path, newline="") as f:
            lines = [line for line in f if line.startswith(("name,", '"'))]
        for row in csv.DictReader(lines):
            parts = row["name"].strip('"').split("/")
            if len(parts) < 4 or row.get("error_occurred") == "true":
                continue
            axis, workload, method, seed = parts[:4]
            if (axis, workload) not in order:
                order.append((axis, workload))
            edp = float(row["best"] or 0)
            if edp <= 0:
                invalid.append(f"{axis}/{workload}/{method}/{seed}")
                continue
            best[(axis, workload, method)].append(edp)
            seconds[(axis, workload, method)].append(float(row["seconds"] or 0))
    for axis in dict.fromkeys(a for a, _ in order):
        workloads = [w for a, w in order if a == axis]
        methods = [m for m in METHODS if any((axis, w, m) in best for w in workloads)]
        print(f"\n### {axis}\n")
        print("| workload | " + " | ".join(methods) + " |")
        print("|---" * (len(methods) + 1) + "|")
        for w in workloads:
            ref = geomean(best.get((axis, w, "sparsemap"), []))
            cells = []
            for m in methods:
                v = best.get((axis, w, m))
                if not v:
                    cells.append("-")
                    continue
                g = geomean(v)
                ratio = f" ({g / ref:.2f}x)" if not math.isnan(ref) else ""
                cells.append(f"{g:.3e}{ratio}")
            print(f"| {w} | " + " | ".join(cells) + " |")
        print("\nMean seconds per run: " + "; ".join(
            m + " " + " / ".join(f"{sum(seconds[(axis, w, m)]) / len(seconds[(axis, w, m)]):.2f}"
                                 for w in workloads if seconds.get((axis, w, m)))
            for m in methods) + " (workloads in table order).")
        print("\nGeometric mean over workloads of EDP(method) / EDP(mindmappings) (the paper's reading: "
              "> 1 means Mind Mappings is better):")
        for m in methods:
            if m == "mindmappings":
                continue
            ratios = [geomean(best[(axis, w, m)]) / geomean(best[(axis, w, "mindmappings")])
                      for w in workloads if best.get((axis, w, m)) and best.get((axis, w, "mindmappings"))]
            if ratios:
                print(f"- {m}: {geomean(ratios):.2f}x over {len(ratios)} workloads "
                      f"(range {min(ratios):.2f}-{max(ratios):.2f})")
    if invalid:
        print("\nRuns without a valid design: " + ", ".join(invalid))


if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    main(sys.argv[1:])
