#!/usr/bin/env python3
"""Makes suites/selfplay.epd: positions from the project's own engine playing itself, labelled by a
reference engine.

1. Seeded openings: from the start position, `--random-plies` uniformly random legal moves
   (random.Random(seed)).
2. The project's `engine` (UCI, fischerle preset) plays both sides at `--play-depth` until the
   game ends or reaches `--max-plies`.
3. Every position from ply 16 on is analysed by the reference engine (Stockfish) at MultiPV 2 to
   `--label-depth`; a position is kept when its best move beats the second by at least `--margin`
   centipawns (a clear best move makes a fair test) and the best is not a mate in one.
4. Each record gets `bm`, `id` and a `c0` saying how it was made.

Deterministic for a given seed and engine versions (both engines searched to fixed depths, one
thread). Remake with:  python3 suites/make_selfplay.py --out suites/selfplay.epd
"""
import argparse
import random

import chess
import chess.engine


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--engine", default="target/release/engine")
    ap.add_argument("--reference", default="/usr/games/stockfish")
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--games", type=int, default=24)
    ap.add_argument("--random-plies", type=int, default=6)
    ap.add_argument("--play-depth", type=int, default=5)
    ap.add_argument("--max-plies", type=int, default=120)
    ap.add_argument("--label-depth", type=int, default=14)
    ap.add_argument("--margin", type=int, default=150)
    ap.add_argument("--per-game", type=int, default=3, help="most positions kept per game")
    ap.add_argument("--out", default="suites/selfplay.epd")
    args = ap.parse_args()

    rng = random.Random(args.seed)
    player = chess.engine.SimpleEngine.popen_uci(args.engine)
    ref = chess.engine.SimpleEngine.popen_uci(args.reference)
    ref.configure({"Threads": 1, "Hash": 64})
    ref_name = ref.id.get("name", args.reference)
    out = open(args.out, "w")
    count = 0
    for game in range(args.games):
        board = chess.Board()
        for _ in range(args.random_plies):
            moves = list(board.legal_moves)
            if not moves:
                break
            board.push(rng.choice(moves))
        kept = 0
        while not board.is_game_over(claim_draw=True) and board.ply() < args.max_plies and kept < args.per_game:
            if board.ply() >= 16:
                line = label(board, ref, args, ref_name, game)
                if line:
                    count += 1
                    out.write(line.replace("@ID@", f"selfplay.{count:03d}") + "\n")
                    out.flush()
                    kept += 1
            board.push(player.play(board, chess.engine.Limit(depth=args.play_depth)).move)
    player.quit()
    ref.quit()
    out.close()
    print(f"{count} positions written to {args.out}")


def label(board, ref, args, ref_name, game):
    infos = ref.analyse(board, chess.engine.Limit(depth=args.label_depth), multipv=2)
    if len(infos) < 2:
        return None
    best, second = (i["score"].relative for i in infos[:2])
    if best.is_mate() and best.mate() == 1:
        return None
    gap = best.score(mate_score=100_000) - second.score(mate_score=100_000)
    if gap < args.margin:
        return None
    bm = board.san(infos[0]["pv"][0])
    c0 = (f"selfplay game {game} ply {board.ply()} seed {args.seed}; labelled by {ref_name} depth "
          f"{args.label_depth} multipv 2: best {best} second {second} margin {gap}")
    return f'{board.epd()} bm {bm}; id "@ID@"; c0 "{c0}";'


if __name__ == "__main__":
    main()
