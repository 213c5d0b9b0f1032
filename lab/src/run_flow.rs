//! The run-directory flow every command with a run directory shares (`grid`, `match`, `tune`,
//! `label`, `datagen`, `train`): lock the directory, write a fresh manifest or check that a
//! resumed run is the recorded plan, open the sink, take signals, run, and say whether the run
//! ended or was interrupted. Each command brings its own manifest, sink and work; the order of the
//! steps, the refusal of another plan and the resume message are here once.

use std::path::Path;
use std::process::ExitCode;

use anyhow::{bail, Result};

use crate::run_lock::RunLock;

/// A run directory's manifest: the plan it records.
pub trait RecordedPlan: Sized {
    /// Reads the manifest of `dir`.
    fn read(dir: &Path) -> Result<Self>;
    /// Writes it into `dir`.
    fn write(&self, dir: &Path) -> Result<()>;
    /// What differs between this recorded plan and `planned`, in words; empty when a resume
    /// may continue it.
    fn plan_differences(&self, planned: &Self) -> Vec<String>;
    /// What to do instead when the plans differ.
    const ADVICE: &'static str = "resume it with the command in its manifest.json";
    /// What a resumed run records in place of this manifest, given its `planned` one (a plan
    /// that may grow, such as a datagen run given more chunks); by default nothing: the recorded
    /// manifest stays as it was.
    fn recorded_on_resume(&self, _planned: &Self) -> Option<Self> {
        None
    }
}

/// Refuses to resume the run in `out`, which recorded `recorded`, as `planned` when the two plans
/// differ; commands call it before a dry run too.
pub fn check_resumable<M: RecordedPlan>(out: &Path, recorded: &M, planned: &M) -> Result<()> {
    let differences = recorded.plan_differences(planned);
    if !differences.is_empty() {
        bail!(
            "{} was made by a different plan ({}): {}",
            out.display(),
            differences.join("; "),
            M::ADVICE
        );
    }
    Ok(())
}

/// The top-level fields of two serialisable plans that differ, but those in `free` (what a
/// resume may change, such as the threads): for a plan recorded as it is.
pub fn differences_but(
    recorded: &impl serde::Serialize,
    planned: &impl serde::Serialize,
    free: &[&str],
) -> Vec<String> {
    let object = |plan: serde_json::Value| match plan {
        serde_json::Value::Object(fields) => fields,
        other => panic!("a plan serialises as an object, not {other}"),
    };
    let a = object(serde_json::to_value(recorded).expect("a plan serialises"));
    let b = object(serde_json::to_value(planned).expect("a plan serialises"));
    a.iter()
        .filter(|(key, _)| !free.contains(&key.as_str()))
        .filter(|(key, v)| b.get(*key) != Some(v))
        .map(|(key, _)| format!("its {key}"))
        .collect()
}

/// How a run ended, with what its work returned.
#[derive(Debug)]
pub enum Ended<T> {
    /// Every job of the plan ran.
    Completed(T),
    /// A signal stopped it: no new job started, the ones under way were written.
    Interrupted(T),
}

/// The steps of a run in `out`, in order: the lock; with `resume`, the recorded manifest read
/// and compared with the plan's (`manifest` gets the recorded one, so a plan may keep what it
/// recorded, such as a match's date), then `open_sink` with it; without, `open_sink` on a fresh
/// directory and the manifest written; the signal handlers; `work` with the sink.
pub fn run<M: RecordedPlan, S, T>(
    out: &Path,
    resume: bool,
    manifest: impl FnOnce(Option<&M>) -> M,
    open_sink: impl FnOnce(Option<&M>) -> Result<S>,
    work: impl FnOnce(S) -> Result<T>,
) -> Result<Ended<T>> {
    if !resume {
        crate::run_dir::check_fresh_out(out)?;
    }
    let _lock = RunLock::create_and_acquire(out)?;
    let sink = if resume {
        let recorded = M::read(out)?;
        let planned = manifest(Some(&recorded));
        check_resumable(out, &recorded, &planned)?;
        if let Some(again) = recorded.recorded_on_resume(&planned) {
            again.write(out)?;
        }
        open_sink(Some(&recorded))?
    } else {
        let sink = open_sink(None)?;
        manifest(None).write(out)?;
        sink
    };
    crate::shutdown::install();
    let value = work(sink)?;
    Ok(if crate::shutdown::requested() {
        Ended::Interrupted(value)
    } else {
        Ended::Completed(value)
    })
}

/// After an interrupted run of `command` in `out`: says what was kept and how to continue, and
/// gives the exit code of an interrupted run.
pub fn interrupted(command: &str, out: &Path, kept: &str) -> ExitCode {
    eprintln!(
        "interrupted; {kept}. Continue with:\n  harness {command} --resume {}",
        out.display()
    );
    ExitCode::from(crate::shutdown::INTERRUPTED)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn differences_name_the_changed_fields_but_the_free_ones() {
        let recorded = json!({"seed": 1, "threads": 2, "out": "a", "inputs": ["x"]});
        let same_but_free = json!({"seed": 1, "threads": 8, "out": "b", "inputs": ["x"]});
        assert!(differences_but(&recorded, &same_but_free, &["threads", "out"]).is_empty());
        let other = json!({"seed": 2, "threads": 2, "out": "a", "inputs": ["y"]});
        assert_eq!(
            differences_but(&recorded, &other, &["threads", "out"]),
            ["its seed", "its inputs"]
        );
    }
}
