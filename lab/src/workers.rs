//! How many workers a run uses: the number asked for (`--threads`), else every logical CPU.

use anyhow::{bail, Result};

/// The machine's logical CPUs (1 where the system will not say).
pub fn logical_cpus() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

/// `--threads N` if given (at least 1), else [`logical_cpus`].
pub fn resolve(asked: Option<usize>) -> Result<usize> {
    match asked {
        Some(0) => bail!("--threads must be at least 1, found 0"),
        Some(n) => Ok(n),
        None => Ok(logical_cpus()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn zero_is_refused_and_none_is_every_cpu() {
        assert!(resolve(Some(0)).is_err());
        assert_eq!(resolve(Some(3)).unwrap(), 3);
        assert_eq!(resolve(None).unwrap(), logical_cpus());
    }
}
