//! The hand-set evaluation (version 1): fourteen terms over bitboards, weights set
//! by hand. It played the games the first learned weights were fitted to, and stays
//! as the baseline those weights are matched against (`eval=hand`).
//!
//! Every term is computed for White in its own orientation and for Black on the
//! board turned half a turn (in the padded layout that is a bit reversal), so one
//! function serves both sides and the evaluation is symmetric by construction. All
//! weights live in [`HandTerms`] so that a tuner can replace [`WEIGHTS`].

use kroon_rules::board::bitboard::BitIter;
use kroon_rules::board::movegen::look;
use kroon_rules::board::{Position, Side};

/// Evaluation weights, in hundredths of a man. `_mg` weights apply with all men on
/// the board and fade out as men leave it; `_eg` weights fade in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct HandTerms {
    pub man: i32,
    pub king: i32,
    /// Per row a man has advanced from its back row (0-8), middle game and endgame.
    pub advance_mg: [i32; 9],
    pub advance_eg: [i32; 9],
    /// Per man on the six central squares (22-24, 27-29).
    pub centre: i32,
    /// Per man of difference between the left and right wings (a penalty).
    pub wing_imbalance: i32,
    /// Per man on the back-row guard squares (47, 48, 49 for White), middle game.
    pub back_guard: i32,
    /// A man no enemy piece can stop: `runaway - runaway_per_row * rows to go`.
    pub runaway: i32,
    pub runaway_per_row: i32,
    /// Per empty square a king reaches in one move.
    pub king_mobility: i32,
    /// Per forward move available to men (a locked side runs out of moves).
    pub man_mobility: i32,
    /// Per man in the opponent's half held up by two men behind it.
    pub outpost: i32,
    /// Per man standing with a man of its own behind on both diagonals.
    pub formation: i32,
    /// A king on the long diagonal (46-5) in the endgame.
    pub main_diagonal: i32,
}

/// The weights in use.
pub const WEIGHTS: HandTerms = HandTerms {
    man: 100,
    king: 300,
    advance_mg: [0, 1, 2, 3, 3, 4, 4, 5, 6],
    advance_eg: [0, 4, 8, 12, 16, 20, 26, 32, 40],
    centre: 6,
    wing_imbalance: 4,
    back_guard: 8,
    runaway: 180,
    runaway_per_row: 25,
    king_mobility: 2,
    man_mobility: 2,
    outpost: 10,
    formation: 3,
    main_diagonal: 15,
};

/// Total men at the start; the game phase is measured by how many remain.
const PHASE_MEN: i32 = 40;

const fn bit_row(bit: u32) -> u32 {
    (bit - bit / 11) / 5
}

const fn bit_column(bit: u32) -> u32 {
    let i = bit - bit / 11;
    if (i / 5).is_multiple_of(2) {
        2 * (i % 5) + 1
    } else {
        2 * (i % 5)
    }
}

const fn is_square(bit: u32) -> bool {
    bit < 54 && bit % 11 != 10
}

const fn squares_mask(numbers: &[u32]) -> u64 {
    let mut m = 0u64;
    let mut k = 0;
    while k < numbers.len() {
        let i = numbers[k] - 1;
        m |= 1 << (i + i / 10);
        k += 1;
    }
    m
}

/// Squares by rows advanced from White's back row: `ADVANCED[0]` is squares 46-50.
const ADVANCED: [u64; 10] = {
    let mut rows = [0u64; 10];
    let mut bit = 0;
    while bit < 54 {
        if is_square(bit) {
            rows[9 - bit_row(bit) as usize] |= 1 << bit;
        }
        bit += 1;
    }
    rows
};

const LEFT_WING: u64 = {
    let mut m = 0u64;
    let mut bit = 0;
    while bit < 54 {
        if is_square(bit) && bit_column(bit) < 5 {
            m |= 1 << bit;
        }
        bit += 1;
    }
    m
};
const CENTRE: u64 = squares_mask(&[22, 23, 24, 27, 28, 29]);
const BACK_GUARD: u64 = squares_mask(&[47, 48, 49]);
/// Rows 4 to 1 from White's view: the opponent's half, where an outpost stands.
const OPPONENT_HALF: u64 = ADVANCED[5] | ADVANCED[6] | ADVANCED[7] | ADVANCED[8];
pub(crate) const MAIN_DIAGONAL: u64 = squares_mask(&[5, 10, 14, 19, 23, 28, 32, 37, 41, 46]);
/// Rows close enough to promotion to look for runaways (1-4 rows to go).
const RUNAWAY_ROWS: u64 = ADVANCED[5] | ADVANCED[6] | ADVANCED[7] | ADVANCED[8];

/// For a White man on each bit: the squares ahead from which an enemy piece could
/// still meet it on its way to promotion (its forward cone, widened by two columns).
const RUNAWAY_CONE: [u64; 64] = {
    let mut cones = [0u64; 64];
    let mut bit = 0;
    while bit < 54 {
        if is_square(bit) {
            let (row, col) = (bit_row(bit) as i32, bit_column(bit) as i32);
            let mut other = 0;
            while other < 54 {
                if is_square(other) {
                    let (r, c) = (bit_row(other) as i32, bit_column(other) as i32);
                    let ahead = row - r;
                    let dc = if c > col { c - col } else { col - c };
                    if ahead > 0 && dc <= ahead + 2 {
                        cones[bit as usize] |= 1 << other;
                    }
                }
                other += 1;
            }
        }
        bit += 1;
    }
    cones
};

/// The board turned half a turn: square n becomes square 51 - n.
#[inline(always)]
pub(crate) const fn rotate(bits: u64) -> u64 {
    bits.reverse_bits() >> 10
}

/// The masks of one side, in board orientation (Black's are White's turned half a
/// turn), so that evaluating Black needs no rotation of the position.
struct Masks {
    advanced: [u64; 10],
    left_wing: u64,
    centre: u64,
    back_guard: u64,
    opponent_half: u64,
    runaway_rows: u64,
    /// By the man's own bit.
    runaway_cone: [u64; 64],
}

const WHITE_MASKS: Masks = Masks {
    advanced: ADVANCED,
    left_wing: LEFT_WING,
    centre: CENTRE,
    back_guard: BACK_GUARD,
    opponent_half: OPPONENT_HALF,
    runaway_rows: RUNAWAY_ROWS,
    runaway_cone: RUNAWAY_CONE,
};

const BLACK_MASKS: Masks = {
    let mut advanced = [0u64; 10];
    let mut i = 0;
    while i < 10 {
        advanced[i] = rotate(ADVANCED[i]);
        i += 1;
    }
    let mut runaway_cone = [0u64; 64];
    let mut bit = 0;
    while bit < 54 {
        if is_square(bit) {
            runaway_cone[53 - bit as usize] = rotate(RUNAWAY_CONE[bit as usize]);
        }
        bit += 1;
    }
    Masks {
        advanced,
        left_wing: rotate(LEFT_WING),
        centre: rotate(CENTRE),
        back_guard: rotate(BACK_GUARD),
        opponent_half: rotate(OPPONENT_HALF),
        runaway_rows: rotate(RUNAWAY_ROWS),
        runaway_cone,
    }
};

/// The pieces of one side and its opponent.
struct View {
    men: u64,
    kings: u64,
    their_men: u64,
    their_kings: u64,
    empty: u64,
}

#[inline(always)]
fn popcount(bits: u64) -> i32 {
    bits.count_ones() as i32
}

/// Squares a king reaches in one move from `kings` (counted per king, with overlaps).
#[inline]
pub(crate) fn king_reach(kings: u64, empty: u64) -> i32 {
    BitIter(kings)
        .map(|king| {
            (0..4)
                .map(|dir| popcount(look(1 << king, dir, empty).0))
                .sum::<i32>()
        })
        .sum()
}

/// One diagonal step forward for a side's men (`BLACK`: towards square 50).
#[inline(always)]
const fn forward<const BLACK: bool>(bits: u64, shift: u32) -> u64 {
    if BLACK {
        bits << shift
    } else {
        bits >> shift
    }
}

/// Terms for one side: (middle-game part, endgame part, phase-free part).
#[inline(always)]
fn side_terms<const BLACK: bool>(v: &View, w: &HandTerms) -> (i32, i32, i32) {
    let m = if BLACK { &BLACK_MASKS } else { &WHITE_MASKS };
    let men = v.men;
    let own = v.men | v.kings;
    let mut mg = 0;
    let mut eg = 0;
    let mut flat = w.man * popcount(men) + w.king * popcount(v.kings);

    // Both phases' advancement in one sum: the endgame's part in the high half of an
    // i64, the middle game's in the low half (a negative one borrows from the high
    // half, which the subtraction below gives back). Half the multiplications.
    let mut advance = 0i64;
    for (d, &mask) in m.advanced.iter().enumerate().take(9) {
        let pair = (i64::from(w.advance_eg[d]) << 32) + i64::from(w.advance_mg[d]);
        advance += i64::from(popcount(men & mask)) * pair;
    }
    let advance_mg = advance as i32;
    mg += advance_mg;
    eg += ((advance - i64::from(advance_mg)) >> 32) as i32;
    mg += w.centre * popcount(men & m.centre);
    let left = popcount(men & m.left_wing);
    mg -= w.wing_imbalance * (2 * left - popcount(men)).abs();
    mg += w.back_guard * popcount(men & m.back_guard);

    flat += w.man_mobility * man_moves::<BLACK>(men, v.empty);
    // A man with own pieces behind it on both diagonals cannot be taken from the front.
    let backed = men & forward::<BLACK>(own, 5) & forward::<BLACK>(own, 6);
    flat += w.formation * popcount(backed);
    mg += w.outpost * popcount(backed & m.opponent_half);

    if v.kings != 0 {
        flat += w.king_mobility * king_reach(v.kings, v.empty);
        eg += w.main_diagonal * popcount(v.kings & MAIN_DIAGONAL).min(1);
    }

    // Runaways. Against kings they count for less (a king crosses the board in one
    // move and may stop the man) but not for nothing: a man let through to promote
    // gives the defender the king that draws, which is how won endgames were lost.
    {
        let enemy = v.their_men;
        let (bonus, per_row) = if v.their_kings == 0 {
            (w.runaway, w.runaway_per_row)
        } else {
            (w.runaway / 2, w.runaway_per_row / 2)
        };
        runaways::<BLACK>(men, enemy, v.empty, |rows_to_go| {
            flat += bonus - per_row * rows_to_go;
        });
    }
    (mg, eg, flat)
}

/// Kings make endgames drawish: a side needs much more than a small edge to win once
/// the defender has a king, and a lone king holds against up to three pieces. The
/// number to divide a White-view score by, given which side it favours (`white_ahead`),
/// or 0 when the position is a draw whatever the score (a lone king against at most
/// three pieces: the 16- and 5-move rules draw it).
#[must_use]
#[inline]
pub fn king_ending_divisor(pos: &Position, white_ahead: bool) -> i32 {
    let kings = pos.king_bits();
    if kings == 0 {
        return 1;
    }
    let (white, black) = (pos.side_bits(Side::White), pos.side_bits(Side::Black));
    let (white_kings, black_kings) = (popcount(white & kings), popcount(black & kings));
    let (weak_kings, weak_n, strong_n) = if white_ahead {
        (black_kings, popcount(black), popcount(white))
    } else {
        (white_kings, popcount(white), popcount(black))
    };
    if weak_kings > 0 && weak_n == 1 && strong_n <= 3 {
        0
    } else if weak_kings > 0 {
        if strong_n <= 3 {
            8
        } else {
            2
        }
    } else if white_kings > 0 && black_kings > 0 {
        2
    } else {
        1
    }
}

/// Calls `each` with the rows to go of every man of a side (`BLACK` or White) that no
/// enemy man can stop on its way to promotion.
#[inline(always)]
pub(crate) fn runaways<const BLACK: bool>(
    men: u64,
    enemy_men: u64,
    empty: u64,
    mut each: impl FnMut(i32),
) {
    let m = if BLACK { &BLACK_MASKS } else { &WHITE_MASKS };
    let mut candidates = men & m.runaway_rows;
    while candidates != 0 {
        let bit = candidates.trailing_zeros();
        candidates &= candidates - 1;
        let at = 1u64 << bit;
        let free_step = (forward::<BLACK>(at, 5) | forward::<BLACK>(at, 6)) & empty != 0;
        if free_step && m.runaway_cone[bit as usize] & enemy_men == 0 {
            let row = bit_row(bit) as i32;
            each(if BLACK { 9 - row } else { row });
        }
    }
}

/// Forward moves a side's men have (a locked side runs out of them).
#[inline(always)]
pub(crate) fn man_moves<const BLACK: bool>(men: u64, empty: u64) -> i32 {
    popcount(forward::<BLACK>(men, 5) & empty) + popcount(forward::<BLACK>(men, 6) & empty)
}

/// The hand-set evaluation of a position from the side to move's view, in hundredths
/// of a man. Meant for quiet positions (no capture pending for the side to move).
#[must_use]
pub fn evaluate(pos: &Position) -> i32 {
    evaluate_with(pos, &WEIGHTS)
}

/// [`evaluate`] with other weights (for tuning).
#[must_use]
pub fn evaluate_with(pos: &Position, w: &HandTerms) -> i32 {
    let white = pos.side_bits(Side::White);
    let black = pos.side_bits(Side::Black);
    let kings = pos.king_bits();
    let empty = pos.empty().0;
    let white_view = View {
        men: white & !kings,
        kings: white & kings,
        their_men: black & !kings,
        their_kings: black & kings,
        empty,
    };
    let black_view = View {
        men: black & !kings,
        kings: black & kings,
        their_men: white & !kings,
        their_kings: white & kings,
        empty,
    };
    let (wm, we, wf) = side_terms::<false>(&white_view, w);
    let (bm, be, bf) = side_terms::<true>(&black_view, w);
    let phase = popcount((white | black) & !kings).min(PHASE_MEN);
    let score = wf - bf + ((wm - bm) * phase + (we - be) * (PHASE_MEN - phase)) / PHASE_MEN;
    let score = match king_ending_divisor(pos, score > 0) {
        0 => return 0,
        d => score / d,
    };
    match pos.side_to_move() {
        Side::White => score,
        Side::Black => -score,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use kroon_rules::board::{Bitboard, Square};

    fn bb(squares: &[u8]) -> Bitboard {
        Bitboard::from_squares(squares.iter().map(|&n| Square::new(n).unwrap()))
    }

    fn pos(white: &[u8], black: &[u8], kings: &[u8], side: Side) -> Position {
        Position::new(bb(white), bb(black), bb(kings), side).unwrap()
    }

    #[test]
    fn start_is_balanced_and_rotation_is_exact() {
        assert_eq!(evaluate(&Position::initial()), 0);
        for n in 1..=50u32 {
            let i = n - 1;
            let rotated = rotate(1 << (i + i / 10));
            let j = 50 - n;
            assert_eq!(rotated, 1 << (j + j / 10), "square {n}");
        }
    }

    #[test]
    fn mirrored_positions_score_the_same() {
        let a = pos(
            &[28, 33, 34, 38, 44],
            &[12, 17, 18, 19, 24],
            &[],
            Side::White,
        );
        let mirror = |s: &[u8]| s.iter().map(|&n| 51 - n).collect::<Vec<u8>>();
        let b = pos(
            &mirror(&[12, 17, 18, 19, 24]),
            &mirror(&[28, 33, 34, 38, 44]),
            &[],
            Side::Black,
        );
        assert_eq!(evaluate(&a), evaluate(&b));
    }

    #[test]
    fn negative_advancement_weights_stay_in_their_phase() {
        // The two phases' advancement is summed packed in one integer; a negative
        // middle-game weight must not leak into the endgame's half.
        let p = pos(&[31, 32, 33, 34, 35, 36], &[18], &[], Side::White);
        let mut none = WEIGHTS;
        none.advance_mg = [0; 9];
        none.advance_eg = [0; 9];
        let mut w = none;
        w.advance_mg[3] = -50;
        // Men on the row 3 rows up: White 5, Black 1; 7 men, so the middle game
        // counts 7/40.
        let expected = (5 - 1) * -50 * 7 / 40;
        let got = evaluate_with(&p, &w) - evaluate_with(&p, &none);
        assert!((got - expected).abs() <= 1, "{got} vs {expected}");
    }

    #[test]
    fn material_and_runaways_count() {
        let up = pos(&[31, 32, 33], &[18, 19], &[], Side::White);
        assert!(evaluate(&up) > 50);
        assert!(evaluate(&up.with_side_to_move(Side::Black)) < -50);
        // A White man on 7 with nothing ahead promotes.
        let runaway = pos(&[7, 45], &[30, 35], &[], Side::White);
        let blocked = pos(&[17, 45], &[1, 35], &[], Side::White);
        assert!(evaluate(&runaway) > evaluate(&blocked) + 100);
        let king = pos(&[3], &[30], &[3], Side::White);
        assert!(evaluate(&king) > 0);
    }
}
