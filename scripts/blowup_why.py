#!/usr/bin/env python3
"""Joins results/dynlimit-blowup/why/*/ (each: diff.md of the trees at candidate limits 3 and 4,
and both trees' tree.md) into one Markdown table on stdout: nodes at each limit, where the growth
runs, the first node on that line where the searches decided differently and what decided it, and
the share of each tree's nodes under a dynamic level, in QS, and in null-move searches.

    scripts/blowup_why.py results/dynlimit-blowup/why > results/dynlimit-blowup/why/README.md

The one study script that reads figures out of the harness's Markdown: `harness tree` and `harness
tree diff` write these figures only as tree.md and diff.md (diff.csv, not committed, has the lines
but not what decided them). `positions` reads them here, once, for this table and for
scripts/blowup_sections.py.
"""
import re
import sys
from pathlib import Path

# The steps of a tree.md's `Nodes under each step` table whose share the table shows.
STEPS = [
    "a dynamic level (selective deepening)",
    "the quiescence search (QS nodes)",
    "a null move's search",
]


def under(tree_md, step):
    """The share (per cent) of a tree's nodes under `step`, from its `Nodes under each step` table."""
    m = re.search(r"\| " + re.escape(step) + r" \| (\d+) \| ([\d.]+) % \|", tree_md)
    return float(m.group(2)) if m else float("nan")


def positions(why):
    """Per position directory of `why` (those with a diff.md), in name order: its id, the nodes
    before and after, the growth line's steps (line, before, after, growth, share cells of diff.md's
    *Where the growth runs*), the first node that decided differently (path, what decided it after;
    None when none did), and the shares (per cent) of each tree's nodes under each of STEPS."""
    out = []
    for d in sorted(p for p in why.iterdir() if (p / "diff.md").exists()):
        diff = (d / "diff.md").read_text()
        t3, t4 = (d / "tree-3.md").read_text(), (d / "tree-4.md").read_text()
        first = re.search(r"decided differently: `([^`]*)`\.\n\n- before: (.*)\n- after: (.*)\n", diff)
        out.append({
            "id": d.name,
            "before": int(re.search(r"- before: .*: (\d+) nodes", diff).group(1)),
            "after": int(re.search(r"- after: .*: (\d+) nodes", diff).group(1)),
            "growth": re.findall(r"^\| `([^`]*)` \| (\d+) \| (\d+) \| ([^|]*) \| ([^|]*) \|",
                                 diff.split("## The")[0], re.M),
            "decided": (first.group(1), first.group(3)) if first else None,
            "shares": [(under(t3, s), under(t4, s)) for s in STEPS],
        })
    return out


def main(why):
    print("# Why it blows up: the ten largest 3 → 4 growths of the unselected positions\n")
    print("Made by `scripts/dynlimit-blowup.sh trees` (see the study's README, *Why it blows up*). For")
    print("each position: the trees of the `fischerle` search at depth 6 with candidate limit 3 and 4,")
    print("recorded by `harness tree` and compared by `harness tree diff` (each directory: `diff.md`,")
    print("both `tree.md`, and `diff.png`, a screenshot of `diff.html`).\n")
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
