#!/usr/bin/env python3
"""Builds the collapse suite (#54) from committed match runs: every position where one of the
project's own players (a builtin configuration, not a UCI engine) saw its score fall by at least
DROP centipawns from one of its moves to its next, kept when Stockfish at a fixed depth confirms the
move it played there was a mistake — the best move scores at least MARGIN above the played one —
as an EPD record `am <played>` (python-chess writes and checks it).

The runs are read from their own files (manifest.json, games.csv, moves.csv, either gzipped); the
positions are replayed from each game's opening in the book the manifest names.

    scripts/collapse_suite.py --out suites-collapse.epd RUN_DIR... [--drop 150] [--margin 100] [--depth 14]
"""
import argparse
import csv
import gzip
import io
import json
from pathlib import Path

import chess
import chess.engine

MATE_BOUND = 10_000


def table(run, name):
    """The rows of a run's table, plain or gzipped."""
    plain = run / name
    if plain.exists():
        return list(csv.DictReader(plain.open()))
    with gzip.open(run / (name + ".gz"), "rt") as f:
        return list(csv.DictReader(io.StringIO(f.read())))


def book(path):
    """Opening id → FEN of an EPD book."""
    fens = {}
    for line in Path(path).read_text().splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        board, ops = chess.Board.from_epd(line)
        fens[ops.get("id", "")] = board.fen()
    return fens


def collapses(run, drop):
    """(fen, played SAN, source, score before, score after) of every collapse in `run`'s games."""
    manifest = json.loads((run / "manifest.json").read_text())
    ours = {p["id"] for p in manifest["players"] if "engine" not in p["player"]}
    names = {p["id"]: p.get("name") or p["id"] for p in manifest["players"]}
    source = manifest["book"]["source"]
    openings = book(Path("suites") / source.removeprefix("builtin:") if source.startswith("builtin:") else source)
    games = {(g["index"], g["game"]): g for g in table(run, "games.csv")}
    plies = {}
    for m in table(run, "moves.csv"):
        plies.setdefault((m["index"], m["game"]), []).append(m)
    found = []
    for key, moves in sorted(plies.items()):
        board = chess.Board(openings[games[key]["opening"]])
        seen = {}  # player → (fen, san, score) of its last move
        for m in sorted(moves, key=lambda m: int(m["ply"])):
            score = int(m["score"]) if m["score"] not in ("", None) else None
            last = seen.get(m["player"])
            if (m["player"] in ours and last and score is not None and last[2] is not None
                    and abs(last[2]) < MATE_BOUND and abs(score) < MATE_BOUND
                    and last[2] - score >= drop):
                source = f"{run} game {key[0]}.{key[1]} {names[m['player']]}"
                found.append((last[0], last[1], source, last[2], score))
            seen[m["player"]] = (board.fen(), m["san"], score)
            board.push_san(m["san"])
    return found


def confirmed(engine, fen, san, depth, margin):
    """Whether Stockfish at `depth` scores the best move at least `margin` above `san`."""
    board = chess.Board(fen)
    played = board.parse_san(san)
    limit = chess.engine.Limit(depth=depth)
    best = engine.analyse(board, limit)
    if best["pv"][0] == played:
        return False
    after = board.copy()
    after.push(played)
    reply = engine.analyse(after, limit)
    engine.protocol.send_line("ucinewgame")
    best_cp = best["score"].relative.score(mate_score=MATE_BOUND)
    played_cp = -reply["score"].relative.score(mate_score=MATE_BOUND)
    return best_cp - played_cp >= margin


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("runs", nargs="+", type=Path)
    parser.add_argument("--out", required=True, type=Path)
    parser.add_argument("--drop", type=int, default=150)
    parser.add_argument("--margin", type=int, default=100)
    parser.add_argument("--depth", type=int, default=14)
    parser.add_argument("--stockfish", default="/usr/games/stockfish")
    args = parser.parse_args()
    if args.out.exists():
        raise SystemExit(f"{args.out} exists: choose a new file (a suite is never overwritten)")
    candidates = [c for run in args.runs for c in collapses(run, args.drop)]
    engine = chess.engine.SimpleEngine.popen_uci(args.stockfish)
    engine.configure({"Threads": 1, "Hash": 16})
    kept, seen = [], set()
    for fen, san, source, before, after in candidates:
        if (fen, san) in seen:
            continue
        seen.add((fen, san))
        if confirmed(engine, fen, san, args.depth, args.margin):
            kept.append((fen, san, source, before, after))
    engine.quit()
    lines = [f"# The collapse suite: {len(kept)} of {len(candidates)} score drops of at least {args.drop} cp "
             f"confirmed by Stockfish at depth {args.depth} (best move {args.margin}+ cp above the played one).",
             "# made by: scripts/collapse_suite.py " + " ".join(str(r) for r in args.runs)
             + f" --drop {args.drop} --margin {args.margin} --depth {args.depth} --out FILE"]
    for i, (fen, san, source, before, after) in enumerate(kept, 1):
        board = chess.Board(fen)
        lines.append(board.epd(am=[board.parse_san(san)], id=f"collapse.{i:03}",
                               c0=f"{source}: {before} -> {after}"))
    args.out.write_text("\n".join(lines) + "\n")
    print(f"{len(kept)} of {len(candidates)} candidates kept → {args.out}")


if __name__ == "__main__":
    main()
