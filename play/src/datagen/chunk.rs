//! One chunk: its games, one after the other from the chunk's seed, and the positions they keep.
//! Two players of the same kind play each game (each keeps its own table through the game, as in
//! a match), made afresh for the chunk, so that a chunk's data depends on nothing played before it.

use engine::Position;
use rand::rngs::ChaCha8Rng;
use rand::SeedableRng;

use super::game::{samples, Kept};
use super::opening::random_opening;
use super::record::Sample;
use super::{chunk_seed, DatagenPlan, Openings};
use crate::arena::game::{self, Side};
use crate::arena::limits::MoveLimit;
use crate::arena::openings::{Book, Opening};
use crate::arena::player::{GameView, Mover, Player, PlayerKind};
use crate::arena::rules::Termination;

/// What a chunk's games came to.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct ChunkCounts {
    /// Games played to their end.
    pub games: u64,
    /// Openings dropped by the verification search.
    pub dropped_openings: u64,
    /// Games given up because a player crashed, hung or moved illegally (none of their
    /// positions kept).
    pub faults: u64,
    /// White wins, draws and Black wins among the games.
    pub white_wins: u64,
    /// Draws.
    pub draws: u64,
    /// Black wins.
    pub black_wins: u64,
    /// Positions kept and left out.
    pub kept: Kept,
}

/// A chunk played: its counts and its positions in game order.
#[derive(Debug, Clone)]
pub struct ChunkData {
    /// The chunk's index.
    pub index: u64,
    /// Its seed.
    pub seed: u64,
    /// What its games came to.
    pub counts: ChunkCounts,
    /// The positions.
    pub samples: Vec<Sample>,
}

/// How many openings in a row may fail verification before the chunk gives up (a player that
/// scores every opening beyond the bound would otherwise never finish).
const MAX_DROPS_IN_A_ROW: u64 = 1_000;

/// Plays chunk `index` of `plan`.
pub fn play(plan: &DatagenPlan, kind: &PlayerKind, book: Option<&Book>, index: u64) -> ChunkData {
    let seed = chunk_seed(plan.seed, index);
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut players = [Player::new(kind), Player::new(kind)];
    let limit = MoveLimit::Nodes(plan.nodes);
    let mut data = ChunkData {
        index,
        seed,
        counts: ChunkCounts::default(),
        samples: Vec::new(),
    };
    let mut drops_in_a_row = 0;
    let mut drawn = 0u64;
    while data.counts.games + data.counts.faults < u64::from(plan.games_per_chunk) {
        let opening = match &plan.openings {
            Openings::Random(plies) => random_opening(&mut rng, *plies, format!("{index}.{drawn}")),
            Openings::Book { .. } => {
                let book = book.expect("a book plan has its book read");
                let k = index * u64::from(plan.games_per_chunk) + drawn;
                book.opening(0, k % book.openings.len() as u64).clone()
            }
        };
        drawn += 1;
        if !verified(plan, kind, &mut players[0], &opening, limit) {
            data.counts.dropped_openings += 1;
            drops_in_a_row += 1;
            if drops_in_a_row >= MAX_DROPS_IN_A_ROW {
                break;
            }
            continue;
        }
        drops_in_a_row = 0;
        play_game(plan, kind, &mut players, &opening, limit, &mut data);
    }
    data
}

/// Whether `opening` passes the verification search (always, without a bound).
fn verified(
    plan: &DatagenPlan,
    kind: &PlayerKind,
    player: &mut Player,
    opening: &Opening,
    limit: MoveLimit,
) -> bool {
    let Some(bound) = plan.max_opening_cp else {
        return true;
    };
    if player.new_game(kind).is_err() {
        return false;
    }
    let position = Position::with_variant(opening.board.clone(), opening.variant);
    let view = GameView {
        start: &opening.board,
        moves: &[],
        position: &position,
    };
    matches!(player.play(kind, &view, limit, None), Ok(r) if r.score.is_some_and(|s| s.abs() <= bound))
}

fn play_game(
    plan: &DatagenPlan,
    kind: &PlayerKind,
    players: &mut [Player; 2],
    opening: &Opening,
    limit: MoveLimit,
    data: &mut ChunkData,
) {
    let [white, black] = players;
    let record = game::play(
        Side {
            player: white,
            kind,
            limit,
        },
        Side {
            player: black,
            kind,
            limit,
        },
        opening,
        &plan.rules,
    );
    if matches!(
        record.termination,
        Termination::Crash | Termination::Hang | Termination::IllegalMove | Termination::Time
    ) {
        data.counts.faults += 1;
        return;
    }
    let c = &mut data.counts;
    c.games += 1;
    match record.outcome {
        crate::arena::rules::Outcome::WhiteWins => c.white_wins += 1,
        crate::arena::rules::Outcome::Draw => c.draws += 1,
        crate::arena::rules::Outcome::BlackWins => c.black_wins += 1,
    }
    let (positions, kept) = samples(&opening.board, &record);
    c.kept.add(kept);
    data.samples.extend(positions);
}
