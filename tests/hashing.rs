//! The incremental Zobrist key (`Position::play`) equals the key computed from scratch
//! after every move of many random games, captures of kings and promotions included.

use kroon::board::movegen::legal_moves;
use kroon::board::{Position, Side};
use std::collections::HashMap;

/// xorshift64*: a fixed sequence, so the games are the same every run.
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        (self.0.wrapping_mul(0x2545_F491_4F6C_DD1D) % n as u64) as usize
    }
}

#[derive(Default, Debug)]
struct Seen {
    moves: usize,
    captures: usize,
    king_captures: usize,
    promotions: usize,
    king_moves: usize,
}

fn check_games(
    start: Position,
    games: usize,
    seed: u64,
    seen: &mut Seen,
    keys: &mut HashMap<u64, Position>,
) {
    let mut rng = Rng(seed);
    for _ in 0..games {
        let mut pos = start;
        assert_eq!(pos.key(), pos.compute_key());
        for _ in 0..300 {
            let moves = legal_moves(&pos);
            if moves.is_empty() {
                break;
            }
            let mv = moves[rng.below(moves.len())];
            let side = pos.side_to_move();
            let next = pos.play(mv);
            assert_eq!(next.key(), next.compute_key(), "after {mv:?} from {pos}");
            assert_ne!(next.key(), pos.key());
            // A fresh parse of the same position has the same key.
            assert_eq!(
                Position::from_fen(&next.to_fen()).unwrap().key(),
                next.key()
            );
            seen.moves += 1;
            if mv.is_capture() {
                seen.captures += 1;
            }
            if !(mv.captured() & pos.kings(side.opponent())).is_empty() {
                seen.king_captures += 1;
            }
            if pos.kings(side).contains(mv.from()) {
                seen.king_moves += 1;
            } else if next.kings(side).contains(mv.to()) {
                seen.promotions += 1;
            }
            // Different positions never share a key in these games.
            if let Some(other) = keys.insert(next.key(), next) {
                assert_eq!(other, next, "key collision");
            }
            pos = next;
        }
    }
}

#[test]
fn incremental_key_equals_full_key_over_random_games() {
    let mut seen = Seen::default();
    let mut keys = HashMap::new();
    check_games(
        Position::initial(),
        300,
        0x4b52_4f4f_4e00_0001,
        &mut seen,
        &mut keys,
    );
    // Positions rich in kings, so king captures and promotions happen often.
    for (i, fen) in [
        "W:W21,27,33,K38,44,45:B7,K12,16,18,K29",
        "B:WK6,24,28,31,K47:B2,9,K13,K36,39,40",
        "W:W6,7,8,K30:B43,44,K25,K21",
    ]
    .iter()
    .enumerate()
    {
        check_games(
            Position::from_fen(fen).unwrap(),
            200,
            0x1234 + i as u64,
            &mut seen,
            &mut keys,
        );
    }
    assert!(seen.moves > 20_000, "{seen:?}");
    assert!(seen.captures > 1000, "{seen:?}");
    assert!(seen.king_captures > 100, "{seen:?}");
    assert!(seen.promotions > 100, "{seen:?}");
    assert!(seen.king_moves > 1000, "{seen:?}");
}

#[test]
fn key_depends_on_the_side_to_move_and_every_piece() {
    let start = Position::initial();
    let black = start.with_side_to_move(Side::Black);
    assert_ne!(start.key(), black.key());
    assert_eq!(black.key(), black.compute_key());
    assert_eq!(black.with_side_to_move(Side::White), start);
    // Man and king on the same square, white and black on the same square: all differ.
    let variants = [
        "W:W28:B9",
        "W:WK28:B9",
        "W:W9:B28",
        "W:WK9:B28",
        "W:WK9:BK28",
        "B:W28:B9",
    ]
    .map(|f| Position::from_fen(f).unwrap().key());
    for i in 0..variants.len() {
        for j in 0..i {
            assert_ne!(variants[i], variants[j]);
        }
    }
    // The same position reached by two move orders has the same key.
    let play = |texts: &[&str]| {
        let mut p = start;
        for t in texts {
            p = p.play(kroon::board::notation::parse_move(&p, t).unwrap());
        }
        p
    };
    let a = play(&["32-28", "17-21", "34-29"]);
    let b = play(&["34-29", "17-21", "32-28"]);
    assert_eq!(a, b);
    assert_eq!(a.key(), b.key());
}
