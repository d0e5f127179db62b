//! The learning loop through the built binary, on a tiny scale: `kroon selfplay`
//! writes, resumes and shards its data, `kroon train` fits weights to it, and the
//! engine plays with them; damaged files are refused with a message.

mod common;

use common::Scratch;
use std::path::Path;
use std::process::{Output, Stdio};

fn kroon(args: &[&str]) -> Output {
    common::kroon()
        .args(args)
        .env_remove("RUST_BACKTRACE")
        .output()
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// Kroon's Hub replies to a session that loads `weights` and asks for a move.
fn hub_with_weights(weights: &Path) -> String {
    use std::io::Write;
    let mut hub = common::kroon()
        .arg("hub")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn();
    let script = format!(
        "hub\ninit\nset-param name=eval value={}\npos pos=Wbbbbbbbbbbbbbbbbbbbbeeeeeeeeeewwwwwwwwwwwwwwwwwwww\nlevel depth=6\ngo think\nquit\n",
        weights.display()
    );
    hub.stdin
        .take()
        .unwrap()
        .write_all(script.as_bytes())
        .unwrap();
    text(&hub.wait_with_output().stdout)
}

fn selfplay(out: &Path, extra: &[&str]) -> Output {
    let mut args = vec![
        "selfplay",
        "--out",
        out.to_str().unwrap(),
        "--nodes",
        "300",
        "--eval",
        "hand",
        "--quiet",
    ];
    args.extend_from_slice(extra);
    kroon(&args)
}

/// `kroon rescore` of `data` into `out` by hand's search of 3,000 nodes, with
/// `extra` options.
fn rescore(data: &Path, out: &Path, extra: &[&str]) -> Output {
    let mut args = vec![
        "rescore",
        "--data",
        data.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
        "--nodes",
        "3000",
        "--eval",
        "hand",
        "--quiet",
    ];
    args.extend_from_slice(extra);
    kroon(&args)
}

/// `kroon train` on `data`, writing `out`, with `extra` options.
fn train(data: &[&Path], out: &Path, extra: &[&str]) -> Output {
    let mut args = vec!["train", "--data"];
    args.extend(data.iter().map(|p| p.to_str().unwrap()));
    args.extend_from_slice(&["--out", out.to_str().unwrap()]);
    args.extend_from_slice(extra);
    kroon(&args)
}

#[test]
fn selfplay_then_train_then_play() {
    let dir = Scratch::new("training-loop");
    let data = dir.join("data.bin");
    let out = selfplay(&data, &["--games", "6", "--threads", "2"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(
        text(&out.stdout).starts_with("6 games, "),
        "{}",
        text(&out.stdout)
    );
    let size = std::fs::metadata(&data).unwrap().len();
    assert_eq!(size % 32, 0);
    assert!(
        size > 32 * 100,
        "six games keep more than a hundred positions"
    );

    // Stopped runs resume: the same run again plays nothing new, a longer one only
    // the games that are missing.
    let again = selfplay(&data, &["--games", "6"]);
    assert!(again.status.success());
    assert!(text(&again.stderr).contains("6 games of this run already there"));
    assert!(text(&again.stdout).starts_with("0 games, "));
    let more = selfplay(&data, &["--games", "8"]);
    assert!(
        text(&more.stdout).starts_with("2 games, "),
        "{}",
        text(&more.stdout)
    );

    let weights = dir.join("tiny.weights");
    let out = train(&[&data], &weights, &["--epochs", "2", "--batch", "64"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let report = text(&out.stdout);
    assert!(report.contains("epoch 2: training loss"), "{report}");
    assert!(report.contains("dense terms"), "{report}");

    // The engine plays with the new weights through Hub.
    let replies = hub_with_weights(&weights);
    assert!(!replies.contains("error"), "{replies}");
    assert!(
        replies.lines().any(|l| l.starts_with("done move=")),
        "{replies}"
    );
}

#[test]
fn a_run_against_another_player_is_its_own_run() {
    let dir = Scratch::new("training-versus");
    let data = dir.join("data.bin");
    let args = ["--games", "2", "--threads", "1"];
    assert!(selfplay(&data, &args).status.success());
    // The same seed against the patterns: new games, not the self-play run resumed.
    let versus = [&args[..], &["--versus", "learned"]].concat();
    plays_a_run_of_its_own(&data, &versus);
    // An unknown player is refused by name.
    let bad = selfplay(&dir.join("bad.bin"), &["--versus", "nonsense"]);
    assert!(!bad.status.success());
    assert!(
        text(&bad.stderr).contains("nonsense"),
        "{}",
        text(&bad.stderr)
    );
}

#[test]
fn a_run_that_keeps_threats_is_its_own_run() {
    let dir = Scratch::new("training-threats");
    let (plain, threats) = (dir.join("plain.bin"), dir.join("threats.bin"));
    let args = ["--games", "2", "--threads", "1"];
    assert!(selfplay(&plain, &args).status.success());
    let with = [&args[..], &["--threats"]].concat();
    assert!(selfplay(&threats, &with).status.success());
    // The same games with more positions: every record of the plain run is there.
    let (a, b) = (
        std::fs::read(&plain).unwrap(),
        std::fs::read(&threats).unwrap(),
    );
    assert!(b.len() > a.len());
    let kept: std::collections::HashSet<&[u8]> = b.chunks(32).skip(1).collect();
    assert!(a.chunks(32).skip(1).all(|r| kept.contains(r)));
    // Into the plain run's file it starts a run of its own.
    plays_a_run_of_its_own(&plain, &with);
}

/// `kroon selfplay` with `args` (two games) into `data`, which holds another run of
/// the same seed, plays its two games, and then resumes as any run does.
fn plays_a_run_of_its_own(data: &Path, args: &[&str]) {
    let out = selfplay(data, args);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(
        text(&out.stdout).starts_with("2 games, "),
        "{}",
        text(&out.stdout)
    );
    let again = selfplay(data, args);
    assert!(
        text(&again.stdout).starts_with("0 games, "),
        "{}",
        text(&again.stdout)
    );
}

#[test]
fn rescoring_keeps_the_positions_and_resumes() {
    let dir = Scratch::new("training-rescore");
    let data = dir.join("data.bin");
    assert!(selfplay(&data, &["--games", "3", "--threads", "1"])
        .status
        .success());
    let rescore_of =
        |data: &Path, out: &Path, threads: &str| rescore(data, out, &["--threads", threads]);
    let rescore_here = |out: &Path, threads: &str| rescore_of(&data, out, threads);
    let whole = dir.join("whole.bin");
    let out = rescore_here(&whole, "2");
    assert!(out.status.success(), "{}", text(&out.stderr));
    let (before, after) = (
        std::fs::read(&data).unwrap(),
        std::fs::read(&whole).unwrap(),
    );
    assert_eq!(before.len(), after.len());
    // Every block keeps its position, result, ply and game (bytes 0-25 and 28-31);
    // only scores (bytes 26-27) change, and a deeper search changes some.
    let mut changed = 0;
    for (b, a) in before.chunks(32).zip(after.chunks(32)) {
        if b.starts_with(b"KROONPOS") {
            assert_eq!(a, b);
            continue;
        }
        assert_eq!((&a[..26], &a[28..]), (&b[..26], &b[28..]));
        changed += usize::from(a[26..28] != b[26..28]);
    }
    assert!(changed > 0);
    assert!(text(&out.stdout).contains(&format!("({changed} scores changed;")));

    // A run stopped halfway (and in a block) resumes to the same file, on one thread.
    let part = dir.join("part.bin");
    std::fs::write(&part, &after[..after.len() / 2 + 5]).unwrap();
    let out = rescore_here(&part, "1");
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(text(&out.stderr).contains("resuming after"));
    assert_eq!(std::fs::read(&part).unwrap(), after);

    // A position met again takes the score of its first search (the same search
    // would find it): the file twice over is rescored to the rescoring twice over,
    // every record of its second half a repeat.
    let twice = dir.join("twice.bin");
    std::fs::write(&twice, [&before[..], &before[..]].concat()).unwrap();
    let twice_out = dir.join("twice-out.bin");
    let out = rescore_of(&twice, &twice_out, "2");
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(
        std::fs::read(&twice_out).unwrap(),
        [&after[..], &after[..]].concat()
    );
    let records = before
        .chunks(32)
        .filter(|b| !b.starts_with(b"KROONPOS"))
        .count();
    let said = text(&out.stdout);
    let repeats: usize = said
        .split("; ")
        .nth(1)
        .and_then(|s| s.split(' ').next())
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("the repeats are counted: {said}"));
    assert!(
        repeats >= records,
        "{repeats} repeats of {records} records: {said}"
    );

    // Another file as the output, or the input itself, is refused by name.
    let other = dir.join("other.bin");
    let mut wrong = before[..96].to_vec();
    wrong[32 + 30] ^= 1; // another game number
    std::fs::write(&other, &wrong).unwrap();
    let refused = rescore_here(&other, "1");
    assert!(!refused.status.success());
    assert!(
        text(&refused.stderr).contains("not a rescoring of"),
        "{}",
        text(&refused.stderr)
    );
    let refused = rescore_here(&data, "1");
    assert!(!refused.status.success());
    assert!(text(&refused.stderr).contains("cannot be the input"));
}

#[test]
fn the_other_player_s_positions_are_scored_by_the_run_s_evaluation() {
    let dir = Scratch::new("training-other-player");
    let (mixed, own) = (dir.join("mixed.bin"), dir.join("own.bin"));
    let games = ["--games", "2", "--threads", "1"];
    let out = selfplay(&mixed, &[&games[..], &["--versus", "learned"]].concat());
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(selfplay(&own, &games).status.success());
    let rescore = |data: &Path, out: &Path| rescore(data, out, &["--other-player"]);
    let mixed_out = dir.join("mixed-out.bin");
    let out = rescore(&mixed, &mixed_out);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let (before, after) = (
        std::fs::read(&mixed).unwrap(),
        std::fs::read(&mixed_out).unwrap(),
    );
    assert_eq!(before.len(), after.len());
    // The run (hand) has White in even games: its records keep their scores
    // byte for byte; the patterns' records are searched again by hand's search.
    let (mut theirs, mut changed) = (0, 0);
    for (b, a) in before.chunks(32).zip(after.chunks(32)) {
        if b.starts_with(b"KROONPOS") {
            assert_eq!(a, b);
            continue;
        }
        assert_eq!((&a[..26], &a[28..]), (&b[..26], &b[28..]));
        let white_to_move = b[24] & 1 == 0;
        let game = u32::from_le_bytes(b[28..32].try_into().unwrap());
        if white_to_move == (game % 2 == 0) {
            assert_eq!(a, b, "a position the run moved in kept its score");
        } else {
            theirs += 1;
            changed += usize::from(a[26..28] != b[26..28]);
        }
    }
    assert!(theirs > 0 && changed > 0, "{changed} of {theirs} changed");
    assert!(
        text(&out.stdout).starts_with(&format!("{theirs} positions rescored")),
        "{}",
        text(&out.stdout)
    );
    // A run against itself has no other player: its file is copied as it is.
    let own_out = dir.join("own-out.bin");
    let out = rescore(&own, &own_out);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(
        std::fs::read(&own_out).unwrap(),
        std::fs::read(&own).unwrap()
    );
    assert!(text(&out.stdout).starts_with("0 positions rescored"));
}

#[test]
fn shards_split_the_games_and_concatenate() {
    let dir = Scratch::new("training-shards");
    let (a, b) = (dir.join("a.bin"), dir.join("b.bin"));
    for (path, shard) in [(&a, "0/2"), (&b, "1/2")] {
        let out = selfplay(path, &["--games", "2", "--shard", shard, "--threads", "1"]);
        assert!(out.status.success(), "{}", text(&out.stderr));
    }
    let joined = dir.join("joined.bin");
    let mut bytes = std::fs::read(&a).unwrap();
    bytes.extend(std::fs::read(&b).unwrap());
    std::fs::write(&joined, bytes).unwrap();
    let out = train(
        &[&joined],
        &dir.join("w"),
        &["--epochs", "1", "--validation", "0", "--keep-repeats"],
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    let records = |p: &Path| std::fs::metadata(p).unwrap().len() / 32 - 1;
    let expected = format!(
        "{} training and 0 validation positions",
        records(&a) + records(&b)
    );
    assert!(
        text(&out.stdout).contains(&expected),
        "{}",
        text(&out.stdout)
    );

    // A position reached by several games is fitted once: the same games given
    // twice add no position, and give the positions of one copy.
    let distinct = |files: &[&Path]| {
        let out = train(
            files,
            &dir.join("w"),
            &["--epochs", "1", "--validation", "0"],
        );
        assert!(out.status.success(), "{}", text(&out.stderr));
        let stdout = text(&out.stdout);
        let n: u64 = stdout
            .split(" training and")
            .next()
            .and_then(|s| s.rsplit(['\n', ' ']).next())
            .and_then(|s| s.parse().ok())
            .unwrap_or_else(|| panic!("{stdout}"));
        n
    };
    let once = distinct(&[&a]);
    assert!(once > 0 && once <= records(&a));
    assert_eq!(distinct(&[&a, &a]), once);

    // With --validate-newest the held-out share comes from the last file only: here all
    // of it, so the first file is the training set and the second the validation set.
    let out = train(
        &[&a, &b],
        &dir.join("w"),
        &[
            "--epochs",
            "1",
            "--validation",
            "1",
            "--validate-newest",
            "--keep-repeats",
        ],
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    let expected = format!(
        "{} training and {} validation positions",
        records(&a),
        records(&b)
    );
    assert!(
        text(&out.stdout).contains(&expected),
        "{}",
        text(&out.stdout)
    );
}

#[test]
fn damaged_files_are_refused_with_a_message() {
    let dir = Scratch::new("training-damaged");
    let junk = dir.join("junk.bin");
    std::fs::write(&junk, [7u8; 64]).unwrap();
    let out = train(&[&junk], Path::new("/dev/null"), &[]);
    assert!(!out.status.success());
    let err = text(&out.stderr);
    assert!(err.contains("junk.bin") && err.contains("not a"), "{err}");

    let weights = dir.join("short.weights");
    std::fs::write(&weights, b"KROONEVL").unwrap();
    let x = dir.join("x.bin");
    let out = kroon(&[
        "selfplay",
        "--out",
        x.to_str().unwrap(),
        "--eval",
        weights.to_str().unwrap(),
    ]);
    assert!(!out.status.success());
    assert!(
        text(&out.stderr).contains("short.weights"),
        "{}",
        text(&out.stderr)
    );

    // Through Hub: the error is reported and the engine plays on with its evaluation.
    let replies = hub_with_weights(&weights);
    assert!(
        replies
            .lines()
            .any(|l| l.starts_with("error message=") && l.contains("short.weights")),
        "{replies}"
    );
    assert!(
        replies.lines().any(|l| l.starts_with("done move=")),
        "{replies}"
    );

    let out = selfplay(&dir.join("y.bin"), &["--shard", "2/2"]);
    assert!(!out.status.success());
    assert!(text(&out.stderr).contains("--shard"));
}

/// With `--tables`, a game ends as soon as it reaches the tables: no kept position
/// has as few pieces as they hold, the run's header says which tables, and a
/// folder without tables is refused.
#[test]
fn selfplay_ends_games_by_the_tables() {
    let dir = Scratch::new("training-tables");
    let tables = dir.join("egdb");
    let built = kroon(&[
        "egdb",
        "build",
        "--pieces",
        "3",
        "--dir",
        tables.to_str().unwrap(),
    ]);
    assert!(built.status.success(), "{}", text(&built.stderr));
    // Two kings against two men, and a king and a man against two men: quiet
    // positions of 4 pieces that reach 3 when a man is taken.
    let openings = dir.join("endings.fen");
    std::fs::write(&openings, "W:WK46,K50:B5,10\nW:WK48,39:B12,17\n").unwrap();
    let data = dir.join("t.bin");
    let out = selfplay(
        &data,
        &[
            "--games",
            "4",
            "--random-plies",
            "0",
            "--openings",
            openings.to_str().unwrap(),
            "--tables",
            tables.to_str().unwrap(),
        ],
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(
        text(&out.stderr).contains("complete to 3 pieces"),
        "{}",
        text(&out.stderr)
    );
    let bytes = std::fs::read(&data).unwrap();
    assert_eq!(&bytes[..8], b"KROONPOS");
    assert_eq!(bytes[12], 3, "the header names the tables");
    let records: Vec<&[u8]> = bytes.chunks(32).skip(1).collect();
    assert!(!records.is_empty());
    for r in &records {
        let pieces = (u64::from_le_bytes(r[..8].try_into().unwrap())
            | u64::from_le_bytes(r[8..16].try_into().unwrap()))
        .count_ones();
        assert!(pieces > 3, "a position the tables hold was played on");
    }

    let out = selfplay(
        &dir.join("u.bin"),
        &["--tables", dir.join("none").to_str().unwrap()],
    );
    assert!(!out.status.success());
    assert!(
        text(&out.stderr).contains("no complete piece count"),
        "{}",
        text(&out.stderr)
    );
}

/// `kroon train --model network --init`: a fit goes on from a network file (one
/// view widened to two, a first layer widened to more units), starting where
/// that network scores the held-out positions; a damaged file or a wider one is
/// refused by name.
#[test]
fn a_network_fit_goes_on_from_a_network_file() {
    let dir = Scratch::new("training-init");
    let data = dir.join("data.bin");
    let out = selfplay(&data, &["--games", "4", "--threads", "2"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let network = |out: &Path, hidden: &str, extra: &[&str]| {
        let mut args = vec![
            "--model",
            "network",
            "--hidden",
            hidden,
            "--epochs",
            "2",
            "--validation",
            "0.5",
        ];
        args.extend_from_slice(extra);
        train(&[&data], out, &args)
    };
    let loss = |report: &str, line: &str| -> f32 {
        report
            .lines()
            .find_map(|l| l.strip_prefix(line))
            .and_then(|rest| rest.split_whitespace().next())
            .and_then(|v| v.parse().ok())
            .unwrap_or_else(|| panic!("no '{line}' in {report}"))
    };
    let first = dir.join("one-view.net");
    let out = network(&first, "16", &[]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let fitted = loss(&text(&out.stdout), "the integer network: validation loss ");

    let widened = dir.join("two-views.net");
    let init = ["--views", "2", "--init", first.to_str().unwrap()];
    let out = network(&widened, "16", &init);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let report = text(&out.stdout);
    let report_of_widened = report.clone();
    let start = loss(&report, "the starting network: validation loss ");
    assert!(
        (start - fitted).abs() < 1e-4,
        "the same held-out games, the same network: {start} against {fitted}"
    );
    let replies = hub_with_weights(&widened);
    assert!(
        replies.lines().any(|l| l.starts_with("done move=")),
        "{replies}"
    );

    // A first layer of more units starts where the narrower network scores.
    let wide = dir.join("wide.net");
    let out = network(&wide, "32", &["--init", first.to_str().unwrap()]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let start = loss(&text(&out.stdout), "the starting network: validation loss ");
    assert!(
        (start - fitted).abs() < 1e-4,
        "32 units from 16: {start} against {fitted}"
    );
    let replies = hub_with_weights(&wide);
    assert!(
        replies.lines().any(|l| l.starts_with("done move=")),
        "{replies}"
    );

    // Pair inputs added to a network start where it scores (their weights at
    // zero), and the network fitted with them plays.
    let two_views = loss(&report_of_widened, "the integer network: validation loss ");
    let paired = dir.join("pairs.net");
    let init = [
        "--views",
        "2",
        "--pairs",
        "--init",
        widened.to_str().unwrap(),
    ];
    let out = network(&paired, "16", &init);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let start = loss(&text(&out.stdout), "the starting network: validation loss ");
    assert!(
        (start - two_views).abs() < 1e-4,
        "pairs added: {start} against {two_views}"
    );
    let replies = hub_with_weights(&paired);
    assert!(
        replies.lines().any(|l| l.starts_with("done move=")),
        "{replies}"
    );

    // Refused, naming the file: fewer units or views than the file's, junk.
    let junk = dir.join("junk.net");
    std::fs::write(&junk, [7u8; 100]).unwrap();
    for (init, hidden, says) in [
        (&wide, "16", "32 units"),
        (&widened, "16", "2 views"),
        (&junk, "16", "not a Kroon network"),
    ] {
        let out = network(
            &dir.join("w.net"),
            hidden,
            &["--init", init.to_str().unwrap()],
        );
        assert!(!out.status.success());
        let err = text(&out.stderr);
        let name = init.file_name().unwrap().to_str().unwrap();
        assert!(err.contains(name) && err.contains(says), "{err}");
    }
}

#[test]
fn the_network_s_options_are_refused_for_the_patterns() {
    let dir = Scratch::new("training-options");
    for option in [
        &["--pairs"][..],
        &["--buckets", "8"],
        &["--activation", "squared"],
    ] {
        let out = train(&[&dir.join("none.bin")], &dir.join("w.bin"), option);
        assert!(!out.status.success(), "{option:?}");
        let err = text(&out.stderr);
        assert!(err.contains("--model network"), "{option:?}: {err}");
    }
}
