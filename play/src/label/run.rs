//! Labelling: engine processes take positions from one queue and hand their rows to the writer,
//! which appends each to `labels.csv` or `skipped.csv` at once. A resume reads both files back
//! (a line torn by a kill is cut off first) and skips every position they name.

use std::collections::HashSet;
use std::path::Path;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc;
use std::time::Duration;

use anyhow::{Context, Result};
use engine::Position;
use lab::export::appender::{cut_partial_line, Appender};
use lab::uci::client::{UciEngine, UciError};
use lab::uci::go::{self, Deadline, GoArgs};
use lab::uci::info::UciScore;

use super::positions::Item;
use super::{Key, LabelPlan, LabelRow, Limit, SkippedRow, LABELS, SKIPPED};

/// How long the handshake, `isready` and `ucinewgame` may take.
const HANDSHAKE: Duration = Duration::from_secs(10);

/// What a run did.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Outcome {
    /// Positions labelled by this run.
    pub labelled: usize,
    /// Positions the engine could not label in this run.
    pub skipped: usize,
    /// Positions an earlier run had done (labelled or skipped).
    pub resumed: usize,
}

/// One position's result, as a worker hands it to the writer.
enum Row {
    Label(LabelRow),
    Skipped(SkippedRow),
}

/// Labels every item not yet in the run directory's tables; `progress` sees (done, total).
pub fn label_all(
    plan: &LabelPlan,
    items: Vec<Item>,
    progress: impl Fn(usize, usize),
) -> Result<Outcome> {
    let (labels, skipped) = (plan.out.join(LABELS), plan.out.join(SKIPPED));
    let mut done: HashSet<Key> = keys_in::<LabelRow>(&labels)?;
    done.extend(keys_in::<SkippedRow>(&skipped)?);
    let total = items.len();
    let todo: Vec<Item> = items
        .into_iter()
        .filter(|i| !done.contains(&i.key))
        .collect();
    let mut outcome = Outcome {
        resumed: total - todo.len(),
        ..Outcome::default()
    };
    let mut label_out = Appender::open(&labels)?;
    let mut skip_out = Appender::open(&skipped)?;
    let next = AtomicUsize::new(0);
    let (tx, rx) = mpsc::channel::<Row>();
    std::thread::scope(|scope| -> Result<()> {
        for _ in 0..plan.threads.min(todo.len()) {
            let (tx, todo, next) = (tx.clone(), &todo, &next);
            scope.spawn(move || work(plan, todo, next, tx));
        }
        drop(tx);
        for row in rx {
            match row {
                Row::Label(r) => {
                    label_out.append(&r)?;
                    outcome.labelled += 1;
                }
                Row::Skipped(r) => {
                    skip_out.append(&r)?;
                    outcome.skipped += 1;
                }
            }
            progress(outcome.resumed + outcome.labelled + outcome.skipped, total);
        }
        Ok(())
    })?;
    Ok(outcome)
}

/// One engine process's loop: the next position from the queue, until none is left. An engine
/// that fails on a position is started again for the next one.
fn work(plan: &LabelPlan, todo: &[Item], next: &AtomicUsize, tx: mpsc::Sender<Row>) {
    let mut engine: Option<UciEngine> = None;
    loop {
        // A signal stops new positions; the ones under way are written.
        if lab::shutdown::requested() {
            return;
        }
        let i = next.fetch_add(1, Ordering::Relaxed);
        let Some(item) = todo.get(i) else { return };
        let result = match engine.as_mut() {
            Some(e) => label(plan, e, item),
            None => start(plan).and_then(|e| label(plan, engine.insert(e), item)),
        };
        let row = match result {
            Ok(row) => Row::Label(row),
            // A signal reaches the engines too (one process group): a position it cut short is
            // not skipped but left for the resume.
            Err(_) if lab::shutdown::requested() => return,
            Err(reason) => {
                // Whatever state it is in, the next position gets a fresh process.
                engine = None;
                Row::Skipped(SkippedRow {
                    input: item.key.0,
                    game: item.key.1,
                    ply: item.key.2,
                    fen: item.board.to_string(),
                    reason: reason.to_string(),
                })
            }
        };
        if tx.send(row).is_err() {
            return;
        }
    }
}

/// Starts the engine with one thread (unless the options say otherwise) and the options.
pub fn start(plan: &LabelPlan) -> Result<UciEngine, UciError> {
    let mut engine = UciEngine::start(&plan.engine, HANDSHAKE)?;
    let declares = |e: &UciEngine, name: &str| e.identity.declared.iter().any(|o| o.name == name);
    let threads_given = plan.options.iter().any(|(n, _)| n == "Threads");
    if !threads_given && declares(&engine, "Threads") {
        engine.set_option("Threads", "1")?;
    }
    for (name, value) in &plan.options {
        engine.set_option(name, value)?;
    }
    engine.sync(HANDSHAKE)?;
    Ok(engine)
}

/// The engine's label of one position, searched after `ucinewgame`.
fn label(plan: &LabelPlan, engine: &mut UciEngine, item: &Item) -> Result<LabelRow, UciError> {
    engine.new_game(HANDSHAKE)?;
    let args = match plan.limit {
        Limit::Depth(d) => GoArgs {
            depth: Some(d),
            ..GoArgs::default()
        },
        Limit::Nodes(n) => GoArgs {
            nodes: Some(n),
            ..GoArgs::default()
        },
    };
    let deadline = Deadline {
        stop_after: Duration::from_secs(plan.timeout_s),
        grace: Duration::from_secs(2),
    };
    let at = Position::new(item.board.clone());
    let outcome = go::search(engine, &at, &args, deadline, |_| false)?;
    let line = outcome.lines.first().filter(|l| l.score.is_some());
    let Some(line) = line else {
        return Err(UciError::Unsupported(format!(
            "the engine answered `bestmove {}` without a score",
            outcome.best_move
        )));
    };
    let score = line.score.expect("filtered on a score");
    Ok(LabelRow {
        input: item.key.0,
        game: item.key.1,
        ply: item.key.2,
        fen: item.board.to_string(),
        score_cp: score.centipawns(),
        mate: match score {
            UciScore::Mate(m) => Some(m),
            UciScore::Cp(_) => None,
        },
        depth: line.depth.unwrap_or(0),
        nodes: outcome.nodes,
        best_move: outcome.best_move,
    })
}

/// The keys of a table's rows (none when it is not there), after cutting off a last line a kill
/// left without its end; a row that does not read is an error naming the file and line.
fn keys_in<T: serde::de::DeserializeOwned + Keyed>(path: &Path) -> Result<HashSet<Key>> {
    cut_partial_line(path)?;
    let Ok(bytes) = std::fs::read(path) else {
        return Ok(HashSet::new());
    };
    let mut reader = csv::Reader::from_reader(&bytes[..]);
    let mut keys = HashSet::new();
    for (i, row) in reader.deserialize::<T>().enumerate() {
        let row = row.with_context(|| {
            format!(
                "{}:{}: expected a row of the run's own table",
                path.display(),
                i + 2
            )
        })?;
        keys.insert(row.key());
    }
    Ok(keys)
}

/// A row that names its position.
trait Keyed {
    fn key(&self) -> Key;
}

impl Keyed for LabelRow {
    fn key(&self) -> Key {
        (self.input, self.game, self.ply)
    }
}

impl Keyed for SkippedRow {
    fn key(&self) -> Key {
        (self.input, self.game, self.ply)
    }
}
