"""The independent referee of `harness match` (python-chess): replays every game of games.pgn from
its FEN, checks that every move is legal, that no game went on past an end by the rules, and that
the result and the Termination tag agree with the final position, the recorded scores and the
adjudication rules of manifest.json; and that games.csv lists the same games with the same
results. Chess960 games (the manifest's book variant) must carry the Variant tag and are played by
Chess960's rules. Prints `N games refereed, M problems` and exits 1 on any problem."""

import csv
import json
import re
import sys

import chess
import chess.pgn

run = sys.argv[1]
manifest = json.load(open(f"{run}/manifest.json"))
rules = manifest["rules"]
# A Chess960 match: every game must say so, and python-chess then plays it by Chess960's rules
# (castling king-takes-rook from Shredder-FEN rights).
chess960 = manifest["book"].get("variant") == "chess960"
rows = list(csv.DictReader(open(f"{run}/games.csv")))
problems = []
SCORE = re.compile(r"^([+-]M?)([0-9.]+)/")


def score_of(comment):
    """Centipawns of a move comment `{+0.31/7 …}` (mates as ±(32000 − 2m + 1)), None for `-`."""
    m = SCORE.match(comment.strip())
    if not m:
        return None
    sign, value = m.groups()
    if "M" in sign:
        cp = 32000 - (2 * int(value) - 1)
        return cp if sign.startswith("+") else -cp
    cp = round(float(value) * 100)
    return cp if sign == "+" else -cp


def over_by_rule(board):
    return (
        board.is_checkmate()
        or board.is_stalemate()
        or board.is_insufficient_material()
        or board.halfmove_clock >= 100
        or board.is_repetition(3)
    )


def referee(n, game, row):
    where = f"game {n} (round {game.headers.get('Round')})"
    if game.errors:
        problems.append(f"{where}: {game.errors}")
        return
    board = game.board()
    if chess960 and (game.headers.get("Variant") != "Chess960" or not board.chess960):
        problems.append(f"{where}: a Chess960 match's game without the Variant tag")
    if not chess960 and board.chess960:
        problems.append(f"{where}: a standard match's game read as Chess960")
    scores = []
    node = game
    while node.variations:
        node = node.variation(0)
        if over_by_rule(board):
            problems.append(f"{where}: went on after an end by the rules before {node.move}")
        if not board.is_legal(node.move):
            problems.append(f"{where}: illegal move {node.move}")
            return
        board.push(node.move)
        scores.append(score_of(node.comment))
    result = game.headers["Result"]
    term = game.headers["Termination"]
    winner = {"1-0": chess.WHITE, "0-1": chess.BLACK}.get(result)
    if row["result"] != result or row["termination"] != term or int(row["plies"]) != len(scores):
        problems.append(f"{where}: games.csv says {row['result']} {row['termination']} {row['plies']} plies")
    ok = True
    if term == "checkmate":
        ok = board.is_checkmate() and winner == (not board.turn)
    elif term == "stalemate":
        ok = board.is_stalemate() and result == "1/2-1/2"
    elif term == "threefold repetition":
        ok = board.is_repetition(3) and result == "1/2-1/2"
    elif term == "fifty-move rule":
        ok = board.halfmove_clock >= 100 and result == "1/2-1/2" and not board.is_checkmate()
    elif term == "insufficient material":
        ok = board.is_insufficient_material() and result == "1/2-1/2"
    else:
        ok = not over_by_rule(board)
        if term == "ply limit":
            ok = ok and result == "1/2-1/2" and len(scores) == rules["max_plies"]
        elif term == "adjudication: resignation":
            r = rules["resign"]
            loser_moves = scores[-1 :: -2][: r["moves"]]
            loser = not board.turn  # the side that made the last move resigned
            ok = ok and winner == (not loser) and len(loser_moves) == r["moves"]
            ok = ok and all(s is not None and s <= -r["score"] for s in loser_moves)
        elif term == "adjudication: draw":
            d = rules["draw"]
            last = scores[-2 * d["moves"] :]
            ok = ok and result == "1/2-1/2" and len(last) == 2 * d["moves"]
            ok = ok and all(s is not None and abs(s) <= d["score"] for s in last)
            ok = ok and board.fullmove_number >= d["after"]
        elif term == "adjudication: tablebase":
            # K + queen, rook or pawn against a lone king, and never won by the lone king.
            pieces = board.piece_map().values()
            extra = [p for p in pieces if p.piece_type != chess.KING]
            ok = ok and rules.get("tb_adjudicate") and len(pieces) == 3 and len(extra) == 1
            ok = ok and extra[0].piece_type in (chess.QUEEN, chess.ROOK, chess.PAWN)
            ok = ok and winner in (None, extra[0].color)
        elif term.startswith("forfeit") or term == "time forfeit":
            ok = ok and winner is not None and bool(row["reason"] or term == "time forfeit")
        else:
            ok = False
    if not ok:
        problems.append(f"{where}: result {result} by `{term}` does not fit the final position {board.fen()}")


with open(f"{run}/games.pgn") as f:
    n = 0
    while True:
        game = chess.pgn.read_game(f)
        if game is None:
            break
        if n >= len(rows):
            problems.append(f"games.pgn has more games than games.csv ({len(rows)})")
            break
        referee(n + 1, game, rows[n])
        n += 1
if n != len(rows):
    problems.append(f"games.pgn has {n} games, games.csv {len(rows)}")
for p in problems:
    print(p)
print(f"{n} games refereed, {len(problems)} problems")
sys.exit(1 if problems else 0)
