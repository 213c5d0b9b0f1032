//! Clean shutdown on SIGINT, SIGTERM or SIGHUP (a Slurm requeue sends SIGTERM): the first signal
//! asks the run to take no new job and to finish and write the jobs under way; the command then
//! prints how to resume and exits with [`INTERRUPTED`]. A second signal ends the process at once
//! (the files are still resumable: every row is flushed whole, and the lock dies with the process).

use std::sync::atomic::{AtomicBool, Ordering};

/// Exit code of an interrupted run (128 + SIGINT, as shells report it).
pub const INTERRUPTED: u8 = 130;

static REQUESTED: AtomicBool = AtomicBool::new(false);

/// Installs the handler (once per process; later calls do nothing).
pub fn install() {
    let _ = ctrlc::set_handler(|| {
        if REQUESTED.swap(true, Ordering::SeqCst) {
            std::process::exit(i32::from(INTERRUPTED));
        }
        eprintln!("\nstopping: finishing the jobs under way (signal again to quit at once)");
    });
}

/// Whether a stop was asked for.
pub fn requested() -> bool {
    REQUESTED.load(Ordering::SeqCst)
}
