//! Legal move generation under the FMJD rules.
//!
//! Captures are compulsory and the sequence taking the most pieces must be played;
//! the generator only ever returns such moves, each captured set once per pair of
//! ends (two paths capturing the same pieces between the same squares are one move).
//! While a capture is under way the captured pieces stay on the board: they block the
//! way and cannot be jumped twice, and the capturing piece's own start square counts
//! as empty. A man that passes the far row during a capture stays a man.

use super::bitboard::{BitIter, ALL};
use super::moves::Move;
use super::position::{Position, Side};

/// The four diagonal steps in the padded layout: towards higher numbers (Black's
/// forward) by 5 and 6 bits, towards lower numbers (White's forward) by 5 and 6 bits.
/// `dir ^ 2` is the opposite direction.
#[inline(always)]
const fn step(bits: u64, dir: usize) -> u64 {
    match dir {
        0 => bits << 5,
        1 => bits << 6,
        2 => bits >> 5,
        _ => bits >> 6,
    }
}

/// `RAYS[dir][bit]`: the squares a king on `bit` sees in `dir` on an empty board.
const RAYS: [[u64; 64]; 4] = {
    let mut rays = [[0u64; 64]; 4];
    let mut dir = 0;
    while dir < 4 {
        let mut bit = 0;
        while bit < 64 {
            if ALL & (1 << bit) != 0 {
                let mut at = step(1 << bit, dir) & ALL;
                while at != 0 {
                    rays[dir][bit] |= at;
                    at = step(at, dir) & ALL;
                }
            }
            bit += 1;
        }
        dir += 1;
    }
    rays
};

/// What a piece on `at` (one bit) sees in `dir`: the empty squares up to the first
/// occupied one, and that square (0 at the edge). Without branches: a king's rays
/// are short and of every length, and loops over them mispredicted at their ends.
#[inline(always)]
pub fn look(at: u64, dir: usize, empty: u64) -> (u64, u64) {
    let ray = RAYS[dir][at.trailing_zeros() as usize];
    let blockers = ray & !empty;
    if dir < 2 {
        // Towards higher bits: the first blocker is the lowest.
        let first = blockers & blockers.wrapping_neg();
        (ray & first.wrapping_sub(1), first)
    } else {
        // Towards lower bits: the highest. `above` is every bit above it (all of
        // them when there is none; no square uses bit 63, so the shift is below 64).
        let above = u64::MAX << (64 - blockers.leading_zeros());
        let first = blockers & (above >> 1) & !above;
        (ray & above, first)
    }
}

#[inline(always)]
const fn forward_dirs(side: Side) -> [usize; 2] {
    match side {
        Side::White => [2, 3],
        Side::Black => [0, 1],
    }
}

/// The legal moves of the side to move.
#[must_use]
pub fn legal_moves(pos: &Position) -> Vec<Move> {
    let mut moves = Vec::with_capacity(48);
    generate(pos, &mut moves);
    moves
}

/// Fills `out` (cleared first) with the legal moves of the side to move.
pub fn generate(pos: &Position, out: &mut Vec<Move>) {
    out.clear();
    if has_capture(pos) {
        generate_captures(pos, out);
    } else {
        generate_quiet(pos, out);
    }
}

/// Whether the side to move must capture.
#[must_use]
#[inline]
pub fn has_capture(pos: &Position) -> bool {
    side_can_capture(pos, pos.side_to_move())
}

/// Whether `side` could capture if it were its move: for the side to move, whether
/// it must capture; for the other side, whether it threatens to.
#[must_use]
#[inline]
pub fn side_can_capture(pos: &Position, side: Side) -> bool {
    let us = pos.side_bits(side);
    let them = pos.side_bits(side.opponent());
    let empty = pos.empty().0;
    let men = us & !pos.king_bits();
    // All four directions at once: a branch per direction mispredicts more than the
    // three extra shifts cost.
    let jumps = (0..4).fold(0, |acc, dir| acc | step(step(men, dir) & them, dir));
    if jumps & empty != 0 {
        return true;
    }
    let kings = us & pos.king_bits();
    kings != 0 && kings_can_capture(kings, them, empty)
}

/// The number of legal moves, without listing them where the board's shape allows:
/// quiet moves by popcount, and captures when each is a single jump by a man.
#[must_use]
#[inline]
pub fn count_legal(pos: &Position, scratch: &mut Vec<Move>) -> u64 {
    let side = pos.side_to_move();
    let us = pos.side_bits(side);
    let them = pos.side_bits(side.opponent());
    let empty = pos.empty().0;
    let men = us & !pos.king_bits();
    let kings = us & pos.king_bits();
    // Squares from which a jump in each direction is possible.
    let mut can_jump = [0u64; 4];
    let mut men_jump = 0;
    for (dir, jump) in can_jump.iter_mut().enumerate() {
        *jump = step(step(empty, dir ^ 2) & them, dir ^ 2);
        men_jump |= men & *jump;
    }
    let kings_jump = kings != 0 && kings_can_capture(kings, them, empty);
    if men_jump != 0 || kings_jump {
        if !kings_jump {
            if let Some(n) = count_single_jumps(men, &can_jump) {
                return n;
            }
        }
        scratch.clear();
        generate_captures(pos, scratch);
        return scratch.len() as u64;
    }
    let [a, b] = forward_dirs(side);
    let mut count = (step(men, a) & empty).count_ones() + (step(men, b) & empty).count_ones();
    if kings != 0 {
        for dir in 0..4 {
            let mut ray = step(kings, dir) & empty;
            while ray != 0 {
                count += ray.count_ones();
                ray = step(ray, dir) & empty;
            }
        }
    }
    count as u64
}

#[inline]
fn kings_can_capture(kings: u64, them: u64, empty: u64) -> bool {
    BitIter(kings).any(|king| {
        (0..4).fold(0, |jumps, dir| {
            let (_, first) = look(1 << king, dir, empty);
            jumps | step(first & them, dir)
        }) & empty
            != 0
    })
}

/// The number of captures when no man can jump on after its first jump: then every
/// (man, direction) jump is one distinct legal move. `None` when some man can.
#[inline]
fn count_single_jumps(men: u64, can_jump: &[u64; 4]) -> Option<u64> {
    // Without a branch per direction: which directions have jumpers is random.
    let mut count = 0;
    let mut onward = 0;
    for dir in 0..4 {
        let jumpers = men & can_jump[dir];
        let landings = step(step(jumpers, dir), dir);
        // Going back the way it came would jump the captured piece again; every other
        // direction sees the board as before the jump (the start square lies behind).
        onward |= landings & (can_jump[dir] | can_jump[dir ^ 1] | can_jump[dir ^ 3]);
        count += u64::from(jumpers.count_ones());
    }
    (onward == 0).then_some(count)
}

/// Appends the quiet moves. For a caller that already knows no capture is pending
/// (see [`has_capture`]); otherwise they are not legal.
pub fn generate_quiet(pos: &Position, out: &mut Vec<Move>) {
    let side = pos.side_to_move();
    let us = pos.side_bits(side);
    let empty = pos.empty().0;
    let men = us & !pos.king_bits();
    for dir in forward_dirs(side) {
        for to in BitIter(step(men, dir) & empty) {
            let from = step(1u64 << to, dir ^ 2).trailing_zeros();
            out.push(Move::from_bits(from, to, 0));
        }
    }
    for from in BitIter(us & pos.king_bits()) {
        for dir in 0..4 {
            let (mut to, _) = look(1 << from, dir, empty);
            // Nearest first, as the engine's move order has always had them.
            while to != 0 {
                let next = if dir < 2 {
                    to & to.wrapping_neg()
                } else {
                    1 << (63 - to.leading_zeros())
                };
                out.push(Move::from_bits(from, next.trailing_zeros(), 0));
                to ^= next;
            }
        }
    }
}

/// Appends the maximum captures; `out` must be empty. For a caller that already
/// knows a capture is pending (see [`has_capture`]); otherwise it appends nothing.
pub fn generate_captures(pos: &Position, out: &mut Vec<Move>) {
    let side = pos.side_to_move();
    let us = pos.side_bits(side);
    let them = pos.side_bits(side.opponent());
    let empty = pos.empty().0;
    let mut search = CaptureSearch {
        out,
        best: 1,
        from: 0,
        enemy: them,
        empty,
    };
    let men = us & !pos.king_bits();
    let kings = us & pos.king_bits();
    // Only men with a first jump are explored: a man at x jumps in `dir` when
    // x + dir holds an enemy and x + 2 dir is empty.
    let mut can_jump = [0u64; 4];
    let mut starters = 0;
    for (dir, jump) in can_jump.iter_mut().enumerate() {
        *jump = step(step(empty, dir ^ 2) & them, dir ^ 2);
        starters |= *jump;
    }
    let starters = starters & men;
    // Most captures are one man taking one piece. When no man can jump on and no king
    // can capture, every first jump is a whole legal move: list them without the
    // search, in the order it would find them.
    if count_single_jumps(men, &can_jump).is_some()
        && !(kings != 0 && kings_can_capture(kings, them, empty))
    {
        for from in BitIter(starters) {
            let at = 1u64 << from;
            for (dir, &jump) in can_jump.iter().enumerate() {
                if at & jump != 0 {
                    let over = step(at, dir);
                    let to = step(over, dir).trailing_zeros();
                    search.out.push(Move::from_bits(from, to, over));
                }
            }
        }
        return;
    }
    for from in BitIter(starters) {
        let at = 1u64 << from;
        search.from = from;
        search.empty = empty | at;
        search.man(at, 0, 0);
    }
    for from in BitIter(kings) {
        let at = 1u64 << from;
        search.from = from;
        search.empty = empty | at;
        search.king(at);
    }
}

struct CaptureSearch<'a> {
    out: &'a mut Vec<Move>,
    /// The most pieces any sequence found so far takes (at least one).
    best: u32,
    from: u32,
    enemy: u64,
    /// Empty squares, the capturing piece's start square included.
    empty: u64,
}

impl CaptureSearch<'_> {
    fn man(&mut self, at: u64, captured: u64, count: u32) {
        let mut extended = false;
        for dir in 0..4 {
            let over = step(at, dir) & self.enemy & !captured;
            if over != 0 {
                let land = step(over, dir);
                if land & self.empty != 0 {
                    extended = true;
                    self.man(land, captured | over, count + 1);
                }
            }
        }
        if !extended {
            self.emit(at, captured, count);
        }
    }

    /// A king's captures from its start square `at`.
    fn king(&mut self, at: u64) {
        for dir in 0..4 {
            let (_, over) = look(at, dir, self.empty);
            if over & self.enemy != 0 {
                let (landings, _) = look(over, dir, self.empty);
                if landings != 0 {
                    self.king_line(landings, dir, over, 1);
                }
            }
        }
    }

    /// A king that has just jumped in `dir` and may land on any of `landings` (the
    /// empty squares beyond the piece it took, one line). Going on in `dir` jumps
    /// the same next piece from every one of them, with the same squares after it,
    /// so that is searched once for the line, where the first square would have
    /// searched it; turning (back would meet the piece just taken) is searched from
    /// each square. A square the capture goes on from is not where it ends: the
    /// longer capture is taken. Squares and directions come in the order a search
    /// square by square would take them, nearest first, so the moves are listed in
    /// the same order (the engine's move ordering breaks ties by it).
    fn king_line(&mut self, landings: u64, dir: usize, captured: u64, count: u32) {
        // The first piece beyond the line: the same seen from any of its squares
        // (here its lowest), as the squares between are empty.
        let (_, next) = look(landings & landings.wrapping_neg(), dir, self.empty);
        let onward = if next & self.enemy & !captured != 0 {
            look(next, dir, self.empty).0
        } else {
            0
        };
        let mut rest = landings;
        let mut first = true;
        while rest != 0 {
            let at = if dir < 2 {
                rest & rest.wrapping_neg()
            } else {
                1 << (63 - rest.leading_zeros())
            };
            rest ^= at;
            let mut extended = onward != 0;
            for turn in 0..4 {
                if turn == dir {
                    if first && onward != 0 {
                        self.king_line(onward, dir, captured | next, count + 1);
                    }
                } else if turn != dir ^ 2 {
                    let (_, over) = look(at, turn, self.empty);
                    if over & self.enemy & !captured != 0 {
                        let (beyond, _) = look(over, turn, self.empty);
                        if beyond != 0 {
                            extended = true;
                            self.king_line(beyond, turn, captured | over, count + 1);
                        }
                    }
                }
            }
            first = false;
            if !extended {
                self.emit(at, captured, count);
            }
        }
    }

    #[inline]
    fn emit(&mut self, at: u64, captured: u64, count: u32) {
        if count < self.best {
            return;
        }
        if count > self.best {
            self.best = count;
            self.out.clear();
        }
        let mv = Move::from_bits(self.from, at.trailing_zeros(), captured);
        // One capture can only be reached one way; longer ones may repeat by another path.
        if count > 1 && self.out.contains(&mv) {
            return;
        }
        self.out.push(mv);
    }
}
