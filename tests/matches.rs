//! `kroon match` through the real binary: a short Kroon-vs-Kroon match whose games
//! are replayed through the rules core, fake engines that misbehave (an illegal
//! move, a hang, an exit, a broken connection) and must lose their games while the
//! match goes on, and Kroon's own DXP front end as a real DXP engine, listening and
//! connecting, at one table with a Hub engine. No test uses a fixed port: the runner
//! picks free ones. Every `kroon match` runs with a data folder of its own, which its
//! engines inherit: none of them meets the user's endgame tables.

mod common;

use common::{kroon, Scratch, KROON};
use kroon::game::{Game, GameResult};
use kroon::pdn::parse_games;
use kroon::play::Outcome;
use std::path::PathBuf;

fn fake(script: &str) -> String {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fake_engines")
        .join(script);
    format!("name={script} cmd='python3 {}'", path.display())
}

/// The fake DXP engine in `mode`, listening (Kroon connects) or connecting.
fn dxp_fake(mode: &str, engine_listens: bool) -> String {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fake_engines/dxp_fake.py");
    let (flag, listen) = if engine_listens {
        ("--listen", "engine")
    } else {
        ("--connect", "kroon")
    };
    format!(
        "name={mode} proto=dxp listen={listen} cmd='python3 {} {flag} {{port}} {mode}'",
        path.display()
    )
}

/// `kroon dxp` as a DXP engine, listening or connecting, at depth 2 or (`timed`)
/// by the clock GAMEREQ gives it.
fn kroon_dxp(name: &str, engine_listens: bool, timed: bool) -> String {
    let (listen, how) = if engine_listens {
        ("engine", "--listen {port}")
    } else {
        ("kroon", "--connect 127.0.0.1:{port}")
    };
    let depth = if timed { "" } else { " --depth 2" };
    format!("name={name} proto=dxp listen={listen} cmd='{KROON} dxp {how}{depth} --hash 8'")
}

/// `--time-margin` for the games on a real clock whose point is not the margin: the
/// half second an engine may overrun its clock by default covers the delay of
/// measuring its moves on an idle machine, but these games run beside other tests
/// on as few as two cores, where a process may wait for one at every move.
const BUSY_MARGIN: [&str; 2] = ["--time-margin", "2"];

fn kroon_engine(name: &str) -> String {
    format!("name={name} cmd='{KROON} hub' option.threads=1 option.hash=8")
}

/// Runs `kroon match`; returns stdout and the PDN file's text.
fn run_match(args: &[&str], pdn_name: &str) -> (String, String) {
    let dir = Scratch::new("match");
    let pdn = dir.join(pdn_name);
    let stdout = match_into(args, &pdn);
    let text = std::fs::read_to_string(&pdn).expect("the PDN file was written");
    (stdout, text)
}

/// The table rows: name, games, wins, draws, losses.
fn table(stdout: &str) -> Vec<(String, u32, u32, u32, u32)> {
    stdout
        .lines()
        .skip_while(|l| !l.starts_with("engine"))
        .skip(1)
        .take_while(|l| {
            !["by opening pairs", "forfeit", "SPRT", "time:"]
                .iter()
                .any(|p| l.starts_with(p))
        })
        .map(|l| {
            let w: Vec<&str> = l.split_whitespace().collect();
            let n = |i: usize| w[i].parse::<u32>().expect("a count");
            (w[0].to_string(), n(1), n(2), n(3), n(4))
        })
        .collect()
}

/// The comments after the moves of each game in a PDN file, in order.
fn comments(text: &str) -> Vec<Vec<String>> {
    text.split("[Event ")
        .skip(1)
        .map(|game| {
            game.split('{')
                .skip(1)
                .map(|c| c.split('}').next().unwrap().to_string())
                .collect()
        })
        .collect()
}

/// Whether `c` is a Hub engine's move comment, `+0.12/3 0.004s`: a score in
/// men from the mover's view, the depth, the time.
fn is_score_depth_time(c: &str) -> bool {
    let Some((score_depth, time)) = c.split_once(' ') else {
        return false;
    };
    let Some((score, depth)) = score_depth.split_once('/') else {
        return false;
    };
    score.starts_with(['+', '-'])
        && score[1..].parse::<f64>().is_ok()
        && score.split_once('.').is_some_and(|(_, h)| h.len() == 2)
        && depth.parse::<u32>().is_ok()
        && is_time(time)
}

/// Whether `c` is what a Hub engine's move gets: its score, depth and time, or
/// the time alone where the engine had no search to report: a forced move, or a
/// move from its endgame tables or book, which may answer without an `info` line.
fn is_hub_comment(c: &str) -> bool {
    is_score_depth_time(c) || is_time(c)
}

/// Whether `c` is a move's time alone, `0.870s` (what a DXP engine's moves get).
fn is_time(c: &str) -> bool {
    c.strip_suffix('s').is_some_and(|t| {
        t.parse::<f64>().is_ok() && t.split_once('.').is_some_and(|(_, ms)| ms.len() == 3)
    })
}

/// Replays a game's moves from its FEN tag; returns the game.
fn replay(game: &kroon::pdn::ParsedGame) -> Game {
    let fen = game.tag("FEN").expect("a FEN tag");
    let mut g = Game::from_fen(fen).expect("the FEN parses");
    for m in &game.moves {
        g.play_text(m)
            .unwrap_or_else(|e| panic!("move {m} of round {:?}: {e}", game.tag("Round")));
    }
    g
}

#[test]
fn kroon_against_itself_plays_legal_games_that_add_up() {
    let dir = Scratch::new("openings");
    let openings = dir.join("openings.fen");
    std::fs::write(
        &openings,
        "# two openings\nW:W27,32-50:B1-16,18-21 ; 31-27 17-21\n\nW:W28,31,33-50:B1-18,20,23 ; 32-28 19-23\n",
    )
    .unwrap();
    let (a, b) = (kroon_engine("KroonA"), kroon_engine("KroonB"));
    let (stdout, text) = run_match(
        &[
            "--engine",
            &a,
            "--engine",
            &b,
            "--depth",
            "3",
            "--openings",
            openings.to_str().unwrap(),
            "--max-moves",
            "80",
        ],
        "self.pdn",
    );
    let games = parse_games(&text).expect("the PDN file reads");
    assert_eq!(games.len(), 4, "{text}");
    for g in &games {
        let played = replay(g);
        let result = g.result.as_deref().expect("a result");
        assert_eq!(g.tag("Result"), Some(result));
        let termination = g.tag("Termination").expect("a Termination tag");
        assert!(!termination.contains("forfeit"), "{termination}");
        match played.result() {
            Some(GameResult::Win(_)) | Some(GameResult::Draw(_)) => {
                assert_eq!(
                    played.result().map(|r| Outcome::from(r).pdn()),
                    Some(result)
                );
            }
            None => assert!(termination.starts_with("adjudication"), "{termination}"),
        }
    }
    // Every move carries the engine's time, and a searched one (most of them) its
    // score and depth too, for whoever reads the games to find where one went wrong.
    for (g, notes) in games.iter().zip(comments(&text)) {
        assert_eq!(notes.len(), g.moves.len(), "{text}");
        for c in &notes {
            assert!(is_hub_comment(c), "{c} in {notes:?}");
        }
        let searched = notes.iter().filter(|c| is_score_depth_time(c)).count();
        assert!(2 * searched > notes.len(), "{notes:?}");
    }
    // Each opening twice, colours reversed.
    assert_eq!(games[0].tag("FEN"), games[1].tag("FEN"));
    assert_eq!(games[0].tag("White"), games[1].tag("Black"));
    let rows = table(&stdout);
    assert_eq!(rows.len(), 2, "{stdout}");
    for (_, games, w, d, l) in &rows {
        assert_eq!(*games, 4);
        assert_eq!(w + d + l, 4);
    }
    assert_eq!(rows[0].2, rows[1].4);
    assert_eq!(rows[0].3, rows[1].3);
}

#[test]
fn a_reader_that_stops_early_ends_the_match_quietly() {
    // As `kroon match ... 2>&1 | head -1` does: the progress lines go to stderr,
    // and the reader of both streams has gone before the first of them.
    let a = kroon_engine("a");
    let b = kroon_engine("b");
    let mut child = kroon()
        .args(["match", "--engine", &a, "--engine", &b])
        .args(["--nodes", "500", "--games", "2"])
        .env_remove("RUST_BACKTRACE")
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn();
    drop(child.stdout.take());
    drop(child.stderr.take());
    let out = child.wait_with_output();
    assert_eq!(out.status.code(), Some(0), "{out:?}");
}

#[test]
fn a_round_robin_on_the_clock_plays_every_pair_both_ways() {
    let engines: Vec<String> = ["A", "B", "C"].iter().map(|n| kroon_engine(n)).collect();
    let mut args = Vec::new();
    for e in &engines {
        args.extend(["--engine", e.as_str()]);
    }
    args.extend(["--tc", "2+0.05", "--games", "2", "--max-moves", "15"]);
    args.extend(BUSY_MARGIN);
    let (stdout, text) = run_match(&args, "round-robin.pdn");
    let games = parse_games(&text).expect("the PDN file reads");
    assert_eq!(games.len(), 6, "{text}");
    let mut pairs: Vec<(String, String)> = games
        .iter()
        .map(|g| {
            (
                g.tag("White").unwrap().into(),
                g.tag("Black").unwrap().into(),
            )
        })
        .collect();
    pairs.sort();
    let expected: Vec<(String, String)> = [
        ("A", "B"),
        ("A", "C"),
        ("B", "A"),
        ("B", "C"),
        ("C", "A"),
        ("C", "B"),
    ]
    .iter()
    .map(|(w, b)| (w.to_string(), b.to_string()))
    .collect();
    assert_eq!(pairs, expected);
    for g in &games {
        replay(g);
        assert!(!g.tag("Termination").unwrap().contains("forfeit"), "{g:?}");
        // Each side's clock at the end: 2 s and 0.05 s a move, never below zero.
        for tag in ["WhiteClock", "BlackClock"] {
            let left: f64 = g.tag(tag).expect(tag).parse().expect("seconds");
            assert!((0.0..=2.0 + 0.05 * 15.0).contains(&left), "{tag} {left}");
        }
    }
    // How each engine used its clock, for matches that tune time management.
    for name in ["A", "B", "C"] {
        assert!(
            stdout
                .lines()
                .any(|l| l.starts_with(&format!("time: {name} used "))
                    && l.contains("clock left at the end")),
            "{stdout}"
        );
    }
    let rows = table(&stdout);
    assert_eq!(rows.len(), 3);
    let (wins, losses): (u32, u32) = rows.iter().fold((0, 0), |(w, l), r| (w + r.2, l + r.4));
    assert_eq!(wins, losses);
    assert!(
        rows.iter().all(|r| r.1 == 4 && r.2 + r.3 + r.4 == 4),
        "{stdout}"
    );
}

/// Kroon against a misbehaving fake: the fake loses both games (it is restarted
/// for the second) with `reason` in the Termination tag.
fn fake_loses(script: &str, reason: &str) {
    let (k, f) = (kroon_engine("Kroon"), fake(script));
    let (stdout, text) = run_match(
        &[
            "--engine",
            &k,
            "--engine",
            &f,
            "--depth",
            "2",
            "--games",
            "2",
            // Long enough for Kroon's depth-2 moves when the machine is busy.
            "--move-timeout",
            "3",
        ],
        script,
    );
    let games = parse_games(&text).expect("the PDN file reads");
    assert_eq!(games.len(), 2, "{text}");
    for g in &games {
        let termination = g.tag("Termination").unwrap();
        assert!(
            termination.starts_with(&format!("{script} (")) && termination.contains(reason),
            "{termination}"
        );
        let won = if g.tag("White") == Some("Kroon") {
            "2-0"
        } else {
            "0-2"
        };
        assert_eq!(g.tag("Result"), Some(won));
        replay(g);
    }
    let rows = table(&stdout);
    assert_eq!(rows[0], ("Kroon".to_string(), 2, 2, 0, 0), "{stdout}");
    assert_eq!(stdout.matches("forfeit: ").count(), 2, "{stdout}");
}

#[test]
fn an_illegal_move_loses() {
    fake_loses("illegal_move.py", "illegal move '1-50'");
}

#[test]
fn an_engine_that_stops_answering_loses() {
    fake_loses("hang.py", "no 'done' within");
}

#[test]
fn an_engine_that_exits_loses() {
    fake_loses("exit_midgame.py", "exited");
}

#[test]
fn small_overruns_add_up_to_a_loss_on_time() {
    // Each move of the fake arrives 0.3 s after its search ends, within the
    // 0.5 s margin by itself: once its clock is empty, its second overrun is the
    // one that loses, instead of it playing on for ever at 0.0 s.
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fake_engines/slow_kroon.py");
    let slow = format!("name=slow cmd='python3 {} {KROON} 0.3'", path.display());
    let (stdout, text) = run_match(
        &[
            "--engine",
            &kroon_engine("Kroon"),
            "--engine",
            &slow,
            "--tc",
            "2",
            "--games",
            "2",
            "--time-margin",
            "0.5",
        ],
        "slow",
    );
    let games = parse_games(&text).expect("the PDN file reads");
    assert_eq!(games.len(), 2, "{text}");
    let comments = comments(&text);
    for (g, comments) in games.iter().zip(&comments) {
        let termination = g.tag("Termination").unwrap();
        assert!(
            termination.starts_with("slow (") && termination.contains("lost on time"),
            "{termination}"
        );
        // The referee stopped waiting (or charged the move) once the overruns
        // summed to the margin, so the fake's charged moves came to more than its
        // two seconds, and not much more than the margin (the referee itself may
        // wait for a core before it ends the game).
        let side = usize::from(g.tag("White") == Some("Kroon"));
        let charged: f64 = comments
            .iter()
            .skip(side)
            .step_by(2)
            .map(|c| {
                let time = c.rsplit(' ').next().unwrap();
                time.trim_end_matches('s').parse::<f64>().unwrap()
            })
            .sum();
        assert!(
            charged > 2.0 && charged < 2.5 + 0.5,
            "{charged} s: {termination}"
        );
        replay(g);
    }
    assert_eq!(
        table(&stdout)[0],
        ("Kroon".to_string(), 2, 2, 0, 0),
        "{stdout}"
    );
}

#[test]
fn sprt_stops_the_match_when_it_decides() {
    let (k, f) = (kroon_engine("Kroon"), fake("illegal_move.py"));
    let (stdout, text) = run_match(
        &[
            "--engine",
            &k,
            "--engine",
            &f,
            "--depth",
            "1",
            "--games",
            "500",
            "--sprt",
            "elo0=0 elo1=100 alpha=0.1 beta=0.1",
        ],
        "sprt.pdn",
    );
    let played = parse_games(&text).expect("the PDN file reads").len();
    assert!((2..500).contains(&played), "{played} games");
    assert!(stdout.contains("H1 accepted"), "{stdout}");
    assert_eq!(table(&stdout)[0].1 as usize, played);
    // The faker loses every game, so every finished opening pair is won twice.
    let pairs = played / 2;
    let line = stdout
        .lines()
        .find(|l| l.starts_with("by opening pairs: Kroon "))
        .unwrap_or_else(|| panic!("no pairs line: {stdout}"));
    assert!(
        line.ends_with(&format!(
            "; {pairs} pairs scoring 0, 1, 2, 3, 4 of 4 points: 0, 0, 0, 0, {pairs}"
        )),
        "{line}"
    );
}

/// Kroon against a misbehaving fake DXP engine at `--tc 3`: the fake loses both
/// games (it is restarted for the second) with `reason` in the Termination tag,
/// and Kroon's GAMEEND and relayed moves never trouble the runner.
fn dxp_fake_loses(mode: &str, engine_listens: bool, reason: &str) {
    let (k, f) = (kroon_engine("Kroon"), dxp_fake(mode, engine_listens));
    let (stdout, text) = run_match(
        &[
            &["--engine", &k, "--engine", &f, "--tc", "3", "--games", "2"],
            &BUSY_MARGIN[..],
        ]
        .concat(),
        &format!("dxp-{mode}.pdn"),
    );
    let games = parse_games(&text).expect("the PDN file reads");
    assert_eq!(games.len(), 2, "{text}");
    for g in &games {
        let termination = g.tag("Termination").unwrap();
        assert!(
            termination.starts_with(&format!("{mode} (")) && termination.contains(reason),
            "{termination}"
        );
        let won = if g.tag("White") == Some("Kroon") {
            "2-0"
        } else {
            "0-2"
        };
        assert_eq!(g.tag("Result"), Some(won));
        replay(g);
    }
    assert_eq!(
        table(&stdout)[0],
        ("Kroon".to_string(), 2, 2, 0, 0),
        "{stdout}"
    );
}

#[test]
fn a_dxp_engine_that_plays_an_illegal_move_loses() {
    dxp_fake_loses("illegal", true, "illegal move '1-50'");
}

#[test]
fn a_dxp_engine_that_does_not_move_loses_on_time() {
    dxp_fake_loses("hang", false, "lost on time (no move within");
}

#[test]
fn a_dxp_engine_that_crashes_loses() {
    dxp_fake_loses("crash", true, "the engine process exited");
}

#[test]
fn a_dxp_engine_that_disconnects_loses() {
    dxp_fake_loses("disconnect", false, "disconnected");
}

#[test]
fn a_dxp_engine_that_is_not_speaking_dxp_loses() {
    dxp_fake_loses("garbage", true, "broke the protocol");
}

#[test]
fn a_dxp_engine_that_claims_a_draw_the_rules_do_not_see_loses() {
    dxp_fake_loses("claim-draw", false, "claiming a draw");
}

#[test]
fn a_dxp_engine_that_refuses_the_game_loses_it() {
    dxp_fake_loses("refuse", true, "refused the game");
}

#[test]
fn a_dxp_engine_may_resign_and_leave_after_each_game() {
    let (k, f) = (kroon_engine("Kroon"), dxp_fake("resign", true));
    let (stdout, text) = run_match(
        &[
            &["--engine", &k, "--engine", &f, "--tc", "3", "--games", "4"],
            &BUSY_MARGIN[..],
        ]
        .concat(),
        "dxp-resign.pdn",
    );
    let games = parse_games(&text).expect("the PDN file reads");
    assert_eq!(games.len(), 4, "{text}");
    for g in &games {
        let termination = g.tag("Termination").unwrap();
        assert!(termination.ends_with(") resigns"), "{termination}");
    }
    // Resigning is a result, not a fault, and leaving between games costs nothing.
    assert!(!stdout.contains("forfeit"), "{stdout}");
    assert_eq!(
        table(&stdout)[0],
        ("Kroon".to_string(), 4, 4, 0, 0),
        "{stdout}"
    );
}

#[test]
fn kroon_over_dxp_meets_kroon_over_hub_in_a_round_robin() {
    let engines = [
        kroon_engine("Hub"),
        kroon_dxp("Listens", true, false),
        // On the clock: its time and the runner's must agree, or it loses on time.
        kroon_dxp("Connects", false, true),
    ];
    let mut args = Vec::new();
    for e in &engines {
        args.extend(["--engine", e.as_str()]);
    }
    args.extend(["--tc", "6", "--games", "2", "--max-moves", "12"]);
    args.extend(BUSY_MARGIN);
    let (stdout, text) = run_match(&args, "dxp-round-robin.pdn");
    let games = parse_games(&text).expect("the PDN file reads");
    assert_eq!(games.len(), 6, "{text}");
    for g in &games {
        let termination = g.tag("Termination").unwrap();
        assert!(!termination.contains("forfeit"), "{termination}");
        let played = replay(g);
        assert!(
            played.result().is_some() || played.moves().len() == 24,
            "{termination} after {} plies",
            played.moves().len()
        );
    }
    // A Hub engine's moves say its score and depth; a DXP engine's only the time.
    for (g, notes) in games.iter().zip(comments(&text)) {
        assert_eq!(notes.len(), g.moves.len(), "{text}");
        let hub_plays_white = g.tag("White") == Some("Hub");
        let hub_plays_black = g.tag("Black") == Some("Hub");
        for (ply, c) in notes.iter().enumerate() {
            let by_hub = if ply % 2 == 0 {
                hub_plays_white
            } else {
                hub_plays_black
            };
            if by_hub {
                assert!(is_hub_comment(c), "{c} in {notes:?}");
            } else {
                assert!(is_time(c), "{c} in {notes:?}");
            }
        }
    }
    let rows = table(&stdout);
    assert_eq!(rows.len(), 3, "{stdout}");
    assert!(
        rows.iter().all(|r| r.1 == 4 && r.2 + r.3 + r.4 == 4),
        "{stdout}"
    );
}

#[test]
fn dxp_games_from_given_positions_keep_the_opening() {
    let dir = Scratch::new("dxp-openings");
    let openings = dir.join("openings.fen");
    std::fs::write(&openings, "W:W28,31,33-50:B1-18,20,23 ; 32-28 19-23\n").unwrap();
    let (a, b) = (kroon_dxp("A", true, false), kroon_engine("B"));
    let (_, text) = run_match(
        &[
            "--engine",
            &a,
            "--engine",
            &b,
            "--tc",
            "10/4",
            "--openings",
            openings.to_str().unwrap(),
            "--max-moves",
            "25",
            BUSY_MARGIN[0],
            BUSY_MARGIN[1],
        ],
        "dxp-openings.pdn",
    );
    let games = parse_games(&text).expect("the PDN file reads");
    assert_eq!(games.len(), 2, "{text}");
    for g in &games {
        assert_eq!(g.tag("FEN"), Some("W:W28,31,33,34,35,36,37,38,39,40,41,42,43,44,45,46,47,48,49,50:B1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,20,23"));
        assert_eq!(g.tag("TimeControl"), Some("10/4+0"));
        assert!(!g.tag("Termination").unwrap().contains("forfeit"), "{g:?}");
        replay(g);
    }
}

/// Runs `kroon match` expecting it to refuse; returns its stderr.
fn refused(args: &[&str]) -> String {
    let out = kroon().arg("match").args(args).output();
    assert!(!out.status.success(), "kroon match accepted {args:?}");
    String::from_utf8_lossy(&out.stderr).into_owned()
}

#[test]
fn dxp_engines_that_cannot_play_are_refused_before_the_match() {
    let k = kroon_engine("Kroon");
    let err = refused(&["--engine", &k, "--engine", "proto=dxp cmd=x", "--tc", "60"]);
    assert!(err.contains("{port}"), "{err}");
    let d = kroon_dxp("D", true, false);
    let err = refused(&["--engine", &k, "--engine", &d, "--depth", "3"]);
    assert!(
        err.contains("D speaks DXP") && err.contains("--tc"),
        "{err}"
    );
    let err = refused(&["--engine", &k, "--engine", &d, "--tc", "60+1"]);
    assert!(err.contains("increment"), "{err}");
}

#[test]
fn an_engine_that_cannot_start_stops_the_match_before_its_first_game() {
    let dir = Scratch::new("missing-engine");
    let pdn = dir.join("missing.pdn");
    let pdn_arg = pdn.to_str().expect("a UTF-8 path");
    let missing = dir.join("no-such-engine").display().to_string();
    let no_folder = dir.join("no-such-folder").display().to_string();
    let k = kroon_engine("Kroon");
    // A mistyped program, over Hub and over DXP, and a `dir=` that is not there:
    // each would otherwise forfeit every game of the match.
    let cases = [
        (
            format!("name=Gone cmd='{missing} hub'"),
            "--depth",
            "1",
            "no-such-engine",
        ),
        (
            format!("name=Gone proto=dxp cmd='{missing} {{port}}'"),
            "--tc",
            "60",
            "no-such-engine",
        ),
        (
            format!(
                "name=Gone cmd='{} hub' dir={no_folder}",
                env!("CARGO_BIN_EXE_kroon")
            ),
            "--depth",
            "1",
            "no folder",
        ),
    ];
    for (gone, limit, value, why) in &cases {
        let err = refused(&[
            "--engine", &k, "--engine", gone, limit, value, "--pdn", pdn_arg,
        ]);
        assert!(
            err.contains("Gone: failed to start") && err.contains(why),
            "{gone}: {err}"
        );
        assert!(!pdn.exists(), "a refused match wrote {}", pdn.display());
    }
}

#[test]
fn an_option_the_engine_refuses_stops_the_match_before_its_first_game() {
    // Kroon answers a size it cannot use with a Hub `error`, and ignores a param it does
    // not have, and plays on with 64 MiB either way: a match that went on would test the
    // default, not the 16 MiB asked for.
    let dir = Scratch::new("refused-option");
    let pdn = dir.join("refused.pdn");
    let pdn_arg = pdn.to_str().expect("a UTF-8 path");
    let k = kroon_engine("Kroon");
    for (option, words) in [
        (
            "option.hash=16MB",
            ["hash must be a whole number", "'16MB'"],
        ),
        (
            "option.hsah=16",
            ["it has no param hsah (its params: ", " hash, "],
        ),
    ] {
        let big = format!("name=Big cmd='{KROON} hub' {option}");
        let err = refused(&[
            "--engine", &big, "--engine", &k, "--depth", "1", "--pdn", pdn_arg,
        ]);
        assert!(err.contains("Big: refused its options: "), "{err}");
        assert!(words.iter().all(|w| err.contains(w)), "{err}");
        assert!(!pdn.exists(), "a refused match wrote {}", pdn.display());
    }
    // The same engine with a size it can use plays.
    let good = format!("name=Big cmd='{KROON} hub' option.hash=16");
    let (stdout, _) = run_match(
        &[
            "--engine", &good, "--engine", &k, "--depth", "1", "--games", "2",
        ],
        "good.pdn",
    );
    assert_eq!(
        table(&stdout).iter().map(|r| r.1).collect::<Vec<_>>(),
        [2, 2],
        "{stdout}"
    );
}

#[test]
fn engines_of_games_played_side_by_side_get_a_folder_each() {
    // A program that writes fixed file names (Moby Dam's logs) needs a folder per
    // game played at once: `{worker}` in dir= (made by the runner) and in cmd=.
    let root = Scratch::new("workers");
    let dir = root.join("w{worker}");
    let a = format!(
        "name=A cmd='sh -c \"echo {{worker}} > started; exec {KROON} hub\"' dir={} option.threads=1 option.hash=8",
        dir.display()
    );
    let b = kroon_engine("B");
    let (stdout, text) = run_match(
        &[
            "--engine",
            &a,
            "--engine",
            &b,
            "--depth",
            "2",
            "--games",
            "4",
            "--concurrency",
            "2",
            "--max-moves",
            "20",
        ],
        "workers.pdn",
    );
    let games = parse_games(&text).expect("the PDN file reads");
    assert_eq!(games.len(), 4, "{stdout}");
    // Both folders are made before the first game; which worker plays which game
    // is up to the threads, so each engine that started wrote its own number.
    let mut started = 0;
    for worker in 1..=2 {
        let folder = root.join(format!("w{worker}"));
        assert!(folder.is_dir(), "{} was not made", folder.display());
        if let Ok(written) = std::fs::read_to_string(folder.join("started")) {
            assert_eq!(written.trim(), worker.to_string());
            started += 1;
        }
    }
    assert!(started >= 1, "no engine wrote to its folder");
    assert!(!root.join("w{worker}").exists());
}

#[test]
fn a_clock_in_nodes_makes_a_timed_match_repeat_exactly() {
    // Two settings of one engine on a 1-second clock that counts 2 million nodes as
    // a second: the games, the clocks at their ends and the time used depend on the
    // nodes searched only, so a second run gives the same file whatever else the
    // machine is doing (the tests beside it).
    let a = kroon_engine("A") + " option.book=off";
    let b = kroon_engine("B") + " option.book=off option.pruning=rfp-margin:80";
    let args = [
        "--engine",
        a.as_str(),
        "--engine",
        b.as_str(),
        "--tc",
        "1",
        "--node-rate",
        "2000000",
        "--openings",
        concat!(env!("CARGO_MANIFEST_DIR"), "/openings/2-move.fen"),
        "--random",
        "--seed",
        "5",
        "--games",
        "2",
    ];
    let (stdout, first) = run_match(&args, "node-clock-1.pdn");
    let (_, second) = run_match(&args, "node-clock-2.pdn");
    assert_eq!(first, second, "the node clock gave two different matches");
    let games = parse_games(&first).expect("the PDN file reads");
    assert_eq!(games.len(), 2, "{stdout}");
    for g in &games {
        replay(g);
        assert!(!g.tag("Termination").unwrap().contains("time"), "{g:?}");
        // Each move is charged its nodes: the clocks ran, and not out.
        for tag in ["WhiteClock", "BlackClock"] {
            let left: f64 = g.tag(tag).expect(tag).parse().expect("seconds");
            assert!(left > 0.0 && left < 1.0, "{tag} {left}");
        }
    }
    assert!(
        stdout.lines().any(|l| l.starts_with("time: A used ")),
        "{stdout}"
    );
}

/// Two games of `a` against `b` on a one-second clock (`--tc 1`) that counts
/// `rate` nodes as a second for an engine without a rate of its own.
fn two_games_at_a_node_clock(a: &str, b: &str, rate: &str, pdn_name: &str) -> (String, String) {
    let args = [
        "--engine",
        a,
        "--engine",
        b,
        "--tc",
        "1",
        "--node-rate",
        rate,
        "--games",
        "2",
    ];
    run_match(&args, pdn_name)
}

#[test]
fn engines_at_a_node_clock_are_each_charged_at_their_own_rate() {
    // Two evaluations whose nodes cost differently meet at a node clock, each at its
    // own rate: A counts a million nodes as a second (its own node-rate=), B a
    // hundred thousand (--node-rate, the default for engines without their own).
    // Each plans its one-second game in its own nodes and is charged at its own
    // rate, so both spend about the same share of their second (0.4 s a game
    // here), while A searches ten times the nodes: deeper. Charged at the other's
    // rate, A would overrun its clock ten times over and B spend a tenth of what A
    // does. The two games swap colours: the rate
    // follows the engine. Node clocks at one thread make the numbers the same
    // from run to run, however busy the machine.
    let a = kroon_engine("A") + " option.book=off node-rate=1000000";
    let b = kroon_engine("B") + " option.book=off";
    let (stdout, text) = two_games_at_a_node_clock(&a, &b, "100000", "own-rates.pdn");
    let games = parse_games(&text).expect("the PDN file reads");
    assert_eq!(games.len(), 2, "{stdout}");
    // Per engine (A, B): the seconds charged, and the depths reported with their count.
    let mut charged = [0.0f64; 2];
    let mut depths = [(0u32, 0u32); 2];
    for (g, notes) in games.iter().zip(comments(&text)) {
        replay(g);
        let termination = g.tag("Termination").unwrap();
        assert!(!termination.contains("time"), "{termination}");
        for tag in ["WhiteClock", "BlackClock"] {
            let left: f64 = g.tag(tag).expect(tag).parse().expect("seconds");
            assert!(left > 0.0 && left < 1.0, "{tag} {left}");
        }
        // From the initial position White moves first.
        let a_is_white = g.tag("White") == Some("A");
        for (ply, note) in notes.iter().enumerate() {
            let engine = usize::from((ply % 2 == 0) != a_is_white);
            let (head, time) = note.rsplit_once(' ').unwrap_or(("", note));
            charged[engine] += time.trim_end_matches('s').parse::<f64>().unwrap();
            if let Some((_, depth)) = head.split_once('/') {
                depths[engine].0 += depth.parse::<u32>().unwrap();
                depths[engine].1 += 1;
            }
        }
    }
    let per_game = charged.map(|c| c / 2.0);
    for (name, used) in ["A", "B"].iter().zip(per_game) {
        assert!(
            (0.15..=1.0).contains(&used),
            "{name} was charged {used:.3} s a game of its 1 s"
        );
    }
    let ratio = per_game[0] / per_game[1];
    assert!(
        (0.5..=2.0).contains(&ratio),
        "A was charged {:.3} s a game, B {:.3} s: not each at its own rate",
        per_game[0],
        per_game[1]
    );
    let depth = depths.map(|(sum, n)| f64::from(sum) / f64::from(n.max(1)));
    assert!(
        depth[0] > depth[1] + 1.0,
        "A searched ten times B's nodes a second, yet reached depth {:.2} against {:.2}",
        depth[0],
        depth[1]
    );
}

#[test]
fn an_engine_given_time_odds_plays_on_its_own_clock() {
    // A has two seconds a game, B one (--tc), on a node clock so that the games do
    // not depend on the machine's load. The clock follows the engine whichever
    // colour it plays: A plans its moves in its two seconds and uses more of them.
    let a = kroon_engine("A") + " option.book=off tc=2";
    let b = kroon_engine("B") + " option.book=off";
    let (stdout, text) = two_games_at_a_node_clock(&a, &b, "1000000", "odds.pdn");
    assert!(stdout.contains("2 games, A 2+0, B 1+0,"), "{stdout}");
    let games = parse_games(&text).expect("the PDN file reads");
    assert_eq!(games.len(), 2, "{stdout}");
    let mut used = [0.0f64; 2];
    for g in &games {
        replay(g);
        assert!(!g.tag("Termination").unwrap().contains("time"), "{g:?}");
        assert_eq!(g.tag("TimeControl"), None, "each side has its own");
        for side in ["White", "Black"] {
            let a_plays = g.tag(side) == Some("A");
            let own = if a_plays { "2+0" } else { "1+0" };
            assert_eq!(g.tag(&format!("{side}TimeControl")), Some(own), "{g:?}");
            let left: f64 = g.tag(&format!("{side}Clock")).unwrap().parse().unwrap();
            let start = if a_plays { 2.0 } else { 1.0 };
            assert!(left > 0.0 && left < start, "{side} left {left} of {start}");
            used[usize::from(!a_plays)] += start - left;
        }
    }
    assert!(
        used[0] > 1.4 * used[1],
        "A used {:.3} s in two games of 2 s, B {:.3} s of 1 s",
        used[0],
        used[1]
    );
    // tc= stands in for --tc: a match without a clock is refused, naming the engine.
    let err = refused(&["--engine", &a, "--engine", &b, "--depth", "3"]);
    assert!(err.contains("A's tc= gives it a clock of its own"), "{err}");
    let err = refused(&[
        "--engine",
        &(kroon_engine("C") + " tc=soon"),
        "--engine",
        &b,
        "--tc",
        "1",
    ]);
    assert!(err.contains("tc=soon: 'soon' is not a clock"), "{err}");
}

#[test]
fn a_clock_in_nodes_needs_a_clock_and_hub_engines() {
    let k = kroon_engine("Kroon");
    let err = refused(&[
        "--engine",
        &k,
        "--engine",
        &k,
        "--depth",
        "3",
        "--node-rate",
        "1000",
    ]);
    assert!(err.contains("--node-rate needs a clock"), "{err}");
    let d = kroon_dxp("D", true, true);
    let err = refused(&[
        "--engine",
        &k,
        "--engine",
        &d,
        "--tc",
        "60",
        "--node-rate",
        "1000",
    ]);
    assert!(err.contains("D speaks DXP"), "{err}");
    let err = refused(&[
        "--engine",
        &k,
        "--engine",
        &k,
        "--tc",
        "60",
        "--node-rate",
        "0",
    ]);
    assert!(err.contains("node-rate"), "{err}");
    // An engine's own rate makes the clocks count nodes for every engine, so the
    // one without a rate (and no --node-rate to give it one) is named.
    let net = kroon_engine("Net") + " node-rate=138000";
    let err = refused(&["--engine", &net, "--engine", &k, "--tc", "60"]);
    assert!(err.contains("Kroon has no rate"), "{err}");
    let err = refused(&["--engine", &net, "--engine", &k, "--depth", "3"]);
    assert!(
        err.contains("Net's node-rate=138000 needs a clock"),
        "{err}"
    );
    let err = refused(&[
        "--engine",
        &(kroon_engine("Zero") + " node-rate=0"),
        "--engine",
        &k,
        "--tc",
        "60",
    ]);
    assert!(err.contains("node-rate=0 is not a whole number"), "{err}");
}

/// Runs `kroon match` with `args` writing to `pdn` (kept between runs); returns stdout.
fn match_into<S: AsRef<std::ffi::OsStr>>(args: &[S], pdn: &std::path::Path) -> String {
    let out = kroon()
        .arg("match")
        .args(args)
        .arg("--pdn")
        .arg(pdn)
        .output();
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(
        out.status.success(),
        "kroon match failed: {stdout}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    stdout
}

/// A match of A against B from openings/4-move.fen in the order of `seed`.
fn seeded_match(a: &str, b: &str, seed: &str, games: &str, limit: &[&str]) -> Vec<String> {
    let mut args: Vec<String> = ["--engine", a, "--engine", b]
        .iter()
        .chain(limit)
        .map(|s| (*s).to_string())
        .collect();
    args.extend(
        [
            "--openings",
            concat!(env!("CARGO_MANIFEST_DIR"), "/openings/4-move.fen"),
            "--random",
            "--seed",
            seed,
            "--games",
            games,
        ]
        .map(str::to_string),
    );
    args
}

/// The line of `stdout` that starts with `start`.
fn line_of(stdout: &str, start: &str) -> Option<String> {
    stdout
        .lines()
        .find(|l| l.starts_with(start))
        .map(str::to_string)
}

#[test]
fn a_stopped_match_resumes_where_it_stopped_and_plays_the_same_games() {
    // A match stopped after its first two games (here: a shorter --games, as a
    // reboot would leave it) and taken up with --resume plays the two that are left
    // and no other, and its file and table are those of the match played at once:
    // at a node clock the games repeat exactly, and each game starts afresh.
    let a = kroon_engine("A") + " option.book=off";
    let b = kroon_engine("B") + " option.book=off option.pruning=rfp-margin:80";
    let clock = ["--tc", "1", "--node-rate", "2000000"];
    let args = |games: &str, resume: bool| {
        let mut args = seeded_match(&a, &b, "11", games, &clock);
        args.extend(["--sprt", "elo0=0 elo1=10 alpha=0.05 beta=0.05"].map(str::to_string));
        if resume {
            args.push("--resume".into());
        }
        args
    };
    let dir = Scratch::new("resume");
    let (whole, stopped) = (dir.join("whole.pdn"), dir.join("stopped.pdn"));
    let at_once = match_into(&args("4", false), &whole);
    match_into(&args("2", false), &stopped);
    let resumed = match_into(&args("4", true), &stopped);
    let whole_text = std::fs::read_to_string(&whole).unwrap();
    assert_eq!(
        std::fs::read_to_string(&stopped).unwrap(),
        whole_text,
        "the resumed match played other games"
    );
    assert!(
        resumed.contains("2 of the games from an earlier run (--resume), 2 played now"),
        "{resumed}"
    );
    // The table, the pairs and the test count all four games.
    assert_eq!(table(&resumed), table(&at_once));
    for start in ["by opening pairs", "SPRT"] {
        assert!(line_of(&resumed, start).is_some(), "{resumed}");
        assert_eq!(line_of(&resumed, start), line_of(&at_once, start));
    }
    // Taken up once more, the finished match plays nothing and leaves its file.
    let again = match_into(&args("4", true), &stopped);
    assert!(
        again.contains("4 of the games from an earlier run (--resume), 0 played now"),
        "{again}"
    );
    assert_eq!(std::fs::read_to_string(&stopped).unwrap(), whole_text);
}

#[test]
fn resuming_from_another_matchs_file_is_refused_and_leaves_it() {
    // Another seed orders the openings otherwise: its games are not this match's,
    // and summing them would mix two matches.
    let dir = Scratch::new("resume-other");
    let pdn = dir.join("other.pdn");
    let (a, b) = (kroon_engine("A"), kroon_engine("B"));
    let limit = ["--depth", "1", "--max-moves", "5"];
    match_into(&seeded_match(&a, &b, "1", "2", &limit), &pdn);
    let before = std::fs::read_to_string(&pdn).unwrap();
    let out = kroon()
        .arg("match")
        .args(seeded_match(&a, &b, "2", "2", &limit))
        .args(["--resume", "--pdn"])
        .arg(&pdn)
        .output();
    assert!(!out.status.success());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("other.pdn: game 1 in the file: round")
            && stderr.contains("another opening"),
        "{stderr}"
    );
    assert_eq!(std::fs::read_to_string(&pdn).unwrap(), before);
    // --resume names no file of its own: without --pdn it is refused.
    let out = kroon()
        .arg("match")
        .args(seeded_match(&a, &b, "2", "2", &limit))
        .arg("--resume")
        .output();
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("--pdn"));
}
