//! The learned evaluation: pattern tables over 28 windows of the board plus dense
//! terms, each with a middle-game and an endgame value, blended by the men left.
//!
//! The tables used in play are made once from the [`Weights`]: the value of a
//! pattern in window `w` is its White weight minus the weight of its mirror (the
//! same squares seen by Black) in the turned window. One lookup per window then
//! scores both sides, and the colour-flipped mirror of any position scores exactly
//! the opposite.

use super::hand::king_ending_divisor;
use super::pattern::{
    dense, phase, rotated_window, window_indices, Dense, DENSE, MIRROR, PATTERNS, PHASE_MEN,
    WINDOWS,
};
use super::weights::{Pair, Weights, SCALE};
use kroon_rules::board::{Position, Side};

/// Tables ready for play.
pub struct Learned {
    /// Window `w`, pattern `i` at `w * PATTERNS + i`: White's value minus Black's.
    table: Vec<Pair>,
    dense: [[i32; 2]; DENSE],
    weights: Weights,
}

impl std::fmt::Debug for Learned {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Learned {{ dense: {:?} }}", self.dense)
    }
}

fn widen(p: Pair) -> [i32; 2] {
    [i32::from(p[0]), i32::from(p[1])]
}

impl Learned {
    #[must_use]
    pub fn new(weights: Weights) -> Learned {
        let mut table: Vec<Pair> = vec![[0, 0]; WINDOWS * PATTERNS];
        for w in 0..WINDOWS {
            let turned = rotated_window(w) * PATTERNS;
            for i in 0..PATTERNS {
                let own = widen(weights.patterns[w * PATTERNS + i]);
                let theirs = widen(weights.patterns[turned + usize::from(MIRROR[i])]);
                // Saturating: a table half the size stays in the cache better, and no
                // trained weight comes near the bound.
                let clamp = |v: i32| v.clamp(i32::from(i16::MIN), i32::from(i16::MAX)) as i16;
                table[w * PATTERNS + i] = [clamp(own[0] - theirs[0]), clamp(own[1] - theirs[1])];
            }
        }
        Learned {
            table,
            dense: weights.dense.map(widen),
            weights,
        }
    }

    /// The weights the tables were made from.
    #[must_use]
    pub fn weights(&self) -> &Weights {
        &self.weights
    }

    /// The score of a quiet position from the side to move's view, in hundredths
    /// of a man.
    #[must_use]
    #[inline]
    pub fn evaluate(&self, pos: &Position) -> i32 {
        let kings = pos.king_bits();
        let indices = window_indices(
            pos.side_bits(Side::White) & !kings,
            pos.side_bits(Side::Black) & !kings,
        );
        let (mut mg, mut eg) = (0i32, 0i32);
        for (w, &i) in indices.iter().enumerate() {
            let v = self.table[w * PATTERNS + usize::from(i)];
            mg += i32::from(v[0]);
            eg += i32::from(v[1]);
        }
        let terms = dense(pos);
        for (k, &x) in terms.iter().enumerate().take(Dense::SideToMove as usize) {
            mg += x * self.dense[k][0];
            eg += x * self.dense[k][1];
        }
        let phase = phase(pos);
        let blend =
            |mg: i32, eg: i32| (mg * phase + eg * (PHASE_MEN - phase)) / (PHASE_MEN * SCALE);
        let white = blend(mg, eg);
        let white = match king_ending_divisor(pos, white > 0) {
            0 => 0,
            d => white / d,
        };
        let to_move = self.dense[Dense::SideToMove as usize];
        let tempo = blend(to_move[0], to_move[1]);
        match pos.side_to_move() {
            Side::White => white + tempo,
            Side::Black => tempo - white,
        }
    }
}
