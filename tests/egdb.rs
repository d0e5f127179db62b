//! Endgame tables through the real binary and the library: built small (2-3 pieces)
//! in a temporary folder, checked against a plain solver written without any of the
//! builder's machinery, probed, and refused when damaged; and found in the per-user
//! data folder when no folder is named.

mod common;

use common::{kroon, Launch, Scratch, KROON};
use kroon::board::movegen::legal_moves;
use kroon::board::{Bitboard, Position, Side, Square};
use kroon::egdb::{Tables, Wdl};
use std::collections::HashMap;
use std::io::Write;
use std::path::Path;
use std::process::Stdio;

/// Runs `command` to its end; it must succeed (its stderr is shown if not).
fn succeeded(command: &mut Launch) -> std::process::Output {
    let out = command.output();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    out
}

/// Tables of up to 3 pieces in a folder of their own (a second's build: each test
/// has its own, which it may damage).
fn three_pieces() -> Scratch {
    let dir = Scratch::new("egdb-3");
    let out = succeeded(
        kroon()
            .args(["egdb", "build", "--pieces", "3", "--dir"])
            .arg(dir.path()),
    );
    let progress = String::from_utf8_lossy(&out.stderr);
    assert!(progress.contains("3 pieces, slice 0102+0201"), "{progress}");
    dir
}

fn probe(dir: &Path, lines: &str) -> (String, String) {
    let mut child = kroon()
        .args(["egdb", "probe", "--dir"])
        .arg(dir)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn();
    // A probe that refuses its tables exits before it reads: the pipe may be closed.
    let _ = child.stdin.take().unwrap().write_all(lines.as_bytes());
    let out = child.wait_with_output();
    (
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}

/// Every position of 2 to `most` pieces (both sides to move) whose kinds of piece
/// (0 white man, 1 black man, 2 white king, 3 black king) `kinds` allows, by
/// placing pieces on squares directly.
fn all_positions(most: usize, kinds: &[u32]) -> Vec<Position> {
    let squares: Vec<Square> = Square::all().collect();
    let mut out = Vec::new();
    let n_kinds = kinds.len() as u32;
    let mut place = |chosen: &[Square]| {
        let n = chosen.len() as u32;
        for code in 0..n_kinds.pow(n) {
            let (mut white, mut black, mut kings) =
                (Bitboard::EMPTY, Bitboard::EMPTY, Bitboard::EMPTY);
            for (i, &sq) in chosen.iter().enumerate() {
                let kind = kinds[(code / n_kinds.pow(i as u32) % n_kinds) as usize];
                let b = Bitboard::from_square(sq);
                if kind.is_multiple_of(2) {
                    white |= b
                } else {
                    black |= b
                }
                if kind >= 2 {
                    kings |= b
                }
            }
            if white.is_empty() || black.is_empty() {
                continue;
            }
            for side in [Side::White, Side::Black] {
                if let Ok(pos) = Position::new(white, black, kings, side) {
                    out.push(pos);
                }
            }
        }
    };
    let mut chosen = Vec::new();
    fn choose(
        from: usize,
        most: usize,
        squares: &[Square],
        chosen: &mut Vec<Square>,
        place: &mut dyn FnMut(&[Square]),
    ) {
        if chosen.len() >= 2 {
            place(chosen);
        }
        if chosen.len() == most {
            return;
        }
        for i in from..squares.len() {
            chosen.push(squares[i]);
            choose(i + 1, most, squares, chosen, place);
            chosen.pop();
        }
    }
    choose(0, most, &squares, &mut chosen, &mut place);
    out
}

/// The plain solver: every position's value from its successors', again and
/// again until nothing changes; what stays open is a draw.
fn plain_values(positions: &[Position]) -> HashMap<Position, Wdl> {
    let id: HashMap<Position, usize> = positions.iter().enumerate().map(|(i, p)| (*p, i)).collect();
    // Successors by number; a side left without pieces has lost (None).
    let children: Vec<Vec<Option<usize>>> = positions
        .iter()
        .map(|p| {
            legal_moves(p)
                .into_iter()
                .map(|m| {
                    let c = p.play(m);
                    (!c.pieces(c.side_to_move()).is_empty()).then(|| id[&c])
                })
                .collect()
        })
        .collect();
    let mut value: Vec<Option<Wdl>> = vec![None; positions.len()];
    loop {
        let mut changed = false;
        for (i, kids) in children.iter().enumerate() {
            if value[i].is_some() {
                continue;
            }
            let theirs = |c: &Option<usize>| c.map_or(Some(Wdl::Loss), |c| value[c]);
            let decided = if kids.iter().any(|c| theirs(c) == Some(Wdl::Loss)) {
                Some(Wdl::Win)
            } else if kids.iter().all(|c| theirs(c) == Some(Wdl::Win)) {
                Some(Wdl::Loss)
            } else {
                None
            };
            if decided.is_some() {
                value[i] = decided;
                changed = true;
            }
        }
        if !changed {
            break;
        }
    }
    positions
        .iter()
        .zip(value)
        .map(|(p, v)| (*p, v.unwrap_or(Wdl::Draw)))
        .collect()
}

#[test]
fn tables_agree_with_a_plain_solver_on_every_position_of_up_to_three_pieces() {
    let tables = Tables::open(&three_pieces(), 3).unwrap();
    assert_eq!(tables.complete_pieces(), 3);
    let positions = all_positions(3, &[0, 1, 2, 3]);
    let plain = plain_values(&positions);
    let mut counts = HashMap::new();
    for pos in &positions {
        let expected = plain[pos];
        assert_eq!(tables.probe(pos), Some(expected), "{}", pos.to_fen());
        *counts.entry(expected).or_insert(0) += 1;
    }
    // The slices hold all three outcomes.
    assert!(counts.len() == 3, "{counts:?}");
}

/// The same against tables of up to 4 pieces already built (say where in
/// KROON_EGDB_DIR), on every position of up to four kings: too slow for every run.
#[test]
#[ignore]
fn tables_agree_with_a_plain_solver_on_every_position_of_up_to_four_kings() {
    let dir = std::env::var("KROON_EGDB_DIR").expect("KROON_EGDB_DIR names a folder of tables");
    let tables = Tables::open(Path::new(&dir), 4).unwrap();
    assert!(tables.complete_pieces() >= 4);
    let positions = all_positions(4, &[2, 3]);
    let plain = plain_values(&positions);
    let mut counts = HashMap::new();
    for pos in &positions {
        assert_eq!(tables.probe(pos), Some(plain[pos]), "{}", pos.to_fen());
        *counts.entry(plain[pos]).or_insert(0) += 1;
    }
    eprintln!("{} positions agree: {counts:?}", positions.len());
}

#[test]
fn probe_prints_each_line_with_its_value_and_unknown_outside_its_range() {
    let (out, err) = probe(
        &three_pieces(),
        "W:WK46:BK5\nW:WK47:BK5\nW:W28:B23\nB:W28:B23\nW:W6:B5\n\nnonsense\n\
         W:WK1,K2,K3:BK50\nW:W31-50:B1-20\nW:W28,31:B22,K3\nW:W33,31:B22,K3\n",
    );
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(
        lines,
        [
            // White's king in the corner can only step onto the long diagonal, where
            // Black's king takes it.
            "W:WK46:BK5 loss",
            "W:WK47:BK5 draw",
            // White must take the last black piece; Black to move takes White's.
            "W:W28:B23 win",
            "B:W28:B23 win",
            // The man runs to 1 and crowns; Black's man is too slow.
            "W:W6:B5 win",
            lines[5],
            // Four pieces and more: beyond these tables...
            "W:WK1,K2,K3:BK50 unknown",
            "W:W31-50:B1-20 unknown",
            // ... but a capture pending is played out, here into three pieces.
            "W:W28,31:B22,K3 loss",
            "W:W33,31:B22,K3 unknown",
        ]
    );
    assert!(lines[5].starts_with("nonsense error:"), "{}", lines[5]);
    assert!(err.contains("16 slices, complete to 3 pieces"), "{err}");
}

#[test]
fn damaged_or_cut_tables_are_refused_with_the_file_named() {
    let dir = three_pieces();
    let victim = dir.join("wdl-0201.egdb");
    let bytes = std::fs::read(&victim).unwrap();
    let mut flipped = bytes.clone();
    let mid = flipped.len() / 2;
    flipped[mid] ^= 0x10;
    for damaged in [flipped, bytes[..bytes.len() - 3].to_vec()] {
        std::fs::write(&victim, &damaged).unwrap();
        let (out, err) = probe(&dir, "W:WK46:BK5\n");
        assert!(out.is_empty(), "{out}");
        assert!(
            err.contains("wdl-0201.egdb") && err.contains("not a usable table"),
            "{err}"
        );
        // The builder says so too, and builds that slice again.
        let build = kroon()
            .args(["egdb", "build", "--pieces", "3", "--dir"])
            .arg(&dir)
            .output();
        let log = String::from_utf8_lossy(&build.stderr);
        assert!(build.status.success(), "{log}");
        assert!(
            log.contains("wdl-0201.egdb") && log.contains("building it again"),
            "{log}"
        );
        assert!(log.contains("slice 0101: 2450 positions kept"), "{log}");
        assert_eq!(std::fs::read(&victim).unwrap(), bytes);
    }
}

/// A `kroon match` between Kroon with `tables` and Kroon without any, from these
/// openings (each played with both colours) at a fixed depth; returns the PDN.
fn match_with_tables(tables: &Path, openings: &str, extra: &[&str]) -> String {
    let dir = Scratch::new("egdb-match");
    let openings_file = dir.join("openings.fen");
    let pdn = dir.join("games.pdn");
    std::fs::write(&openings_file, openings).unwrap();
    succeeded(
        kroon()
            .args(["match", "--engine"])
            .arg(format!(
                "name=tables cmd='{KROON} hub --bb-path {}'",
                tables.display()
            ))
            .arg("--engine")
            .arg(format!("name=plain cmd='{KROON} hub --bb-size 0'"))
            .args(["--depth", "8", "--openings"])
            .arg(&openings_file)
            .arg("--pdn")
            .arg(&pdn)
            .args(extra),
    );
    std::fs::read_to_string(&pdn).unwrap()
}

/// (White, Black, Result, Termination) of each game of a PDN file.
fn games(pdn: &str) -> Vec<[String; 4]> {
    let tag = |game: &str, name: &str| {
        game.lines()
            .find_map(|l| l.strip_prefix(&format!("[{name} \"")))
            .map(|v| v.trim_end_matches("\"]").to_string())
            .unwrap_or_default()
    };
    pdn.split("[Event")
        .skip(1)
        .map(|g| {
            [
                tag(g, "White"),
                tag(g, "Black"),
                tag(g, "Result"),
                tag(g, "Termination"),
            ]
        })
        .collect()
}

#[test]
fn a_won_four_piece_ending_is_converted_against_kroon_without_tables() {
    // Three kings against one: a win the tables see, that must be taken within the
    // 16-move rule. Searching as deep without tables, Kroon gives a king away in
    // both and is held to a draw by the 5-move rule.
    let dir = Scratch::new("egdb-convert");
    succeeded(
        kroon()
            .args([
                "egdb",
                "build",
                "--pieces",
                "4",
                "--material",
                "0301",
                "--quiet",
                "--dir",
            ])
            .arg(dir.path()),
    );
    let tables = Tables::open(&dir, 4).unwrap();
    let openings = ["W:WK2,K23,K31:BK45", "W:WK2,K20,K39:BK6"];
    for fen in openings {
        assert_eq!(tables.probe(&fen.parse().unwrap()), Some(Wdl::Win), "{fen}");
    }
    let pdn = match_with_tables(&dir, &openings.join("\n"), &[]);
    let played = games(&pdn);
    assert_eq!(played.len(), 4, "{pdn}");
    for [white, black, result, termination] in &played {
        if white == "tables" {
            assert_eq!(
                (result.as_str(), termination.as_str()),
                ("2-0", "plain (Black) has no legal move"),
                "{pdn}"
            );
        } else {
            assert_eq!(black, "tables");
            // Without tables the win slips: proof that the tables did the work.
            assert_eq!(result, "1-1", "{pdn}");
        }
    }
    // And `kroon match` adjudicates by the tables at once when told to.
    let pdn = match_with_tables(
        &dir,
        openings[0],
        &["--adjudicate-tables", dir.to_str().unwrap()],
    );
    for [_, _, result, termination] in games(&pdn) {
        assert_eq!(result, "2-0", "{pdn}");
        assert_eq!(
            termination,
            "adjudication: the endgame tables: White to move wins"
        );
    }
}

/// The Hub session's output (stdout, stderr) for these lines.
fn hub(args: &[&str], script: &str) -> (String, String) {
    hub_of(&mut kroon(), args, script)
}

/// As [`hub`], started by `launch` (`kroon`, with the home of its choice).
fn hub_of(launch: &mut Launch, args: &[&str], script: &str) -> (String, String) {
    let mut child = launch
        .arg("hub")
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(script.as_bytes())
        .unwrap();
    let out = child.wait_with_output();
    (
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}

#[test]
fn hub_takes_the_tables_by_scans_param_names_and_keeps_the_value() {
    let tables = three_pieces();
    let dir = tables.display().to_string();
    // White's king must stay off the long diagonal, where Black's would take it.
    let pos: Position = "W:WK47:BK5".parse().unwrap();
    let script = format!(
        "hub\nset-param name=bb-path value={dir}\nset-param name=bb-size value=3\n\
         pos pos={}\nlevel depth=3\ngo think\nquit\n",
        pos.to_hub()
    );
    let (out, err) = hub(&["--bb-size", "0"], &script);
    assert!(
        out.contains("param name=bb-size value=0 type=int min=0 max=7"),
        "{out}"
    );
    assert!(out.contains("param name=bb-path value="), "{out}");
    assert!(
        err.contains("endgame tables: 16 slices, complete to 3 pieces"),
        "{err}"
    );
    let mv = out
        .lines()
        .find_map(|l| l.strip_prefix("done move="))
        .map(|m| m.split_whitespace().next().unwrap().to_string())
        .expect("a move");
    let tables = Tables::open(&tables, 3).unwrap();
    let played = legal_moves(&pos)
        .into_iter()
        .find(|&m| kroon::board::notation::hub_move(m) == mv)
        .unwrap();
    assert_eq!(tables.probe(&pos.play(played)), Some(Wdl::Draw), "{mv}");
    // A folder with a damaged table: an error, and the session goes on.
    let damaged = Scratch::new("egdb-damaged");
    std::fs::write(damaged.join("wdl-0101.egdb"), b"KROONWDL and then nothing").unwrap();
    let script = format!(
        "hub\nset-param name=bb-path value={}\nping\nquit\n",
        damaged.display()
    );
    let (out, _) = hub(&[], &script);
    assert!(
        out.contains("error message=") && out.contains("wdl-0101.egdb"),
        "{out}"
    );
    assert!(out.contains("pong"), "{out}");
}

#[test]
fn text_mode_and_dxp_take_the_same_table_options() {
    let dir = three_pieces();
    // DXP connects to this listener, which hangs up at once: the session ends.
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let address = listener.local_addr().unwrap().to_string();
    let hang_up = std::thread::spawn(move || drop(listener.accept()));
    for command in ["play", "dxp"] {
        let mut child = kroon()
            .arg(command)
            .args(["--bb-size", "3", "--bb-path"])
            .arg(dir.path())
            .args(if command == "dxp" {
                vec!["--connect", address.as_str()]
            } else {
                vec![]
            })
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn();
        let _ = child.stdin.take().unwrap().write_all(b"quit\n");
        let out = child.wait_with_output();
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(
            err.contains("endgame tables: 16 slices, complete to 3 pieces"),
            "{command}: {err}"
        );
    }
    hang_up.join().unwrap();
}

#[test]
fn tables_in_the_data_folder_are_used_unnamed_and_a_test_engine_meets_none() {
    // Built as the README has users do, without --dir: into the per-user data
    // folder, here the one of the home tests/common gave this Kroon.
    let mut build = kroon();
    succeeded(build.args(["egdb", "build", "--pieces", "3", "--quiet"]));
    let folder = build.data_dir().join("egdb");
    assert!(
        folder.join("wdl-0101.egdb").is_file(),
        "{}",
        folder.display()
    );
    // A Kroon with that home finds them, unnamed, and names the folder.
    let (_, err) = hub_of(&mut build.same_home(KROON), &[], "hub\nquit\n");
    assert!(
        err.contains("endgame tables: 16 slices, complete to 3 pieces")
            && err.contains(&folder.display().to_string()),
        "{err}"
    );
    // Any other Kroon a test starts has a home of its own, without tables, whatever
    // the tables of whoever runs the tests.
    let (_, err) = hub(&[], "hub\nquit\n");
    assert!(!err.contains("endgame tables"), "{err}");
}

/// What Kroon says once on stderr when it finds no tables.
const BUILD_HINT: &str = "build them (2-5 pieces";

#[test]
fn without_tables_each_front_end_says_once_on_stderr_how_to_build_them() {
    // Hub: after `init` (the GUI's params set), once however often, never on stdout.
    let (out, err) = hub(&[], "hub\ninit\ninit\nquit\n");
    assert_eq!(err.matches(BUILD_HINT).count(), 1, "{err}");
    assert!(
        err.contains("kroon: no endgame tables in ")
            && err.contains("with: kroon egdb build --pieces 5"),
        "{err}"
    );
    assert!(!out.contains(BUILD_HINT), "{out}");
    // Tables turned off, by the flag or by Scan's param before `init`: no hint.
    let (_, err) = hub(&["--bb-size", "0"], "hub\ninit\nquit\n");
    assert!(!err.contains(BUILD_HINT), "{err}");
    let (_, err) = hub(&[], "hub\nset-param name=bb-size value=0\ninit\nquit\n");
    assert!(!err.contains(BUILD_HINT), "{err}");
    // Tables given: they are named, and no hint.
    let tables = three_pieces();
    let path = tables.path().to_str().unwrap();
    let (_, err) = hub(&["--bb-path", path], "hub\ninit\nquit\n");
    assert!(
        err.contains("endgame tables: 16 slices") && !err.contains(BUILD_HINT),
        "{err}"
    );
    // Text mode: on stderr, the board on stdout.
    let out = succeeded(kroon().arg("play").stdin(Stdio::null()));
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(err.matches(BUILD_HINT).count(), 1, "{err}");
    assert!(!String::from_utf8_lossy(&out.stdout).contains(BUILD_HINT));
    let out = succeeded(
        kroon()
            .args(["play", "--bb-path", path])
            .stdin(Stdio::null()),
    );
    assert!(!String::from_utf8_lossy(&out.stderr).contains(BUILD_HINT));
    // DXP: after the line naming the address it listens on, which whatever starts
    // it reads first.
    let mut dxp = kroon()
        .args(["dxp", "--listen", "0", "--hash", "8"])
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn();
    let lines = common::Lines::read(dxp.stderr.take().unwrap());
    let first = lines.line(common::PATIENCE);
    assert!(first.starts_with("listening on "), "{first}");
    let second = lines.line(common::PATIENCE);
    assert!(second.contains(BUILD_HINT), "{second}");
}

#[test]
fn a_kroon_without_tables_builds_the_small_ones_when_a_game_thins_out() {
    // The user who skipped `kroon egdb build`: Hub (as DXP, text mode and the board)
    // builds the 2-4 piece tables in the data folder once a game is down to 30
    // pieces, takes them up when they are there, and the next Kroon finds them.
    let mut launch = kroon();
    let folder = launch.data_dir().join("egdb");
    let mut child = launch
        .arg("hub")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn();
    let out = common::Lines::read(child.stdout.take().unwrap());
    let err = common::Lines::read(child.stderr.take().unwrap());
    let mut stdin = child.stdin.take().unwrap();
    let mut say = |lines: &str| {
        stdin.write_all(lines.as_bytes()).unwrap();
        stdin.flush().unwrap();
    };
    let done = |out: &common::Lines| {
        let lines = out.until(common::PATIENCE, |l| l.starts_with("done move="));
        let last = lines.last().unwrap();
        last["done move=".len()..]
            .split_whitespace()
            .next()
            .unwrap()
            .to_string()
    };
    say("hub\ninit\nlevel depth=6\ngo think\n");
    done(&out);
    // Three kings against one, a table win that only 31-18 keeps at this depth
    // (2-7, what the search plays without tables, lets Black's king draw).
    let won: Position = "W:WK2,K23,K31:BK45".parse().unwrap();
    // At a node clock, whose games must repeat exactly whenever a build would
    // end, nothing is built; nor from the 40 pieces of the start.
    say(&format!(
        "set-param name=node-rate value=1000000\npos pos={}\ngo think\n",
        won.to_hub()
    ));
    done(&out);
    say("set-param name=node-rate value=0\nping\n");
    out.until(common::PATIENCE, |l| l == "pong");
    std::thread::sleep(std::time::Duration::from_millis(300));
    let said = err.waiting();
    assert!(!said.iter().any(|l| l.contains("building")), "{said:?}");
    assert!(!folder.exists(), "{}", folder.display());
    // On the real clock the game is thin enough: the build starts, on its own thread.
    say("go think\n");
    done(&out);
    let said = err.until(2 * common::PATIENCE, |l| {
        l.starts_with("kroon: built endgame tables")
    });
    assert!(
        said.iter()
            .any(|l| l.starts_with("kroon: building endgame tables in ")),
        "{said:?}"
    );
    assert!(
        said.last().unwrap().contains("complete to 4 pieces"),
        "{said:?}"
    );
    // The search takes them up: now it keeps the win.
    say("go think\n");
    let mv = done(&out);
    let tables = Tables::open(&folder, 4).unwrap();
    assert_eq!(tables.complete_pieces(), 4, "{}", tables.describe());
    let played = legal_moves(&won)
        .into_iter()
        .find(|&m| kroon::board::notation::hub_move(m) == mv)
        .unwrap();
    assert_eq!(tables.probe(&won.play(played)), Some(Wdl::Loss), "{mv}");
    say("quit\n");
    child.wait_within(common::PATIENCE);
    // In the folder the finished files only, no work folder; the next Kroon reads them.
    let names: Vec<String> = std::fs::read_dir(&folder)
        .unwrap()
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    assert_eq!(names.len(), 41, "{names:?}");
    assert!(names.iter().all(|n| n.starts_with("wdl-")), "{names:?}");
    let (_, err) = hub_of(&mut launch.same_home(KROON), &[], "hub\ninit\nquit\n");
    assert!(
        err.contains("endgame tables: 41 slices, complete to 4 pieces")
            && !err.contains("building"),
        "{err}"
    );
}
