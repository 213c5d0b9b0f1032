//! One writer per run directory: an exclusive lock (`flock`) on `DIR/.harness.lock`, holding the
//! writer's PID. A second `grid` or `match` on the same directory — a `--resume` while the first
//! still runs — is refused with the holder's PID instead of writing rows twice. The kernel drops
//! the lock when the process ends, however it ends (SIGKILL included), so a killed run resumes.

use std::fs::{File, OpenOptions, TryLockError};
use std::io::{Read, Seek, Write};
use std::path::Path;

use anyhow::{bail, Context, Result};

/// The lock file's name.
pub const LOCK_FILE: &str = ".harness.lock";

/// A held lock; released on drop.
#[derive(Debug)]
pub struct RunLock {
    _file: File,
}

impl RunLock {
    /// Creates the output directory `dir` if needed and takes its lock: what `grid` and `match`
    /// do before they write anything.
    pub fn create_and_acquire(dir: &Path) -> Result<Self> {
        std::fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
        Self::acquire(dir)
    }

    /// Takes the lock of `dir` or says who holds it.
    pub fn acquire(dir: &Path) -> Result<Self> {
        let path = dir.join(LOCK_FILE);
        let mut file = OpenOptions::new()
            .read(true)
            .write(true)
            .create(true)
            .truncate(false)
            .open(&path)
            .with_context(|| format!("opening {}", path.display()))?;
        match file.try_lock() {
            Ok(()) => {}
            Err(TryLockError::WouldBlock) => {
                let mut holder = String::new();
                let _ = file.read_to_string(&mut holder);
                bail!(
                    "{} is in use by another harness process (PID {}): wait for it to end or stop it, then --resume",
                    dir.display(),
                    holder.trim()
                );
            }
            Err(TryLockError::Error(e)) => {
                return Err(e).with_context(|| format!("locking {}", path.display()))
            }
        }
        file.set_len(0)?;
        file.rewind()?;
        write!(file, "{}", std::process::id())?;
        file.flush()?;
        Ok(Self { _file: file })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_second_holder_is_refused_with_the_first_ones_pid() {
        let dir = tempfile::tempdir().unwrap();
        let first = RunLock::acquire(dir.path()).unwrap();
        let err = RunLock::acquire(dir.path()).unwrap_err().to_string();
        assert!(
            err.contains(&format!("PID {}", std::process::id())),
            "{err}"
        );
        drop(first);
        RunLock::acquire(dir.path()).unwrap();
    }
}
