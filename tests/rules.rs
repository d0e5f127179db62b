//! One test per FMJD rule, each on a small position built for it, asserting the exact
//! list of legal moves (sorted Hub strings). The expected lists were worked out by hand
//! on the board and checked against an independent mailbox generator.

use kroon::board::movegen::legal_moves;
use kroon::board::notation::hub_move;
use kroon::board::{Piece, Position, Side, Square};
use kroon::game::{Game, GameResult};

fn pos(fen: &str) -> Position {
    Position::from_fen(fen).unwrap_or_else(|e| panic!("bad test FEN {fen}: {e}"))
}

fn moves(fen: &str) -> Vec<String> {
    let mut list: Vec<String> = legal_moves(&pos(fen)).into_iter().map(hub_move).collect();
    list.sort();
    list
}

fn expect(fen: &str, expected: &[&str]) {
    let mut want: Vec<String> = expected.iter().map(|s| s.to_string()).collect();
    want.sort();
    assert_eq!(moves(fen), want, "legal moves of {fen}");
}

fn sq(n: u8) -> Square {
    Square::new(n).unwrap()
}

#[test]
fn initial_position_has_the_nine_opening_moves() {
    expect(
        "W:W31-50:B1-20",
        &[
            "31-26", "31-27", "32-27", "32-28", "33-28", "33-29", "34-29", "34-30", "35-30",
        ],
    );
    expect(
        "B:W31-50:B1-20",
        &[
            "16-21", "17-21", "17-22", "18-22", "18-23", "19-23", "19-24", "20-24", "20-25",
        ],
    );
}

#[test]
fn men_move_one_square_forward_only() {
    // White men move towards row 1; 26 and 45 stand on the edge and have one move each.
    expect("W:W26,28,45:B3", &["26-21", "28-22", "28-23", "45-40"]);
    // Black men move towards row 10; 36 stands on the edge.
    expect("B:W48:B13,36", &["13-18", "13-19", "36-41"]);
    // A man blocked in front by its own pieces has no move, and never moves back.
    expect("W:W22,23,28:B3", &["22-17", "22-18", "23-18", "23-19"]);
}

#[test]
fn men_capture_backwards() {
    expect("W:W28:B33", &["28x39x33"]);
    expect("B:W18:B23", &["23x12x18"]);
}

#[test]
fn capture_is_compulsory() {
    // 45 and 28 could move quietly, but 28 can take 23: only the capture is legal.
    expect("W:W28,45:B23,3", &["28x19x23"]);
    // The same for a king with many quiet moves: its own man blocks it, the man must take.
    expect("W:W28,K46:B23", &["28x19x23"]);
    // Without the capture the quiet moves are back.
    expect("W:W28,45:B3", &["28-22", "28-23", "45-40"]);
}

#[test]
fn kings_fly_along_free_diagonals() {
    // King on 28: every empty square of its four diagonals; its own man on 39 cuts the
    // diagonal to 50 and the black man on 5 (in the corner, so not capturable) ends the
    // one to 5 at 10.
    expect(
        "W:WK28,39:B5",
        &[
            "28-6", "28-11", "28-17", "28-22", // up left
            "28-10", "28-14", "28-19", "28-23", // up right
            "28-32", "28-37", "28-41", "28-46", // down left
            "28-33", // down right, up to its own man
            "39-33", "39-34",
        ],
    );
    // Black kings fly too: from 1 down the long diagonal to 45 (50 is off it), or to 6.
    expect(
        "B:W50:BK1",
        &[
            "1-6", "1-7", "1-12", "1-18", "1-23", "1-29", "1-34", "1-40", "1-45",
        ],
    );
}

#[test]
fn king_captures_at_distance_and_lands_anywhere_beyond() {
    // King on 46 takes 28 from afar and may land on 23, 19 or 14 (10 is its own man).
    expect("W:WK46,10:B28", &["46x23x28", "46x19x28", "46x14x28"]);
    // With nothing behind, every square to the edge.
    expect(
        "W:WK46:B28",
        &["46x23x28", "46x19x28", "46x14x28", "46x10x28", "46x5x28"],
    );
    // Two pieces in a row cannot be jumped.
    expect("W:WK46:B28,23,3", &["46-32", "46-37", "46-41"]);
}

#[test]
fn king_changes_direction_between_jumps() {
    // 46 takes 32, must land on 28 (the only square from which it continues), turns and
    // takes 22, landing on 17, 11 or 6.
    expect(
        "W:WK46:B32,22",
        &["46x17x22x32", "46x11x22x32", "46x6x22x32"],
    );
}

#[test]
fn multi_capture_must_be_completed() {
    // 33x22 alone is not legal: having taken 28 the man must go on over 17.
    expect("W:W33:B28,17", &["33x11x17x28"]);
    // A king, too, must go on: 46 takes 32, and may not stop on 28, 23, ... as long as
    // it can still take 22.
    let list = moves("W:WK46:B32,22");
    assert!(list.iter().all(|m| m.matches('x').count() == 3), "{list:?}");
}

#[test]
fn majority_rule_kings_and_men_count_the_same() {
    // 45 could take a black king, 33 takes two men: two men is more, so only 33 moves.
    expect("W:W33,45:B28,17,K40", &["33x11x17x28"]);
    // One king against one man: equal counts, the player chooses.
    expect("W:W33,45:B28,K40", &["33x22x28", "45x34x40"]);
    // A king taking two kings beats nothing special: the longest sequence for either piece.
    expect(
        "W:WK46,45:BK32,K22,40",
        &["46x17x22x32", "46x11x22x32", "46x6x22x32"],
    );
}

#[test]
fn turkish_strike_a_captured_piece_blocks_and_is_not_jumped_twice() {
    // The king on 28 takes 37 and lands on 41 or 46. With 37 removed at once it could turn
    // back along the same diagonal and take 10 as well (28x5 over 37 and 10); but 37 stays
    // on the board until the move ends and blocks the way back.
    expect("W:WK28:B10,37", &["28x41x37", "28x46x37", "28x5x10"]);
    // Alone, 37 is taken once: jumping it again on the way back is not allowed.
    expect("W:WK28:B37", &["28x41x37", "28x46x37"]);
    // A longer case: 17 takes 22 then 41 (landing on 46), or 22 and 10; after taking 22
    // and 41 it may not cross 22 again to reach 11 and 10.
    expect("W:WK17:B8,10,11,22,41", &["17x46x22x41", "17x5x10x22"]);
}

#[test]
fn man_passing_the_far_row_mid_capture_stays_a_man() {
    let start = pos("W:W13:B8,7");
    let list = legal_moves(&start);
    assert_eq!(
        list.iter().map(|&m| hub_move(m)).collect::<Vec<_>>(),
        ["13x11x7x8"]
    );
    let after = start.play(list[0]);
    assert_eq!(after.piece_at(sq(11)), Some(Piece::Man(Side::White)));
    assert!(after.kings(Side::White).is_empty());
    assert_eq!(after.pieces(Side::Black).count(), 0);
    // A man reaching the far row may not go on as a king would: from 2 a king could take
    // 11 at a distance, the man cannot, and the move ends (and promotes) on 2.
    let start = pos("W:W13:B8,11");
    let list = legal_moves(&start);
    assert_eq!(
        list.iter().map(|&m| hub_move(m)).collect::<Vec<_>>(),
        ["13x2x8"]
    );
    let after = start.play(list[0]);
    assert_eq!(after.piece_at(sq(2)), Some(Piece::King(Side::White)));
    assert_eq!(after.piece_at(sq(13)), None);
    assert_eq!(after.piece_at(sq(8)), None);
    // Black likewise: 38 takes 43 and lands on 49, its far row, then takes 44 backwards.
    let start = pos("B:W43,44:B38");
    let list = legal_moves(&start);
    assert_eq!(
        list.iter().map(|&m| hub_move(m)).collect::<Vec<_>>(),
        ["38x40x43x44"]
    );
    assert_eq!(
        start.play(list[0]).piece_at(sq(40)),
        Some(Piece::Man(Side::Black))
    );
    // A quiet move onto the far row promotes.
    let start = pos("B:W50:B42");
    let mv = legal_moves(&start)
        .into_iter()
        .find(|m| m.to() == sq(47))
        .unwrap();
    assert_eq!(
        start.play(mv).piece_at(sq(47)),
        Some(Piece::King(Side::Black))
    );
}

#[test]
fn same_ends_with_different_captured_pieces_are_two_moves() {
    // The king on 43 ends on 46 either way, having taken 24 or 29 on the way.
    expect(
        "W:WK43:B6,24,29,39,41",
        &["43x46x24x39x41", "43x46x29x39x41"],
    );
    let list = legal_moves(&pos("W:WK43:B6,24,29,39,41"));
    assert_eq!(list.len(), 2);
    assert_eq!(
        (list[0].from(), list[0].to()),
        (list[1].from(), list[1].to())
    );
    assert_ne!(list[0].captured(), list[1].captured());
}

#[test]
fn same_captured_set_by_two_paths_is_one_move() {
    // The man on 38 circles 28 over 32, 22, 23, 33 (or 33, 23, 22, 32) back to its start
    // square: two paths, one move.
    expect("W:W38:B32,22,33,23", &["38x38x22x23x32x33"]);
    let start = pos("W:W38:B32,22,33,23");
    let after = start.play(legal_moves(&start)[0]);
    assert_eq!(after.piece_at(sq(38)), Some(Piece::Man(Side::White)));
    assert_eq!(after.pieces(Side::Black).count(), 0);
    assert_eq!(after.key(), after.compute_key());
    // A king takes 37 and may land on 32 or 28 before taking 23: each landing after 23 is
    // one move, however it got there.
    expect(
        "W:WK46:B37,23",
        &["46x19x23x37", "46x14x23x37", "46x10x23x37", "46x5x23x37"],
    );
}

#[test]
fn no_legal_move_loses() {
    // White's only man is blocked (41 occupied, 37 behind it): White loses.
    expect("W:W46:B41,37", &[]);
    let game = Game::from_fen("W:W46:B41,37").unwrap();
    assert_eq!(game.result(), Some(GameResult::Win(Side::Black)));
    assert!(game.is_over());
    assert_eq!(game.winner(), Some(Side::Black));
    // No pieces at all.
    expect("W:W:B1", &[]);
    assert_eq!(
        Game::from_fen("W:W:B1").unwrap().result(),
        Some(GameResult::Win(Side::Black))
    );
    expect("B:W13:B", &[]);
    assert_eq!(
        Game::from_fen("B:W13:B").unwrap().winner(),
        Some(Side::White)
    );
    // A side that can still move has not lost.
    assert_eq!(Game::from_fen("B:W46:B41,37").unwrap().result(), None);
}

/// A plain mailbox generator written from the rules text, square by square, with none
/// of the engine's bit tricks: the engine must agree with it on random positions.
mod reference {
    use std::collections::BTreeSet;

    /// (row, column) of square 1-50; row 0 holds 1-5.
    fn coords(sq: u8) -> (i8, i8) {
        let row = (sq - 1) / 5;
        let i = (sq - 1) % 5;
        (
            row as i8,
            if row.is_multiple_of(2) {
                i * 2 + 1
            } else {
                i * 2
            } as i8,
        )
    }

    fn square(row: i8, col: i8) -> Option<u8> {
        ((0..10).contains(&row) && (0..10).contains(&col) && (row + col) % 2 == 1)
            .then(|| (row * 5 + col / 2 + 1) as u8)
    }

    fn next(sq: u8, (dr, dc): (i8, i8)) -> Option<u8> {
        let (r, c) = coords(sq);
        square(r + dr, c + dc)
    }

    const DIRS: [(i8, i8); 4] = [(-1, -1), (-1, 1), (1, -1), (1, 1)];

    /// board[sq] = Some((white, king)).
    pub type Board = [Option<(bool, bool)>; 51];

    struct Search<'a> {
        board: &'a Board,
        white: bool,
        start: u8,
        found: Vec<(u8, u8, BTreeSet<u8>)>,
    }

    impl Search<'_> {
        fn empty(&self, sq: Option<u8>) -> bool {
            sq.is_some_and(|s| s == self.start || self.board[s as usize].is_none())
        }

        fn enemy(&self, sq: u8) -> bool {
            matches!(self.board[sq as usize], Some((w, _)) if w != self.white)
        }

        fn jump(&mut self, at: u8, king: bool, taken: &BTreeSet<u8>) {
            let mut extended = false;
            for d in DIRS {
                let mut over = next(at, d);
                if king {
                    while self.empty(over) {
                        over = over.and_then(|o| next(o, d));
                    }
                }
                let Some(o) = over else { continue };
                if !self.enemy(o) || taken.contains(&o) {
                    continue;
                }
                let mut land = next(o, d);
                while self.empty(land) {
                    let l = land.unwrap();
                    let mut more = taken.clone();
                    more.insert(o);
                    extended = true;
                    self.jump(l, king, &more);
                    land = if king { next(l, d) } else { None };
                }
            }
            if !extended && !taken.is_empty() {
                self.found.push((self.start, at, taken.clone()));
            }
        }
    }

    /// The legal moves in Hub notation, sorted.
    pub fn moves(board: &Board, white: bool) -> Vec<String> {
        let mut captures = Vec::new();
        for sq in 1..=50u8 {
            if let Some((w, king)) = board[sq as usize] {
                if w == white {
                    let mut s = Search {
                        board,
                        white,
                        start: sq,
                        found: Vec::new(),
                    };
                    s.jump(sq, king, &BTreeSet::new());
                    captures.extend(s.found);
                }
            }
        }
        let mut out = BTreeSet::new();
        if let Some(most) = captures.iter().map(|c| c.2.len()).max() {
            for (from, to, taken) in captures.into_iter().filter(|c| c.2.len() == most) {
                let mut text = format!("{from}x{to}");
                for t in taken {
                    text.push_str(&format!("x{t}"));
                }
                out.insert(text);
            }
        } else {
            for sq in 1..=50u8 {
                let Some((w, king)) = board[sq as usize] else {
                    continue;
                };
                if w != white {
                    continue;
                }
                for d in DIRS {
                    if !king && (d.0 < 0) != white {
                        continue;
                    }
                    let mut to = next(sq, d);
                    while let Some(t) = to.filter(|&t| board[t as usize].is_none()) {
                        out.insert(format!("{sq}-{t}"));
                        to = if king { next(t, d) } else { None };
                    }
                }
            }
        }
        let mut list: Vec<String> = out.into_iter().collect();
        list.sort();
        list
    }
}

#[test]
fn engine_agrees_with_a_plain_reference_generator_on_random_positions() {
    let mut state = 0x9e37_79b9_7f4a_7c15u64;
    let mut rand = move |n: u64| {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state % n
    };
    let mut captures = 0;
    let mut king_captures = 0;
    for _ in 0..20_000 {
        let mut board: reference::Board = [None; 51];
        let pieces = 2 + rand(24);
        let king_odds = 1 + rand(4); // from mostly kings to mostly men
        for _ in 0..pieces {
            let sq = 1 + rand(50) as usize;
            let white = rand(2) == 0;
            let king = rand(king_odds) == 0;
            let promotion_row = if white { sq <= 5 } else { sq >= 46 };
            if king || !promotion_row {
                board[sq] = Some((white, king));
            }
        }
        let white_to_move = rand(2) == 0;
        let side = |w: bool| if w { 'W' } else { 'B' };
        let list = |w: bool| {
            (1..=50)
                .filter_map(|s| match board[s] {
                    Some((pw, k)) if pw == w => Some(format!("{}{s}", if k { "K" } else { "" })),
                    _ => None,
                })
                .collect::<Vec<_>>()
                .join(",")
        };
        let fen = format!("{}:W{}:B{}", side(white_to_move), list(true), list(false));
        let expected = reference::moves(&board, white_to_move);
        assert_eq!(moves(&fen), expected, "{fen}");
        let position = pos(&fen);
        // Perft's bulk count of the last ply agrees with the listed moves.
        assert_eq!(
            kroon::board::perft::perft(&position, 1),
            expected.len() as u64,
            "{fen}"
        );
        let two: usize = legal_moves(&position)
            .iter()
            .map(|&m| legal_moves(&position.play(m)).len())
            .sum();
        assert_eq!(
            kroon::board::perft::perft(&position, 2),
            two as u64,
            "{fen}"
        );
        if expected.first().is_some_and(|m| m.contains('x')) {
            captures += 1;
            let from: u8 = expected[0].split('x').next().unwrap().parse().unwrap();
            if position.kings(position.side_to_move()).contains(sq(from)) {
                king_captures += 1;
            }
        }
    }
    assert!(
        captures > 2000 && king_captures > 500,
        "{captures} captures, {king_captures} by kings"
    );
}
