#!/usr/bin/env python3
"""Drives the `engine` binary with python-chess, a real UCI client: short games against itself and
against Stockfish, with depth, node, movetime and clock limits, plus garbage input mid-game. Fails on
any illegal move, crash or hang. Usage: uci_games.py ENGINE [STOCKFISH]"""
import sys

import chess
import chess.engine

TIMEOUT = 30  # seconds for any single engine answer: a hang fails the test


def play(white, black, limits, max_plies=50):
    board = chess.Board()
    players = {chess.WHITE: (white, limits[0]), chess.BLACK: (black, limits[1])}
    while not board.is_game_over(claim_draw=True) and board.ply() < max_plies:
        engine, limit = players[board.turn]
        result = engine.play(board, limit)
        if result.move is None or result.move not in board.legal_moves:
            raise AssertionError(f"illegal move {result.move} in {board.fen()}")
        board.push(result.move)
    return board


def main():
    engine_path = sys.argv[1]
    stockfish_path = sys.argv[2] if len(sys.argv) > 2 else None
    passed = failed = 0

    def check(name, fn):
        nonlocal passed, failed
        try:
            fn()
            passed += 1
            print(f"ok   {name}")
        except Exception as e:  # a failed check is reported, the others still run
            failed += 1
            print(f"FAIL {name}: {e!r}")

    def open_engine(path):
        e = chess.engine.SimpleEngine.popen_uci(path, timeout=TIMEOUT)
        return e

    def self_play():
        a, b = open_engine(engine_path), open_engine(engine_path)
        try:
            b.configure({"Preset": "plain", "Hash": 8})
            play(a, b, (chess.engine.Limit(depth=3), chess.engine.Limit(nodes=3000)))
            play(b, a, (chess.engine.Limit(time=0.03), chess.engine.Limit(depth=2)))
            clock = chess.engine.Limit(white_clock=2.0, black_clock=2.0, white_inc=0.02, black_inc=0.02)
            play(a, b, (clock, clock), max_plies=30)
        finally:
            a.quit()
            b.quit()

    def garbage_and_stop():
        e = open_engine(engine_path)
        try:
            for line in ["hello", "position fen not/a/fen w", "position startpos moves e2e5", "go depth x", "setoption name Nope value 1", ""]:
                e.protocol.send_line(line)
            e.ping()
            with e.analysis(chess.Board(), chess.engine.Limit()) as analysis:
                for info in analysis:
                    if info.get("depth", 0) >= 3:
                        break
            board = chess.Board()
            assert e.play(board, chess.engine.Limit(depth=2)).move in board.legal_moves
            mate = chess.Board("6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1")
            info = e.analyse(mate, chess.engine.Limit(depth=3))
            assert info["score"].white().mate() == 1, info["score"]
        finally:
            e.quit()

    def against_stockfish():
        if not stockfish_path:
            raise AssertionError("stockfish not given")
        a, sf = open_engine(engine_path), open_engine(stockfish_path)
        try:
            sf.configure({"Threads": 1, "Hash": 16, "Skill Level": 0})
            play(a, sf, (chess.engine.Limit(depth=3), chess.engine.Limit(depth=1)))
            play(sf, a, (chess.engine.Limit(nodes=2000), chess.engine.Limit(time=0.05)))
        finally:
            a.quit()
            sf.quit()

    check("self-play with depth, nodes, movetime and clocks", self_play)
    check("garbage input, analysis with stop, mate score", garbage_and_stop)
    check("games against stockfish", against_stockfish)
    print(f"{passed} passed, {failed} failed")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
