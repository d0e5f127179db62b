//! The smaller slices a unit's moves lead into, unpacked whole for pass 1.
//!
//! Pass 1 looks up every capture and promotion of a unit in slices already built,
//! billions of times for a 6-piece unit. Through the reader each look-up takes a
//! slice's lock-free cell, a block's and the block cache's count, and each capture
//! pending below allocates its list of moves; profiled, that was most of pass 1.
//! Here the slices the unit reaches are decompressed once into plain arrays of two
//! bits a position (all of 2-5 pieces take 400 MB), and a capture pending is played
//! out with a list of moves per depth kept from probe to probe.

use crate::board::movegen::generate_captures;
use crate::board::{Move, Position};
use crate::egdb::file;
use crate::egdb::index::Material;
use crate::egdb::{ProbeStart, Tables, Wdl};

/// The packed values of the slices a unit reaches, by [`Material::slot`].
pub struct Smaller {
    slices: Vec<Option<Vec<u8>>>,
}

impl Smaller {
    /// Unpacks the slices of `reached` that `tables` holds.
    pub fn unpack(tables: &Tables, reached: &[Material]) -> Smaller {
        let mut slices: Vec<Option<Vec<u8>>> = (0..Material::SLOTS).map(|_| None).collect();
        for &m in reached {
            if let Some(slice) = tables.slice(m) {
                slices[m.slot()] = Some(slice.unpack());
            }
        }
        Smaller { slices }
    }

    /// The value of a position for the side to move, as [`Tables::probe`] gives it
    /// (a capture pending played out), or None when a slice is missing. `moves`
    /// holds a list of moves for each depth of captures.
    pub fn probe(&self, pos: &Position, moves: &mut Vec<Vec<Move>>, depth: usize) -> Option<Wdl> {
        let pos = match ProbeStart::of(pos) {
            ProbeStart::Over(value) => return Some(value),
            ProbeStart::Captures => return self.probe_captures(pos, moves, depth),
            ProbeStart::Quiet(white_to_move) => white_to_move,
        };
        let m = Material::of(&pos);
        let packed = self.slices.get(m.slot())?.as_ref()?;
        let index = m.index(&pos) as usize;
        Some(file::decode(packed[index / 4] >> (2 * (index % 4)) & 3))
    }

    /// The best value over the captures of a position that must capture.
    fn probe_captures(
        &self,
        pos: &Position,
        moves: &mut Vec<Vec<Move>>,
        depth: usize,
    ) -> Option<Wdl> {
        if moves.len() <= depth {
            moves.resize_with(depth + 1, Vec::new);
        }
        let mut list = std::mem::take(&mut moves[depth]);
        list.clear();
        generate_captures(pos, &mut list);
        let mut best = Some(Wdl::Loss);
        for &mv in &list {
            let child = pos.play_unkeyed(mv);
            match self.probe(&child, moves, depth + 1).map(Wdl::negated) {
                Some(Wdl::Win) => {
                    best = Some(Wdl::Win);
                    break;
                }
                Some(v) => best = best.map(|b| b.max(v)),
                None => best = None,
            }
        }
        moves[depth] = list;
        best
    }
}
