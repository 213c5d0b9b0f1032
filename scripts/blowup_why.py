#!/usr/bin/env python3
"""Joins results/dynlimit-blowup/why/*/ (each: diff.md and diff.json of the trees at candidate
limits 3 and 4, and both trees' tree-N.md and tree-N.json) into one Markdown table on stdout: nodes at each limit, where the growth
runs, the first node on that line where the searches decided differently and what decided it, and
the share of each tree's nodes under a dynamic level, in QS, and in null-move searches.

    scripts/blowup_why.py results/dynlimit-blowup/why > results/dynlimit-blowup/why/README.md

Reads what `harness tree` and `harness tree diff` write as data beside their Markdown: each
tree's `tree.json` (its tables) and `diff.json` (both searches' nodes, the growth line, the first
node that decided differently). `positions` reads them here, once, for this table and for
scripts/blowup_sections.py.
"""
import json
import sys
from pathlib import Path

# The steps of a tree's `Nodes under each step` table whose share the table shows.
STEPS = [
    "a dynamic level (selective deepening)",
    "the quiescence search (QS nodes)",
    "a null move's search",
]


def under(tree, step):
    """The share (per cent) of a tree's nodes under `step`, from its `Nodes under each step` table
    (`tree` is the tree's tree.json)."""
    table = next(t for t in tree["tables"] if t["columns"][:3] == ["under", "nodes", "share"])
    for name, _, share in table["rows"]:
        if name == step:
            return float(share.rstrip(" %"))
    return float("nan")


def shown(path):
    """A line as diff.md shows it: the root as `(root)`."""
    return path or "(root)"


def words(decision):
    """A node's decision as diff.md words it (None: the search did not visit the node)."""
    if decision is None:
        return "not visited"
    if not decision["actions"]:
        return f"{decision['kind']} node at level {decision['level']}, nothing acted"
    return f"{decision['kind']} node at level {decision['level']}: {decision['actions']}"


def percent(share):
    """A share of the growth as diff.md shows it (None: the root did not grow)."""
    return "-" if share is None else f"{share:.0f} %"


def positions(why):
    """Per position directory of `why` (those with a diff.json), in name order: its id, the nodes
    before and after, the growth line's steps (line, before, after, growth, share, as diff.md shows
    them) and the same as numbers (growth, share in per cent or None), the first node that decided
    differently (path as shown, what decided it after in words, and after as data; None when none
    did), and the shares (per cent) of each tree's nodes under each of STEPS."""
    out = []
    for d in sorted(p for p in why.iterdir() if (p / "diff.json").exists()):
        diff = json.loads((d / "diff.json").read_text())
        t3, t4 = (json.loads((d / f"tree-{n}.json").read_text()) for n in (3, 4))
        decided = diff["decided"]
        line = diff["growth_line"]
        out.append({
            "id": d.name,
            "before": diff["before"]["nodes"],
            "after": diff["after"]["nodes"],
            "growth": [(shown(s["path"]), str(s["before"]), str(s["after"]), f"{s['growth']:+d}",
                        percent(s["share"])) for s in line],
            "growth_shares": [(s["growth"], s["share"]) for s in line],
            "decided": ((shown(decided["path"]), words(decided["after"]), decided["after"])
                        if decided else None),
            "shares": [(under(t3, s), under(t4, s)) for s in STEPS],
        })
    return out


def main(why):
    print("# Why it blows up: the ten largest 3 → 4 growths of the unselected positions\n")
    print("Made by `scripts/dynlimit-blowup.sh trees` (see the study's README, *Why it blows up*). For")
    print("each position: the trees of the `fischerle` search at depth 6 with candidate limit 3 and 4,")
    print("recorded by `harness tree` and compared by `harness tree diff` (each directory: `diff.md` and")
    print("its data `diff.json`, both trees' `tree-N.md` and `tree-N.json`, and `diff.png`, a screenshot")
    print("of `diff.html`).\n")
    print("| position | nodes at 3 | at 4 | × | growth line | first node that decided differently | under a dynamic level, 3 → 4 | QS share, 3 → 4 | in null-move searches, 3 → 4 |")
    print("|---|---:|---:|---:|---|---|---:|---:|---:|")
    for p in positions(why):
        before, after = p["before"], p["after"]
        line = p["growth"][-1][0] if p["growth"] else ""
        decided = f"`{p['decided'][0]}`: {p['decided'][1]}" if p["decided"] else "-"
        shares = " | ".join(f"{a:.0f} → {b:.0f} %" for a, b in p["shares"])
        print(f"| {p['id']} | {before} | {after} | {after / max(before, 1):.1f} | `{line}` | {decided} | {shares} |")


if __name__ == "__main__":
    main(Path(sys.argv[1]))
