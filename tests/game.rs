//! The game record: undo and redo, the result, and every FMJD draw rule reached in a
//! game played out move by move through `Game::play_text`.

use kroon::board::draw::{repetitions, DrawReason};
use kroon::board::movegen::{has_capture, legal_moves};
use kroon::board::notation::hub_move;
use kroon::board::{Move, Position, Side};
use kroon::game::{Game, GameError, GameResult};
use kroon::play::Outcome;

fn game(fen: &str) -> Game {
    Game::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"))
}

fn play(game: &mut Game, texts: &[&str]) {
    for t in texts {
        game.play_text(t)
            .unwrap_or_else(|e| panic!("{t} in {}: {e}", game.position()));
    }
}

/// Plays `plies` quiet king moves through `play_text`, each to a position not seen
/// before in the game and leaving the opponent no capture, so that nothing but the
/// clock moves on. Checks before each move that the game is still going.
fn shuffle_kings(game: &mut Game, plies: usize) {
    for ply in 0..plies {
        assert_eq!(
            game.result(),
            None,
            "game ended early at shuffle ply {ply}: {}",
            game.position()
        );
        let pos = *game.position();
        let side = pos.side_to_move();
        let mut moves: Vec<Move> = game.legal_moves();
        moves.sort_by_key(|&m| hub_move(m));
        let mv = moves
            .into_iter()
            .filter(|m| !m.is_capture() && pos.kings(side).contains(m.from()))
            .find(|&m| {
                let next = pos.play(m);
                !game.keys().contains(&next.key()) && !has_capture(&next)
            })
            .unwrap_or_else(|| panic!("no quiet fresh king move in {pos}"));
        assert_eq!(game.play_text(&hub_move(mv)), Ok(mv));
    }
}

/// Plays a man move (through `play_text`) that leaves the opponent no capture.
fn man_move(game: &mut Game) -> Move {
    let pos = *game.position();
    let side = pos.side_to_move();
    let mut moves = game.legal_moves();
    moves.sort_by_key(|&m| hub_move(m));
    let mv = moves
        .into_iter()
        .filter(|m| !m.is_capture() && pos.men(side).contains(m.from()))
        .find(|&m| !has_capture(&pos.play(m)))
        .unwrap_or_else(|| panic!("no safe man move in {pos}"));
    assert_eq!(game.play_text(&hub_move(mv)), Ok(mv));
    mv
}

/// Makes a king move of the side to move after which the opponent's king must capture
/// it, then plays that capture: a king capture at a chosen moment.
fn give_away_a_king(game: &mut Game) -> Move {
    let pos = *game.position();
    let side = pos.side_to_move();
    let mut moves = game.legal_moves();
    moves.sort_by_key(|&m| hub_move(m));
    let offer = moves
        .into_iter()
        .filter(|m| !m.is_capture() && pos.kings(side).contains(m.from()))
        .find(|&m| {
            let next = pos.play(m);
            let replies = legal_moves(&next);
            replies.len() == 1
                && replies[0].captured().count() == 1
                && next.kings(side.opponent()).contains(replies[0].from())
        })
        .unwrap_or_else(|| panic!("no king to give away in {pos}"));
    game.play_text(&hub_move(offer)).unwrap();
    let capture = game.legal_moves()[0];
    assert!(capture.is_capture());
    game.play_text(&hub_move(capture)).unwrap();
    capture
}

#[test]
fn undo_and_redo() {
    let mut g = Game::new();
    let start = *g.position();
    play(&mut g, &["32-28", "19-23"]);
    let before_capture = *g.position();
    let capture = g.play_text("28x19").unwrap();
    let after_capture = *g.position();
    assert_eq!(g.moves().len(), 3);
    assert_eq!(g.positions().len(), 4);
    assert_eq!(g.keys().len(), 4);

    assert_eq!(g.undo(), Some(capture));
    assert_eq!(*g.position(), before_capture);
    assert_eq!(g.keys().last(), Some(&before_capture.key()));
    assert_eq!(g.side_to_move(), Side::White);
    assert_eq!(g.redo(), Some(capture));
    assert_eq!(*g.position(), after_capture);
    assert_eq!(g.redo(), None, "nothing left to redo");

    // Undo everything, redo everything.
    for _ in 0..3 {
        assert!(g.undo().is_some());
    }
    assert_eq!(g.undo(), None);
    assert_eq!(*g.position(), start);
    assert_eq!(g.moves().len(), 0);
    for _ in 0..3 {
        assert!(g.redo().is_some());
    }
    assert_eq!(*g.position(), after_capture);

    // Playing the move that would be redone keeps the rest of the redo list;
    // playing another one forgets it.
    g.undo();
    g.undo();
    g.play_text("19-23").unwrap();
    assert_eq!(g.redo(), Some(capture));
    g.undo();
    g.undo();
    g.play_text("18-22").unwrap();
    assert_eq!(g.redo(), None);

    // Reset goes back to the start position of the game.
    g.reset();
    assert_eq!(*g.position(), start);
    assert!(g.moves().is_empty());
    assert_eq!(g.redo(), None);
}

#[test]
fn bad_moves_are_errors_and_change_nothing() {
    let mut g = Game::new();
    assert!(matches!(g.play_text("32-37"), Err(GameError::Move(_))));
    assert!(matches!(g.play_text("junk"), Err(GameError::Move(_))));
    let foreign = legal_moves(&Position::initial().with_side_to_move(Side::Black))[0];
    assert_eq!(g.play(foreign), Err(GameError::Illegal(foreign)));
    assert_eq!(*g.position(), Position::initial());
    assert!(g.moves().is_empty());
}

#[test]
fn a_side_without_pieces_or_moves_loses() {
    // White takes Black's last piece.
    let mut g = game("W:W28:B23");
    assert_eq!(g.result(), None);
    play(&mut g, &["28x19"]);
    assert_eq!(g.result(), Some(GameResult::Win(Side::White)));
    assert_eq!(g.winner(), Some(Side::White));
    assert!(g.legal_moves().is_empty());
    assert!(matches!(
        g.play_text("19-14"),
        Err(GameError::Over(GameResult::Win(Side::White)))
    ));
    assert_eq!(Outcome::from(GameResult::Win(Side::White)).pdn(), "2-0");
    // White blocks Black's last man: 35 can neither step to 40 nor jump it (44 is taken).
    let mut g = game("W:W44,45:B35");
    play(&mut g, &["45-40"]);
    assert!(legal_moves(g.position()).is_empty());
    assert_eq!(g.result(), Some(GameResult::Win(Side::White)));
    // Undo brings the game back to life.
    g.undo();
    assert_eq!(g.result(), None);
    // Black wins the same way.
    let g = game("W:W46:B41,37");
    assert_eq!(g.result(), Some(GameResult::Win(Side::Black)));
    assert_eq!(Outcome::from(g.result().unwrap()).pdn(), "0-2");
}

#[test]
fn threefold_repetition_with_shuffling_kings() {
    // Kings and men on both sides: no limited ending, only repetition can draw.
    let mut g = game("W:WK46,31,32:BK5,19,20");
    let cycle = ["46-41", "5-10", "41-46", "10-5"];
    play(&mut g, &cycle);
    assert_eq!(g.draw(), None, "second occurrence is no draw");
    play(&mut g, &cycle[..3]);
    assert_eq!(g.draw(), None);
    assert_eq!(g.result(), None);
    play(&mut g, &cycle[3..]);
    assert_eq!(g.draw(), Some(DrawReason::Repetition));
    assert_eq!(g.result(), Some(GameResult::Draw(DrawReason::Repetition)));
    assert_eq!(Outcome::from(g.result().unwrap()).pdn(), "1-1");
    assert!(g.legal_moves().is_empty());
    assert!(matches!(g.play_text("46-41"), Err(GameError::Over(_))));
    // The same position with the other side to move does not count: back one ply.
    g.undo();
    assert_eq!(g.draw(), None);
}

#[test]
fn repetition_count_only_reaches_back_over_reversible_plies() {
    let keys = [1, 2, 3, 2, 3, 2, 3];
    assert_eq!(repetitions(&keys, 6), 3);
    assert_eq!(repetitions(&keys, 3), 2);
    assert_eq!(repetitions(&keys, 1), 1);
    assert_eq!(repetitions(&keys, 0), 1);
    assert_eq!(repetitions(&[], 5), 0);
    // Positions an odd number of plies back have the other side to move.
    assert_eq!(repetitions(&[7, 7, 7], 2), 2);
}

#[test]
fn a_man_move_starts_the_repetition_count_afresh() {
    let mut g = game("W:WK46,31,32:BK5,19,20");
    play(
        &mut g,
        &["46-41", "5-10", "41-46", "10-5", "46-41", "5-10", "41-46"],
    );
    // The man move comes where the third occurrence would have been.
    play(&mut g, &["20-25"]);
    assert_eq!(g.draw(), None);
    assert_eq!(g.draw_clock().reversible_plies(), 0);
    // Black's king now stands on 10.
    play(&mut g, &["46-41", "10-5", "41-46", "5-10"]);
    assert_eq!(g.draw_clock().reversible_plies(), 4);
    assert_eq!(g.draw(), None, "second occurrence after the man move");
    play(&mut g, &["46-41", "10-5", "41-46"]);
    assert_eq!(g.draw(), None);
    play(&mut g, &["5-10"]);
    assert_eq!(g.draw(), Some(DrawReason::Repetition));
}

#[test]
fn twenty_five_move_rule_exactly_at_the_twenty_fifth_move_of_each() {
    // Two kings and two men each: no limited ending applies.
    let fen = "W:WK47,K50,36,45:BK1,K5,6,15";
    let mut g = game(fen);
    assert_eq!(g.draw_clock().king_move_plies(), 0);
    shuffle_kings(&mut g, 49);
    assert_eq!(g.draw_clock().king_move_plies(), 49);
    assert_eq!(g.draw(), None, "24 moves by Black is not yet 25");
    shuffle_kings(&mut g, 1);
    assert_eq!(g.draw_clock().king_move_plies(), 50);
    assert_eq!(
        g.result(),
        Some(GameResult::Draw(DrawReason::TwentyFiveMoves))
    );
    assert!(matches!(g.play_text("36-31"), Err(GameError::Over(_))));
}

#[test]
fn twenty_five_move_count_is_reset_by_a_man_move() {
    let mut g = game("W:WK47,K50,36,45:BK1,K5,6,15");
    shuffle_kings(&mut g, 30);
    man_move(&mut g);
    assert_eq!(g.draw_clock().king_move_plies(), 0);
    shuffle_kings(&mut g, 49);
    assert_eq!(g.draw(), None);
    shuffle_kings(&mut g, 1);
    assert_eq!(g.draw(), Some(DrawReason::TwentyFiveMoves));
}

#[test]
fn twenty_five_move_count_is_reset_by_a_capture() {
    // Three kings and a man against two kings and a man.
    let mut g = game("W:WK47,K48,K50,36:BK1,K5,6");
    shuffle_kings(&mut g, 20);
    let capture = give_away_a_king(&mut g);
    assert!(capture.is_capture());
    assert_eq!(g.draw_clock().king_move_plies(), 0);
    shuffle_kings(&mut g, 49);
    assert_eq!(g.draw(), None);
    shuffle_kings(&mut g, 1);
    assert_eq!(g.draw(), Some(DrawReason::TwentyFiveMoves));
}

#[test]
fn sixteen_move_rule_three_kings_against_one() {
    // Three kings against two; Black gives one away and the ending of three kings
    // against one starts there.
    let mut g = game("B:WK47,K48,K50:BK1,K5");
    shuffle_kings(&mut g, 6);
    let capture = give_away_a_king(&mut g);
    assert!(
        g.position().kings(Side::White).count() == 3
            && g.position().kings(Side::Black).count() == 1
    );
    assert!(capture.is_capture());
    // Black moves first in the ending: 31 plies is 16 moves by Black, 15 by White.
    shuffle_kings(&mut g, 31);
    assert_eq!(g.draw(), None);
    shuffle_kings(&mut g, 1);
    assert_eq!(g.result(), Some(GameResult::Draw(DrawReason::SixteenMoves)));
}

#[test]
fn sixteen_move_rule_with_men_and_from_the_start() {
    // A king and two men against a king: men may move; the count still runs.
    let mut g = game("W:WK47,36,45:BK1");
    shuffle_kings(&mut g, 10);
    man_move(&mut g);
    assert_eq!(g.draw_clock().king_move_plies(), 0);
    shuffle_kings(&mut g, 20);
    assert_eq!(g.draw(), None);
    shuffle_kings(&mut g, 1);
    assert_eq!(g.draw(), Some(DrawReason::SixteenMoves));
    // Two kings and a man against a king.
    let mut g = game("B:WK47,K48,36:BK1");
    shuffle_kings(&mut g, 31);
    assert_eq!(g.draw(), None);
    shuffle_kings(&mut g, 1);
    assert_eq!(g.draw(), Some(DrawReason::SixteenMoves));
}

#[test]
fn five_move_rule_two_kings_against_one() {
    let mut g = game("W:WK47,K50:BK1");
    shuffle_kings(&mut g, 9);
    assert_eq!(g.draw(), None, "White has made 5 moves, Black only 4");
    shuffle_kings(&mut g, 1);
    assert_eq!(g.result(), Some(GameResult::Draw(DrawReason::FiveMoves)));
    // A king and a man against a king; and a king against a king.
    for fen in ["W:WK47,36:BK1", "B:WK47:BK1"] {
        let mut g = game(fen);
        shuffle_kings(&mut g, 9);
        assert_eq!(g.draw(), None, "{fen}");
        shuffle_kings(&mut g, 1);
        assert_eq!(g.draw(), Some(DrawReason::FiveMoves), "{fen}");
    }
}

#[test]
fn five_move_rule_starts_when_the_ending_arises() {
    // Two kings against two: no limit until Black's king is taken.
    let mut g = game("B:WK47,K50:BK1,K5");
    shuffle_kings(&mut g, 20);
    assert_eq!(g.draw(), None);
    give_away_a_king(&mut g);
    assert_eq!(g.draw(), None);
    // Black moves first: 10 plies after the capture.
    shuffle_kings(&mut g, 9);
    assert_eq!(g.draw(), None);
    shuffle_kings(&mut g, 1);
    assert_eq!(g.draw(), Some(DrawReason::FiveMoves));
}

#[test]
fn pdn_movetext_numbering() {
    let mut g = Game::new();
    assert_eq!(g.pdn_movetext(), "");
    play(&mut g, &["32-28", "19-23", "28x19", "14x23"]);
    assert_eq!(g.pdn_movetext(), "1. 32-28 19-23 2. 28x19 14x23");
    play(&mut g, &["37-32"]);
    assert_eq!(g.pdn_movetext(), "1. 32-28 19-23 2. 28x19 14x23 3. 37-32");
    // A game starting with Black to move.
    let mut g = game("B:W31-50:B1-20");
    play(&mut g, &["19-23", "32-28", "23x32"]);
    assert_eq!(g.pdn_movetext(), "1... 19-23 2. 32-28 23x32");
    // A capture whose ends name two moves is written with its landing squares.
    let mut g = game("W:WK43:B6,24,29,39,41");
    play(&mut g, &["43x46x24x39x41"]);
    assert_eq!(g.pdn_movetext(), "1. 43x30x19x46");
}

#[test]
fn play_on_continues_past_a_draw_but_not_with_an_illegal_move() {
    let mut game = Game::from_fen("W:WK50:BK1").unwrap();
    for text in [
        "50-44", "1-7", "44-50", "7-1", "50-44", "1-7", "44-50", "7-1",
    ] {
        game.play_text(text).unwrap();
    }
    assert!(game.is_over(), "threefold repetition");
    let next = kroon::board::notation::parse_move(game.position(), "50-44").unwrap();
    assert!(game.play(next).is_err());
    game.play_on(next).unwrap();
    let bad = kroon::board::notation::parse_move(game.position(), "7-1").unwrap_err();
    assert!(matches!(bad, kroon::board::notation::MoveError::Illegal(_)));
}
