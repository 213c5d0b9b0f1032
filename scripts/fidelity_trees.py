"""Where the nodes of each form's trees lie (results/fidelity/, #66), from `harness tree`'s
tree.arrow (the last iteration, depth 10): per form and position, the nodes, and those inside a
singular verification, below a singular or check extension, below a negative extension, the
multicuts and verifications made, and the cutoffs with those made by the node's first move (how
well the order guessed).

    python3 scripts/fidelity_trees.py TREES_DIR OUT.csv   # TREES_DIR/FORM/POSITION/tree.arrow
"""
import csv
import sys
from pathlib import Path

import polars as pl

COLUMNS = ["form", "position", "nodes", "verifications", "in_verifications", "singular_extended",
           "below_singular", "negative_extended", "below_negative", "multicuts", "check_extended",
           "below_check", "cutoffs", "first_move_cutoffs"]


def counts(tree):
    """One tree's counts: nodes under each kind of step, each node counted once per kind."""
    df = pl.read_ipc(tree, columns=["id", "parent", "probe", "extension", "multicut",
                                             "cutoff_rank"])
    under = {}  # id -> (verification, singular, negative, check) of its path, itself included
    totals = dict.fromkeys(["in_verifications", "below_singular", "below_negative", "below_check"], 0)
    for node, parent, probe, extension in zip(df["id"], df["parent"], df["probe"], df["extension"]):
        flags = list(under.get(parent, (False,) * 4))
        flags[0] |= probe == "singular"
        flags[1] |= extension == "singular"
        flags[2] |= extension == "negative"
        flags[3] |= extension == "check"
        under[node] = tuple(flags)
        for key, on in zip(totals, flags):
            totals[key] += on
    return {
        "nodes": df.height,
        "verifications": int((df["probe"] == "singular").sum()),
        "singular_extended": int((df["extension"] == "singular").sum()),
        "negative_extended": int((df["extension"] == "negative").sum()),
        "multicuts": int(df["multicut"].sum()),
        "check_extended": int((df["extension"] == "check").sum()),
        "cutoffs": int(df["cutoff_rank"].is_not_null().sum()),
        "first_move_cutoffs": int((df["cutoff_rank"] == 0).sum()),
        **totals,
    }


def main():
    if len(sys.argv) != 3:
        raise SystemExit(__doc__)
    root, out = Path(sys.argv[1]), Path(sys.argv[2])
    with out.open("w", newline="") as f:
        writer = csv.DictWriter(f, COLUMNS, lineterminator="\n")
        writer.writeheader()
        for tree in sorted(root.glob("*/*/tree.arrow")):
            form, position = tree.parent.parent.name, tree.parent.name
            writer.writerow({"form": form, "position": position, **counts(tree)})


if __name__ == "__main__":
    main()
