//! `--affinity CPU-LIST` (fastchess's `-use-affinity`): worker thread i of a match is pinned to
//! the i-th core of the list before it starts any engine, so the UCI processes it drives inherit
//! the same core (a child process starts with its parent thread's CPU mask).

use anyhow::{bail, Result};

/// Reads `0,2,4-7` into core numbers, each one the machine has; at least `threads` of them, so
/// no two workers share a core.
pub fn parse(list: &str, threads: usize) -> Result<Vec<usize>> {
    let mut cores = Vec::new();
    for part in list.split(',').map(str::trim).filter(|p| !p.is_empty()) {
        let number = |t: &str| -> Result<usize> {
            t.trim().parse().map_err(|_| {
                anyhow::anyhow!("--affinity `{list}`: expected core numbers and ranges like 0,2,4-7, found `{t}`")
            })
        };
        match part.split_once('-') {
            Some((a, b)) => {
                let (a, b) = (number(a)?, number(b)?);
                if a > b {
                    bail!("--affinity `{list}`: the range {part} runs backwards");
                }
                cores.extend(a..=b);
            }
            None => cores.push(number(part)?),
        }
    }
    let available: Vec<usize> = core_affinity::get_core_ids()
        .unwrap_or_default()
        .into_iter()
        .map(|c| c.id)
        .collect();
    if let Some(missing) = cores.iter().find(|c| !available.contains(c)) {
        bail!(
            "--affinity `{list}`: this machine has no core {missing} (it has {})",
            available
                .iter()
                .map(usize::to_string)
                .collect::<Vec<_>>()
                .join(", ")
        );
    }
    if cores.len() < threads {
        bail!(
            "--affinity `{list}` names {} cores for {threads} threads: each worker needs its own",
            cores.len()
        );
    }
    Ok(cores)
}

/// Pins the calling thread to `core`; says so when the system refuses.
pub fn pin(core: usize) {
    if !core_affinity::set_for_current(core_affinity::CoreId { id: core }) {
        eprintln!("warning: could not pin a worker to core {core}; it runs unpinned");
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lists_ranges_and_cores_the_machine_lacks() {
        assert_eq!(parse("0", 1).unwrap(), [0]);
        assert_eq!(parse("0-0,0", 2).unwrap(), [0, 0]);
        let e = |s: &str, t: usize| parse(s, t).unwrap_err().to_string();
        assert!(e("0,9999", 1).contains("no core 9999"));
        assert!(e("x", 1).contains("expected core numbers"));
        assert!(e("3-1", 1).contains("backwards"));
        assert!(e("0", 2).contains("each worker needs its own"));
    }
}
