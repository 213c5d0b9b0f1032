#!/usr/bin/env python3
"""The positions of the unselected populations whose tree grows most from candidate limit 3 to 4
in results/dynlimit-blowup/steps (depth 6): `id<TAB>fen<TAB>nodes at 3<TAB>nodes at 4`, largest
ratio first. Reads runs.csv or its committed runs.csv.gz.

    scripts/blowup_growths.py results/dynlimit-blowup/steps 10
"""
import json
import sys
from pathlib import Path

from study_stats import rows


def main(run, count):
    manifest = json.loads((run / "manifest.json").read_text())
    ids = {c["values"][0]: c["id"] for c in manifest["configs"]}
    three, four = ids["3"], ids["4"]
    by = {}
    for r in rows(run / "runs.csv"):
        if r["suite"].startswith("unselected"):
            by.setdefault(r["position_id"], {})[r["config_id"]] = r
    growths = []
    for pid, cfg in by.items():
        if three in cfg and four in cfg:
            a, b = int(cfg[three]["nodes"]), int(cfg[four]["nodes"])
            growths.append((b / a, pid, cfg[three]["fen"], a, b))
    growths.sort(key=lambda g: (-g[0], g[1]))
    for _, pid, fen, a, b in growths[:count]:
        print(f"{pid}\t{fen}\t{a}\t{b}")


if __name__ == "__main__":
    main(Path(sys.argv[1]), int(sys.argv[2]))
