//! Checks of a grid's configurations made before any search: configurations that search alike,
//! and TT sizes that cannot be allocated. Shared by `grid` and `match`.

use anyhow::Result;

use super::GridPoint;

/// Names the configurations that search exactly as an earlier one (`tt_move` without `tt`): a grid
/// or a match may mean them, but should know.
pub fn warn_same_search(points: &[GridPoint]) {
    for (earlier, later) in super::same_search(points) {
        eprintln!("warning: {later} searches exactly as {earlier} (tt_move does nothing without tt): its results repeat {earlier}'s");
    }
}

/// Every distinct TT size of the configurations can be allocated (checked once, untouched).
pub fn check_tables<'a>(configs: impl Iterator<Item = &'a engine::SearchConfig>) -> Result<()> {
    let mut sizes: Vec<usize> = configs
        .filter_map(|c| c.tt.as_ref().map(|t| t.size_mb))
        .collect();
    sizes.sort_unstable();
    sizes.dedup();
    for size in sizes {
        engine::search::tt::TranspositionTable::check_allocation(size)
            .map_err(anyhow::Error::msg)?;
    }
    Ok(())
}
