//! Position strings (FEN, Hub, DXP) and move text: round trips over positions from
//! random games, the forms the issue names, and errors (never panics) on bad input.

use kroon::board::movegen::legal_moves;
use kroon::board::notation::{
    capture_path, hub_move, parse_move, pdn_move, MoveError, MoveText, PositionTextError,
};
use kroon::board::{Move, Piece, Position, PositionError, Side, Square};

/// A small deterministic PRNG (xorshift64*), so the random games are the same every run.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// Every position of `games` random games from the start (each up to 200 plies).
fn random_positions(seed: u64, games: usize) -> Vec<Position> {
    let mut rng = Rng(seed);
    let mut out = Vec::new();
    for _ in 0..games {
        let mut pos = Position::initial();
        for _ in 0..200 {
            out.push(pos);
            let moves = legal_moves(&pos);
            if moves.is_empty() {
                break;
            }
            pos = pos.play(moves[rng.below(moves.len())]);
        }
    }
    out
}

fn sq(n: u8) -> Square {
    Square::new(n).unwrap()
}

fn fen(text: &str) -> Position {
    Position::from_fen(text).unwrap_or_else(|e| panic!("{text}: {e}"))
}

#[test]
fn position_strings_round_trip_over_random_games() {
    let positions = random_positions(0x6b72_6f6f_6e01, 60);
    assert!(positions.len() > 3000);
    let with_kings = positions
        .iter()
        .filter(|p| !p.kings(Side::White).is_empty() || !p.kings(Side::Black).is_empty())
        .count();
    assert!(
        with_kings > 100,
        "random games should reach kings ({with_kings})"
    );
    for pos in &positions {
        let f = pos.to_fen();
        assert_eq!(Position::from_fen(&f).as_ref(), Ok(pos), "FEN {f}");
        assert_eq!(f.parse::<Position>().as_ref(), Ok(pos));
        assert_eq!(pos.to_string(), f);
        let hub = pos.to_hub();
        assert_eq!(hub.len(), 51);
        assert_eq!(Position::from_hub(&hub).as_ref(), Ok(pos), "Hub {hub}");
        assert_eq!(hub.parse::<Position>().as_ref(), Ok(pos));
        let dxp = pos.to_dxp();
        assert_eq!(dxp.len(), 51);
        assert_eq!(Position::from_dxp(&dxp).as_ref(), Ok(pos), "DXP {dxp}");
        // The three strings agree square by square.
        for (i, (h, d)) in hub.chars().zip(dxp.chars()).enumerate().skip(1) {
            let expected = match pos.piece_at(sq(i as u8)) {
                None => ('e', 'e'),
                Some(Piece::Man(Side::White)) => ('w', 'w'),
                Some(Piece::Man(Side::Black)) => ('b', 'z'),
                Some(Piece::King(Side::White)) => ('W', 'W'),
                Some(Piece::King(Side::Black)) => ('B', 'Z'),
            };
            assert_eq!((h, d), expected);
        }
    }
}

#[test]
fn exact_strings_of_the_initial_position() {
    let start = Position::initial();
    let fen_text = format!(
        "W:W{}:B{}",
        (31..=50)
            .map(|n| n.to_string())
            .collect::<Vec<_>>()
            .join(","),
        (1..=20)
            .map(|n| n.to_string())
            .collect::<Vec<_>>()
            .join(",")
    );
    assert_eq!(start.to_fen(), fen_text);
    assert_eq!(
        start.to_hub(),
        format!("W{}{}{}", "b".repeat(20), "e".repeat(10), "w".repeat(20))
    );
    assert_eq!(
        start.to_dxp(),
        format!("W{}{}{}", "z".repeat(20), "e".repeat(10), "w".repeat(20))
    );
}

#[test]
fn fen_ranges_kings_and_wrappers() {
    let start = Position::initial();
    assert_eq!(fen("W:W31-50:B1-20"), start);
    assert_eq!(fen("W:W31-40,41-50:B1-10,11,12,13,14-20"), start);
    assert_eq!(fen("[FEN \"W:W31-50:B1-20\"]"), start);
    assert_eq!(fen("  \"W:W31-50:B1-20\"  "), start);
    assert_eq!(fen("W:W31-50:B1-20."), start);
    // Black's list may come first; lower-case side letters are accepted.
    assert_eq!(fen("W:B1-20:W31-50"), start);
    assert_eq!(fen("w:w31-50:b1-20"), start);

    let p = fen("B:WK1-3,28:B11,K45-46");
    assert_eq!(p.side_to_move(), Side::Black);
    for n in [1, 2, 3] {
        assert_eq!(p.piece_at(sq(n)), Some(Piece::King(Side::White)));
    }
    assert_eq!(p.piece_at(sq(28)), Some(Piece::Man(Side::White)));
    assert_eq!(p.piece_at(sq(11)), Some(Piece::Man(Side::Black)));
    assert_eq!(p.piece_at(sq(45)), Some(Piece::King(Side::Black)));
    assert_eq!(p.piece_at(sq(46)), Some(Piece::King(Side::Black)));
    assert_eq!(p.occupied().count(), 7);
    assert_eq!(p.to_fen(), "B:WK1,K2,K3,28:B11,K45,K46");
    assert_eq!(fen(&p.to_fen()), p);
    // Empty sides.
    let empty = fen("W:W:B");
    assert!(empty.occupied().is_empty());
    assert_eq!(empty.to_fen(), "W:W:B");
}

#[test]
fn bad_position_strings_are_errors() {
    let syntax = [
        "",
        "X:W31-50:B1-20",
        "Q",
        "W:X31",
        "W:W31-50:B1-20:W21",
        "W:W31-50:B0",
        "W:W31-51:B1-20",
        "W:W31-50:B1-2x",
        "W:W50-31:B1-20",
        "W:W31,31:B1",
        "W:W31:B31",
        "W:W31:B-",
        "W:W31:BK",
        "W:W31:B1-",
        "W:W31:B123",
        "W:W31:B+1",
        "W:WKK31:B1",
        "[FEN \"W:W31-50:B1-20\"",
    ];
    for text in syntax {
        let err = Position::from_fen(text).expect_err(text);
        assert!(!err.to_string().is_empty());
        assert!(text.parse::<Position>().is_err(), "{text}");
    }
    // A man on its own promotion row: White on 1-5, Black on 46-50.
    assert_eq!(
        Position::from_fen("W:W3:B20"),
        Err(PositionTextError::Invalid(
            PositionError::ManOnPromotionRow(sq(3))
        ))
    );
    assert_eq!(
        Position::from_fen("B:W33:B48"),
        Err(PositionTextError::Invalid(
            PositionError::ManOnPromotionRow(sq(48))
        ))
    );
    assert!(
        Position::from_fen("B:WK3:BK48").is_ok(),
        "kings may stand there"
    );
    // Overlapping pieces in Hub cannot be written; in FEN they are refused.
    assert!(Position::from_fen("W:W20,31:B20").is_err());

    let hub = Position::initial().to_hub();
    let dxp = Position::initial().to_dxp();
    for (text, why) in [
        (String::new(), "empty"),
        (hub[..50].to_string(), "too short"),
        (format!("{hub}e"), "too long"),
        (format!("X{}", &hub[1..]), "bad side"),
        (format!("{}q{}", &hub[..10], &hub[11..]), "bad square"),
        (
            format!("{}z{}", &hub[..10], &hub[11..]),
            "DXP letter in Hub",
        ),
        (
            format!("{}w{}", &hub[..2], &hub[3..]),
            "white man on square 2",
        ),
        (
            format!("{}b{}", &hub[..48], &hub[49..]),
            "black man on square 48",
        ),
        (format!("{}é{}", &hub[..10], &hub[11..]), "non-ASCII"),
    ] {
        assert!(Position::from_hub(&text).is_err(), "Hub {why}: {text}");
    }
    for (text, why) in [
        (dxp[..50].to_string(), "too short"),
        (format!("B{}", &dxp[1..]), "B is not DXP's black"),
        (
            format!("{}b{}", &dxp[..10], &dxp[11..]),
            "Hub letter in DXP",
        ),
        (
            format!("{}z{}", &dxp[..48], &dxp[49..]),
            "black man on square 48",
        ),
    ] {
        assert!(Position::from_dxp(&text).is_err(), "DXP {why}: {text}");
    }
    assert_eq!(Position::from_dxp(&dxp), Ok(Position::initial()));
    assert_eq!(
        Position::from_hub(&format!("{}w{}", &hub[..2], &hub[3..])),
        Err(PositionTextError::Invalid(
            PositionError::ManOnPromotionRow(sq(2))
        ))
    );
}

fn resolve(pos: &Position, text: &str) -> Move {
    parse_move(pos, text).unwrap_or_else(|e| panic!("{text} in {pos}: {e}"))
}

#[test]
fn quiet_and_short_capture_text() {
    let start = Position::initial();
    let mv = resolve(&start, "32-28");
    assert_eq!(
        (mv.from(), mv.to(), mv.is_capture()),
        (sq(32), sq(28), false)
    );
    assert_eq!(resolve(&start, " 32-28 "), mv);
    assert_eq!(
        parse_move(&start, "32-27").map(hub_move),
        Ok("32-27".into())
    );
    // Not legal: a man backwards, too far, a capture written as a move, an empty square.
    for text in ["32-37", "32-23", "28-23", "20-25", "32x23", "1-6"] {
        assert!(
            matches!(parse_move(&start, text), Err(MoveError::Illegal(_))),
            "{text}"
        );
    }
    // The short capture form, unique here.
    let pos = fen("W:W28,45:B23,3");
    let mv = resolve(&pos, "28x19");
    assert_eq!(hub_move(mv), "28x19x23");
    assert_eq!(resolve(&pos, "28:19"), mv);
    assert_eq!(resolve(&pos, "28X19"), mv);
    assert!(matches!(
        parse_move(&pos, "28-19"),
        Err(MoveError::Illegal(_))
    ));
    assert!(
        matches!(parse_move(&pos, "45-40"), Err(MoveError::Illegal(_))),
        "capture is compulsory"
    );
}

#[test]
fn short_capture_is_ambiguous_when_two_moves_share_the_ends() {
    let pos = fen("W:WK43:B6,24,29,39,41");
    match parse_move(&pos, "43x46") {
        Err(MoveError::Ambiguous { candidates, .. }) => {
            let mut c = candidates.clone();
            c.sort();
            assert_eq!(c, ["43x46x24x39x41", "43x46x29x39x41"]);
        }
        other => panic!("expected ambiguous, got {other:?}"),
    }
    let err = parse_move(&pos, "43x46").unwrap_err();
    assert!(err.to_string().contains("43x46x24x39x41"), "{err}");
    // Hub's form names one of them, captured squares in any order.
    let a = resolve(&pos, "43x46x24x39x41");
    let b = resolve(&pos, "43x46x29x39x41");
    assert_ne!(a, b);
    assert_eq!(resolve(&pos, "43x46x41x24x39"), a);
    assert_eq!(resolve(&pos, "43x46x39x41x24"), a);
    assert_eq!(resolve(&pos, "43x46x41x39x29"), b);
    // A PDN path through the landing squares names one too.
    assert_eq!(resolve(&pos, "43x30x19x46"), a);
    assert_eq!(resolve(&pos, "43x34x23x46"), b);
    // Too few or wrong captured squares are illegal.
    for text in [
        "43x46x24x39",
        "43x46x24x39x41x29",
        "43x46x24x24x39",
        "43x46x6x39x41",
        "43x35x19x46",
    ] {
        assert!(
            matches!(parse_move(&pos, text), Err(MoveError::Illegal(_))),
            "{text}"
        );
    }
    // pdn_move writes the landing squares so the text names one move.
    for mv in legal_moves(&pos) {
        let text = pdn_move(&pos, mv);
        assert!(text.split('x').count() > 2, "{text}");
        assert_eq!(resolve(&pos, &text), mv);
    }
}

#[test]
fn pdn_paths_through_any_landing_squares() {
    // The man circling 28 back to 38: both directions, and the short forms.
    let pos = fen("W:W38:B32,22,33,23");
    let mv = legal_moves(&pos)[0];
    for text in [
        "38x38",
        "38x38x22x23x32x33",
        "38x38x33x32x23x22",
        "38x27x18x29x38",
        "38x29x18x27x38",
        "38x18x38",
    ] {
        assert_eq!(resolve(&pos, text), mv, "{text}");
    }
    assert!(
        parse_move(&pos, "38x27x29x18x38").is_err(),
        "landing squares out of order"
    );
    // A king that may land on 32 or 28 between its two jumps: either path names the move.
    let pos = fen("W:WK46:B37,23");
    let mv = resolve(&pos, "46x14x23x37");
    for text in ["46x14", "46x32x14", "46x28x14", "46x14x37x23"] {
        assert_eq!(resolve(&pos, text), mv, "{text}");
    }
    assert!(
        parse_move(&pos, "46x19x14").is_err(),
        "19 is not a landing square before 14"
    );
    // The path helper gives a real path: start, landings, end.
    let path = capture_path(&pos, mv).unwrap();
    assert_eq!(path.first(), Some(&sq(46)));
    assert_eq!(path.last(), Some(&sq(14)));
    assert_eq!(path.len(), 3);
}

#[test]
fn hub_and_pdn_move_text_parse_back_for_every_legal_move() {
    let positions = random_positions(0x5eed_0002, 40);
    let mut captures = 0;
    let mut multi = 0;
    for pos in &positions {
        for mv in legal_moves(pos) {
            assert_eq!(resolve(pos, &hub_move(mv)), mv);
            assert_eq!(resolve(pos, &pdn_move(pos, mv)), mv);
            let text: MoveText = hub_move(mv).parse().unwrap();
            assert_eq!(text.resolve(pos), Ok(mv));
            if mv.is_capture() {
                captures += 1;
                let path = capture_path(pos, mv).expect("a capture has a path");
                assert_eq!((path[0], *path.last().unwrap()), (mv.from(), mv.to()));
                assert_eq!(path.len(), mv.captured().count() as usize + 1);
                let written = path
                    .iter()
                    .map(|s| s.to_string())
                    .collect::<Vec<_>>()
                    .join("x");
                if mv.captured().count() > 1 {
                    multi += 1;
                    assert_eq!(resolve(pos, &written), mv, "{written}");
                }
            }
        }
    }
    assert!(
        captures > 1000 && multi > 50,
        "{captures} captures, {multi} multiple"
    );
}

#[test]
fn move_text_built_by_hand_without_squares_is_an_error() {
    let start = Position::initial();
    for squares in [vec![], vec![sq(32)]] {
        for capture in [false, true] {
            let text = MoveText {
                squares: squares.clone(),
                capture,
            };
            assert!(text.resolve(&start).is_err());
        }
    }
}

#[test]
fn garbage_move_text_is_a_syntax_error() {
    let start = Position::initial();
    for text in [
        "",
        "-",
        "x",
        "32",
        "32-",
        "-28",
        "32--28",
        "32-28-23",
        "32-2 8",
        "a-b",
        "32x",
        "x28",
        "0-5",
        "51-46",
        "32-28x",
        "32 28",
        "３２-２８",
        "-1-5",
        "32-028",
        "99999999999999999999-1",
    ] {
        match parse_move(&start, text) {
            Err(MoveError::Syntax(m)) => assert!(!m.is_empty()),
            other => panic!("{text:?} gave {other:?}"),
        }
    }
}

/// Random strings of bytes (as lossy UTF-8) and mutations of good strings through every
/// parser: each answers Ok or Err, never panics.
#[test]
fn junk_never_panics() {
    let mut rng = Rng(0x0bad_c0de);
    let alphabet = b"WBwbeZzK0123456789-x:,.[]\" FENXH\t\n\xc3\xa9";
    let seeds = [
        Position::initial().to_fen(),
        Position::initial().to_hub(),
        Position::initial().to_dxp(),
        "B:WK1-3,28:B11,K45-46".to_string(),
        "[FEN \"W:W31-50:B1-20\"]".to_string(),
        "43x46x24x39x41".to_string(),
        "38x27x18x29x38".to_string(),
        "32-28".to_string(),
    ];
    let positions = [
        Position::initial(),
        fen("W:WK43:B6,24,29,39,41"),
        fen("W:W38:B32,22,33,23"),
    ];
    let mut ok = 0;
    for i in 0..6000 {
        let bytes: Vec<u8> = if i % 2 == 0 {
            let len = rng.below(60);
            (0..len)
                .map(|_| {
                    if rng.below(4) == 0 {
                        rng.next() as u8
                    } else {
                        alphabet[rng.below(alphabet.len())]
                    }
                })
                .collect()
        } else {
            let mut b = seeds[rng.below(seeds.len())].clone().into_bytes();
            for _ in 0..=rng.below(4) {
                let at = rng.below(b.len() + 1);
                match rng.below(3) {
                    0 if at < b.len() => b[at] = alphabet[rng.below(alphabet.len())],
                    1 if at < b.len() => {
                        b.remove(at);
                    }
                    _ => b.insert(at, alphabet[rng.below(alphabet.len())]),
                }
            }
            b
        };
        let text = String::from_utf8_lossy(&bytes);
        let results = [
            Position::from_fen(&text).is_ok(),
            Position::from_hub(&text).is_ok(),
            Position::from_dxp(&text).is_ok(),
            text.parse::<Position>().is_ok(),
        ];
        ok += results.iter().filter(|&&r| r).count();
        if let Ok(p) = Position::from_fen(&text) {
            assert_eq!(Position::from_fen(&p.to_fen()), Ok(p));
            assert_eq!(p.key(), p.compute_key());
        }
        if let Ok(mt) = text.parse::<MoveText>() {
            assert!(mt.squares.len() >= 2);
        }
        for pos in &positions {
            if parse_move(pos, &text).is_ok() {
                ok += 1;
            }
        }
    }
    assert!(ok > 0, "some mutations should still parse");
}
