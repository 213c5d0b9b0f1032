//! `harness train` end to end: datagen → train → a network the engine plays with; a run resumed
//! from its checkpoints ends with the uninterrupted run's network; bad data and bad options are
//! refused with what was expected.

mod common;

use std::path::Path;

use common::{copy_dir, harness};

fn ok(o: &std::process::Output) -> String {
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn err(o: &std::process::Output) -> String {
    assert!(!o.status.success(), "expected a refusal");
    String::from_utf8_lossy(&o.stderr).into_owned()
}

fn datagen(out: &Path) {
    ok(&harness()
        .args([
            "datagen",
            "--nodes",
            "300",
            "--games-per-chunk",
            "2",
            "--chunks",
            "6",
            "--quiet",
            "--out",
        ])
        .arg(out)
        .output()
        .unwrap());
}

fn train(data: &Path, out: &Path, extra: &[&str]) -> std::process::Output {
    harness()
        .arg("train")
        .arg(data)
        .args([
            "--epochs",
            "3",
            "--batch-size",
            "256",
            "--validation-every",
            "3",
            "--threads",
            "2",
            "--quiet",
            "--out",
        ])
        .arg(out)
        .args(extra)
        .output()
        .unwrap()
}

#[test]
fn datagen_then_train_gives_a_network_the_engine_plays_and_a_resumed_run_the_same_one() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data");
    datagen(&data);
    let whole = dir.path().join("whole");
    let stdout = ok(&train(&data, &whole, &["--hidden", "16"]));
    assert!(stdout.contains("--set nnue.net="), "{stdout}");
    let record: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(whole.join("net.json")).unwrap()).unwrap();
    assert_eq!(record["epochs"].as_array().unwrap().len(), 3);
    assert_eq!(record["sources"][0]["units"], 6);
    assert!(whole.join("report.html").exists() && whole.join("loss.svg").exists());

    // Killed after its first epoch: the later checkpoints and the network never written.
    let killed = dir.path().join("killed");
    ok(&train(&data, &killed, &["--hidden", "16"]));
    for f in [
        "checkpoints/epoch-0002.bin",
        "checkpoints/epoch-0003.bin",
        "net.nnue",
    ] {
        std::fs::remove_file(killed.join(f)).unwrap();
    }
    ok(&harness()
        .args(["train", "--quiet", "--resume"])
        .arg(&killed)
        .output()
        .unwrap());
    assert_eq!(
        std::fs::read(killed.join("net.nnue")).unwrap(),
        std::fs::read(whole.join("net.nnue")).unwrap()
    );

    let net = whole.join("net.nnue");
    let o = harness()
        .args([
            "match",
            "--pairs",
            "2",
            "--limit",
            "nodes=300",
            "--quiet",
            "--out",
        ])
        .arg(dir.path().join("match"))
        .args(["--player", "classic:preset=swift"])
        .arg("--player")
        .arg(format!("net:preset=swift,nnue.net={}", net.display()))
        .output()
        .unwrap();
    ok(&o);
    let e = err(&harness()
        .args([
            "match",
            "--pairs",
            "1",
            "--limit",
            "nodes=300",
            "--quiet",
            "--out",
        ])
        .arg(dir.path().join("match2"))
        .arg("--player")
        .arg(format!(
            "net:preset=swift,nnue.net={},nnue.hidden=32",
            net.display()
        ))
        .args(["--player", "classic:preset=swift"])
        .output()
        .unwrap());
    assert!(e.contains("(768→16)×2→1, but nnue.hidden = 32"), "{e}");
}

#[test]
fn bad_data_and_bad_options_are_refused_with_what_was_expected() {
    let dir = tempfile::tempdir().unwrap();
    let torn = dir.path().join("torn.bin");
    std::fs::write(&torn, [0u8; 33]).unwrap();
    let e = err(&train(&torn, &dir.path().join("a"), &[]));
    assert!(e.contains("torn.bin") && e.contains("33 bytes"), "{e}");
    let garbage = dir.path().join("garbage.bin");
    std::fs::write(&garbage, [0xffu8; 64]).unwrap();
    let e = err(&train(&garbage, &dir.path().join("b"), &[]));
    assert!(e.contains("garbage.bin") && e.contains("record 0"), "{e}");
    let e = err(&train(
        &torn,
        &dir.path().join("c"),
        &["--schedule", "linear"],
    ));
    assert!(e.contains("cosine:FINAL") && e.contains("`linear`"), "{e}");
    let e = err(&train(&torn, &dir.path().join("d"), &["--hidden", "12"]));
    assert!(e.contains("multiple of 8"), "{e}");
    let e = err(&train(dir.path(), &dir.path().join("e"), &[]));
    assert!(e.contains("not a datagen run"), "{e}");
}

/// `--first-chunks` with one value per datagen run reads that many of each, as the record says;
/// a count that fits neither form is refused.
#[test]
fn first_chunks_per_run_read_those_chunks_of_each() {
    let dir = tempfile::tempdir().unwrap();
    let (one, two) = (dir.path().join("one"), dir.path().join("two"));
    datagen(&one);
    copy_dir(&one, &two);
    let out = dir.path().join("net");
    let trained = harness()
        .arg("train")
        .args([&one, &two])
        .args([
            "--first-chunks",
            "2,5",
            "--epochs",
            "1",
            "--batch-size",
            "256",
        ])
        .args([
            "--validation-every",
            "3",
            "--threads",
            "1",
            "--quiet",
            "--out",
        ])
        .arg(&out)
        .output()
        .unwrap();
    ok(&trained);
    let record: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("net.json")).unwrap()).unwrap();
    let chunks: Vec<&str> = record["sources"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["chunks"].as_str().unwrap())
        .collect();
    assert_eq!(chunks, ["0-1", "0-4"]);
    assert_eq!(record["plan"]["first_chunks"], serde_json::json!([2, 5]));
    let refused = harness()
        .arg("train")
        .args([&one, &two])
        .args(["--first-chunks", "1,2,3", "--quiet", "--out"])
        .arg(dir.path().join("refused"))
        .output()
        .unwrap();
    let e = err(&refused);
    assert!(
        e.contains("3 values") && e.contains("one per run (2)"),
        "{e}"
    );
}
