//! `kroon perft`, `kroon bench` and `kroon openings` through the built binary: output format, divide,
//! position files, and bad input; and the options of the front ends that play.

mod common;

use common::Scratch;
use std::process::{Output, Stdio};

fn kroon(args: &[&str]) -> Output {
    common::kroon()
        .args(args)
        .env_remove("RUST_BACKTRACE")
        .output()
}

fn stdout(out: &Output) -> String {
    String::from_utf8(out.stdout.clone()).expect("UTF-8 output")
}

/// The `nodes=N time=T nps=R` last line, checked for form; returns N.
fn summary_nodes(text: &str) -> u64 {
    let last = text.lines().last().expect("some output");
    let fields: Vec<&str> = last.split(' ').collect();
    assert_eq!(fields.len(), 3, "last line: {last}");
    let value = |i: usize, key: &str| {
        fields[i]
            .strip_prefix(key)
            .unwrap_or_else(|| panic!("{key} in {last}"))
            .to_string()
    };
    let time: f64 = value(1, "time=").parse().expect("time is a number");
    assert!(time >= 0.0);
    let nps: f64 = value(2, "nps=").parse().expect("nps is a number");
    assert!(nps >= 0.0);
    value(0, "nodes=").parse().expect("nodes is an integer")
}

#[test]
fn perft_prints_each_depth_and_the_summary_last() {
    let out = kroon(&["perft", "--depth", "5"]);
    assert!(out.status.success(), "{out:?}");
    let text = stdout(&out);
    assert_eq!(summary_nodes(&text), 27117);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 6, "{text}");
    for (line, count) in lines.iter().zip(["9", "81", "658", "4265", "27117"]) {
        assert!(line.contains(count), "{line}");
    }
    for threads in ["1", "2"] {
        let out = kroon(&["perft", "--depth", "6", "--threads", threads]);
        assert!(out.status.success());
        assert_eq!(summary_nodes(&stdout(&out)), 167140, "{threads} threads");
    }
}

#[test]
fn perft_depth_zero_counts_the_position_itself() {
    let out = kroon(&["perft", "--depth", "0"]);
    assert!(out.status.success(), "{out:?}");
    assert_eq!(summary_nodes(&stdout(&out)), 1);
}

#[test]
fn perft_from_a_fen_and_a_hub_string() {
    let fen = "W:W24,28,29,33,36,38,40,45,48:B3,4,11,13,14,15,16,21,27";
    let out = kroon(&["perft", "--depth", "6", "--fen", fen]);
    assert!(out.status.success(), "{out:?}");
    assert_eq!(summary_nodes(&stdout(&out)), 148269);
    let hub = format!("W{}{}{}", "b".repeat(20), "e".repeat(10), "w".repeat(20));
    let out = kroon(&["perft", "--depth", "4", "--fen", &hub]);
    assert!(out.status.success(), "{out:?}");
    assert_eq!(summary_nodes(&stdout(&out)), 4265);
}

#[test]
fn divide_lines_sum_to_the_total() {
    for (fen, depth, total) in [
        ("W:W31-50:B1-20", "6", 167140u64),
        (
            "B:W16,25,33,34,35,37,38,40,42,45,47,48,49,50:B3,7,9,11,12,13,14,15,17,19,22,23,24,29",
            "5",
            0,
        ),
    ] {
        let out = kroon(&["perft", "--depth", depth, "--fen", fen, "--divide"]);
        assert!(out.status.success(), "{out:?}");
        let text = stdout(&out);
        let nodes = summary_nodes(&text);
        if total != 0 {
            assert_eq!(nodes, total);
        }
        let lines: Vec<&str> = text.lines().collect();
        let mut sum = 0;
        for line in &lines[..lines.len() - 1] {
            let (mv, n) = line
                .split_once(' ')
                .unwrap_or_else(|| panic!("divide line {line}"));
            assert!(mv.contains('-') || mv.contains('x'), "{line}");
            sum += n.trim().parse::<u64>().expect("count");
        }
        assert_eq!(sum, nodes, "{text}");
    }
    let out = kroon(&["perft", "--depth", "6", "--divide"]);
    assert_eq!(
        stdout(&out).lines().count(),
        10,
        "nine root moves and the summary"
    );
}

fn assert_refused(args: &[&str], expected_words: &[&str]) {
    let out = kroon(args);
    assert!(!out.status.success(), "{args:?} should fail");
    assert_ne!(out.status.code(), Some(101), "{args:?} panicked");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!err.contains("panicked"), "{args:?}: {err}");
    assert!(!err.trim().is_empty(), "{args:?} says nothing on stderr");
    for word in expected_words {
        assert!(err.contains(word), "{args:?}: expected '{word}' in: {err}");
    }
    assert!(
        stdout(&out).is_empty() || !stdout(&out).contains("nodes="),
        "{args:?}"
    );
}

#[test]
fn bad_input_is_refused_with_a_message() {
    assert_refused(
        &["perft", "--depth", "3", "--fen", "W:W31-50:B1-2x"],
        &["--fen", "1-2x"],
    );
    assert_refused(&["perft", "--depth", "3", "--fen", "garbage"], &["--fen"]);
    assert_refused(&["perft", "--depth", "3", "--fen", ""], &["--fen"]);
    assert_refused(
        &["perft", "--depth", "3", "--fen", "W:W3,31:B20"],
        &["promotion row", "3"],
    );
    assert_refused(&["perft", "--depth", "3", "--fen", "W:W31:B31"], &["31"]);
    assert_refused(
        &["perft", "--depth", "3", "--fen", "W:W31-51:B1"],
        &["--fen"],
    );
    assert_refused(&["perft", "--depth", "3", "--threads", "0"], &["--threads"]);
    assert_refused(&["perft", "--depth", "-1"], &["depth"]);
    assert_refused(&["perft", "--depth", "x"], &["depth"]);
    assert_refused(&["perft"], &["--depth"]);
    assert_refused(&["perft", "--depth", "3", "--bogus"], &["--bogus"]);
    assert_refused(&["bench", "-d", "3", "--hash", "0"], &["--hash"]);
    assert_refused(&["bench", "-d", "3", "--hash", "lots"], &["--hash"]);
    assert_refused(&["openings", "--plies", "2", "--depth", "0"], &["--depth"]);
    assert_refused(
        &["openings", "--plies", "2", "--depth", "4", "--margin=-5"],
        &["--margin"],
    );
}

#[test]
fn openings_refuse_an_unwritable_file_before_searching() {
    // At depth 40 the searches would take hours: the refusal must come first.
    let mut child = common::kroon()
        .args(["openings", "--plies", "3", "--depth", "40"])
        .args(["--out", "/nonexistent-kroon-folder/openings.fen"])
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn();
    let status = common::wait_until(
        "the refusal (kroon openings searched before checking --out)",
        common::PATIENCE,
        || child.try_wait().unwrap(),
    );
    let mut err = String::new();
    std::io::Read::read_to_string(&mut child.stderr.take().unwrap(), &mut err).unwrap();
    assert_eq!(status.code(), Some(1), "{err}");
    assert!(
        err.contains("cannot write /nonexistent-kroon-folder/openings.fen"),
        "{err}"
    );
}

#[test]
fn bench_takes_a_table_size() {
    // A shallow search fills neither table, so the signature is the same.
    let default = summary_nodes(&stdout(&kroon(&["bench", "-d", "5"])));
    let small = kroon(&["bench", "-d", "5", "--hash", "1"]);
    assert!(small.status.success());
    assert_eq!(summary_nodes(&stdout(&small)), default);
    // A table too small for a deep search loses entries, and the tree changes
    // (depth 16: about 14 M nodes, a few seconds).
    let start = ["bench", "--fen", "W:W31-50:B1-20", "-d", "16"];
    let tiny = summary_nodes(&stdout(&kroon(&[&start[..], &["--hash", "1"]].concat())));
    let full = summary_nodes(&stdout(&kroon(&start)));
    assert_ne!(tiny, full);
}

#[test]
fn bench_searches_the_positions_of_a_file() {
    let dir = Scratch::new("bench");
    let file = dir.join("positions.fen");
    let a = "W:W27,32,38,43:B8,13,19,24";
    let b = "W:WK46,28,33:BK5,19,24";
    std::fs::write(&file, format!("# two endings\n{a} ; from a test\n\n{b}\n")).unwrap();
    let out = kroon(&["bench", "-d", "6", "--positions", file.to_str().unwrap()]);
    let text = stdout(&out);
    assert!(out.status.success(), "{text}");
    assert_eq!(
        text.lines().count(),
        3,
        "one line a position and the summary"
    );
    // The file's searches are those of the same positions one by one.
    let one_by_one: u64 = [a, b]
        .iter()
        .map(|fen| summary_nodes(&stdout(&kroon(&["bench", "-d", "6", "--fen", fen]))))
        .sum();
    assert_eq!(summary_nodes(&text), one_by_one);

    std::fs::write(&file, "W:W31-50:B1-20\nW:W31-51:B1\n").unwrap();
    assert_refused(
        &["bench", "--positions", file.to_str().unwrap()],
        &["line 2", "positions.fen"],
    );
    std::fs::write(&file, "# nothing here\n").unwrap();
    assert_refused(
        &["bench", "--positions", file.to_str().unwrap()],
        &["no positions"],
    );
    assert_refused(
        &[
            "bench",
            "--positions",
            dir.join("missing").to_str().unwrap(),
        ],
        &["cannot read"],
    );
}

#[test]
fn bench_measures_the_threads_speedup() {
    let out = kroon(&["bench", "-d", "10", "-t", "2", "--speedup", "2"]);
    let text = stdout(&out);
    assert!(out.status.success(), "{text}");
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 3, "a line a round and the summary: {text}");
    let field = |line: &str, key: &str| -> f64 {
        line.split(' ')
            .find_map(|f| f.strip_prefix(key))
            .unwrap_or_else(|| panic!("{key} in {line}"))
            .parse()
            .expect("a number")
    };
    for (i, line) in lines[..2].iter().enumerate() {
        assert!(line.starts_with(&format!("round={} ", i + 1)), "{line}");
        let (one, two) = (field(line, "time1="), field(line, "time2="));
        assert!(one > 0.0 && two > 0.0, "{line}");
        assert!(field(line, "speedup=") > 0.0, "{line}");
        assert!(field(line, "nodes-ratio=") > 0.0, "{line}");
        let nps = field(line, "nps-ratio=");
        let product = field(line, "speedup=") * field(line, "nodes-ratio=");
        assert!((nps - product).abs() < 0.01 * nps.max(1.0), "{line}");
    }
    let summary = lines[2];
    assert!(summary.starts_with("threads=2 rounds=2 "), "{summary}");
    // The median of two rounds is their mean (each printed to 3 decimals).
    for key in ["speedup=", "nodes-ratio=", "nps-ratio="] {
        let mean = (field(lines[0], key) + field(lines[1], key)) / 2.0;
        assert!((field(summary, key) - mean).abs() < 0.002, "{key} {text}");
    }
    // One thread has nothing to compare with.
    assert_refused(&["bench", "-d", "4", "--speedup", "1"], &["--threads"]);
    assert_refused(
        &["bench", "-d", "4", "-t", "2", "--speedup", "0"],
        &["--speedup"],
    );
}

#[test]
fn a_reader_that_stops_early_ends_the_output_quietly() {
    // As `kroon perft ... | head -1` does: the reading end is closed before the
    // first line is written.
    let mut child = common::kroon()
        .args(["perft", "--depth", "3"])
        .env_remove("RUST_BACKTRACE")
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn();
    drop(child.stdout.take());
    let out = child.wait_with_output();
    let errors = String::from_utf8_lossy(&out.stderr);
    assert!(errors.is_empty(), "stderr: {errors}");
    assert!(out.status.success(), "{out:?}");
}

#[test]
fn the_front_ends_that_play_take_an_evaluation() {
    let missing = "/nonexistent/kroon.weights";
    for front in ["hub", "play", "dxp"] {
        assert_refused(&[front, "--eval", missing], &["--eval", missing]);
    }
    // Hub shows the evaluation chosen as its `eval` param.
    let mut child = common::kroon()
        .args(["hub", "--eval", "hand"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn();
    use std::io::Write;
    child
        .stdin
        .take()
        .unwrap()
        .write_all(b"hub\nquit\n")
        .unwrap();
    let out = child.wait_with_output();
    assert!(out.status.success());
    assert!(
        stdout(&out).contains("param name=eval value=hand type=string"),
        "{}",
        stdout(&out)
    );
}
