#!/usr/bin/env python3
"""Compares every position of `harness kpk table` with the Gaviota tablebase (python-chess's
chess.gaviota on Debian's gaviotatb tables): win/draw/loss and distance to mate in plies.
Usage: kpk_gaviota.py TABLE.csv GAVIOTA_DIR"""
import csv
import sys

import chess
import chess.gaviota


def main():
    table, directory = sys.argv[1], sys.argv[2]
    tb = chess.gaviota.open_tablebase(directory)
    checked, wrong = 0, []
    with open(table) as f:
        for row in csv.DictReader(f):
            board = chess.Board(row["fen"])
            expected = (tb.probe_wdl(board), tb.probe_dtm(board))
            found = (int(row["wdl"]), int(row["dtm"]))
            checked += 1
            if expected != found:
                wrong.append((row["fen"], found, expected))
    for fen, found, expected in wrong[:20]:
        print(f"MISMATCH {fen}: ours (wdl, dtm) {found}, Gaviota {expected}")
    print(f"{checked} positions checked against Gaviota, {len(wrong)} mismatches")
    sys.exit(1 if wrong or checked == 0 else 0)


if __name__ == "__main__":
    main()
