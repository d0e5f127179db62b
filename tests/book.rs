//! The opening book through the engine API and the `kroon book` commands.

mod common;

use common::Scratch;
use kroon::board::notation::hub_move;
use kroon::book::{Book, BookUse};
use kroon::engine::{EngineSetup, GoMode, TimeControl};
use kroon::game::Game;
use std::collections::HashSet;
use std::sync::{Arc, Mutex};

/// Plays `plies` plies from the start, both sides engines of `setup` with the book
/// seeded by `seed` (out of the book, a search of a few nodes moves); the moves, and
/// how many came from the book.
fn opening(setup: &EngineSetup, seed: u64, plies: usize) -> (Vec<String>, usize) {
    let mut engine = setup.engine();
    engine.set_book(BookUse {
        seed,
        ..setup.book.clone()
    });
    let mut game = Game::new();
    let mut line = Vec::new();
    let mut from_book = 0;
    for _ in 0..plies {
        let heard = Arc::new(Mutex::new(false));
        let flag = Arc::clone(&heard);
        engine.go(
            &game,
            TimeControl::Nodes(1000),
            GoMode::Think,
            move |info| *flag.lock().unwrap() |= info.from_book,
            |_| {},
        );
        let mv = engine.wait().best_move.expect("a move");
        if *heard.lock().unwrap() {
            from_book += 1;
        }
        line.push(hub_move(mv));
        game.play(mv).unwrap();
    }
    (line, from_book)
}

#[test]
fn twenty_games_from_the_book_open_in_at_least_five_ways() {
    let setup = EngineSetup::default();
    assert!(setup.book.book.is_some(), "the built-in book is used");
    let games: Vec<(Vec<String>, usize)> = (0..20).map(|seed| opening(&setup, seed, 6)).collect();
    // The book knows every position of the first plies: both sides play from it.
    assert!(games.iter().all(|(_, book)| *book >= 3), "{games:?}");
    let distinct: HashSet<&Vec<String>> = games.iter().map(|(line, _)| line).collect();
    assert!(distinct.len() >= 5, "{games:?}");
    // The same seed plays the same line.
    assert_eq!(opening(&setup, 7, 6), opening(&setup, 7, 6));
}

#[test]
fn the_built_in_book_is_big_and_answers_every_first_move() {
    let book = Book::builtin().unwrap();
    assert!(book.entries().len() >= 20_000, "{}", book.entries().len());
    let start = kroon::board::Position::initial();
    for m in book.moves(&start).unwrap() {
        let after = start.play(m.mv);
        assert!(
            book.moves(&after).is_some(),
            "no book reply to {}",
            hub_move(m.mv)
        );
    }
}

fn kroon(args: &[&str]) -> std::process::Output {
    common::kroon().args(args).output()
}

#[test]
fn book_commands_build_extend_show_and_refuse_damage() {
    let dir = Scratch::new("book");
    let out = dir.join("small.bin");
    let out_text = out.to_str().unwrap();
    let build = |positions: &str| {
        let run = kroon(&[
            "book",
            "build",
            "--out",
            out_text,
            "--positions",
            positions,
            "--nodes",
            "3000",
            "--threads",
            "2",
        ]);
        assert!(run.status.success(), "{run:?}");
        let err = String::from_utf8_lossy(&run.stderr).to_string();
        assert!(
            err.contains("positions ") && err.contains("/s") && err.contains("eta"),
            "{err}"
        );
    };
    build("100");
    build("200");
    let stats = kroon(&["book", "stats", "--book", out_text]);
    let text = String::from_utf8_lossy(&stats.stdout);
    let count: usize = text
        .split_whitespace()
        .nth(1)
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("{text}"));
    assert!(count >= 200, "{text}");
    assert!(text.contains("--nodes 3000"), "{text}");
    // Another leaf budget would mix incomparable scores: refused.
    let mixed = kroon(&[
        "book",
        "build",
        "--out",
        out_text,
        "--positions",
        "300",
        "--nodes",
        "4000",
    ]);
    assert!(!mixed.status.success());
    assert!(String::from_utf8_lossy(&mixed.stderr).contains("3000"));

    let show = kroon(&[
        "book",
        "show",
        "--book",
        out_text,
        "--fen",
        "W:W31-50:B1-20",
    ]);
    let text = String::from_utf8_lossy(&show.stdout);
    assert_eq!(text.lines().count(), 9, "{text}");
    assert!(text.lines().next().unwrap().starts_with('*'), "{text}");

    let mut bytes = std::fs::read(&out).unwrap();
    let last = bytes.len() - 20;
    bytes[last] ^= 0x55;
    std::fs::write(&out, bytes).unwrap();
    let refused = kroon(&["book", "stats", "--book", out_text]);
    assert!(!refused.status.success());
    let err = String::from_utf8_lossy(&refused.stderr);
    assert!(
        err.contains("small.bin") && err.contains("checksum"),
        "{err}"
    );
}
