#!/usr/bin/env python3
"""Makes suites/blowup.epd: positions from the project's own engine playing itself on which raising
selective.candidate_limit (Fischerle's DynSuchLevelZugKandidatenLimit) from 3 to 4 blows the search
up, selected by the harness and labelled by a reference engine.

1. Candidates: seeded self-play games (`--random-plies` random legal plies
   from the start position with random.Random(seed), then the `engine` binary, fischerle preset,
   plays both sides at `--play-depth`); every `--every`-th position from ply 16 on.
2. Prefilter: `harness grid` with candidate_limit 3 and 4 at `--pre-depth`; keep positions whose
   node ratio (limit 4 / limit 3) is at least `--pre-ratio`.
3. Selection: the same at `--depth` (the default experiment's depth) with node cap `--node-cap`;
   keep positions whose ratio is at least `--ratio` (a search censored at the cap counts with the
   nodes it spent, a lower bound), at most `--keep`, largest ratios first.
4. Labels: the reference engine at MultiPV 2 to `--label-depth` gives `bm`; `c0` records the game,
   ply, seed, the measured node counts and ratio, and the reference's two scores and margin.

Deterministic for a given seed and engine builds (fixed depths, node counts independent of threads).
Remake with:  python3 suites/make_blowup.py --out suites/blowup.epd
"""
import argparse
import csv
import random
import subprocess
from pathlib import Path

import chess
import chess.engine


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--engine", default="target/release/engine")
    ap.add_argument("--harness", default="target/release/harness")
    ap.add_argument("--reference", default="/usr/games/stockfish")
    ap.add_argument("--seed", type=int, default=4004)
    ap.add_argument("--games", type=int, default=30)
    ap.add_argument("--random-plies", type=int, default=6)
    ap.add_argument("--play-depth", type=int, default=5)
    ap.add_argument("--max-plies", type=int, default=140)
    ap.add_argument("--every", type=int, default=2)
    ap.add_argument("--pre-depth", type=int, default=6)
    ap.add_argument("--pre-ratio", type=float, default=2.0)
    ap.add_argument("--depth", type=int, default=7)
    ap.add_argument("--node-cap", type=int, default=20_000_000)
    ap.add_argument("--ratio", type=float, default=5.0)
    ap.add_argument("--keep", type=int, default=16)
    ap.add_argument("--label-depth", type=int, default=14)
    ap.add_argument("--work", default="target/make-blowup")
    ap.add_argument("--out", default="suites/blowup.epd")
    args = ap.parse_args()
    work = Path(args.work)
    work.mkdir(parents=True, exist_ok=True)

    candidates = play_games(args)
    write_epd(work / "candidates.epd", candidates)
    print(f"{len(candidates)} candidate positions")
    pre = ratios(args, work / "candidates.epd", work / "pre", args.pre_depth, args.node_cap)
    kept = [c for c in candidates if pre.get(c["id"], (0, 0, 0))[2] >= args.pre_ratio]
    write_epd(work / "prefiltered.epd", kept)
    print(f"{len(kept)} with ratio >= {args.pre_ratio} at depth {args.pre_depth}")
    final = ratios(args, work / "prefiltered.epd", work / "final", args.depth, args.node_cap)
    chosen = sorted((c for c in kept if final[c["id"]][2] >= args.ratio), key=lambda c: -final[c["id"]][2])
    print(f"{len(chosen)} with ratio >= {args.ratio} at depth {args.depth}; keeping {min(len(chosen), args.keep)}")
    label_all(args, chosen[: args.keep], final)


def play_games(args):
    rng = random.Random(args.seed)
    player = chess.engine.SimpleEngine.popen_uci(args.engine)
    out = []
    for game in range(args.games):
        board = chess.Board()
        for _ in range(args.random_plies):
            board.push(rng.choice(list(board.legal_moves)))
        while not board.is_game_over(claim_draw=True) and board.ply() < args.max_plies:
            if board.ply() >= 16 and board.ply() % args.every == 0:
                out.append({"id": f"g{game:02d}p{board.ply():03d}", "epd": board.epd(), "game": game,
                            "ply": board.ply()})
            board.push(player.play(board, chess.engine.Limit(depth=args.play_depth)).move)
    player.quit()
    return out


def write_epd(path, positions):
    with open(path, "w") as f:
        for p in positions:
            f.write(f'{p["epd"]} id "{p["id"]}";\n')


def ratios(args, suite, out, depth, cap):
    """Runs limit 3 and 4 on `suite`; returns {id: (nodes3, nodes4, ratio)}."""
    subprocess.run([args.harness, "grid", "--preset", "fischerle", "--suite", str(suite),
                    "--set", "selective.candidate_limit=3,4", "--depth", str(depth),
                    "--node-cap", str(cap), "--quiet", "--out", str(out)], check=True,
                   stdout=subprocess.DEVNULL)
    nodes = {}
    with open(out / "runs.csv") as f:
        for row in csv.DictReader(f):
            nodes.setdefault(row["position_id"], {})[row["selective.candidate_limit"]] = int(row["nodes"])
    return {pid: (n["3"], n["4"], n["4"] / max(n["3"], 1)) for pid, n in nodes.items()}


def label_all(args, chosen, final):
    ref = chess.engine.SimpleEngine.popen_uci(args.reference)
    ref.configure({"Threads": 1, "Hash": 64})
    name = ref.id.get("name", args.reference)
    with open(args.out, "w") as f:
        for k, c in enumerate(chosen, 1):
            board = chess.Board(c["epd"])
            infos = ref.analyse(board, chess.engine.Limit(depth=args.label_depth), multipv=2)
            best = infos[0]["score"].relative
            second = infos[1]["score"].relative if len(infos) > 1 else None
            margin = (best.score(mate_score=100_000) - second.score(mate_score=100_000)) if second else None
            n3, n4, ratio = final[c["id"]]
            c0 = (f"blowup: selfplay game {c['game']} ply {c['ply']} seed {args.seed}; harness fischerle depth "
                  f"{args.depth}: candidate_limit 3 {n3} nodes, 4 {n4} nodes (x{ratio:.1f}, cap {args.node_cap}); "
                  f"labelled by {name} depth {args.label_depth} multipv 2: best {best} second {second} margin {margin}")
            f.write(f'{c["epd"]} bm {board.san(infos[0]["pv"][0])}; id "blowup.{k:03d}"; c0 "{c0}";\n')
    ref.quit()
    print(f"{len(chosen)} positions written to {args.out}")


if __name__ == "__main__":
    main()
