#!/usr/bin/env python3
"""What external runners pay: a python-chess script drives the `engine` binary over UCI through an
EPD suite at a fixed depth (ucinewgame + isready between positions, as cutechess-style runners do)
and prints the mean wall time per position. Compare with `harness grid --depth N --threads 1` on the
same suite (time per position = total wall time / positions).

    python3 scripts/uci_overhead.py target/release/engine ../shared/suites/wac.epd --depth 1
"""
import argparse
import time

import chess
import chess.engine


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("engine")
    ap.add_argument("suite")
    ap.add_argument("--depth", type=int, default=1)
    args = ap.parse_args()
    boards = []
    for line in open(args.suite):
        if line.strip():
            boards.append(chess.Board(" ".join(line.split()[:4]) + " 0 1"))
    engine = chess.engine.SimpleEngine.popen_uci(args.engine)
    start = time.perf_counter()
    for board in boards:
        engine.protocol.send_line("ucinewgame")
        engine.ping()
        engine.play(board, chess.engine.Limit(depth=args.depth))
    elapsed = time.perf_counter() - start
    engine.quit()
    print(f"{len(boards)} positions, {elapsed:.3f} s, {elapsed / len(boards) * 1e3:.3f} ms per position over UCI")


if __name__ == "__main__":
    main()
