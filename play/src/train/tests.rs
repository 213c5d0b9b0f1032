//! The trainer against known truth: a student learns a teacher network's scores on positions it
//! never saw; a run repeats bit for bit for a seed and thread count; an interrupted run resumed
//! from its checkpoint ends where the uninterrupted one does.

use bulletformat::ChessBoard;
use engine::nnue::Activation;
use rand::rngs::ChaCha8Rng;
use rand::SeedableRng;

use super::data::Data;
use super::model::{inputs, Shape};
use super::run::{loss, run};
use super::{Schedule, TrainPlan};
use crate::arena::rules::Outcome;
use crate::datagen::opening::{random_opening, RandomPlies};
use crate::datagen::record::Sample;

/// `n` positions of 0–30 random plies, scored by `teacher` (λ = 0 makes the score the target).
fn positions(teacher: (Shape, &[f32]), n: usize, seed: u64) -> Vec<ChessBoard> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    (0..n)
        .map(|i| {
            let board =
                random_opening(&mut rng, RandomPlies { min: 0, max: 30 }, i.to_string()).board;
            let record = Sample {
                board,
                white_score: 0,
                result: Outcome::Draw,
            }
            .to_record();
            let cp = teacher.0.output(teacher.1, &inputs(&record)) * 400.0;
            ChessBoard {
                score: cp.round().clamp(-3000.0, 3000.0) as i16,
                ..record
            }
        })
        .collect()
}

fn plan(out: &std::path::Path, threads: usize, epochs: u32) -> TrainPlan {
    TrainPlan {
        inputs: Vec::new(),
        first_chunks: None,
        hidden: 16,
        activation: Activation::Screlu,
        lambda: 0.0,
        scale: 400.0,
        epochs,
        batch_size: 128,
        lr: 0.01,
        schedule: Schedule::Cosine {
            final_fraction: 0.1,
        },
        weight_decay: 0.0,
        validation_every: 5,
        seed: 11,
        threads,
        out: out.to_path_buf(),
    }
}

fn data() -> Data {
    let teacher = Shape {
        hidden: 8,
        activation: Activation::Crelu,
    };
    let mut params = teacher.init(99);
    // A teacher with something to say: larger output weights than the initial ones.
    let (ow, ob) = (teacher.out_weights(), teacher.out_bias());
    params[ow..ob].iter_mut().for_each(|w| *w *= 6.0);
    Data {
        train: positions((teacher, &params), 3000, 1),
        validation: positions((teacher, &params), 500, 2),
        sources: Vec::new(),
    }
}

#[test]
fn a_student_learns_a_teachers_scores_on_positions_it_never_saw() {
    let dir = tempfile::tempdir().unwrap();
    let p = plan(dir.path(), 2, 12);
    let d = data();
    let before = loss(&p, &p.shape().init(p.seed), &d.validation);
    let trained = run(&p, &d, |_| {}).unwrap();
    let after = trained.rows.last().unwrap().validation_loss;
    assert!(after < before / 5.0, "validation loss {before} → {after}");
}

#[test]
fn a_run_repeats_and_a_resumed_run_ends_where_the_whole_one_does() {
    let d = data();
    let (a, b, c) = (
        tempfile::tempdir().unwrap(),
        tempfile::tempdir().unwrap(),
        tempfile::tempdir().unwrap(),
    );
    let whole = run(&plan(a.path(), 2, 4), &d, |_| {}).unwrap();
    let again = run(&plan(b.path(), 2, 4), &d, |_| {}).unwrap();
    assert_eq!(whole.params, again.params);
    assert_eq!(
        whole
            .rows
            .iter()
            .map(|r| r.validation_loss)
            .collect::<Vec<_>>(),
        again
            .rows
            .iter()
            .map(|r| r.validation_loss)
            .collect::<Vec<_>>()
    );
    // Killed after two epochs: the checkpoints and the log of epochs 3 and 4 never written.
    run(&plan(c.path(), 2, 4), &d, |_| {}).unwrap();
    for epoch in [3, 4] {
        std::fs::remove_file(c.path().join(format!("checkpoints/epoch-{epoch:04}.bin"))).unwrap();
    }
    let resumed = run(&plan(c.path(), 2, 4), &d, |_| {}).unwrap();
    assert_eq!(resumed.trained, 2);
    assert_eq!(resumed.params, whole.params);
    assert_eq!(resumed.rows.len(), 4);
}

/// The exported network scores as the float one within the stated tolerance (mean |Δ| ≤ 5 cp,
/// none beyond 40 cp on these positions), and the engine's accumulators score a position as the
/// export's own sum does.
#[test]
fn the_quantised_network_is_the_float_one_within_tolerance_and_the_engine_agrees() {
    let d = data();
    let dir = tempfile::tempdir().unwrap();
    let p = plan(dir.path(), 1, 6);
    let trained = run(&p, &d, |_| {}).unwrap();
    let shape = p.shape();
    let net = super::export::quantise(shape, &trained.params);
    let e = super::export::error(shape, &trained.params, &net, &d.validation, p.scale);
    assert!(e.mean_abs_cp <= 5.0 && e.max_abs_cp <= 40.0, "{e:?}");
    let mut rng = ChaCha8Rng::seed_from_u64(5);
    for i in 0..50 {
        let board = random_opening(&mut rng, RandomPlies { min: 0, max: 40 }, i.to_string()).board;
        let record = Sample {
            board: board.clone(),
            white_score: 0,
            result: Outcome::Draw,
        }
        .to_record();
        let acc = engine::nnue::Accumulator::of(&net, &board);
        assert_eq!(
            acc.evaluate(&net, board.side_to_move(), shape.activation, 400),
            super::export::integer_score(&net, shape, &record, 400),
            "{board}"
        );
    }
}

/// A plan recorded before `--first-chunks` took one value per run (`"first_chunks": 560`) reads
/// as that value for every run; a list reads as one per run.
#[test]
fn first_chunks_read_from_either_form() {
    use super::FirstChunks;
    let each: FirstChunks = serde_json::from_str("560").unwrap();
    assert_eq!(each, FirstChunks::Each(560));
    assert_eq!((each.of(0), each.of(3)), (560, 560));
    let per: FirstChunks = serde_json::from_str("[1000, 320]").unwrap();
    assert_eq!((per.of(0), per.of(1)), (1000, 320));
    assert_eq!(FirstChunks::from_values(&[], 2).unwrap(), None);
    assert!(FirstChunks::from_values(&[1, 2, 3], 2).is_err());
}
