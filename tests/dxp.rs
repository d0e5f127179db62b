//! DXP through the real binary: Kroon against Kroon over loopback, a raw socket
//! sending bad input, and pydraughts' DXPEngine as a real client.

mod common;

use common::{Launch, Running, Scratch, PATIENCE};
use kroon::board::{Bitboard, Square};
use kroon::game::Game;
use kroon::play::Outcome;
use std::io::{Read, Write};
use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::time::{Duration, Instant};

/// Starts `kroon dxp` with its stdout in the file `stdout` and its stderr beside it
/// (see [`stderr_of`]), where a failing test can show what Kroon said.
fn kroon(args: &[&str], stdout: &Path) -> Running {
    common::kroon()
        .arg("dxp")
        .args(args)
        .args(["--hash", "8"])
        .stdout(std::fs::File::create(stdout).unwrap())
        .stderr(std::fs::File::create(stderr_of(stdout)).unwrap())
        .spawn()
}

fn stderr_of(stdout: &Path) -> PathBuf {
    stdout.with_extension("err")
}

/// A file Kroon writes, as far as it is written (empty if not yet made).
fn written(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_default()
}

/// The port a Kroon started by [`kroon`] (its stdout in `stdout`) with `--listen 0`
/// took, once it listens. Tests run in parallel: a port chosen beforehand by the test
/// could be taken by another test before Kroon binds it.
fn listening_port(kroon: &mut Running, stdout: &Path) -> u16 {
    let path = stderr_of(stdout);
    let start = Instant::now();
    loop {
        // Whether Kroon has ended, asked before reading what it wrote, which is then all.
        let ended = kroon.try_wait().unwrap();
        let text = written(&path);
        if let Some(port) = text
            .lines()
            .find_map(|l| l.strip_prefix("listening on "))
            .and_then(|addr| addr.rsplit(':').next()?.parse().ok())
        {
            return port;
        }
        // A fixed port taken by another program ends Kroon at once: say so now.
        if let Some(status) = ended {
            panic!("kroon ended ({status}) before listening; its stderr:\n{text}");
        }
        assert!(
            start.elapsed() < PATIENCE,
            "kroon is not listening; its stderr:\n{text}"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// Waits until `path` holds `n` result lines (the follower writes them as games end).
fn wait_lines(path: &Path, n: usize, limit: Duration) -> String {
    let start = Instant::now();
    loop {
        let text = written(path);
        if text.lines().filter(|l| l.starts_with("game ")).count() >= n {
            return text;
        }
        assert!(
            start.elapsed() < limit,
            "only this after {limit:?}:\n{text}"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
}

fn without_dates(pdn: &str) -> String {
    pdn.lines()
        .filter(|l| !l.starts_with("[Date "))
        .collect::<Vec<_>>()
        .join("\n")
}

#[test]
fn kroon_against_kroon_plays_a_series_from_two_openings() {
    let dir = Scratch::new("dxp-series");
    let openings = dir.join("openings.txt");
    std::fs::write(
        &openings,
        "# the start, and a position after 1. 32-28 18-23\nW:W31-50:B1-20\nW:W28,31,33-50:B1-17,19,20,23\n",
    )
    .unwrap();
    let (f_pdn, i_pdn) = (dir.join("follower.pdn"), dir.join("initiator.pdn"));
    let mut follower = kroon(
        &[
            "--listen",
            "0",
            "--depth",
            "3",
            "--pdn",
            f_pdn.to_str().unwrap(),
        ],
        &dir.join("follower.out"),
    );
    let port = listening_port(&mut follower, &dir.join("follower.out"));
    let mut initiator = kroon(
        &[
            "--connect",
            &format!("127.0.0.1:{port}"),
            "--initiator",
            "--games",
            "4",
            "--time",
            "1",
            "--openings",
            openings.to_str().unwrap(),
            "--depth",
            "3",
            "--pdn",
            i_pdn.to_str().unwrap(),
        ],
        &dir.join("initiator.out"),
    );
    let status = initiator.wait_within(Duration::from_secs(120));
    let out = std::fs::read_to_string(dir.join("initiator.out")).unwrap();
    let err = written(&dir.join("initiator.err"));
    assert!(status.success(), "{out}\n{err}");
    let lines: Vec<&str> = out.lines().filter(|l| l.starts_with("game ")).collect();
    assert_eq!(lines.len(), 4, "{out}");
    assert!(lines[3].contains("score Kroon"), "{out}");
    wait_lines(&dir.join("follower.out"), 4, PATIENCE);

    let ours = std::fs::read_to_string(&i_pdn).unwrap();
    let theirs = std::fs::read_to_string(&f_pdn).unwrap();
    assert_eq!(without_dates(&ours), without_dates(&theirs));
    assert_eq!(ours.matches("[Event ").count(), 4, "{ours}");
    // The second opening is not the start position: its games carry a FEN tag.
    assert_eq!(ours.matches("[FEN ").count(), 2, "{ours}");
    assert!(!ours.contains("[Result \"*\"]"), "{ours}");
}

/// A test's end of a raw DXP connection.
struct Peer {
    stream: TcpStream,
    buf: Vec<u8>,
    /// Kroon's stdout file, shown (with its stderr) when it does not answer.
    kroon_out: PathBuf,
}

impl Peer {
    fn connect(port: u16, kroon_out: &Path) -> Peer {
        let start = Instant::now();
        loop {
            match TcpStream::connect(("127.0.0.1", port)) {
                Ok(stream) => {
                    stream
                        .set_read_timeout(Some(Duration::from_millis(100)))
                        .unwrap();
                    return Peer {
                        stream,
                        buf: Vec::new(),
                        kroon_out: kroon_out.to_path_buf(),
                    };
                }
                Err(_) if start.elapsed() < PATIENCE => {
                    std::thread::sleep(Duration::from_millis(50));
                }
                Err(e) => panic!("cannot connect: {e}"),
            }
        }
    }

    fn send(&mut self, text: &str) {
        let mut frame = text.as_bytes().to_vec();
        frame.push(0);
        self.stream.write_all(&frame).unwrap();
    }

    /// The next frame within `limit`, or None.
    fn recv_within(&mut self, limit: Duration) -> Option<String> {
        let start = Instant::now();
        loop {
            if let Some(i) = self.buf.iter().position(|&b| b == 0) {
                let frame: Vec<u8> = self.buf.drain(..=i).take(i).collect();
                return Some(String::from_utf8(frame).unwrap());
            }
            if start.elapsed() > limit {
                return None;
            }
            let mut chunk = [0u8; 512];
            match self.stream.read(&mut chunk) {
                Ok(0) => return None,
                Ok(n) => self.buf.extend_from_slice(&chunk[..n]),
                Err(_) => {}
            }
        }
    }

    fn recv(&mut self) -> String {
        self.recv_within(PATIENCE).unwrap_or_else(|| {
            panic!(
                "kroon did not answer; its stdout:\n{}\nits stderr:\n{}",
                written(&self.kroon_out),
                written(&stderr_of(&self.kroon_out))
            )
        })
    }

    /// The next frame that is not a CHAT, with the chats seen on the way.
    fn recv_after_chat(&mut self) -> (Vec<String>, String) {
        let mut chats = Vec::new();
        loop {
            let m = self.recv();
            if let Some(text) = m.strip_prefix('C') {
                chats.push(text.to_string());
            } else {
                return (chats, m);
            }
        }
    }
}

fn gamereq(follower: char, board: Option<&str>) -> String {
    let start = board.map_or("A".to_string(), |b| format!("B{b}"));
    format!("R01{:<32}{follower}001000{start}", "raw test")
}

fn move_text(mv: kroon::board::Move) -> String {
    let captured: Vec<Square> = mv.captured().squares().collect();
    let mut out = format!(
        "M0000{:02}{:02}{:02}",
        mv.from().number(),
        mv.to().number(),
        captured.len()
    );
    // Reversed on purpose: DXP allows the captured squares in any order.
    for sq in captured.iter().rev() {
        out.push_str(&format!("{:02}", sq.number()));
    }
    out
}

fn parse_move(game: &Game, text: &str) -> kroon::board::Move {
    let n = |i: usize| text[i..i + 2].parse::<u8>().unwrap();
    let count = usize::from(n(9));
    let captured = Bitboard::from_squares((0..count).map(|i| Square::new(n(11 + 2 * i)).unwrap()));
    game.legal_moves()
        .into_iter()
        .find(|m| m.from().number() == n(5) && m.to().number() == n(7) && m.captured() == captured)
        .unwrap_or_else(|| panic!("kroon sent an illegal move {text}"))
}

#[test]
fn bad_input_is_refused_and_a_normal_game_follows() {
    let dir = Scratch::new("dxp-raw");
    let pdn = dir.join("games.pdn");
    let mut listener = kroon(
        &[
            "--listen",
            "0",
            "--depth",
            "2",
            "--pdn",
            pdn.to_str().unwrap(),
        ],
        &dir.join("out"),
    );
    let port = listening_port(&mut listener, &dir.join("out"));
    let mut peer = Peer::connect(port, &dir.join("out"));

    // Unknown type: a CHAT naming it, the session goes on.
    peer.send("X hello");
    let chat = peer.recv();
    assert!(
        chat.starts_with('C') && chat.contains("unknown message type"),
        "{chat}"
    );
    // Unsupported version: refused with code 1.
    peer.send(&gamereq('Z', None).replacen("R01", "R02", 1));
    let (_, acc) = peer.recv_after_chat();
    assert!(acc.starts_with('A') && acc.ends_with('1'), "{acc}");
    // An illegal start position (a white man on White's promotion row): code 2.
    let board = format!("W{}{}", "w", "e".repeat(49));
    peer.send(&gamereq('Z', Some(&board)));
    let (chats, acc) = peer.recv_after_chat();
    assert!(acc.starts_with('A') && acc.ends_with('2'), "{acc}");
    assert!(
        chats.iter().any(|c| c.contains("start position")),
        "{chats:?}"
    );
    // A garbled GAMEREQ: code 2 as well.
    peer.send("R01short");
    let (_, acc) = peer.recv_after_chat();
    assert!(acc.ends_with('2'), "{acc}");

    // An illegal move: CHAT naming it, GAMEEND; our acknowledgement gets no reply.
    peer.send(&gamereq('Z', None));
    assert_eq!(&peer.recv()[..1], "A");
    peer.send("M0000312500");
    let (chats, end) = peer.recv_after_chat();
    assert!(
        chats.iter().any(|c| c.contains("illegal move 31-25")),
        "{chats:?}"
    );
    assert!(end.starts_with('E'), "{end}");
    peer.send("E00");
    assert_eq!(peer.recv_within(Duration::from_millis(300)), None);

    // A malformed move ends the game the same way.
    peer.send(&gamereq('Z', None));
    assert_eq!(&peer.recv()[..1], "A");
    peer.send("M00a0");
    let (chats, end) = peer.recv_after_chat();
    assert!(!chats.is_empty() && end.starts_with('E'), "{chats:?} {end}");
    peer.send("E00");

    // A normal game: Kroon White moves first; one take-back on the way.
    peer.send(&gamereq('W', None));
    let acc = peer.recv();
    assert!(acc.starts_with('A') && acc.ends_with('0'), "{acc}");
    let mut game = Game::new();
    let mut took_back = false;
    loop {
        let (_, m) = peer.recv_after_chat();
        if m.starts_with('E') {
            assert!(game.is_over(), "GAMEEND {m} in a game going on");
            peer.send("E00");
            break;
        }
        assert!(m.starts_with('M'), "{m}");
        let mv = parse_move(&game, &m);
        game.play(mv).unwrap();
        if game.is_over() {
            // Kroon sees the end too and sends its GAMEEND next.
            continue;
        }
        if !took_back && game.moves().len() == 5 {
            took_back = true;
            peer.send("B999W");
            let (_, k) = peer.recv_after_chat();
            assert_eq!(k, "K1");
            // Back to White's third move: Kroon plays it again.
            peer.send("B003W");
            let (_, k) = peer.recv_after_chat();
            assert_eq!(k, "K0");
            game.undo();
            continue;
        }
        let reply = game.legal_moves()[0];
        game.play(reply).unwrap();
        peer.send(&move_text(reply));
        if game.is_over() {
            let (_, end) = peer.recv_after_chat();
            assert!(end.starts_with('E'), "{end}");
            peer.send("E00");
            break;
        }
        assert!(game.moves().len() < 400, "the game goes on and on");
    }
    assert!(took_back);
    let result = Outcome::from(game.result().unwrap()).pdn();

    // A peer that vanishes mid-game: the game so far is kept, Kroon listens again.
    peer.send(&gamereq('Z', None));
    assert_eq!(&peer.recv()[..1], "A");
    peer.send("M0000322800");
    let _ = peer.recv();
    drop(peer);
    let mut again = Peer::connect(port, &dir.join("out"));
    again.send(&gamereq('Z', None));
    assert_eq!(&again.recv()[..1], "A");
    drop(again);

    let out = wait_lines(&dir.join("out"), 5, PATIENCE);
    let pdn = std::fs::read_to_string(&pdn).unwrap();
    let games: Vec<&str> = pdn.split("[Event ").skip(1).collect();
    assert!(games.len() >= 4, "{pdn}");
    assert!(
        games[2].contains(&format!("[Result \"{result}\"]")),
        "{pdn}"
    );
    assert!(
        games[3].contains("[Result \"*\"]") && games[3].contains("1. 32-28"),
        "{pdn}"
    );
    assert!(out.contains(&format!(" {result} ")), "{out}");
}

#[test]
fn pydraughts_dxp_engine_plays_a_game() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let python = root.join(".venv-pydraughts/bin/python");
    assert!(
        python.exists(),
        "{} is missing: run tests/interop/setup first",
        python.display()
    );
    let dir = Scratch::new("dxp-pydraughts");
    let pdn = dir.join("games.pdn");
    // A free port, not DXP's 27531: the suite must pass beside a DXP program
    // (Scan, another Kroon) that listens there.
    let mut listener = kroon(
        &[
            "--listen",
            "0",
            "--depth",
            "4",
            "--pdn",
            pdn.to_str().unwrap(),
        ],
        &dir.join("out"),
    );
    // pydraughts connects once, without retrying: wait until Kroon listens.
    let port = listening_port(&mut listener, &dir.join("out")).to_string();
    for (n, (side, seed)) in [("white", "1"), ("black", "2")].into_iter().enumerate() {
        let mut child = Launch::new(&python)
            .arg(root.join("tests/interop/dxp_pydraughts.py"))
            .args([side, seed, &port])
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn();
        let status = child.wait_within(Duration::from_secs(180));
        let mut report = String::new();
        child
            .stdout
            .take()
            .unwrap()
            .read_to_string(&mut report)
            .unwrap();
        assert!(status.success(), "pydraughts failed:\n{report}");
        let field = |name: &str| {
            report
                .lines()
                .find_map(|l| l.strip_prefix(name))
                .unwrap_or_else(|| panic!("no {name} in:\n{report}"))
                .trim()
                .to_string()
        };
        let result = field("RESULT ");
        let plies: usize = field("MOVES ").parse().unwrap();
        // Kroon's own record agrees with pydraughts' board.
        let out = wait_lines(&dir.join("out"), n + 1, PATIENCE);
        let line = out.lines().rfind(|l| l.starts_with("game ")).unwrap();
        assert!(line.contains(&format!(" {result} ")), "{line} vs {result}");
        let pdn = std::fs::read_to_string(&pdn).unwrap();
        let game = pdn.split("[Event ").last().unwrap();
        assert!(game.contains(&format!("[Result \"{result}\"]")), "{game}");
        let last_number = format!("{}. ", plies.div_ceil(2));
        assert!(game.contains(&last_number), "{plies} plies, but:\n{game}");
    }
}
