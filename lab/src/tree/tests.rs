//! Recording changes no search, rows keep the tree's shape, filters keep whole subtrees, and the
//! table survives the disk.

use super::*;
use crate::bench::POSITIONS;

fn recorded(
    fen: &str,
    config: SearchConfig,
    depth: i32,
) -> (Position, engine::SearchResult, TreeRecorder) {
    let position = Position::from_fen(fen).unwrap();
    let (result, recorder) =
        record(&position, config, Limits::depth(depth), usize::MAX, false).unwrap();
    (position, result, recorder)
}

#[test]
fn recording_changes_no_bench_search() {
    // Every bench position, as `harness bench` searches it (fischerle, a fresh searcher each).
    for fen in POSITIONS {
        let position = Position::from_fen(fen).unwrap();
        let plain = Searcher::new(SearchConfig::fischerle()).search(
            &position,
            Limits::depth(crate::bench::DEPTH),
            |_| {},
        );
        let (_, result, recorder) = recorded(fen, SearchConfig::fischerle(), crate::bench::DEPTH);
        assert_eq!(plain.stats.nodes, result.stats.nodes, "{fen}");
        assert_eq!(
            (plain.score, &plain.pv),
            (result.score, &result.pv),
            "{fen}"
        );
        assert_eq!(recorder.nodes.len() as u64, result.stats.nodes, "{fen}");
    }
}

#[test]
fn rows_keep_the_paths_and_the_shape_of_the_tree() {
    let (position, _, recorder) = recorded(POSITIONS[1], SearchConfig::modern(), 4);
    let rows = rows(position.board(), &recorder, Iterations::All, &[]);
    assert_eq!(rows.len(), recorder.nodes.len());
    let by_id: std::collections::HashMap<u32, &TreeNode> = rows.iter().map(|r| (r.id, r)).collect();
    for row in &rows {
        match row.parent.map(|p| by_id[&p]) {
            None => assert!(row.path.is_empty() && row.move_uci.is_none()),
            Some(parent) => {
                let uci = row.move_uci.as_deref().unwrap();
                assert_eq!(row.path, join(&parent.path, uci));
                assert_eq!(row.ply, parent.ply + 1);
            }
        }
        assert!(["pv", "cut", "all"].contains(&row.expected));
    }
    // The reply to a null move is written as UCI's null move.
    assert!(rows
        .iter()
        .any(|r| r.move_uci.as_deref() == Some(NULL_MOVE)));
}

#[test]
fn filters_keep_whole_subtrees() {
    let (position, result, recorder) = recorded(POSITIONS[0], SearchConfig::fischerle(), 4);
    let last = rows(position.board(), &recorder, Iterations::Last, &[]);
    assert!(last.iter().all(|r| r.iteration == 4));
    let roots: u32 = last
        .iter()
        .filter(|r| r.parent.is_none())
        .map(|r| r.subtree)
        .sum();
    assert_eq!(roots as usize, last.len());
    let iteration_4 = result
        .stats
        .iterations
        .iter()
        .find(|i| i.depth == 4)
        .unwrap();
    assert_eq!(last.len() as u64, iteration_4.nodes);
    // Under 1. e4: every row is on that line, and they are the subtrees of its nodes.
    let line = vec!["e2e4".to_string()];
    let under = rows(position.board(), &recorder, Iterations::Last, &line);
    assert!(!under.is_empty());
    assert!(under
        .iter()
        .all(|r| r.path == "e2e4" || r.path.starts_with("e2e4 ")));
    let tops: u32 = under
        .iter()
        .filter(|r| r.path == "e2e4")
        .map(|r| r.subtree)
        .sum();
    assert_eq!(tops as usize, under.len());
}

#[test]
fn the_table_survives_the_disk_and_the_summary_adds_up() {
    let (position, result, recorder) = recorded(POSITIONS[2], SearchConfig::modern(), 5);
    let rows = rows(position.board(), &recorder, Iterations::Last, &[]);
    let dir = tempfile::tempdir().unwrap();
    table::write(dir.path(), &rows).unwrap();
    let file = std::fs::File::open(dir.path().join(table::TREE_FILE)).unwrap();
    let batches: Vec<_> = arrow_ipc::reader::FileReader::try_new(file, None)
        .unwrap()
        .map(Result::unwrap)
        .collect();
    assert_eq!(batches.len(), 1);
    let df = &batches[0];
    assert_eq!(df.num_rows(), rows.len());
    let subtree = df
        .column_by_name("subtree")
        .unwrap()
        .as_any()
        .downcast_ref::<arrow_array::UInt32Array>()
        .unwrap();
    assert_eq!(subtree.value(0), rows[0].subtree);
    // Read back as rows: what the viewer and the diff use comes back as written.
    let back = table::read(dir.path()).unwrap();
    assert_eq!(back.len(), rows.len());
    for (a, b) in rows.iter().zip(&back) {
        assert_eq!(
            TreeNode {
                counts: Default::default(),
                ..a.clone()
            },
            *b
        );
        assert_eq!(
            (
                a.id,
                a.parent,
                &a.path,
                &a.move_san,
                a.kind,
                a.expected,
                a.found,
                a.subtree,
                a.value,
                &a.actions
            ),
            (
                b.id,
                b.parent,
                &b.path,
                &b.move_san,
                b.kind,
                b.expected,
                b.found,
                b.subtree,
                b.value,
                &b.actions
            )
        );
    }
    let header = summary::Header {
        fen: POSITIONS[2],
        config: "modern",
        limit: "depth 5",
        kept: "the last iteration",
        search_nodes: result.stats.nodes,
        truncated: false,
        minimal: None,
    };
    let md = summary::markdown(&header, &rows);
    for section in [
        "## Nodes by ply",
        "## Main-search nodes by level",
        "## Nodes by root move",
        "## Main-search nodes by type",
        "## Nodes under each step",
    ] {
        assert!(md.contains(section), "{section}\n{md}");
    }
    assert!(
        md.contains(&format!("- nodes kept: {} (", rows.len())),
        "{md}"
    );
}
