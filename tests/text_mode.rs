//! `kroon play` driven through its stdin by scripted sessions, as a person at the
//! terminal would type them; the checks read what it prints. A low depth keeps the
//! engine's replies fast.

mod common;

use common::Scratch;
use std::io::Write;
use std::process::Stdio;

/// Runs `kroon play` on `script` and returns what it printed and whether it exited 0.
fn session_bytes(script: &[u8]) -> (String, bool) {
    session_bytes_with(&[], script)
}

/// The same, with more command-line arguments.
fn session_bytes_with(args: &[&str], script: &[u8]) -> (String, bool) {
    let mut child = common::kroon()
        .args(["play", "--hash", "4"])
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn();
    child
        .stdin
        .take()
        .expect("piped stdin")
        .write_all(script)
        .expect("kroon reads its input");
    let output = child.wait_with_output();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(!stderr.contains("panicked"), "kroon panicked: {stderr}");
    (
        String::from_utf8_lossy(&output.stdout).into_owned(),
        output.status.success(),
    )
}

fn session(script: &str) -> String {
    let (out, ok) = session_bytes(script.as_bytes());
    assert!(ok, "kroon play exited with an error:\n{out}");
    out
}

fn assert_has(out: &str, needle: &str) {
    assert!(out.contains(needle), "expected {needle:?} in:\n{out}");
}

/// The FENs printed by the `fen` command, in order.
fn fens(out: &str) -> Vec<String> {
    out.split("FEN: ")
        .skip(1)
        .map(|rest| rest.lines().next().unwrap_or("").trim().to_string())
        .collect()
}

#[test]
fn a_move_gets_a_reply_with_the_thinking_shown() {
    // Without the book: with it, the reply to 32-28 is a book move (next test).
    let (out, ok) = session_bytes_with(&["--book", "off"], b"level depth 3\n32-28\nfen\nhint\n");
    assert!(ok, "kroon play exited with an error:\n{out}");
    assert_has(&out, "Level set: depth 3.");
    assert_has(&out, "White plays 32-28.");
    assert_has(&out, "Kroon thinks for Black...");
    assert_has(&out, "depth  3  score");
    assert_has(&out, " pv ");
    assert_has(&out, "Kroon (Black) plays ");
    assert_has(&out, "Move 2, White to move (you).");
    // The board shows both the pieces and the square numbers.
    assert_has(&out, "|    41    42    43    44    45 |");
    assert_has(&out, "25-move rule: 0 of 50 plies");
    let fen = &fens(&out)[0];
    assert!(fen.starts_with("W:"), "{fen}");
    assert!(fen.contains("28"), "{fen}");
    assert_has(&out, "kroon> ");
    assert_has(&out, "Hint: ");
}

#[test]
fn an_opening_reply_comes_from_the_book_unless_it_is_off() {
    let out = session("level depth 3\n32-28\n");
    assert_has(&out, "book move  score");
    assert_has(&out, "Kroon (Black) plays ");
    let (out, ok) = session_bytes_with(
        &["--book", "/nonexistent/kroon.book"],
        b"level depth 3\n32-28\n",
    );
    assert!(ok, "a missing book is no reason to stop:\n{out}");
    assert!(!out.contains("book move"), "{out}");
    assert_has(&out, "depth  3  score");
}

#[test]
fn moves_in_hub_and_pdn_forms_are_accepted() {
    let out = session("level depth 3\nswap\nswap\nnew\n32-28\n");
    assert_has(&out, "Kroon now plays White");
    assert_has(&out, "Kroon now plays Black");
    let out = session("fen W:W28,32:B23\nmoves\n28x19\n");
    assert_has(&out, "1 legal move: 28x19");
    assert_has(&out, "White plays 28x19.");
    let out = session("fen W:W28,32:B23\n28x19x23\n");
    assert_has(&out, "White plays 28x19.");
}

#[test]
fn an_ambiguous_capture_is_chosen_by_number() {
    let out = session("level depth 3\nfen W:WK43:B6,24,29,39,41\n43x46\n7\n2\n");
    assert_has(&out, "'43x46' fits 2 captures:");
    assert_has(&out, "choose 1-2> ");
    assert_has(&out, "Choose a number from 1 to 2");
    // The second listed capture is the one played.
    let second = out
        .lines()
        .find_map(|l| l.trim().strip_prefix("2. "))
        .expect("the second candidate is listed");
    let path = second.split_whitespace().next().unwrap();
    assert_has(&out, &format!("White plays {path}."));
    let first = out
        .lines()
        .find_map(|l| l.trim().strip_prefix("1. "))
        .unwrap();
    assert_ne!(first.split_whitespace().next().unwrap(), path);
    assert_has(&out, "Kroon (Black) plays");
}

#[test]
fn a_choice_lasts_one_line() {
    let out = session("fen W:WK43:B6,24,29,39,41\n43x46\nmoves\n1\n");
    assert_has(&out, "fits 2 captures");
    assert_has(&out, "There is nothing to choose with 1");
}

#[test]
fn undo_and_redo_go_one_ply_each() {
    let out =
        session("level depth 3\nfen\n32-28\nfen\nundo\nundo\nundo\nfen\nredo\nredo\nredo\nfen\n");
    let f = fens(&out);
    assert_eq!(f.len(), 4, "{out}");
    assert_eq!(f[0], f[2]);
    assert_eq!(f[1], f[3]);
    assert_ne!(f[0], f[1]);
    assert_eq!(out.matches("Took back one move.").count(), 2);
    assert_has(&out, "There is no move to undo.");
    assert_eq!(out.matches("Played the move again.").count(), 2);
    assert_has(&out, "There is no move to redo.");
    // Undo does not make Kroon move again by itself.
    assert_eq!(out.matches("Kroon thinks").count(), 1);
}

#[test]
fn swap_makes_kroon_play_white_at_once() {
    let out = session("level depth 3\nswap\nmoves\n");
    assert_has(&out, "Kroon now plays White; you play Black.");
    assert_has(&out, "Kroon (White) plays ");
    assert_has(&out, "Move 1, Black to move (you).");
    assert_has(&out, "9 legal moves");
}

#[test]
fn go_makes_kroon_play_the_side_to_move() {
    let out = session("level depth 2\ngo\n");
    assert_has(&out, "Kroon (White) plays ");
    assert_has(&out, "Black to move (you)");
}

#[test]
fn a_game_is_played_to_its_end() {
    // White's capture takes Black's last piece.
    let out = session("fen W:W28:B23\n28x19\n32-28\ngo\nhint\n");
    assert_has(&out, "White plays 28x19.");
    assert_has(&out, "Game over: White wins (Black has no legal move). 2-0");
    assert_has(&out, "The game is over: White wins");
    assert!(!out.contains("Kroon thinks"), "{out}");

    // Kroon finds the winning capture itself.
    let out = session("level depth 3\nfen B:W28:B23\ngo\n");
    assert_has(&out, "Kroon (Black) plays 23x32.");
    assert_has(&out, "Game over: Black wins (White has no legal move). 0-2");

    // Kroon's reply ends the game after the player's move.
    let out = session("level depth 3\nfen W:W33:B23\n33-28\n");
    assert_has(&out, "Kroon (Black) plays 23x32.");
    assert_has(&out, "Game over: Black wins (White has no legal move). 0-2");
}

#[test]
fn the_clocks_and_the_25_move_counter_are_shown() {
    let out = session("level time 5m+3\nboard\n");
    assert_has(&out, "Clocks: White 5:00  Black 5:00");
    // Clocks are written in seconds on every front end; one used to minutes is told.
    let out = session("level time 5+3\n");
    assert_has(
        &out,
        "time 5+3 (5 s for the game (write 5m+3 for minutes), +3 s a move)",
    );
    let out = session("level depth 2\nfen W:WK46:BK1\n46-41\n");
    assert_has(&out, "25-move rule: 2 of 50 plies");
}

#[test]
fn bad_input_gets_a_clear_message_and_play_goes_on() {
    let mut script = b"level depth 3\nfoo\n32-23\n33-29x\n0-0\nfen W:W99\nfen nonsense\nlevel depth 0\nlevel speed 9\nlevel time 5+x\nsave\nload /nonexistent/kroon.pdn\n5\nundo please\n".to_vec();
    script.extend_from_slice(b"\xff\xfe\x00garbage\n");
    script.extend_from_slice("x".repeat(100_000).as_bytes());
    script.extend_from_slice(b"\n999999999999999999999999999\n32-28\n");
    let (out, ok) = session_bytes(&script);
    assert!(ok, "{out}");
    assert_has(&out, "unknown command 'foo'");
    assert_has(&out, "Illegal move: '32-23' is not a legal move here");
    assert_has(&out, "Not a move: '33-29x' is not a move");
    assert_has(&out, "Not a move: '0-0' is not a move");
    assert_has(&out, "Bad FEN: ");
    assert_eq!(out.matches("Bad FEN: ").count(), 2, "{out}");
    assert_has(&out, "depth must be a whole number from 1 to 100, not '0'");
    assert_has(&out, "write level depth N");
    assert_has(
        &out,
        "'5+x' is not a clock: write [moves/]seconds[+increment]",
    );
    assert_has(&out, "'save' needs a file name");
    assert_has(&out, "Not loaded: cannot read /nonexistent/kroon.pdn");
    assert_has(&out, "There is nothing to choose with 5");
    assert_has(&out, "'undo' takes nothing after it");
    assert_has(&out, "too large a number");
    // Still playing after all that.
    assert_has(&out, "White plays 32-28.");
    assert_has(&out, "Kroon (Black) plays ");
}

#[test]
fn save_and_load_round_trip_and_load_is_lenient() {
    let dir = Scratch::new("text-mode");
    let saved = dir.join("game.pdn");
    let saved = saved.to_str().unwrap();
    let out = session(&format!(
        "level depth 3\n32-28\nfen\nsave {saved}\nnew\nload {saved}\nfen\n"
    ));
    assert_has(&out, &format!("Saved the game to {saved}."));
    assert_has(&out, &format!("Loaded {saved} (2 plies)."));
    let f = fens(&out);
    assert_eq!(f[0], f[1], "{out}");
    let text = std::fs::read_to_string(saved).unwrap();
    assert!(text.contains("[FEN \"W:W31,32,"), "{text}");
    assert!(text.contains("[GameType \"20\"]"), "{text}");
    assert!(text.contains("[Black \"Kroon\"]"), "{text}");
    assert!(text.contains("1. 32-28 "), "{text}");
    assert!(text.trim_end().ends_with('*'), "{text}");

    // A hand-written file: comments, variations, numbers stuck to moves, a result.
    let written = dir.join("written.pdn");
    std::fs::write(
        &written,
        "[Event \"club\"]\n\n1.32-28 {centre} 19-23 (1... 17-22) 2. 28x19 14x23 1-1\n",
    )
    .unwrap();
    let written = written.to_str().unwrap();
    let out = session(&format!("load {written}\nfen\n"));
    assert_has(&out, "(4 plies)");
    assert_has(&out, "Move 3, White to move");

    // An unplayable move names where it is; the game in play is kept.
    let broken = dir.join("broken.pdn");
    std::fs::write(
        &broken,
        "[FEN \"W:W31-50:B1-20\"]\n1. 32-28 19-24 2. 28-33\n",
    )
    .unwrap();
    let broken = broken.to_str().unwrap();
    let out = session(&format!("fen\nload {broken}\nfen\n"));
    assert_has(&out, "Not loaded: ");
    assert_has(&out, "move 3 ('28-33')");
    let f = fens(&out);
    assert_eq!(f[0], f[1]);

    let bad_fen = dir.join("bad-fen.pdn");
    std::fs::write(&bad_fen, "[FEN \"W:W51\"]\n").unwrap();
    let out = session(&format!("load {}\n", bad_fen.to_str().unwrap()));
    assert_has(&out, "bad FEN tag 'W:W51'");
}

#[test]
fn quit_and_end_of_input_leave_cleanly() {
    let (out, ok) = session_bytes(b"");
    assert!(ok);
    assert_has(&out, "Goodbye.");
    let out = session("quit\n32-28\n");
    assert_has(&out, "Goodbye.");
    assert!(!out.contains("White plays"), "{out}");
    // A last line without its newline is still read.
    let out = session("level depth 2");
    assert_has(&out, "Level set: depth 2.");
}

#[test]
fn help_lists_the_commands() {
    let out = session("help\n");
    for command in [
        "go", "new", "undo", "redo", "swap", "level", "fen", "moves", "hint", "save", "load",
        "help", "quit",
    ] {
        assert_has(&out, &format!("\n  {command}"));
    }
}
