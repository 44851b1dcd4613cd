#!/usr/bin/env python3
"""Writes Sparseloop/Timeloop v0.3 input folders for workloads with three input tensors (issue 17).

Every case is a folder with aggregated_input.yaml (architecture, problem, mapping, sparse
optimizations) and ERT.yaml, as `sparsemap validate` and `timeloop-model aggregated_input.yaml
ERT.yaml` read them. The architecture and the ERT come from a template case folder per
architecture (a 2-input case exported by `sparsemap oracle-corpus draw`, or any Sparseloop case);
the problem, mapping and sparse optimizations are written here. Only inputs are written: running
the oracle is up to you (docs/oracle.md).

Usage: scripts/sparseloop-3input-cases.py OUT toy=TEMPLATE_DIR [edge=TEMPLATE_DIR] [tiny=TEMPLATE_DIR]
"""
import os
import sys

import yaml

# Workloads: dims with sizes, input tensors with their dims, the output's dims.
MTTKRP = {
    "name": "mttkrp",
    "dims": ["I", "J", "K", "L"],
    "inputs": {"A": ["I", "K", "L"], "B": ["K", "J"], "C": ["L", "J"]},
    "output": ("O", ["I", "J"]),
}
DOT3 = {
    "name": "dot3",
    "dims": ["K", "M"],
    "inputs": {"A": ["K", "M"], "B": ["K"], "C": ["K", "M"]},
    "output": ("Z", ["M"]),
}

# Mappings per architecture template: (level name, type, {dim: factor}, split) outer to inner.
MAPPINGS = {
    ("toy", "mttkrp"): (
        {"I": 4, "J": 4, "K": 4, "L": 4},
        [
            ("DRAM", "temporal", {"I": 2}, None),
            ("GLB", "temporal", {}, None),
            ("GLB", "spatial", {"I": 2, "J": 2}, 1),
            ("PE buffer", "temporal", {"J": 2, "K": 2, "L": 2}, None),
            ("PE buffer", "spatial", {"K": 2, "L": 2}, 1),
        ],
    ),
    ("toy", "dot3"): (
        {"K": 16, "M": 4},
        [
            ("DRAM", "temporal", {"M": 2}, None),
            ("GLB", "temporal", {"K": 2}, None),
            ("GLB", "spatial", {"M": 2, "K": 2}, 1),
            ("PE buffer", "temporal", {"K": 2}, None),
            ("PE buffer", "spatial", {"K": 2}, 1),
        ],
    ),
    ("edge", "mttkrp"): (
        {"I": 8, "J": 4, "K": 4, "L": 8},
        [
            ("DRAM", "temporal", {"I": 2, "L": 2}, None),
            ("GLB", "temporal", {}, None),
            ("GLB", "spatial", {"I": 4, "J": 4}, 1),
            ("PE buffer", "temporal", {"K": 4, "L": 4}, None),
        ],
    ),
    ("tiny", "mttkrp"): (
        {"I": 4, "J": 4, "K": 4, "L": 2},
        [
            ("BackingStorage", "temporal", {"I": 4}, None),
            ("Buffer", "temporal", {"J": 4, "K": 4, "L": 2}, None),
        ],
    ),
}

# Cases: (name, workload, densities {tensor: (distribution, density)},
#         formats {level index from the innermost (0 = innermost storage): {tensor: compressed format}}
#         (the innermost rank of every level gets the format, the ranks above it UOP; a tensor compressed
#         at some level is written compressed at every level),
#         storage actions [(level index from the innermost, type, target, [leaders])],
#         compute optimization or None).
FS, HG = "fixed-structured", "hypergeometric"
CASES = [
    ("noopt", MTTKRP, {"A": (HG, 0.3), "B": (HG, 0.5), "C": (HG, 0.6)}, {}, [], None),
    ("cgate", MTTKRP, {"A": (HG, 0.3), "B": (HG, 0.5), "C": (FS, 0.25)}, {}, [], "gating"),
    ("cskip-zeros", MTTKRP, {"A": (HG, 0.4), "B": (HG, 0.7), "C": (HG, 0.5)}, {}, [], "skipping"),
    ("a-cp-noopt", MTTKRP, {"A": (HG, 0.2), "B": (HG, 0.5), "C": (HG, 0.8)},
     {0: {"A": "CP"}}, [], None),
    ("a-cp-cskip", MTTKRP, {"A": (HG, 0.2), "B": (HG, 0.5), "C": (HG, 0.8)},
     {0: {"A": "CP"}}, [], "skipping"),
    ("a-cp-cgate", MTTKRP, {"A": (HG, 0.25), "B": (FS, 0.5), "C": (HG, 0.4)},
     {0: {"A": "CP"}}, [], "gating"),
    ("ab-b-cskip", MTTKRP, {"A": (HG, 0.3), "B": (HG, 0.4), "C": (HG, 0.6)},
     {0: {"A": "B", "B": "B"}}, [], "skipping"),
    ("abc-cp-cskip", MTTKRP, {"A": (HG, 0.35), "B": (HG, 0.45), "C": (HG, 0.55)},
     {0: {"A": "CP", "B": "CP", "C": "CP"}}, [], "skipping"),
    ("abc-rle-cgate", MTTKRP, {"A": (HG, 0.15), "B": (FS, 0.5), "C": (HG, 0.3)},
     {0: {"A": "RLE", "B": "RLE", "C": "RLE"}}, [], "gating"),
    # Storage SAFs at the innermost storage level, reaching compute.
    ("sgate-a-bc", MTTKRP, {"A": (HG, 0.5), "B": (HG, 0.3), "C": (HG, 0.4)},
     {}, [(0, "gating", "A", ["B", "C"])], "gating"),
    ("sskip-bc-a", MTTKRP, {"A": (HG, 0.2), "B": (HG, 0.6), "C": (HG, 0.7)},
     {0: {"A": "CP"}}, [(0, "skipping", "B", ["A"]), (0, "skipping", "C", ["A"])], "skipping"),
    ("sskip-a-b", MTTKRP, {"A": (HG, 0.5), "B": (HG, 0.25), "C": (HG, 0.6)},
     {0: {"B": "CP"}}, [(0, "skipping", "A", ["B"])], "skipping"),
    ("sskip-all", MTTKRP, {"A": (HG, 0.3), "B": (HG, 0.4), "C": (HG, 0.5)},
     {0: {"A": "CP", "B": "CP", "C": "CP"}},
     [(0, "skipping", "A", ["B", "C"]), (0, "skipping", "B", ["A", "C"]), (0, "skipping", "C", ["A", "B"])],
     "skipping"),
    # Storage SAFs one level up (leader tiles), and on the output.
    ("outer-skip-a-bc", MTTKRP, {"A": (HG, 0.4), "B": (HG, 0.1), "C": (HG, 0.2)},
     {1: {"B": "CP", "C": "CP"}, 0: {"B": "CP", "C": "CP"}},
     [(1, "skipping", "A", ["B", "C"]), (1, "skipping", "O", ["A", "B", "C"])], None),
    ("outer-gate-o", MTTKRP, {"A": (HG, 0.1), "B": (HG, 0.3), "C": (FS, 0.5)},
     {}, [(1, "gating", "O", ["A", "B", "C"]), (0, "gating", "B", ["A"])], "gating"),
    # A three-input dot product per M.
    ("dot3-cskip", DOT3, {"A": (HG, 0.3), "B": (HG, 0.5), "C": (HG, 0.5)},
     {0: {"A": "CP", "C": "CP"}}, [], "skipping"),
    ("dot3-sskip", DOT3, {"A": (HG, 0.25), "B": (HG, 0.5), "C": (HG, 0.4)},
     {0: {"A": "CP", "B": "CP"}}, [(0, "skipping", "C", ["A", "B"])], "gating"),
]


def tensor_dims(workload, name):
    if name in workload["inputs"]:
        return workload["inputs"][name]
    return workload["output"][1]


def rank_count(mapping, level_names, level, dims):
    """Sparseloop's default binding: one rank per non-trivial loop over the tensor's dims at
    `level` and below (temporal and spatial)."""
    start = level_names.index(level)
    n = 0
    for lvl, _, factors, _ in mapping:
        if level_names.index(lvl) < start:
            continue
        n += sum(1 for d, f in factors.items() if f > 1 and d in dims)
    return n


def write_case(out, arch_name, template, case):
    name, workload, densities, formats, actions, compute = case
    key = (arch_name, workload["name"])
    if key not in MAPPINGS:
        return None
    sizes, mapping = MAPPINGS[key]
    with open(os.path.join(template, "aggregated_input.yaml")) as f:
        base = yaml.safe_load(f)
    level_names = []
    for lvl, _, _, _ in mapping:
        if lvl not in level_names:
            level_names.append(lvl)
    out_name, out_dims = workload["output"]
    spaces = [{"name": t, "projection": [[[d]] for d in dims]} for t, dims in workload["inputs"].items()]
    spaces.append({"name": out_name, "projection": [[[d]] for d in out_dims], "read-write": True})
    instance = {d: sizes[d] for d in workload["dims"]}
    instance["densities"] = {t: {"distribution": dist, "density": dens} for t, (dist, dens) in densities.items()}
    problem = {"shape": {"name": workload["name"], "dimensions": workload["dims"], "data-spaces": spaces},
               "instance": instance}
    maps = []
    for lvl, kind, factors, split in mapping:
        entry = {"target": lvl, "type": kind,
                 "factors": " ".join(f"{d}{factors.get(d, 1)}" for d in workload["dims"]),
                 "permutation": "".join(reversed(workload["dims"]))}
        if kind == "spatial":
            entry["permutation"] = "".join(
                [d for d in workload["dims"] if factors.get(d, 1) > 1] +
                [d for d in workload["dims"] if factors.get(d, 1) <= 1])
            entry["split"] = split
            entry["no_link_transfer"] = list(workload["inputs"]) + [out_name]
        maps.append(entry)
    inner_first = list(reversed(level_names))
    targets = []
    for lvl in level_names:
        idx = inner_first.index(lvl)
        target = {"name": lvl}
        # Sparseloop models no on-chip compression (storage-optimization-combiner asserts a compressed
        # child below an uncompressed parent): a tensor compressed anywhere is compressed at every level.
        fmt = {}
        for per_level in formats.values():
            fmt.update(per_level)
        if fmt:
            spaces_fmt = []
            for t, inner in fmt.items():
                n = rank_count(mapping, level_names, lvl, tensor_dims(workload, t))
                ranks = [{"format": "UOP"} for _ in range(max(0, n - 1))] + [{"format": inner}]
                spaces_fmt.append({"name": t, "ranks": ranks})
            target["representation-format"] = {"data-spaces": spaces_fmt}
        acts = [{"type": kind, "target": t, "condition-on": leaders}
                for (i, kind, t, leaders) in actions if i == idx]
        if acts:
            target["action-optimization"] = acts
        if len(target) > 1:
            targets.append(target)
    if compute:
        targets.append({"name": compute_level_name(base), "compute-optimization": [{"type": compute}]})
    doc = {"architecture": base["architecture"]}
    if "compound_components" in base:
        doc["compound_components"] = base["compound_components"]
    doc["problem"] = problem
    doc["mapping"] = maps
    if targets:
        doc["sparse_optimizations"] = {"targets": targets}
    folder = os.path.join(out, f"{arch_name}-{name}")
    os.makedirs(folder, exist_ok=True)
    with open(os.path.join(folder, "aggregated_input.yaml"), "w") as f:
        f.write(f"# {arch_name}-{name}: written by scripts/sparseloop-3input-cases.py\n")
        yaml.safe_dump(doc, f, sort_keys=False, default_flow_style=None, width=120)
    with open(os.path.join(template, "ERT.yaml")) as src, open(os.path.join(folder, "ERT.yaml"), "w") as dst:
        dst.write(src.read())
    return folder


def compute_level_name(base):
    """The name of the architecture's compute component (class compute or intmac)."""
    def walk(node):
        for item in node.get("local", []) or []:
            cls = item.get("class", "")
            if cls in ("compute", "intmac") or item.get("subclass") == "intmac":
                return item["name"].split("[")[0]
        for sub in node.get("subtree", []) or []:
            found = walk(sub)
            if found:
                return found
        return None
    return walk(base["architecture"])


def main():
    if len(sys.argv) < 3:
        print(__doc__, file=sys.stderr)
        return 2
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    written = []
    for arg in sys.argv[2:]:
        arch_name, template = arg.split("=", 1)
        for case in CASES:
            folder = write_case(out, arch_name, template, case)
            if folder:
                written.append(os.path.basename(folder))
    print(f"wrote {len(written)} cases to {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
