//! The progress bar: positions done, jobs per second, ETA. Hidden when standard error is not a
//! terminal or with `--quiet`.

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

/// Progress of a run.
pub struct Progress {
    bar: ProgressBar,
}

impl Progress {
    /// A bar for `jobs` jobs.
    pub fn new(jobs: u64, quiet: bool) -> Self {
        let target = if quiet {
            ProgressDrawTarget::hidden()
        } else {
            ProgressDrawTarget::stderr()
        };
        let bar = ProgressBar::with_draw_target(Some(jobs), target);
        bar.set_style(
            ProgressStyle::with_template("{bar:40} {pos}/{len} jobs  {per_sec}  ETA {eta}")
                .expect("the template is valid"),
        );
        Self { bar }
    }

    /// One more job finished.
    pub fn job_done(&self) {
        self.bar.inc(1);
    }

    /// Clears the bar.
    pub fn finish(&self) {
        self.bar.finish_and_clear();
    }
}
