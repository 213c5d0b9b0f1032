//! `games.pgn` built again from a match's tables: `games.csv` (each game's tags, in the order the
//! match wrote them), `moves.csv` (each move and its report), the manifest (event, date, names,
//! limits) and the book it records (the start positions, checked by its SHA-256). A committed
//! study keeps the tables; `harness report DIR` writes the PGN they hold, the same text the match
//! wrote.

use std::collections::HashMap;
use std::path::Path;

use anyhow::{anyhow, bail, Context, Result};

use super::limits::MoveLimit;
use super::manifest::MatchManifest;
use super::openings::Book;
use super::output::{GameRow, MoveRow, GAMES_PGN};
use super::pgn::{self, Game, Header};

/// Writes `dir/games.pgn` from the tables of the match in `dir` (its `manifest`, `games` and
/// `moves`, read).
pub fn write(
    dir: &Path,
    manifest: &MatchManifest,
    games: &[GameRow],
    moves: &[MoveRow],
) -> Result<()> {
    let text = rebuild(dir, manifest, games, moves)?;
    let path = dir.join(GAMES_PGN);
    // Whole or not at all: a PGN cut short by a kill would stand for the games.
    let partial = path.with_extension("pgn.partial");
    std::fs::write(&partial, text).with_context(|| format!("writing {}", partial.display()))?;
    std::fs::rename(&partial, &path).with_context(|| format!("writing {}", path.display()))
}

/// The PGN of `games` with their `moves`, as the match in `dir` (which recorded `manifest`)
/// wrote it.
pub fn rebuild(
    dir: &Path,
    manifest: &MatchManifest,
    games: &[GameRow],
    moves: &[MoveRow],
) -> Result<String> {
    let book = recorded_book(dir, manifest)?;
    let mut fens: HashMap<&str, String> = HashMap::new();
    for o in &book.openings {
        let fen = o.variant.fen(&o.board);
        if fens.get(o.id.as_str()).is_some_and(|other| *other != fen) {
            bail!(
                "the book {} names two positions `{}`: the games cannot say which they played",
                book.source,
                o.id
            );
        }
        fens.insert(&o.id, fen);
    }
    let mut by_game: HashMap<(u64, u8), Vec<&MoveRow>> = HashMap::new();
    for m in moves {
        by_game.entry((m.index, m.game)).or_default().push(m);
    }
    let mut out = String::new();
    for g in games {
        let start_fen = fens.get(g.opening.as_str()).cloned().ok_or_else(|| {
            anyhow!(
                "{} game {}.{}: opening {} is not in the book {}",
                g.pairing,
                g.pair,
                g.game,
                g.opening,
                book.source
            )
        })?;
        let game_moves = by_game
            .get(&(g.index, g.game))
            .map_or(&[][..], Vec::as_slice);
        if game_moves.len() != g.plies {
            bail!(
                "{} game {}.{}: games.csv says {} plies, moves.csv holds {}",
                g.pairing,
                g.pair,
                g.game,
                g.plies,
                game_moves.len()
            );
        }
        let game = Game {
            opening: &g.opening,
            start_fen,
            variant: book.options.variant,
            result: &g.result,
            termination: &g.termination,
            reason: &g.reason,
            moves: game_moves.iter().map(|m| as_move(m)).collect(),
        };
        out.push_str(&pgn::write(&header(manifest, g)?, &game));
    }
    Ok(out)
}

/// The book the manifest records, refused when its bytes changed since the match. A relative
/// path is the match's working directory's: it is looked for there, then above the run directory
/// `dir` (a study's books sit beside its runs, named from the repository's root).
fn recorded_book(dir: &Path, manifest: &MatchManifest) -> Result<Book> {
    let recorded = &manifest.book;
    let book = match recorded.source.strip_prefix("builtin:") {
        Some(_) => Book::builtin_with(recorded.options)?,
        None => {
            let given = Path::new(&recorded.source);
            let absolute = dir.canonicalize().unwrap_or_else(|_| dir.to_path_buf());
            let found = std::iter::once(given.to_path_buf())
                .chain(absolute.ancestors().map(|a| a.join(given)))
                .find(|p| p.is_file())
                .with_context(|| {
                    format!(
                        "the book {} is neither there nor under a directory above {}",
                        recorded.source,
                        dir.display()
                    )
                })?;
            Book::read_with(&found, recorded.options)?
        }
    };
    if book.sha256 != recorded.sha256 {
        bail!(
            "the book {} is not the one the match played (SHA-256 {}, the manifest records {})",
            recorded.source,
            book.sha256,
            recorded.sha256
        );
    }
    Ok(book)
}

/// The tags of game `g` that come from the match.
fn header<'a>(manifest: &'a MatchManifest, g: &GameRow) -> Result<Header<'a>> {
    let player = |id: &str| {
        manifest
            .players
            .iter()
            .find(|p| p.id == id)
            .ok_or_else(|| anyhow!("player {id} of games.csv is not in the manifest"))
    };
    let (white, black) = (player(&g.white)?, player(&g.black)?);
    let limit = MoveLimit::parse_as(&white.limit, &format!("player {}'s limit", white.id))?;
    Ok(Header {
        event: &manifest.name,
        round: format!("{}.{}", g.pair, g.game),
        white: &white.name,
        black: &black.name,
        time_control: limit.pgn_time_control(),
        date: &manifest.date,
    })
}

fn as_move(m: &MoveRow) -> pgn::Move<'_> {
    pgn::Move {
        san: &m.san,
        score: m.score,
        depth: m.depth,
        seldepth: m.seldepth,
        nodes: m.nodes,
        time_ms: m.time_ms,
    }
}
