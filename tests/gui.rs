//! `kroon gui` as its users meet it: the real binary serving the page to a real
//! browser (Debian's chromium under chromedriver), and its HTTP API spoken to
//! directly, bad requests included. The browser tests skip, saying so, where no
//! chromium is installed, but not in CI. Screenshots of the board are kept under
//! `target/gui-screenshots/`.

mod common;
mod gui {
    pub mod http;
    pub mod webdriver;
}

use common::{Lines, Running, Scratch, KROON, PATIENCE};
use gui::http::{read_reply, request, request_with};
use gui::webdriver::{Browser, Viewport};
use kroon::board::notation::hub_move;
use kroon::engine::{Engine, EngineOptions, TimeControl};
use kroon::game::Game;
use serde_json::{json, Value};
use std::io::{BufRead, BufReader, Write};
use std::net::{SocketAddr, TcpStream};
use std::process::Stdio;
use std::time::{Duration, Instant};

/// A running `kroon gui`, ended when dropped.
struct Gui {
    child: Running,
    addr: SocketAddr,
}

impl Gui {
    /// Starts `kroon gui` on a free port with `args`, and reads the address it
    /// prints.
    fn start(args: &[&str]) -> Gui {
        let mut child = common::kroon()
            .args(["gui", "--no-browser", "--hash", "16"])
            .args(args)
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn();
        // Read to its end, so that the server never blocks on a full pipe, and
        // shown with a failing test's output.
        let stderr = Lines::echoed(child.stderr.take().unwrap(), "kroon gui: ");
        // The first line naming an address (the engine may first name its tables).
        let seen = stderr.until(PATIENCE, |line| line.contains("http://"));
        let line = seen.last().unwrap();
        let url = line
            .split_whitespace()
            .find(|w| w.starts_with("http://"))
            .unwrap_or_else(|| panic!("no address in {line:?}"));
        let addr = url
            .trim_start_matches("http://")
            .trim_end_matches('/')
            .parse()
            .unwrap();
        Gui { child, addr }
    }

    fn url(&self) -> String {
        format!("http://{}/", self.addr)
    }

    /// A new session's number.
    fn session(&self) -> u64 {
        let reply = request(self.addr, "POST", "/api/session", None);
        assert_eq!(reply.status, 200, "{}", reply.body);
        reply.json()["session"].as_u64().unwrap()
    }

    fn act(&self, session: u64, action: &Value) -> (u16, Value) {
        let reply = request(
            self.addr,
            "POST",
            &format!("/api/action?session={session}"),
            Some(&action.to_string()),
        );
        (reply.status, reply.json())
    }

    /// The server still serves its page.
    fn assert_alive(&self) {
        let reply = request(self.addr, "GET", "/", None);
        assert_eq!(reply.status, 200);
        assert!(reply.body.contains("board.js"));
    }

    /// The processes the server has started that are still running.
    fn children(&self) -> Vec<u32> {
        let me = self.child.id();
        let mut children = Vec::new();
        for entry in std::fs::read_dir("/proc").unwrap().flatten() {
            let Ok(pid) = entry.file_name().to_string_lossy().parse::<u32>() else {
                continue;
            };
            let Ok(stat) = std::fs::read_to_string(entry.path().join("stat")) else {
                continue;
            };
            // pid (comm) state ppid ...: the name may hold spaces, the rest not.
            let after = &stat[stat.rfind(')').map_or(0, |i| i + 1)..];
            let fields: Vec<&str> = after.split_whitespace().collect();
            if fields.get(1).and_then(|p| p.parse::<u32>().ok()) == Some(me)
                && fields.first() != Some(&"Z")
            {
                children.push(pid);
            }
        }
        children
    }
}

/// An event stream opened by hand: the state as the server sends it.
struct Stream {
    reader: BufReader<TcpStream>,
}

impl Stream {
    fn open(gui: &Gui, session: u64) -> Stream {
        let mut stream = TcpStream::connect(gui.addr).unwrap();
        stream.set_read_timeout(Some(PATIENCE)).unwrap();
        write!(
            stream,
            "GET /api/events?session={session} HTTP/1.1\r\nHost: {}\r\n\r\n",
            gui.addr
        )
        .unwrap();
        let mut reader = BufReader::new(stream);
        let mut line = String::new();
        reader.read_line(&mut line).unwrap();
        assert!(line.contains("200"), "{line}");
        Stream { reader }
    }

    /// Reads states until one satisfies `check`.
    fn wait_for(&mut self, what: &str, check: impl Fn(&Value) -> bool) -> Value {
        let deadline = Instant::now() + PATIENCE;
        let mut line = String::new();
        loop {
            assert!(Instant::now() < deadline, "no state with {what}");
            line.clear();
            assert!(
                self.reader.read_line(&mut line).unwrap() > 0,
                "stream ended"
            );
            if let Some(data) = line.strip_prefix("data: ") {
                let state: Value = serde_json::from_str(data).unwrap();
                if check(&state) {
                    return state;
                }
            }
        }
    }
}

#[test]
fn bad_requests_get_clear_answers_and_the_server_keeps_running() {
    // No book: Kroon must still be thinking when a move for its side comes in, and a
    // book reply is instant (it raced the request and sometimes won).
    let gui = Gui::start(&["--book", "off"]);
    // Not HTTP at all.
    let mut raw = TcpStream::connect(gui.addr).unwrap();
    raw.set_read_timeout(Some(Duration::from_secs(10))).unwrap();
    raw.write_all(b"HELLO THERE\r\n\r\n").unwrap();
    let reply = read_reply(raw);
    assert_eq!(reply.status, 400);
    gui.assert_alive();

    let reply = request(gui.addr, "GET", "/no/such/page", None);
    assert_eq!(reply.status, 404);
    assert!(reply.json()["error"].as_str().unwrap().contains("no page"));
    let reply = request(gui.addr, "GET", "/api/action?session=1", None);
    assert_eq!(reply.status, 405);
    let reply = request(gui.addr, "POST", "/api/action?session=999", Some("{}"));
    assert_eq!(reply.status, 404);
    assert!(reply.json()["error"]
        .as_str()
        .unwrap()
        .contains("no session 999"));
    let reply = request(gui.addr, "POST", "/api/action", Some("{}"));
    assert_eq!(reply.status, 404);
    assert!(reply.json()["error"]
        .as_str()
        .unwrap()
        .contains("?session="));

    let session = gui.session();
    let path = format!("/api/action?session={session}");
    let reply = request(gui.addr, "POST", &path, Some("{\"action\": "));
    assert_eq!(reply.status, 400);
    assert!(reply.json()["error"].as_str().unwrap().contains("not JSON"));
    let reply = request(gui.addr, "POST", &path, Some("[1, 2]"));
    assert_eq!(reply.status, 400);
    // Another site's page may not play.
    let reply = request_with(
        gui.addr,
        "POST",
        &path,
        Some(r#"{"action": "new"}"#),
        &["Origin: http://example.com"],
    );
    assert_eq!(reply.status, 403);

    let refusals = [
        (json!({"action": "move", "move": "32-27x"}), "not a move"),
        (
            json!({"action": "move", "move": "33-27"}),
            "not a legal move",
        ),
        (json!({"action": "setup", "fen": "W:W31,32:B99"}), "FEN"),
        (
            json!({"action": "load", "pdn": "[Event]\n1. 32-28 *"}),
            "tag",
        ),
        (
            json!({"action": "load", "pdn": "[GameType \"21\"]\n1. 32-28 *"}),
            "not international draughts",
        ),
        (
            json!({"action": "load", "pdn": "1. 32-28 19-23 2. 28-22 *"}),
            "move 2 ('28-22')",
        ),
        (
            json!({"action": "level", "kind": "depth", "depth": 0}),
            "depth",
        ),
        (json!({"action": "players", "white": "cat"}), "human"),
        (json!({"action": "undo"}), "no move"),
        (json!({"action": "jump"}), "no action 'jump'"),
        (json!({"move": "32-28"}), "\"action\""),
    ];
    for (action, words) in refusals {
        let (status, answer) = gui.act(session, &action);
        assert_eq!(status, 400, "{action}");
        let message = answer["error"].as_str().unwrap();
        assert!(message.contains(words), "{action}: {message}");
    }
    // None of it disturbed the game: a legal move is still taken. Kroon is given 30
    // seconds a move first, so that it is still thinking when Black's move comes.
    let (status, _) = gui.act(
        session,
        &json!({"action": "level", "kind": "time", "seconds": 30}),
    );
    assert_eq!(status, 200);
    let (status, _) = gui.act(session, &json!({"action": "move", "move": "32-28"}));
    assert_eq!(status, 200);
    // Black is Kroon's: a move for it is refused with the reason.
    let (status, answer) = gui.act(session, &json!({"action": "move", "move": "19-23"}));
    assert_eq!(status, 400);
    assert!(
        answer["error"].as_str().unwrap().contains("turn"),
        "{answer}"
    );
    gui.assert_alive();
}

#[test]
fn a_closed_page_leaves_no_engine_behind() {
    // A Hub engine as a child process: Kroon's own `hub`.
    let engine = format!("{KROON} hub --hash 16");
    let gui = Gui::start(&["--engine", &engine]);
    let session = gui.session();
    let mut stream = Stream::open(&gui, session);
    // The Hub engine answers a move.
    gui.act(
        session,
        &json!({"action": "level", "kind": "depth", "depth": 2}),
    );
    gui.act(session, &json!({"action": "move", "move": "32-28"}));
    let state = stream.wait_for("the Hub engine's move", |s| s["ply"] == 2);
    assert_eq!(state["players"]["black"], "engine");
    let (status, _) = gui.act(session, &json!({"action": "analyse", "on": true}));
    assert_eq!(status, 200);
    // The Hub engine's analysis comes through, its PV as moves.
    let state = stream.wait_for("a PV from the Hub engine", |s| {
        s["search"]["pv"]
            .as_array()
            .is_some_and(|pv| !pv.is_empty())
    });
    assert_eq!(state["engine"], "kroon");
    assert_eq!(gui.children().len(), 1, "one engine process");
    // The tab goes away: the search stops and the engine ends.
    drop(stream);
    let deadline = Instant::now() + Duration::from_secs(15);
    while !gui.children().is_empty() {
        assert!(Instant::now() < deadline, "the engine was left running");
        std::thread::sleep(Duration::from_millis(100));
    }
    // The session is gone too, and the server serves on.
    let (status, answer) = gui.act(session, &json!({"action": "new"}));
    assert_eq!(status, 404, "{answer}");
    gui.assert_alive();
}

#[test]
fn clocks_run_and_a_fallen_flag_ends_the_game() {
    // Without the book, whose moves come at once and would only gain increments.
    let gui = Gui::start(&["--book", "off"]);
    let session = gui.session();
    let mut stream = Stream::open(&gui, session);
    // Kroon against itself, 10 seconds each and 0.1 a move.
    let clock = json!({"action": "level", "kind": "clock", "seconds": 10, "increment": 0.1});
    gui.act(session, &clock);
    gui.act(
        session,
        &json!({"action": "players", "white": "engine", "black": "engine"}),
    );
    let state = stream.wait_for("six moves on the clock", |s| {
        s["ply"].as_u64().unwrap() >= 6 || !s["result"].is_null()
    });
    assert!(state["result"].is_null(), "{}", state["result"]);
    let left = |side: &str| state["clock"][side].as_u64().unwrap();
    for side in ["white", "black"] {
        assert!(left(side) > 0 && left(side) <= 10_100, "{}", state["clock"]);
    }
    assert!(left("white") + left("black") < 20_000, "{}", state["clock"]);
    // A player who does not move loses on time.
    let short = json!({"action": "level", "kind": "clock", "seconds": 0.5, "increment": 0});
    gui.act(session, &short);
    gui.act(
        session,
        &json!({"action": "players", "white": "human", "black": "human"}),
    );
    gui.act(session, &json!({"action": "new"}));
    let state = stream.wait_for("a fallen flag", |s| !s["result"].is_null());
    assert_eq!(state["result"]["pdn"], "0-2");
    assert!(
        state["result"]["text"]
            .as_str()
            .unwrap()
            .contains("White's clock ran out"),
        "{}",
        state["result"]
    );
    // The draw counters of an ending against a lone king.
    let (status, _) = gui.act(
        session,
        &json!({"action": "setup", "fen": "W:WK1,K2,K3:BK50"}),
    );
    assert_eq!(status, 200);
    let state = stream.wait_for("the 16-move rule", |s| !s["counters"]["ending"].is_null());
    assert_eq!(state["counters"]["ending"]["rule"], "16-move rule");
    assert_eq!(state["counters"]["ending"]["limit"], 16);
}

#[test]
fn the_book_moves_and_the_endgame_tables_value_are_shown() {
    let dir = Scratch::new("gui-egdb");
    let built = common::kroon()
        .args(["egdb", "build", "--pieces", "3", "--dir"])
        .arg(&dir)
        .stderr(Stdio::null())
        .status();
    assert!(built.success());
    let gui = Gui::start(&["--bb-path", dir.to_str().unwrap()]);
    let session = gui.session();
    let mut stream = Stream::open(&gui, session);
    // The start position is not in 3-piece tables: no value is shown; it is in
    // the built-in book, whose moves are.
    let state = stream.wait_for("the first state", |_| true);
    assert_eq!(state["tables"], "endgame tables: up to 3 pieces", "{state}");
    assert!(state.get("database").is_none(), "{state}");
    let book = state["book"].as_str().expect("the book's moves");
    assert_eq!(book.split(", ").count(), 5, "{book}");
    // Two kings against a man about to be taken: White wins.
    let (status, _) = gui.act(session, &json!({"action": "setup", "fen": "W:WK1,K46:B28"}));
    assert_eq!(status, 200);
    let state = stream.wait_for("the tables' value", |s| s.get("database").is_some());
    assert_eq!(state["database"], "White to move: win", "{state}");
}

#[test]
fn an_engine_that_does_not_start_is_reported() {
    let gui = Gui::start(&["--engine", "/no/such/engine hub"]);
    let session = gui.session();
    let mut stream = Stream::open(&gui, session);
    gui.act(session, &json!({"action": "analyse", "on": true}));
    let state = stream.wait_for("the engine's failure", |s| s["engine_error"].is_string());
    assert!(state["engine_error"]
        .as_str()
        .unwrap()
        .contains("did not start"));
    gui.assert_alive();
}

/// White's move in `fen` as a strong player would choose it: Kroon's search,
/// in the test, not in the server.
fn best_move(fen: &str) -> String {
    let game = Game::from_fen(fen).unwrap();
    let mut engine = Engine::new(EngineOptions {
        threads: 1,
        hash_mb: 16,
    });
    let result = engine.search_blocking(&game, TimeControl::Depth(10));
    hub_move(result.best_move.expect("a move"))
}

/// Opens the page and waits for its first state.
fn open(browser: &Browser, gui: &Gui) -> Value {
    browser.goto(&gui.url());
    browser.wait_for_state("the first state", |_| true)
}

fn set_depth_level(browser: &Browser, depth: u32) {
    browser.click("#level-kind option[value=depth]");
    browser.type_into("#level-value", &depth.to_string());
    browser.click("#set-level");
    browser.wait_for_state("the depth level", |s| s["level"]["depth"] == depth);
}

/// Three white kings against five men, White to move: the king on 5 must take
/// four men and may end on 35 two ways, taking 21 or 22.
const TWO_PATHS: &str = "W:WK5,K38,K50:B7,10,21,22,30";

#[test]
fn a_whole_game_by_clicks_with_a_choice_of_capture_paths() {
    let Some(browser) = Browser::start("a_whole_game_by_clicks", Viewport::Desktop) else {
        return;
    };
    let gui = Gui::start(&[]);
    open(&browser, &gui);
    set_depth_level(&browser, 2);
    browser.click("#games-panel summary");
    browser.type_into("#fen", TWO_PATHS);
    browser.click("#setup");
    browser.wait_for_state("the position set up", |s| s["fen"] == TWO_PATHS);
    // Started with an empty data folder: the page says there are no tables, and how
    // to build them.
    let tables = browser.text("#tables");
    assert!(tables.starts_with("no endgame tables"), "{tables}");

    // The king on 5: its one target is highlighted.
    browser.click_square(5);
    let targets = browser.script(
        "return [...document.querySelectorAll('#board .target')].map(e => e.dataset.square);",
        json!([]),
    );
    assert_eq!(targets, json!(["35"]));
    browser.click_square(35);
    let offered = browser.script(
        "return [...document.querySelectorAll('.path-choice')].map(e => e.dataset.hub);",
        json!([]),
    );
    let mut offered: Vec<String> = serde_json::from_value(offered).unwrap();
    offered.sort();
    assert_eq!(offered, ["5x35x7x10x21x30", "5x35x7x10x22x30"]);
    // The offered capture's pieces are marked on the board.
    let marked = browser.script(
        "return [...document.querySelectorAll('.piece.capturing')].length;",
        json!([]),
    );
    assert_eq!(marked, json!(4));
    browser.screenshot("capture-choice");
    let choice = best_move(TWO_PATHS);
    browser.click(&format!(".path-choice[data-hub=\"{choice}\"]"));
    browser.wait_for_state("the chosen capture", |s| {
        s["record"][0]["hub"] == choice.as_str()
    });

    // Play on by clicks until the game ends; Kroon answers at depth 2.
    let mut plies = 1;
    let state = loop {
        let state = browser.wait_for_state("White's turn or the end", |s| {
            !s["result"].is_null() || (s["side"] == "white" && s["thinking"] == false)
        });
        if !state["result"].is_null() {
            break state;
        }
        assert!(plies < 150, "the game went on too long");
        // Kroon says what it played and what it thought of it.
        let notice = state["notice"].as_str().unwrap_or_default();
        assert!(notice.starts_with("Kroon played"), "{notice}");
        let fen = state["fen"].as_str().unwrap();
        let best = best_move(fen);
        let mv = state["legal"]
            .as_array()
            .unwrap()
            .iter()
            .find(|m| m["hub"] == best.as_str())
            .unwrap_or_else(|| panic!("{best} is not offered: {state}"))
            .clone();
        browser.click_square(mv["from"].as_u64().unwrap() as u8);
        browser.click_square(mv["to"].as_u64().unwrap() as u8);
        if browser.script(
            "return !document.getElementById('choices').hidden;",
            json!([]),
        ) == json!(true)
        {
            browser.click(&format!(".path-choice[data-hub=\"{best}\"]"));
        }
        let ply = state["ply"].as_u64().unwrap();
        browser.wait_for_state("White's move played", |s| {
            s["ply"].as_u64().unwrap() > ply || !s["result"].is_null()
        });
        plies += 2;
    };
    assert_eq!(state["result"]["pdn"], "2-0", "{state}");
    let shown = browser.text("#result");
    assert!(
        shown.contains("2-0") && shown.contains("no legal move"),
        "{shown}"
    );
    browser.screenshot("game-over");
}

#[test]
fn refused_moves_and_bad_input_on_the_page() {
    let Some(browser) = Browser::start("refused_moves_and_bad_input", Viewport::Desktop) else {
        return;
    };
    let gui = Gui::start(&[]);
    open(&browser, &gui);
    browser.click("#black-player option[value=human]");
    browser.wait_for_state("Black played by hand", |s| s["players"]["black"] == "human");
    // A man two squares ahead: refused, with the reason.
    browser.click_square(31);
    browser.click_square(22);
    let message = browser.wait_for(
        "the refusal",
        "return document.getElementById('message').textContent;",
    );
    assert!(message.as_str().unwrap().contains("31-22"), "{message}");
    for (from, to) in [(32, 28), (19, 23)] {
        browser.click_square(from);
        browser.click_square(to);
    }
    browser.wait_for_state("two moves", |s| s["ply"] == 2);
    // A quiet move when a capture is due.
    browser.click_square(31);
    browser.click_square(27);
    let message = browser.wait_for(
        "the capture rule",
        "const t = document.getElementById('message').textContent; return t.includes('compulsory') && t;",
    );
    assert!(message.as_str().unwrap().contains("28x19"), "{message}");
    browser.screenshot("refused-move");
    // A broken FEN and a broken PDN: a message, and the game stays.
    browser.click("#games-panel summary");
    browser.type_into("#fen", "W:W31,32:Bxx");
    browser.click("#setup");
    browser.wait_for(
        "the FEN refusal",
        "return document.getElementById('message').textContent.includes('FEN');",
    );
    browser.type_into("#pdn-text", "1. 32-28 19-23 2. 28-22 *");
    browser.click("#load-pdn");
    browser.wait_for(
        "the PDN refusal",
        "return document.getElementById('message').textContent.includes('move 2');",
    );
    assert_eq!(browser.state()["ply"], 2);
}

#[test]
fn analysis_starts_shows_a_changing_pv_and_stops() {
    let Some(browser) = Browser::start("analysis", Viewport::Desktop) else {
        return;
    };
    let gui = Gui::start(&[]);
    open(&browser, &gui);
    // Nobody plays: Kroon only analyses.
    browser.click("#black-player option[value=human]");
    browser.wait_for_state("Black played by hand", |s| s["players"]["black"] == "human");
    browser.click("#analyse");
    let state = browser.wait_for_state("a deep enough analysis", |s| {
        s["analysing"] == true && s["search"]["depth"].as_u64().unwrap_or(0) >= 4
    });
    assert!(!state["search"]["pv"].as_array().unwrap().is_empty());
    let first_pv = browser.text("#pv");
    assert!(!first_pv.is_empty());
    assert_ne!(browser.text("#analysis-nps"), "–");
    // A long PV wraps: the page never scrolls sideways.
    let fits = browser.script(
        "return document.documentElement.scrollWidth <= window.innerWidth;",
        json!([]),
    );
    assert_eq!(fits, json!(true), "the PV widens the page");
    browser.screenshot("analysis");
    // Playing the PV's first move by a click: the analysis goes on from there. The
    // PV may change between reading it and the click; then the move is taken back
    // and clicked again.
    let script = "const e = document.querySelector('.pv-move[data-index=\"0\"]');\
                  return e && e.dataset.hub;";
    let mut played = false;
    for _ in 0..3 {
        let first = browser.wait_for("a PV on the page", script);
        browser.click(".pv-move[data-index=\"0\"]");
        let state = browser.wait_for_state("the PV move played", |s| s["ply"] == 1);
        if state["record"][0]["hub"] == first {
            played = true;
            break;
        }
        browser.click("#undo");
        browser.wait_for_state("the move taken back", |s| s["ply"] == 0);
        // Stepping back keeps the analysis on.
        browser.wait_for_state("the analysis again", |s| {
            s["analysing"] == true && s["search"]["depth"].as_u64().unwrap_or(0) >= 4
        });
    }
    assert!(played, "a click on the PV plays its move");
    browser.wait_for_state("a new analysis", |s| {
        s["ply"] == 1 && s["search"]["depth"].as_u64().unwrap_or(0) >= 3
    });
    let deadline = Instant::now() + PATIENCE;
    while browser.text("#pv") == first_pv {
        assert!(Instant::now() < deadline, "the PV never changed");
        std::thread::sleep(Duration::from_millis(50));
    }
    // The score graph has a point for each analysed position.
    let state = browser.state();
    assert!(state["scores"][0].is_number() && state["scores"][1].is_number());
    browser.click("#analyse");
    let stopped = browser.wait_for_state("the analysis stopped", |s| s["analysing"] == false);
    std::thread::sleep(Duration::from_millis(1500));
    assert_eq!(
        browser.state()["search"],
        stopped["search"],
        "nothing searches"
    );
    assert_eq!(browser.text("#analyse"), "Analyse");
}

const GAME: &str = r#"[Event "test"]
[White "A"]
[Black "B"]
[Result "*"]

1. 32-28 19-23 2. 28x19 14x23 3. 37-32 10-14 4. 33-28 *
"#;

#[test]
fn a_pdn_is_loaded_stepped_through_and_saved() {
    let Some(browser) = Browser::start("a_pdn_is_loaded", Viewport::Desktop) else {
        return;
    };
    let gui = Gui::start(&[]);
    open(&browser, &gui);
    browser.click("#games-panel summary");
    browser.type_into("#pdn-text", GAME);
    browser.click("#load-pdn");
    browser.wait_for_state("the game loaded", |s| {
        s["record"].as_array().unwrap().len() == 7 && s["ply"] == 0
    });
    let piece = |square: u8| {
        browser.script(
            "const p = document.querySelector(`#board [data-square=\"${arguments[0]}\"] .piece`);\
             return p ? p.className : null;",
            json!([square]),
        )
    };
    assert_eq!(piece(32), json!("piece white"));
    for ply in 1..=3 {
        browser.click("#redo");
        browser.wait_for_state("a step forward", |s| s["ply"] == ply);
    }
    // After 32-28 19-23 28x19: a white man on 19, none on 23.
    assert_eq!(piece(19), json!("piece white"));
    assert_eq!(piece(23), Value::Null);
    browser.screenshot("pdn-step");
    browser.click("#last");
    browser.wait_for_state("the end", |s| s["ply"] == 7);
    browser.click("#undo");
    browser.wait_for_state("a step back", |s| s["ply"] == 6);
    browser.click("#moves span[data-ply=\"2\"]");
    let state = browser.wait_for_state("a click in the move list", |s| s["ply"] == 2);
    assert_eq!(
        browser.script("return document.getElementById('fen').value;", json!([])),
        state["fen"]
    );
    browser.click("#first");
    browser.wait_for_state("the start", |s| s["ply"] == 0);
    browser.click("#save-pdn");
    let saved = browser.wait_for(
        "the saved PDN",
        "const t = document.getElementById('pdn-text').value; return t.includes('Kroon gui') && t;",
    );
    assert!(saved.as_str().unwrap().contains("28x19"), "{saved}");
}

#[test]
fn the_page_fits_a_phone_and_a_desktop() {
    for (viewport, name) in [(Viewport::Phone, "phone"), (Viewport::Desktop, "desktop")] {
        let Some(browser) = Browser::start("the_page_fits", viewport) else {
            return;
        };
        let gui = Gui::start(&[]);
        open(&browser, &gui);
        let layout = browser.script(
            "const b = document.getElementById('board').getBoundingClientRect();\
             return { width: window.innerWidth, scroll: document.documentElement.scrollWidth,\
                      left: b.left, right: b.right, board: b.width, height: b.height };",
            json!([]),
        );
        let width = layout["width"].as_f64().unwrap();
        match viewport {
            Viewport::Phone => assert!(width < 500.0, "{layout}"),
            Viewport::Desktop => assert!(width > 1000.0, "{layout}"),
        }
        // No sideways scrolling; the board is on screen, square, and big.
        assert!(layout["scroll"].as_f64().unwrap() <= width, "{layout}");
        assert!(layout["left"].as_f64().unwrap() >= 0.0, "{layout}");
        assert!(layout["right"].as_f64().unwrap() <= width, "{layout}");
        let board = layout["board"].as_f64().unwrap();
        assert!(board >= width.min(600.0) * 0.85, "{layout}");
        assert!(
            (board - layout["height"].as_f64().unwrap()).abs() < 2.0,
            "{layout}"
        );
        // A move by taps works at this size too, and by dragging on a desktop.
        match viewport {
            Viewport::Phone => {
                browser.click_square(32);
                browser.click_square(28);
            }
            Viewport::Desktop => {
                browser.drag("#board [data-square=\"32\"]", "#board [data-square=\"28\"]")
            }
        }
        let state = browser.wait_for_state("the move", |s| s["ply"].as_u64().unwrap() >= 1);
        assert_eq!(state["record"][0]["hub"], "32-28");
        browser.click("#numbers");
        browser.click("#flip");
        browser.screenshot(&format!("board-{name}"));
    }
}

#[test]
fn tabs_and_reloads_leave_no_engine_behind() {
    let Some(browser) = Browser::start("tabs_and_reloads", Viewport::Desktop) else {
        return;
    };
    let engine = format!("{KROON} hub --hash 16");
    let gui = Gui::start(&["--engine", &engine]);
    let wait_for_engines = |count: usize| {
        let deadline = Instant::now() + Duration::from_secs(20);
        while gui.children().len() != count {
            assert!(
                Instant::now() < deadline,
                "{} engine processes, not {count}",
                gui.children().len()
            );
            std::thread::sleep(Duration::from_millis(100));
        }
    };
    // Two tabs, each analysing with its own engine.
    for tab in 0..2 {
        if tab > 0 {
            browser.new_tab();
        }
        open(&browser, &gui);
        browser.click("#analyse");
        browser.wait_for_state("the Hub engine's analysis", |s| {
            s["search"]["pv"]
                .as_array()
                .is_some_and(|pv| !pv.is_empty())
        });
    }
    wait_for_engines(2);
    // A reload starts a new game; the old one's engine ends.
    browser.reload();
    browser.wait_for_state("the new page", |s| s["analysing"] == false);
    wait_for_engines(1);
    // The browser closes: no engine is left.
    drop(browser);
    wait_for_engines(0);
    gui.assert_alive();
}

#[test]
fn a_kroon_without_tables_builds_the_small_ones_and_the_page_says_so() {
    // Started with an empty data folder: the page says so; once Kroon has searched
    // a thin position (here three kings against one), it builds the 2-4 piece tables
    // beside its search, and the page shows them and their value.
    let gui = Gui::start(&[]);
    let session = gui.session();
    let mut stream = Stream::open(&gui, session);
    let state = stream.wait_for("the first state", |_| true);
    let tables = state["tables"].as_str().unwrap();
    assert!(tables.starts_with("no endgame tables yet"), "{tables}");
    let setup = json!({"action": "setup", "fen": "W:WK2,K23,K31:BK45"});
    gui.act(
        session,
        &json!({"action": "level", "kind": "depth", "depth": 4}),
    );
    gui.act(session, &setup);
    gui.act(session, &json!({"action": "go"}));
    stream.wait_for("Kroon's move", |s| s["ply"].as_u64() >= Some(1));
    // The build ends on its own thread; each new setup sends the state again (once:
    // nobody is to move).
    gui.act(
        session,
        &json!({"action": "players", "white": "human", "black": "human"}),
    );
    let deadline = Instant::now() + 2 * PATIENCE;
    loop {
        gui.act(session, &setup);
        let state = stream.wait_for("the position again", |s| s["ply"].as_u64() == Some(0));
        if state["tables"] == "endgame tables: up to 4 pieces" {
            assert_eq!(state["database"], "White to move: win", "{state}");
            break;
        }
        assert!(Instant::now() < deadline, "no tables: {state}");
        std::thread::sleep(Duration::from_millis(500));
    }
}
