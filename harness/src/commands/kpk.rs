//! `harness kpk table`: the retrograde KPK table, written out so that it can be checked against
//! a real tablebase (Gaviota, through python-chess).

use std::path::Path;
use std::process::ExitCode;
use std::time::Instant;

use anyhow::{Context, Result};
use cozy_chess::{Color, Piece};

use crate::kpk::table::{DRAW, ILLEGAL, Placement, SIZE, Tables};

/// Builds KQK, KRK and KPK and writes every legal KPK position to `out`.
pub fn table(out: &Path) -> Result<ExitCode> {
    let start = Instant::now();
    let tables = Tables::build();
    let longest = |t: &crate::kpk::table::Table| t.longest_mate(Color::White).unwrap_or(0);
    eprintln!(
        "KQK, KRK and KPK built in {:.2} s; longest mates with White to move: KQK {} plies, KRK {}, KPK {}",
        start.elapsed().as_secs_f64(),
        longest(&tables.queen),
        longest(&tables.rook),
        longest(&tables.pawn)
    );
    let mut w = csv::Writer::from_path(out).with_context(|| format!("writing {}", out.display()))?;
    w.write_record(["fen", "wdl", "dtm"])?;
    let (mut wins, mut draws) = (0usize, 0usize);
    for i in 0..SIZE {
        let value = tables.pawn.values[i];
        if value == ILLEGAL {
            continue;
        }
        let p = Placement::from_index(Piece::Pawn, i);
        let board = p.board().expect("a legal index has a board");
        let (wdl, dtm) = side_to_move_view(value, p.stm);
        if value == DRAW { draws += 1 } else { wins += 1 }
        w.write_record([board.to_string(), wdl.to_string(), dtm.to_string()])?;
    }
    w.flush()?;
    println!("{} legal KPK positions: {wins} won by White, {draws} drawn → {}", wins + draws, out.display());
    Ok(ExitCode::SUCCESS)
}

/// Win/draw/loss and signed plies to mate from the side to move, as Gaviota reports them
/// (a checkmated side has dtm 0 and wdl −1).
fn side_to_move_view(value: u8, stm: Color) -> (i32, i32) {
    match (value, stm) {
        (DRAW, _) => (0, 0),
        (v, Color::White) => (1, i32::from(v)),
        (v, Color::Black) => (-1, -i32::from(v)),
    }
}
