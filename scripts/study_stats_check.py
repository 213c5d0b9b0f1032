#!/usr/bin/env python3
"""Checks scripts/study_stats.py, the study scripts' library, and how the study scripts use it:

1. no study script reads a Markdown file the harness or a study wrote (a report.md, a README's
   table, a tree's .md) for its figures: every path literal ending in `.md` in scripts/*.py must be
   a file the script syncs (a key of the `{path: (blocks, whole)}` dict `readme_blocks.sync` takes,
   which rewrites a README's marker blocks or a whole table.md) or lie in one of the functions of
   KNOWN, each reading figures the harness writes only as Markdown so far. (Path literals only: a
   path given on the command line or read from the shell scripts is not seen.)
2. no two study scripts import each other, directly or through others;
3. the statistics against independent implementations, on 500 random cases each: Holm against
   statsmodels' multipletests, the p from an interval against scipy's normal survival function,
   Wilson against statsmodels' proportion_confint (needs `pip install statsmodels scipy`; without
   them this part says NOT RUN);
4. the pair statistics (`once_per_opening`, `pentanomial_elo`): on 60 pairings of committed
   matches whose pairs repeat no opening they give the harness's own pairings.csv figures (the Rust
   implementation), a replayed opening is counted once, and the Elo interval covers a known truth
   about 95 % of the time in simulated matches.

    python3 scripts/study_stats_check.py
"""
import ast
import math
import random
import re
import sys
from pathlib import Path

from study_stats import (PAIR_SCORES, Z95, holm, once_per_opening, p_from_interval, pentanomial_elo,
                         rows, wilson)

SCRIPTS = Path(__file__).resolve().parent

# The functions that still read Markdown, each for figures the harness writes in no CSV or JSON
# yet (script, function): what is read, and what the harness would need to write.
KNOWN = {
}

# A path literal naming a Markdown file (no spaces or backticks: prose that names a file is not one).
MD_PATH = re.compile(r"[\w./{}-]*\.md")


def strings(node):
    """The string constants in `node`, f-strings' literal parts included."""
    return [n for n in ast.walk(node) if isinstance(n, ast.Constant) and isinstance(n.value, str)]


def markdown_reads(scripts=SCRIPTS):
    """`file:line: literal (in function)` for every Markdown path a study script names outside a sync
    and outside KNOWN."""
    found = []
    for path in sorted(scripts.glob("*.py")):
        if path.name == Path(__file__).name:
            continue
        tree = ast.parse(path.read_text(), str(path))
        # What sync owns: its argument, a dict {path: (blocks, whole)}, written there or before.
        synced = {id(c) for d in ast.walk(tree) if isinstance(d, ast.Dict)
                  for k, v in zip(d.keys, d.values) if k is not None and isinstance(v, ast.Tuple)
                  and len(v.elts) == 2 for c in strings(k)}
        functions = [f for f in ast.walk(tree) if isinstance(f, (ast.FunctionDef, ast.AsyncFunctionDef))]
        for c in strings(tree):
            if id(c) in synced or not MD_PATH.fullmatch(c.value):
                continue
            inside = [f.name for f in functions if f.lineno <= c.lineno <= f.end_lineno]
            where = inside[-1] if inside else "<module>"
            if not any((path.name, f) in KNOWN for f in inside):
                found.append(f"scripts/{path.name}:{c.lineno}: {c.value!r} (in {where})")
    return found


# What a report cell's display text is cut at (`8 (11.1 %) [5.7, 20.4]`, `a / b / c`, `+5.2 ± 3.1`):
# a study script reads such a cell's numbers from its `figures` (study_stats.Cell) instead.
DISPLAY_SEPARATORS = {"(", " (", ")", ") ", " %", "%", " / ", "/", "±", " ± ", "[", " [", "]"}


def display_splits(scripts=SCRIPTS):
    """`file:line: call` for every `.split`/`.rsplit` of a study script at a display separator."""
    found = []
    for path in sorted(scripts.glob("*.py")):
        if path.name == Path(__file__).name:
            continue
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                    and node.func.attr in ("split", "rsplit") and node.args
                    and isinstance(node.args[0], ast.Constant) and node.args[0].value in DISPLAY_SEPARATORS):
                found.append(f"scripts/{path.name}:{node.lineno}: .{node.func.attr}({node.args[0].value!r})")
    return found


def import_cycles(scripts=SCRIPTS):
    """The groups of study scripts that import each other (directly or through others), imports
    inside functions included."""
    local = {p.stem for p in scripts.glob("*.py")}
    graph = {}
    for path in scripts.glob("*.py"):
        names = set()
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if isinstance(node, ast.Import):
                names |= {a.name.split(".")[0] for a in node.names}
            elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                names.add(node.module.split(".")[0])
        graph[path.stem] = sorted(names & local - {path.stem})
    # Tarjan's strongly connected components; one of more than one script is a cycle.
    index, low, stack, on, cycles = {}, {}, [], set(), []

    def visit(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in graph[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group = []
            while True:
                w = stack.pop()
                on.discard(w)
                group.append(w)
                if w == v:
                    break
            if len(group) > 1:
                cycles.append(sorted(group))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return cycles


def statistics():
    """Holm, the p from an interval and Wilson against statsmodels and scipy; False when they are
    not installed."""
    try:
        from scipy.stats import norm
        from statsmodels.stats.multitest import multipletests
        from statsmodels.stats.proportion import proportion_confint
    except ImportError:
        return False
    random.seed(1)
    for _ in range(500):
        ps = [random.random() ** 3 for _ in range(random.randint(1, 30))]
        assert all(abs(a - b) < 1e-12 for a, b in zip(holm(ps), multipletests(ps, method="holm")[1]))
    for _ in range(500):
        value, half = random.uniform(-100, 100), random.uniform(1, 80)
        assert abs(p_from_interval(value, half) - 2 * norm.sf(abs(value) / (half / Z95))) < 1e-12
    for _ in range(500):
        n = random.randint(1, 5000)
        k = random.randint(0, n)
        low, high = proportion_confint(k, n, alpha=0.05, method="wilson")
        # Z95 is the 97.5 % normal quantile to 7 digits: the intervals agree to about 1e-6 %.
        assert all(abs(a - 100 * b) < 1e-5 for a, b in zip(wilson(k, n), (low, high))), (k, n)
    return True


def pair_statistics(results=SCRIPTS.parent / "results"):
    """The pair statistics against the harness on the first 60 pairings (in path order) of committed
    matches without a replayed opening, on a made-up replay, and by simulation; returns how many
    pairings were compared."""
    compared = 0
    for pairings in sorted(results.glob("**/pairings.csv")):
        run = pairings.parent
        if not any((run / f).exists() for f in ("games.csv", "games.csv.gz")):
            continue
        for r in rows(pairings):
            counts, replays, _ = once_per_opening(run, r["pairing"])
            if replays or sum(counts) != int(r["pairs"]) or not 0 < float(r["score"] or 0) < 1:
                continue
            mine = pentanomial_elo(counts)
            for key in ("elo", "elo95", "nelo", "nelo95", "score"):
                assert abs(mine[key] - float(r[key])) <= 1e-6 * max(1, abs(float(r[key]))), (
                    run, r["pairing"], key, mine[key], r[key])
            compared += 1
        if compared >= 60:
            break
    assert compared >= 60, compared
    # A made-up match: opening a twice (the second pair a replay), opening b once.
    import tempfile
    with tempfile.TemporaryDirectory() as d:
        head = "pairing,pair,game,opening,white,black,result\n"
        games = ["p00-p01,1,1,a,p00,p01,0-1", "p00-p01,1,2,a,p01,p00,1/2-1/2",
                 "p00-p01,2,1,b,p00,p01,1-0", "p00-p01,2,2,b,p01,p00,1-0",
                 "p00-p01,3,1,a,p00,p01,0-1", "p00-p01,3,2,a,p01,p00,1/2-1/2"]
        (Path(d) / "games.csv").write_text(head + "\n".join(games) + "\n")
        # p01: pair 1 scores a win and a draw (WD), pair 2 a loss and a win; pair 3 replays pair 1.
        assert once_per_opening(d, "p00-p01") == ([0, 0, 1, 1, 0], 1, [2, 1, 1])
    # Coverage: matches of 300 pairs drawn from a known pair-score distribution.
    random.seed(2)
    truth = [0.06, 0.2, 0.4, 0.24, 0.1]
    true_mean = sum(p * x for p, x in zip(truth, PAIR_SCORES))
    true_elo = -400 * math.log10(1 / true_mean - 1)
    covered = 0
    for _ in range(2000):
        counts = [0] * 5
        for x in random.choices(range(5), weights=truth, k=300):
            counts[x] += 1
        f = pentanomial_elo(counts)
        covered += abs(f["elo"] - true_elo) <= f["elo95"]
    assert 0.93 <= covered / 2000 <= 0.97, (covered, truth)
    return compared


if __name__ == "__main__":
    reads, cycles, splits = markdown_reads(), import_cycles(), display_splits()
    for line in reads:
        print(f"reads Markdown: {line}")
    for line in splits:
        print(f"splits a display string: {line}")
    for group in cycles:
        print(f"import each other: {', '.join(f'scripts/{g}.py' for g in group)}")
    if reads or cycles or splits:
        print("study scripts read the CSV and JSON the harness writes (report.json for a report's tables: "
              "study_stats.report_table, a cell's numbers from its figures), never its Markdown or a "
              "display string; shared pieces move down into study_stats.py or the lower script")
        sys.exit(1)
    print(f"no study script reads Markdown (outside {len(KNOWN)} known reads the harness has no data "
          "for yet) or splits a display string; no two import each other")
    print(f"pair statistics = the harness's pairings.csv on {pair_statistics()} committed pairings; a "
          "replayed opening counted once; Elo intervals cover a known truth about 95 % of the time")
    if statistics():
        print("holm = statsmodels, p = scipy, wilson = statsmodels, on 500 random cases each")
    else:
        print("NOT RUN: holm, p and wilson against statsmodels and scipy (pip install statsmodels scipy)")
