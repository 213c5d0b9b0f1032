"""An independent referee of `harness datagen`'s records (python-chess and the bulletformat layout
read here from its documentation, not from the harness's code): every text line is a legal
position, not in check, with a score in centipawns and a result; every binary record is the same
position seen from the side to move, with the score and the result flipped for Black.

    python3 datagen_referee.py RUN_DIR    # prints `N positions refereed`, exits 1 on a mismatch
"""
import struct
import sys
from pathlib import Path

import chess

PIECES = [chess.PAWN, chess.KNIGHT, chess.BISHOP, chess.ROOK, chess.QUEEN, chess.KING]


def decode(record):
    """bulletformat's ChessBoard: occupancy (u64), 16 bytes of 4-bit pieces in square order
    (bit 3: the side to move's opponent), score (i16, side to move), result (0/1/2, side to move),
    both kings' squares, 3 spare bytes."""
    occ, pcs, score, result, ksq, opp_ksq = struct.unpack("<Q16shBBB3x", record)
    pieces = {}
    square_list = [sq for sq in range(64) if occ >> sq & 1]
    for i, sq in enumerate(square_list):
        nibble = pcs[i // 2] >> (4 * (i % 2)) & 0xF
        pieces[sq] = (nibble >> 3, PIECES[nibble & 7])
    return pieces, score, result, ksq, opp_ksq


def relative(board):
    """The position as the side to move sees it: squares mirrored and colours swapped for Black."""
    flip = board.turn == chess.BLACK
    out = {}
    for sq, piece in board.piece_map().items():
        own = piece.color == board.turn
        out[chess.square_mirror(sq) if flip else sq] = (0 if own else 1, piece.piece_type)
    return out


def main():
    run = Path(sys.argv[1])
    count = 0
    for txt in sorted((run / "chunks").glob("*.txt")):
        lines = txt.read_text().splitlines()
        data = (txt.with_suffix(".bin")).read_bytes()
        assert len(data) == 32 * len(lines), f"{txt}: {len(data)} bytes for {len(lines)} lines"
        for i, line in enumerate(lines):
            fen, score, result = (f.strip() for f in line.split("|"))
            board = chess.Board(fen)
            assert board.is_valid(), f"{txt}:{i + 1}: not a legal position: {fen}"
            assert not board.is_check(), f"{txt}:{i + 1}: in check: {fen}"
            score, result = int(score), float(result)
            assert result in (0.0, 0.5, 1.0), f"{txt}:{i + 1}: result {result}"
            pieces, bscore, bresult, ksq, opp_ksq = decode(data[32 * i:32 * (i + 1)])
            assert pieces == relative(board), f"{txt}:{i + 1}: the record is another position"
            white = board.turn == chess.WHITE
            assert bscore == (score if white else -score), f"{txt}:{i + 1}: score {bscore} vs {score}"
            want = result if white else 1.0 - result
            assert bresult == int(2 * want), f"{txt}:{i + 1}: result {bresult} vs {result}"
            own_king = [sq for sq, (side, kind) in pieces.items() if side == 0 and kind == chess.KING]
            their_king = [sq for sq, (side, kind) in pieces.items() if side == 1 and kind == chess.KING]
            assert [ksq] == own_king and [opp_ksq ^ 56] == their_king, f"{txt}:{i + 1}: king squares"
            count += 1
    assert count > 0, f"{run}: no positions"
    print(f"{count} positions refereed")


if __name__ == "__main__":
    main()
