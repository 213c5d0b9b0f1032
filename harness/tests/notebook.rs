//! Executes `notebooks/report.ipynb` headless (nbclient) on a small real run and checks that it
//! reproduces the report's main table. Needs python3 with the packages of
//! `notebooks/requirements.txt`; where they are missing the test says it was not run, and with
//! `FISCHERLE_REQUIRE_TOOLS=1` (as the README's test command sets) it fails.

mod common;

use std::path::Path;

use common::{csv_rows, harness, python, tiny};

const EXECUTE: &str = r#"
import sys, nbformat, nbclient
nb = nbformat.read(sys.argv[1], 4)
nbclient.NotebookClient(nb, timeout=300, kernel_name="python3",
                        resources={"metadata": {"path": sys.argv[2]}}).execute()
for cell in nb.cells:
    for out in cell.get("outputs", []):
        print(out.get("text", ""))
"#;

#[test]
fn the_notebook_reproduces_the_main_table_of_a_run() {
    let available = common::python_has("polars, matplotlib, nbclient, nbformat, ipykernel");
    let needs = "python3 with the packages of notebooks/requirements.txt";
    if !common::tools_available(
        "the_notebook_reproduces_the_main_table_of_a_run",
        available,
        needs,
    ) {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let run = dir.path().join("run");
    harness()
        .args(["grid", "--suite"])
        .arg(tiny())
        .args([
            "--set",
            "selective.candidate_limit=3,4",
            "--depth",
            "3",
            "--quiet",
            "--out",
        ])
        .arg(&run)
        .assert()
        .success();
    let notebooks = Path::new(env!("CARGO_MANIFEST_DIR")).join("../notebooks");
    let notebook = notebooks.join("report.ipynb");
    let args = [
        "-c".as_ref(),
        EXECUTE.as_ref(),
        notebook.as_os_str(),
        notebooks.as_os_str(),
    ];
    let envs = [
        ("FISCHERLE_RUN", run.as_os_str()),
        ("MPLBACKEND", "Agg".as_ref()),
    ];
    let stdout = python(&args, &envs);
    for row in csv_rows(&run.join("summary.csv"), &[]) {
        let cell = |name: &str| row.iter().find(|(h, _)| h == name).unwrap().1.clone();
        let expected = format!("┆ {}", cell("total_nodes"));
        assert!(
            stdout.contains(&expected),
            "the notebook lacks {} total nodes {expected}:\n{stdout}",
            cell("config_id")
        );
    }
}
