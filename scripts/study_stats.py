"""The study scripts' one library (imported, never run): the tables they read — a CSV the harness
writes (`rows`), a report's tables from its `report.json` (`report_table`, `report_tables`), never
its Markdown — the Markdown tables they write (`md_table`), and the statistics and figures they share:
the two-sided p of a figure from its 95 % interval, Holm's step-down correction, the Wilson interval
of a share, a signed figure with a typographic minus. `scripts/study_stats_check.py` checks the
statistics against independent implementations, and that no study script reads a report's Markdown.
"""
import csv
import functools
import gzip
import json
import math
from pathlib import Path

Z95 = 1.959964


# Tables read.

def rows(path):
    """A CSV's rows as dicts; a per-row table of a finished run may be committed gzipped (NAME.gz)."""
    path = Path(path)
    packed = path.with_name(path.name + ".gz")
    if not path.exists() and packed.exists():
        with gzip.open(packed, "rt", newline="") as f:
            return list(csv.DictReader(f))
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


class Cell(str):
    """A report cell: its text as the report shows it, and `figures`, the numbers it shows in
    reading order, typed (report.json's `figures`: `8 (11.1 %) [5.7, 20.4]` → [8, 11.1, 5.7, 20.4]),
    so that no script takes a display string apart."""

    def __new__(cls, text, figures=()):
        cell = super().__new__(cls, text)
        cell.figures = list(figures)
        return cell


def report_tables(run_dir, file="report.json"):
    """Every table of a run's report, from `run_dir/report.json` (the harness writes it beside
    report.md; `compare.json` beside `harness compare --out`'s compare.md, `tree.json` beside
    tree.md): dicts with `section` (the heading above), `columns` and `rows` (each cell a `Cell`:
    the text the report shows, inline code and emphasis without their Markdown marks, with its
    typed `figures`)."""
    path = Path(run_dir) / file
    if not path.exists():
        raise SystemExit(f"{path}: missing (the harness writes it with the report: `harness report "
                         f"{run_dir} --page`)")
    tables = json.loads(path.read_text())["tables"]
    for t in tables:
        figures = t.get("figures") or [[[] for _ in r] for r in t["rows"]]
        t["rows"] = [[Cell(c, f) for c, f in zip(r, fr)] for r, fr in zip(t["rows"], figures)]
    return tables


def report_table(run_dir, columns, file="report.json"):
    """The rows (lists of `Cell`s) of the first table of `run_dir/FILE` whose columns begin with
    `columns` (their exact names, in order)."""
    columns = list(columns)
    for table in report_tables(run_dir, file):
        if table["columns"][:len(columns)] == columns:
            return table["rows"]
    raise SystemExit(f"{Path(run_dir) / file}: no table whose columns begin {columns}")


# Tables written.

def md_table(columns, body, right=()):
    """A Markdown table as the READMEs write it: the header `columns`, then a line per row of
    `body` (cells as given); the columns whose index is in `right` are right-aligned (`---:`)."""
    lines = ["| " + " | ".join(columns) + " |",
             "|" + "".join("---:|" if k in right else "---|" for k in range(len(columns)))]
    lines += ["| " + " | ".join(row) + " |" for row in body]
    return "\n".join(lines)


# Figures.

def minus(text):
    """A figure with a typographic minus, as the prose writes it."""
    return text.replace("-", "−")


def signed(x, digits=1):
    """A signed figure as the prose writes it: +4.2, −0.7 (a typographic minus)."""
    return minus(f"{x:+.{digits}f}")


# Statistics.

def p_from_interval(value, half):
    """Two-sided p of `value` = 0 from its 95 % half-width (normal approximation)."""
    if half <= 0:
        return 0.0 if value else 1.0
    return math.erfc(abs(value) / (half / Z95) / math.sqrt(2))


def holm(ps):
    """Holm's step-down adjusted p-values, in the order given."""
    order = sorted(range(len(ps)), key=lambda i: ps[i])
    adjusted, running = [0.0] * len(ps), 0.0
    for rank, i in enumerate(order):
        running = max(running, min(1.0, (len(ps) - rank) * ps[i]))
        adjusted[i] = running
    return adjusted


def wilson(k, n, z=Z95):
    """The Wilson score interval of k in n (95 % with the default z), in per cent."""
    p = k / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * (p * (1 - p) / n + z * z / (4 * n * n)) ** 0.5 / (1 + z * z / n)
    return 100 * (centre - half), 100 * (centre + half)


# Game pairs.

# A pair's score for the pairing's second player: its points in the pair's two games, halved.
PAIR_SCORES = (0.0, 0.25, 0.5, 0.75, 1.0)
POINTS = {"1-0": (1.0, 0.0), "0-1": (0.0, 1.0), "1/2-1/2": (0.5, 0.5)}


def once_per_opening(run_dir, pairing):
    """The pentanomial counts (LL, LD, DD+WL, WD, WW) of `pairing`'s finished pairs in a match's
    `games.csv`, for its second player, each opening counted once (its first pair), how many pairs
    were left out, and the kept games' wins, draws and losses. At a fixed node or depth limit a pair played again on the same opening
    replays the same two games: counting it again would count the same evidence twice."""
    second = pairing.split("-")[1]
    games = {}
    for r in _games(str(run_dir)):
        if r["pairing"] == pairing and r["result"] in POINTS:
            white, black = POINTS[r["result"]]
            games.setdefault(int(r["pair"]), []).append(
                (r["opening"], white if r["white"] == second else black))
    counts, seen, repeated, wdl = [0] * 5, set(), 0, [0, 0, 0]
    for pair in sorted(games):
        if len(games[pair]) != 2:
            continue
        opening = games[pair][0][0]
        if opening in seen:
            repeated += 1
            continue
        seen.add(opening)
        counts[PAIR_SCORES.index(sum(p for _, p in games[pair]) / 2)] += 1
        for _, points in games[pair]:
            wdl[(1.0, 0.5, 0.0).index(points)] += 1
    return counts, repeated, wdl


@functools.lru_cache(maxsize=4)
def _games(run_dir):
    """A match's games.csv, read once for all its pairings."""
    return rows(Path(run_dir) / "games.csv")


def pentanomial_elo(counts):
    """Elo and normalized Elo of pentanomial counts, with their 95 % half-widths, the likelihood of
    superiority and the score (keys as in a match's pairings.csv: elo, elo95, nelo, nelo95, los,
    score): the harness's formulas (`lab::elo::EloEstimate::from_pairs`), so a match's own counts
    give its pairings.csv figures."""
    n = sum(counts)
    mean = sum(c * x for c, x in zip(counts, PAIR_SCORES)) / n if n else 0.5
    var = sum(c * (x - mean) ** 2 for c, x in zip(counts, PAIR_SCORES)) / n if n else 0
    if var <= 0 or not 0 < mean < 1:
        return None  # as the harness: no estimate without pairs or spread
    se = math.sqrt(var / n)
    elo = lambda p: -400 * math.log10(1 / p - 1)  # noqa: E731
    low, high = max(mean - Z95 * se, 1e-12), min(mean + Z95 * se, 1 - 1e-12)
    per_t = 800 / math.log(10)
    return {"elo": elo(mean), "elo95": (elo(high) - elo(low)) / 2,
            "nelo": (mean - 0.5) / math.sqrt(2 * var) * per_t, "nelo95": Z95 * per_t / math.sqrt(2 * n),
            "los": 0.5 * (1 + math.erf((mean - 0.5) / se / math.sqrt(2))), "score": mean}
