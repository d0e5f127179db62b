//! `kroon match` through the real binary: a short Kroon-vs-Kroon match whose games
//! are replayed through the rules core, and fake engines that misbehave (an
//! illegal move, a hang, an exit) and must lose their games while the match goes on.

use kroon::game::{Game, GameResult};
use kroon::pdn::parse_games;
use std::path::PathBuf;
use std::process::Command;

const KROON: &str = env!("CARGO_BIN_EXE_kroon");

fn temp_path(name: &str) -> PathBuf {
    std::env::temp_dir().join(format!("kroon-matches-{}-{name}", std::process::id()))
}

fn fake(script: &str) -> String {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fake_engines")
        .join(script);
    format!("name={script} cmd='python3 {}'", path.display())
}

fn kroon_engine(name: &str) -> String {
    format!("name={name} cmd='{KROON} hub' option.threads=1 option.hash=8")
}

/// Runs `kroon match`; returns stdout and the PDN file's text.
fn run_match(args: &[&str], pdn_name: &str) -> (String, String) {
    let pdn = temp_path(pdn_name);
    let out = Command::new(KROON)
        .arg("match")
        .args(args)
        .arg("--pdn")
        .arg(&pdn)
        .output()
        .expect("kroon runs");
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(
        out.status.success(),
        "kroon match failed: {stdout}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = std::fs::read_to_string(&pdn).expect("the PDN file was written");
    let _ = std::fs::remove_file(&pdn);
    (stdout, text)
}

/// The table rows: name, games, wins, draws, losses.
fn table(stdout: &str) -> Vec<(String, u32, u32, u32, u32)> {
    stdout
        .lines()
        .skip_while(|l| !l.starts_with("engine"))
        .skip(1)
        .take_while(|l| !l.starts_with("forfeit") && !l.starts_with("SPRT"))
        .map(|l| {
            let w: Vec<&str> = l.split_whitespace().collect();
            let n = |i: usize| w[i].parse::<u32>().expect("a count");
            (w[0].to_string(), n(1), n(2), n(3), n(4))
        })
        .collect()
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
    let openings = temp_path("openings.fen");
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
    let _ = std::fs::remove_file(&openings);
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
                assert_eq!(played.result().map(GameResult::pdn), Some(result));
            }
            None => assert!(termination.starts_with("adjudication"), "{termination}"),
        }
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
fn a_round_robin_on_the_clock_plays_every_pair_both_ways() {
    let engines: Vec<String> = ["A", "B", "C"].iter().map(|n| kroon_engine(n)).collect();
    let mut args = Vec::new();
    for e in &engines {
        args.extend(["--engine", e.as_str()]);
    }
    args.extend(["--tc", "2+0.05", "--games", "2", "--max-moves", "15"]);
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
            "--move-timeout",
            "1",
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
}
