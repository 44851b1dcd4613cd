#!/usr/bin/env python3
"""Search quality of sweep runs against the best-known design of each cell (issue 13).

Reads the `.cell` files of one or more `sparsemap sweep` output folders. The best-known value of a
cell (architecture, workload) is the lowest `best` of any run in any folder given, whatever its
method or budget (--best-known adds folders that only contribute to it, e.g. long runs;
--best-known-from adds a table written by --best-known-table, e.g. docs/results/best-known-table4.tsv,
so a new run is measured against every earlier one without their folders). For each
method at the budget asked (--budget, default 20000) it prints the geometric-mean ratio to
best-known with its standard error over seeds (below), the runs within 1 % and 5 %, the runs with no
valid design, and on how many cells its median is at least as good as every other method's median.

The standard error is how much the geometric mean would move with other seeds on the same cells: the
variance of each cell's log-ratios between its runs (n - 1 in the denominator), summed over cells
weighted by their runs, over the number of runs squared, and carried to the ratio by its derivative
(geometric mean x standard error of its log). Cells with a single run add nothing to it. Two methods
whose geometric means differ by less than about twice the larger standard error are not told apart.

  python3 scripts/search-quality.py SWEEP_DIR [SWEEP_DIR ...] [--best-known DIR ...] [--budget N]
      [--best-known-from TSV ...] [--cells] [--best-known-table FILE] [--pool K]
"""
import argparse
import math
import os
import statistics
import sys
from collections import defaultdict


def read_cell(path):
    fields = {}
    with open(path, encoding="utf-8") as f:
        for line in f:
            if line.startswith("#") or ":" not in line:
                continue
            key, value = line.split(":", 1)
            fields[key.strip()] = value.strip()
    return fields


def cells_of(folder):
    cells_dir = os.path.join(folder, "cells")
    if not os.path.isdir(cells_dir):
        sys.exit(f"{folder}: no 'cells' folder (not a sweep output folder)")
    for name in sorted(os.listdir(cells_dir)):
        if name.endswith(".cell"):
            c = read_cell(os.path.join(cells_dir, name))
            try:
                best = float(c["best"])
            except (KeyError, ValueError):
                best = math.inf
            if not math.isfinite(best) or best <= 0:
                best = math.inf
            yield {
                "arch": c.get("architecture", "?"),
                "workload": c.get("workload", "?"),
                "method": c.get("method", "?"),
                "seed": c.get("seed", "?"),
                "budget": budget_of(c, os.path.join(cells_dir, name)),
                "best": best,
            }


def budget_of(cell, path):
    try:
        return int(cell.get("budget", "0"))
    except ValueError:
        sys.exit(f"{path}: budget '{cell['budget']}' is not a whole number of evaluations")


def log_ratio(x):
    # A run without a valid design counts as 10x best-known in the geometric mean (and is counted
    # apart), so one dead run cannot hide behind the others.
    return math.log(x if math.isfinite(x) else 10.0)


def geometric_mean_and_error(ratios_by_cell):
    """The geometric mean of every run's ratio and its standard error over seeds (see the top)."""
    logs = [log_ratio(x) for ratios in ratios_by_cell for x in ratios]
    n = len(logs)
    geo = math.exp(sum(logs) / n)
    spread = sum(len(r) * statistics.variance([log_ratio(x) for x in r]) for r in ratios_by_cell if len(r) > 1)
    return geo, geo * math.sqrt(spread) / n


def read_best_known_table(path):
    """Rows (architecture, workload, edp, found_by) of a table written by --best-known-table."""
    with open(path, encoding="utf-8") as f:
        header = f.readline().rstrip("\n").split("\t")
        if header[:3] != ["architecture", "workload", "best_known_edp"]:
            sys.exit(f"{path}:1: expected the header 'architecture, workload, best_known_edp, found_by'")
        for number, line in enumerate(f, start=2):
            fields = line.rstrip("\n").split("\t")
            if fields == [""]:
                continue
            if len(fields) < 3:
                sys.exit(f"{path}:{number}: expected 4 tab-separated fields, found {len(fields)}")
            try:
                edp = float(fields[2])
            except ValueError:
                sys.exit(f"{path}:{number}: best_known_edp '{fields[2]}' is not a number")
            if not math.isfinite(edp) or edp <= 0:
                sys.exit(f"{path}:{number}: best_known_edp must be a positive finite number, not {fields[2]}")
            yield fields[0], fields[1], edp, fields[3] if len(fields) > 3 else "?"


def seed_order(seed):
    try:
        return (0, int(seed), "")
    except ValueError:
        return (1, 0, seed)


def pooled(runs, k):
    """The best of each k consecutive seeds (in seed order) of a method and cell, as one run."""
    groups = defaultdict(list)
    for r in runs:
        groups[(r["method"], r["arch"], r["workload"])].append(r)
    out = []
    for (method, arch, workload), members in sorted(groups.items()):
        members.sort(key=lambda r: seed_order(r["seed"]))
        for g in range(len(members) // k):
            chunk = members[g * k:(g + 1) * k]
            out.append({"arch": arch, "workload": workload, "method": f"{method} (best of {k})",
                        "seed": f'{chunk[0]["seed"]}-{chunk[-1]["seed"]}', "budget": chunk[0]["budget"],
                        "best": min(r["best"] for r in chunk)})
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("folders", nargs="+")
    ap.add_argument("--best-known", nargs="*", default=[], help="folders that only set best-known")
    ap.add_argument("--best-known-from", nargs="*", default=[], help="best-known tables (TSV) to start from")
    ap.add_argument("--budget", type=int, default=20000)
    ap.add_argument("--cells", action="store_true", help="also print each cell's medians")
    ap.add_argument("--best-known-table", help="write the best-known value of every cell (TSV)")
    ap.add_argument("--pool", type=int, default=1, metavar="K",
                    help="score the best of each K consecutive seeds of a method and cell as one run "
                         "(K x the budget: independent runs pooled); incomplete groups are left out")
    args = ap.parse_args()
    if args.pool < 1:
        sys.exit(f"--pool must be at least 1, not {args.pool}")

    runs = []
    best_known = {}
    best_source = {}
    for table in args.best_known_from:
        for arch, workload, edp, found_by in read_best_known_table(table):
            if edp < best_known.get((arch, workload), math.inf):
                best_known[(arch, workload)] = edp
                best_source[(arch, workload)] = found_by
    for folder in args.folders + args.best_known:
        for r in cells_of(folder):
            key = (r["arch"], r["workload"])
            if r["best"] < best_known.get(key, math.inf):
                best_known[key] = r["best"]
                best_source[key] = f'{r["method"]} seed {r["seed"]} budget {r["budget"]}'
            if folder in args.folders and r["budget"] == args.budget:
                runs.append(r)
    if not runs:
        sys.exit(f"no runs with budget {args.budget}")
    if args.pool > 1:
        runs = pooled(runs, args.pool)
        if not runs:
            sys.exit(f"no method and cell has {args.pool} runs to pool")

    by_method = defaultdict(list)
    by_cell_method = defaultdict(lambda: defaultdict(list))
    for r in runs:
        key = (r["arch"], r["workload"])
        ratio = r["best"] / best_known[key] if math.isfinite(best_known.get(key, math.inf)) else math.inf
        by_method[r["method"]].append(ratio)
        by_cell_method[key][r["method"]].append(ratio)

    cells = sorted(by_cell_method)
    medians = {key: {m: statistics.median(v) for m, v in by_cell_method[key].items()} for key in cells}
    methods = sorted(by_method, key=lambda m: (m != "sparsemap", m))
    pooled_note = f" (each the best of {args.pool} runs)" if args.pool > 1 else ""
    print(f"{len(runs)} runs{pooled_note} at {args.budget} evaluations on {len(cells)} cells; "
          f"best-known from {len(args.folders) + len(args.best_known)} folder(s)"
          f" and {len(args.best_known_from)} table(s)\n")
    print("| method | geometric-mean ratio to best-known (± standard error) | runs within 1 % | runs within 5 % "
          "| runs with no valid design | cells where its median is the best median |")
    print("|---|---|---|---|---|---|")
    for m in methods:
        ratios = by_method[m]
        finite = [x for x in ratios if math.isfinite(x)]
        geo, error = geometric_mean_and_error(
            [by_cell_method[key][m] for key in cells if m in by_cell_method[key]])
        n = len(ratios)
        within1 = sum(1 for x in finite if x <= 1.01)
        within5 = sum(1 for x in finite if x <= 1.05)
        dead = n - len(finite)
        best_median = 0
        cells_run = 0
        for key in cells:
            if m not in medians[key]:
                continue
            cells_run += 1
            if all(medians[key][m] <= other + 1e-12 for other in medians[key].values()):
                best_median += 1
        print(f"| {m} | {geo:.3f} ± {error:.3f} | {within1} / {n} | {within5} / {n} | {dead} | {best_median} / {cells_run} |")

    if args.cells:
        print("\nMedian ratio to best-known per cell:\n")
        print("| cell | " + " | ".join(methods) + " |")
        print("|---|" + "---|" * len(methods))
        for key in cells:
            row = [f"{medians[key][m]:.3f}" if m in medians[key] else "" for m in methods]
            print(f"| {key[0]} {key[1]} | " + " | ".join(row) + " |")

    if args.best_known_table:
        with open(args.best_known_table + ".tmp", "w", encoding="utf-8") as f:
            f.write("architecture\tworkload\tbest_known_edp\tfound_by\n")
            for key in sorted(best_known):
                f.write(f"{key[0]}\t{key[1]}\t{best_known[key]!r}\t{best_source[key]}\n")
        os.replace(args.best_known_table + ".tmp", args.best_known_table)


if __name__ == "__main__":
    main()
