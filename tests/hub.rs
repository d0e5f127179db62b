//! Hub sessions through the real binary, and the real client libraries driving it.

mod common;

use common::{Launch, Lines, Running, Scratch, XorShift, PATIENCE, SLACK};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{ChildStdin, Stdio};
use std::time::{Duration, Instant};

const START: &str = "Wbbbbbbbbbbbbbbbbbbbbeeeeeeeeeewwwwwwwwwwwwwwwwwwww";

/// `kroon hub` (ended when dropped), its stdin and its stdout's lines.
struct Hub {
    child: Running,
    stdin: Option<ChildStdin>,
    lines: Lines,
}

impl Hub {
    fn start() -> Hub {
        let mut child = common::kroon()
            .arg("hub")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn();
        let lines = Lines::read(child.stdout.take().expect("piped stdout"));
        let stdin = child.stdin.take();
        Hub {
            child,
            stdin,
            lines,
        }
    }

    fn send(&mut self, line: &str) {
        let stdin = self.stdin.as_mut().expect("stdin open");
        writeln!(stdin, "{line}").expect("engine reads");
        stdin.flush().expect("engine reads");
    }

    fn line(&self, within: Duration) -> String {
        self.lines.line(within)
    }

    /// Reads until a line starting with `word`, returning every line read.
    fn until(&self, word: &str, within: Duration) -> Vec<String> {
        self.lines
            .until(within, |line| line.split_whitespace().next() == Some(word))
    }

    fn handshake(&mut self) -> Vec<String> {
        self.send("hub");
        let lines = self.until("wait", PATIENCE);
        self.send("init");
        self.until("ready", PATIENCE);
        lines
    }

    fn search(&mut self, pos: &str, level: &str, within: Duration) -> (Vec<String>, String) {
        self.send(pos);
        self.send(level);
        self.send("go think");
        let mut lines = self.until("done", within);
        let done = lines.pop().expect("done line");
        (lines, done)
    }
}

fn done_move(done: &str) -> String {
    let first = done.split_whitespace().nth(1).expect("done has a move");
    first
        .strip_prefix("move=")
        .expect("move= comes first")
        .to_string()
}

fn legal_start_moves() -> Vec<String> {
    [
        "31-26", "31-27", "32-27", "32-28", "33-28", "33-29", "34-29", "34-30", "35-30",
    ]
    .map(String::from)
    .to_vec()
}

#[test]
fn handshake_announces_id_params_and_waits() {
    let mut hub = Hub::start();
    let lines = hub.handshake();
    assert!(lines[0].starts_with("id name=Kroon version="), "{lines:?}");
    assert!(lines.iter().any(|l| l.starts_with("param name=threads ")));
    assert!(lines
        .iter()
        .any(|l| l.starts_with("param name=variant value=normal type=enum")));
    // Every argument is a name=value pair (pydraughts crashes on bare flags).
    for line in &lines[..lines.len() - 1] {
        for word in line.split_whitespace().skip(1) {
            assert!(
                word.contains('=') || !word.contains(char::is_alphabetic) || line.contains('"'),
                "{line}"
            );
        }
    }
    hub.send("ping");
    assert_eq!(hub.line(PATIENCE), "pong");
}

#[test]
fn searches_at_every_level_form() {
    let mut hub = Hub::start();
    hub.handshake();
    // The book would answer the start position without a search.
    hub.send("set-param name=book value=off");
    let pos = format!("pos pos={START}");
    for level in [
        "level depth=6",
        "level nodes=20000",
        "level move-time=0.2",
        "level time=5",
        "level moves=40 time=10",
        "level time=3 inc=0.1",
    ] {
        let started = Instant::now();
        let (infos, done) = hub.search(&pos, level, Duration::from_secs(10));
        assert!(
            legal_start_moves().contains(&done_move(&done)),
            "{level}: {done}"
        );
        assert!(!infos.is_empty(), "{level}: no info lines");
        assert!(infos.iter().all(|l| l.starts_with("info ")), "{infos:?}");
        if level.contains(" time=") {
            // Under a game clock, no iteration of a search's first 15 ms is
            // reported: its `done` would have to wait that long after it.
            for info in &infos {
                let time: f64 = info_field(std::slice::from_ref(info), "time")
                    .and_then(|t| t.parse().ok())
                    .unwrap_or_else(|| panic!("{level}: {info}"));
                assert!(time >= 0.015, "{level}: {info}");
            }
        }
        // The longest level is a share of a few seconds: well under two on any
        // machine, and SLACK more on a busy one.
        assert!(
            started.elapsed() < Duration::from_secs(2) + SLACK,
            "{level} took {:?}",
            started.elapsed()
        );
    }
    let (infos, done) = hub.search(&pos, "level depth=8", Duration::from_secs(10));
    let last = infos.last().expect("info lines");
    assert!(
        last.starts_with("info depth=8 ") && last.contains("score=") && last.contains("pv=\""),
        "{last}"
    );
    // Captures and extensions take the leaves past the nominal depth, pruning short of it.
    let mean_depth: f64 = last
        .split(' ')
        .find_map(|field| field.strip_prefix("mean-depth="))
        .expect("mean-depth")
        .parse()
        .expect("a number");
    assert!((4.0..16.0).contains(&mean_depth), "{last}");
    assert!(done.starts_with("done move="));
}

#[test]
fn infinite_search_answers_ping_and_stops_with_one_done() {
    let mut hub = Hub::start();
    hub.handshake();
    hub.send(&format!("pos pos={START}"));
    hub.send("level infinite");
    hub.send("go analyze");
    std::thread::sleep(Duration::from_millis(300));
    hub.send("ping");
    let lines = hub.until("pong", PATIENCE);
    assert!(lines.iter().all(|l| !l.starts_with("done")), "{lines:?}");
    hub.send("stop");
    let lines = hub.until("done", SLACK);
    assert!(legal_start_moves().contains(&done_move(lines.last().unwrap())));
    // Exactly one done: the next reply is the pong of a new ping.
    hub.send("ping");
    let after = hub.until("pong", PATIENCE);
    assert!(after.iter().all(|l| !l.starts_with("done")), "{after:?}");
    // An idle stop is harmless.
    hub.send("stop");
    hub.send("ping");
    assert_eq!(hub.until("pong", PATIENCE).len(), 1);
}

#[test]
fn ponder_then_ponder_hit_becomes_a_timed_search() {
    let mut hub = Hub::start();
    hub.handshake();
    // The expected opponent reply is already played into the position.
    hub.send(&format!("pos pos={START} moves=\"32-28 19-23\""));
    hub.send("level move-time=0.3");
    hub.send("go ponder");
    std::thread::sleep(Duration::from_millis(700));
    // Pondering has no clock: no done yet.
    assert!(hub.lines.waiting().iter().all(|l| !l.starts_with("done")));
    let hit = Instant::now();
    hub.send("ponder-hit");
    let lines = hub.until("done", PATIENCE);
    assert_eq!(
        done_move(lines.last().unwrap()),
        "28x19x23",
        "the only legal move"
    );
    // The only legal move is played at once; a busy machine may add SLACK.
    assert!(hit.elapsed() < SLACK, "{:?}", hit.elapsed());
}

#[test]
fn malformed_lines_get_errors_and_the_engine_stays_ready() {
    let mut hub = Hub::start();
    hub.handshake();
    let bad = [
        "pos pos=Wxx",
        "pos pos=Wbbbbbbbbbbbbbbbbbbbbeeeeeeeeeewwwwwwwwwwwwwwwwwwwq",
        &format!("pos pos={START} moves=\"32-28 32-28\""),
        &format!("pos pos={START} moves=\"banana\""),
        "pos pos=\"unterminated",
        "level depth=deep",
        "level move-time=-1",
        "set-param name=threads value=many",
        "set-param name=variant value=frisian",
        "set-param name=hash",
    ];
    for line in bad {
        hub.send(line);
        let reply = hub.line(PATIENCE);
        assert!(reply.starts_with("error message="), "{line} -> {reply}");
    }
    // Unknown commands and parameters are ignored quietly.
    hub.send("frobnicate now=1");
    hub.send("set-param name=initial-time value=60");
    hub.send("set-param name=tt-size value=20");
    hub.send("ping");
    assert_eq!(hub.line(PATIENCE), "pong");
    // The position from before the bad lines is still there: a search works.
    let (_, done) = hub.search(
        &format!("pos pos={START} moves=\"32-28 19-23\""),
        "level depth=4",
        PATIENCE,
    );
    assert_eq!(done_move(&done), "28x19x23");
}

#[test]
fn a_finished_position_gets_an_error_and_an_empty_done() {
    let mut hub = Hub::start();
    hub.handshake();
    // White has no piece left.
    let pos = format!("Wb{}", "e".repeat(49));
    let (lines, done) = hub.search(&format!("pos pos={pos}"), "level depth=3", PATIENCE);
    assert!(
        lines.iter().any(|l| l.starts_with("error message=")),
        "{lines:?}"
    );
    // An empty value is quoted, as the protocol writes every empty value.
    assert_eq!(done, "done move=\"\"");
}

#[test]
fn end_of_input_quits_at_once() {
    let mut hub = Hub::start();
    hub.handshake();
    hub.send(&format!("pos pos={START}"));
    hub.send("level infinite");
    hub.send("go think");
    hub.stdin = None;
    // An infinite search would run for ever: ending within SLACK is at once.
    common::wait_until("kroon to quit after its stdin closed", SLACK, || {
        hub.child.try_wait().expect("wait works")
    });
}

fn venv_python(name: &str) -> PathBuf {
    let python = Path::new(env!("CARGO_MANIFEST_DIR")).join(format!(".venv-{name}/bin/python"));
    assert!(
        python.exists(),
        "{} is missing: run tests/interop/setup first (it installs the client libraries)",
        python.display()
    );
    python
}

fn run_script(venv: &str, script: &str) -> String {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let out = Launch::new(venv_python(venv))
        .arg(root.join("tests/interop").join(script))
        .arg(common::KROON)
        .output();
    let stdout = String::from_utf8_lossy(&out.stdout).to_string();
    assert!(
        out.status.success(),
        "{script} failed:\n{stdout}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    stdout
}

#[test]
fn pydraughts_plays_a_whole_game_between_two_kroons() {
    let out = run_script("pydraughts", "hub_pydraughts.py");
    assert!(out.contains("over=True"), "{out}");
}

#[test]
fn py_draughts_searches_with_kroon() {
    let out = run_script("py-draughts", "hub_py_draughts.py");
    assert!(
        out.contains("depth search ok") && out.contains("move-time search ok"),
        "{out}"
    );
}

#[test]
fn a_line_that_is_not_utf8_gets_an_error_and_the_session_goes_on() {
    let mut hub = Hub::start();
    hub.handshake();
    let stdin = hub.stdin.as_mut().expect("stdin open");
    stdin
        .write_all(b"pos pos=\xff\xfe\xfd\n")
        .expect("engine reads");
    stdin.flush().expect("engine reads");
    assert!(hub.line(PATIENCE).starts_with("error message="));
    hub.send("ping");
    assert_eq!(hub.line(PATIENCE), "pong");
}

#[test]
fn moves_past_an_fmjd_draw_are_replayed_and_searched() {
    // pydraughts referees by other draw rules and plays on after a threefold
    // repetition: the engine must still take the moves and answer with a move.
    let mut hub = Hub::start();
    hub.handshake();
    let mut squares = vec!['e'; 50];
    squares[0] = 'B';
    squares[49] = 'W';
    let pos: String = std::iter::once('W').chain(squares).collect();
    let moves = "50-44 1-7 44-50 7-1 50-44 1-7 44-50 7-1 50-44 1-7";
    let (lines, done) = hub.search(
        &format!("pos pos={pos} moves=\"{moves}\""),
        "level depth=5",
        PATIENCE,
    );
    assert!(lines.iter().all(|l| !l.starts_with("error")), "{lines:?}");
    let king_moves = [
        "44-50", "44-49", "44-40", "44-35", "44-39", "44-33", "44-28", "44-22", "44-17", "44-11",
        "44-6",
    ];
    assert!(king_moves.contains(&done_move(&done).as_str()), "{done}");
}

#[test]
fn go_after_a_refused_pos_answers_no_move() {
    let mut hub = Hub::start();
    hub.handshake();
    let (lines, done) = hub.search("pos pos=Wxx", "level depth=3", PATIENCE);
    assert_eq!(lines.len(), 2, "{lines:?}");
    assert!(lines.iter().all(|l| l.starts_with("error message=")));
    assert_eq!(done, "done move=\"\"");
}

/// One random line of the kind a broken or hostile client might send.
fn random_line(rng: &mut XorShift) -> String {
    const NUMBERS: [&str; 16] = [
        "0",
        "-1",
        "1",
        "3",
        "0.01",
        "nan",
        "inf",
        "-inf",
        "1e308",
        "1e-300",
        "abc",
        "",
        "\"",
        "99999999999999999999",
        "18446744073709551616",
        "-0",
    ];
    let squares = |rng: &mut XorShift, alphabet: &[u8], n: usize| -> String {
        (0..n)
            .map(|_| alphabet[rng.below(alphabet.len())] as char)
            .collect()
    };
    let a_move = |rng: &mut XorShift| {
        let (a, b) = (rng.below(60), rng.below(60));
        match rng.below(5) {
            0 => format!("{a}-{b}"),
            1 => format!("{a}x{b}"),
            2 => format!("{a}x{b}x{}", rng.below(55)),
            3 => "32-28".to_string(),
            _ => "x-".to_string(),
        }
    };
    match rng.below(10) {
        0 | 1 => {
            let side = rng.pick(&["W", "B", "w", ""]);
            let body = match rng.below(3) {
                0 => squares(rng, b"wbWBe", 50),
                1 => squares(rng, b"bbbeeeeeww", 50),
                _ => {
                    let n = rng.below(70);
                    squares(rng, b"wbWBe x1=\"", n)
                }
            };
            let moves: Vec<String> = (0..rng.below(4)).map(|_| a_move(rng)).collect();
            format!("pos pos={side}{body} moves=\"{}\"", moves.join(" "))
        }
        2 => format!(
            "level {}={}",
            rng.pick(&[
                "depth",
                "nodes",
                "move-time",
                "time",
                "inc",
                "moves",
                "infinite"
            ]),
            rng.pick(&NUMBERS)
        ),
        3 => format!(
            "{} {}",
            rng.pick(&["level depth=2", "level nodes=3000", "level move-time=0.02"]),
            rng.pick(&["", "time=0.3 inc=0.01", "moves=1"])
        ),
        4 => format!("go {}", rng.pick(&["think", "ponder", "analyze", "", "x"])),
        5 => rng
            .pick(&[
                "stop",
                "ponder-hit",
                "new-game",
                "hub",
                "init",
                "go",
                "pos",
                "level",
            ])
            .to_string(),
        6 => format!(
            "set-param name={} value={}",
            rng.pick(&["threads", "hash", "tt-size", "variant", "x", ""]),
            rng.pick(&NUMBERS)
        ),
        7 => {
            let n = rng.below(80);
            squares(rng, b"=\" \t-x0123456789abcdefposlevelgoWBwbe\\", n)
        }
        8 => format!("pos pos={}", "e".repeat(rng.below(20_000))),
        _ => format!("pos pos={START} moves=\"32-28 19-23 {}\"", a_move(rng)),
    }
}

#[test]
fn a_random_hostile_session_never_stops_the_engine() {
    let mut hub = Hub::start();
    hub.handshake();
    let mut rng = XorShift(0x9e37_79b9_7f4a_7c15);
    let (mut errors, mut moves_played) = (0, 0);
    for round in 0..20 {
        for _ in 0..25 {
            let line = random_line(&mut rng);
            hub.send(&line);
        }
        // Whatever state the lines left, the engine answers.
        hub.send("stop");
        hub.send("ping");
        let seen = hub.until("pong", Duration::from_secs(20));
        for line in &seen {
            let word = line.split_whitespace().next().unwrap_or("");
            assert!(
                ["error", "info", "done", "pong", "id", "param", "wait", "ready"].contains(&word),
                "round {round}: unexpected line {line:?}"
            );
            errors += usize::from(word == "error");
            moves_played += usize::from(line.starts_with("done move=") && line.len() > 10);
        }
    }
    // The session did test something: refusals, and searches that found moves.
    assert!(
        errors > 50 && moves_played > 5,
        "{errors} errors, {moves_played} moves"
    );
    // And it still plays.
    let (_, done) = hub.search(
        &format!("pos pos={START}"),
        "level depth=3",
        Duration::from_secs(20),
    );
    // (`stop` ends a search with its `done` before the engine reads on, so no `done`
    // of the random searches is left to come.)
    assert!(legal_start_moves().contains(&done_move(&done)), "{done}");
    hub.send("quit");
    let status = hub.child.wait().expect("engine exits");
    assert!(status.success());
}

/// The `info` line of a search, if it has one field `name=...`.
fn info_field<'a>(lines: &'a [String], name: &str) -> Option<&'a str> {
    let prefix = format!("{name}=");
    lines
        .iter()
        .filter(|l| l.starts_with("info "))
        .flat_map(|l| l.split_whitespace())
        .find_map(|w| w.strip_prefix(prefix.as_str()))
}

#[test]
fn the_start_position_is_answered_from_the_book_and_the_params_switch_it() {
    let mut hub = Hub::start();
    let params = hub.handshake();
    for name in ["book", "book-ply", "book-margin"] {
        assert!(
            params
                .iter()
                .any(|l| l.starts_with(&format!("param name={name} "))),
            "{params:?}"
        );
    }
    let pos = format!("pos pos={START}");
    // With a minute on the clock, the book answers: info says so, no search ran.
    let (lines, done) = hub.search(&pos, "level time=60", Duration::from_secs(10));
    assert_eq!(info_field(&lines, "book"), Some("yes"), "{lines:?}");
    assert_eq!(info_field(&lines, "nodes"), Some("0"), "{lines:?}");
    assert!(legal_start_moves().contains(&done_move(&done)), "{done}");
    assert!(
        done.contains(" ponder="),
        "the book's expected reply: {done}"
    );

    // Analysis ignores the book.
    hub.send(&pos);
    hub.send("level depth=4");
    hub.send("go analyze");
    let lines = hub.until("done", Duration::from_secs(10));
    assert_eq!(info_field(&lines, "book"), None, "{lines:?}");

    // Past book-ply the engine searches; so it does with the book off.
    for (name, value) in [("book-ply", "0"), ("book", "off")] {
        hub.send(&format!("set-param name={name} value={value}"));
        let (lines, _) = hub.search(&pos, "level depth=4", Duration::from_secs(10));
        assert_eq!(
            info_field(&lines, "book"),
            None,
            "{name}={value}: {lines:?}"
        );
        hub.send("set-param name=book-ply value=40");
    }
    hub.send("set-param name=book value=on");
    let (lines, _) = hub.search(&pos, "level depth=4", Duration::from_secs(10));
    assert_eq!(info_field(&lines, "book"), Some("yes"), "{lines:?}");
}

#[test]
fn a_corrupt_book_is_named_and_the_engine_plays_on_without_it() {
    let dir = Scratch::new("hub-book");
    let path = dir.join("broken.bin");
    std::fs::write(&path, b"KROONBOK but not a book").unwrap();
    let mut hub = Hub::start();
    hub.handshake();
    hub.send(&format!("set-param name=book value={}", path.display()));
    let error = hub.line(PATIENCE);
    assert!(error.starts_with("error message="), "{error}");
    assert!(error.contains("broken.bin"), "{error}");
    let (lines, done) = hub.search(
        &format!("pos pos={START}"),
        "level depth=4",
        Duration::from_secs(10),
    );
    assert_eq!(info_field(&lines, "book"), None, "{lines:?}");
    assert!(legal_start_moves().contains(&done_move(&done)), "{done}");
}

/// The nodes of the last info line of a search.
fn last_nodes(infos: &[String]) -> u64 {
    let last = infos.last().expect("info lines");
    last.split_whitespace()
        .find_map(|w| w.strip_prefix("nodes="))
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("no nodes in {last}"))
}

#[test]
fn the_pruning_param_sets_the_search_margins_by_name() {
    let mut hub = Hub::start();
    let params = hub.handshake();
    assert!(
        params
            .iter()
            .any(|l| l.starts_with("param name=pruning value=lmr-depth:3,")),
        "{params:?}"
    );
    hub.send("set-param name=book value=off");
    let pos = format!("pos pos={START}");
    let nodes = |hub: &mut Hub, pruning: &str| {
        hub.send(&format!("set-param name=pruning value={pruning}"));
        // A cleared table, so that each search starts alike.
        hub.send("new-game");
        let (infos, _) = hub.search(&pos, "level depth=9", Duration::from_secs(30));
        last_nodes(&infos)
    };
    let usual = nodes(&mut hub, "default");
    // No reverse futility or futility, no late-move pruning: a larger tree.
    let wider = nodes(&mut hub, "rfp-depth:0,futility-depth:0,lmp-depth:0");
    assert!(wider > usual, "{wider} nodes against {usual}");
    // Late-move reductions capped at a ply: a larger tree too.
    let capped = nodes(&mut hub, "lmr-max:1");
    assert!(capped > usual, "{capped} nodes against {usual}");
    // Every quiet move's history counted as good: a ply less for each, a larger tree.
    let trusting = nodes(&mut hub, "lmr-history:-1048576");
    assert!(trusting > usual, "{trusting} nodes against {usual}");
    // History pruning is set the same way (what it prunes: the worker's unit
    // test). From the start position its tree is not smaller: the pruned lines
    // change the move order and the root's windows.
    let pruned = nodes(&mut hub, "history-prune-depth:3,history-prune-margin:0");
    assert_ne!(pruned, usual);
    // The static score corrected by the men's formations (what the tables learn:
    // the worker's unit tests) is set the same way.
    let corrected = nodes(&mut hub, "correction:400");
    assert_ne!(corrected, usual);
    // The root's window is set the same way: one of a hundredth either side
    // fails and searches again.
    let narrow = nodes(&mut hub, "asp-window:1,asp-widening:1");
    assert_ne!(narrow, usual);
    assert_eq!(nodes(&mut hub, "default"), usual);
    // A bad setting is refused by name and changes nothing.
    for bad in ["rfp-margn:80", "lmr-div:0", "rfp-margin=80"] {
        hub.send(&format!("set-param name=pruning value={bad}"));
        let reply = hub.line(PATIENCE);
        assert!(reply.starts_with("error message="), "{bad} -> {reply}");
    }
    // Setting a margin to the value the engine announced is no change at all.
    let announced = params
        .iter()
        .find_map(|l| l.strip_prefix("param name=pruning value="))
        .and_then(|v| v.split([',', ' ']).find(|s| s.starts_with("rfp-margin:")))
        .expect("the announced settings name rfp-margin")
        .to_string();
    assert_eq!(nodes(&mut hub, &announced), usual);
}

#[test]
fn the_node_rate_param_makes_the_clock_count_nodes() {
    let mut hub = Hub::start();
    let params = hub.handshake();
    assert!(
        params
            .iter()
            .any(|l| l.starts_with("param name=node-rate value=0 type=int")),
        "{params:?}"
    );
    hub.send("set-param name=book value=off");
    let pos = format!("pos pos={START}");
    // A second is 200,000 nodes: a fixed half second of them is about 100,000
    // (less a small margin), whatever the machine's speed, and the last line
    // before `done` gives the search's nodes, by which a match charges the move.
    hub.send("set-param name=node-rate value=200000");
    let (infos, done) = hub.search(&pos, "level move-time=0.5", Duration::from_secs(60));
    done_move(&done);
    let last = infos.last().expect("an info line");
    let nodes = last_nodes(&infos);
    assert!(last.starts_with("info nodes="), "{last}");
    assert!((80_000..=102_400).contains(&nodes), "{nodes} nodes");
    // The same search again gives the same nodes: no wall clock decided it.
    hub.send("new-game");
    let (again, _) = hub.search(&pos, "level move-time=0.5", Duration::from_secs(60));
    hub.send("new-game");
    let (third, _) = hub.search(&pos, "level move-time=0.5", Duration::from_secs(60));
    assert_eq!(last_nodes(&again), last_nodes(&third));
    // A bad rate is refused; 0 puts the real clock back.
    hub.send("set-param name=node-rate value=-5");
    let reply = hub.line(PATIENCE);
    assert!(reply.starts_with("error message="), "{reply}");
    hub.send("set-param name=node-rate value=0");
    let (infos, _) = hub.search(&pos, "level move-time=0.2", Duration::from_secs(60));
    assert!(
        !infos.last().unwrap().starts_with("info nodes="),
        "{infos:?}"
    );
}
