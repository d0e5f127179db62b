//! Perft: the number of leaf nodes of the legal move tree, the standard check of a
//! move generator. A capture reached by several paths with the same captured set is
//! one move, as in the published counts.

use super::movegen::{count_legal, generate};
use super::moves::Move;
use super::position::Position;
use rayon::prelude::*;

/// Leaf nodes at `depth` plies below `pos`, on this thread.
#[must_use]
pub fn perft(pos: &Position, depth: u32) -> u64 {
    let mut buffers = vec![Vec::with_capacity(64); depth as usize + 1];
    count(pos, depth, &mut buffers)
}

fn count(pos: &Position, depth: u32, buffers: &mut [Vec<Move>]) -> u64 {
    let (list, rest) = buffers.split_first_mut().expect("one buffer per ply");
    match depth {
        0 => 1,
        // The last ply is counted in bulk, without listing or playing its moves.
        1 => count_legal(pos, list),
        _ => {
            generate(pos, list);
            list.iter()
                .map(|&mv| count(&pos.play_unkeyed(mv), depth - 1, rest))
                .sum()
        }
    }
}

/// The count under each legal move, in generation order.
#[must_use]
pub fn divide(pos: &Position, depth: u32) -> Vec<(Move, u64)> {
    let moves = super::movegen::legal_moves(pos);
    moves
        .par_iter()
        .map(|&mv| {
            (
                mv,
                if depth == 0 {
                    0
                } else {
                    perft(&pos.play(mv), depth - 1)
                },
            )
        })
        .collect()
}

/// Perft spread over the threads of the current rayon pool. The tree is split two
/// plies down so that both threads stay busy when the root has few moves.
#[must_use]
pub fn perft_parallel(pos: &Position, depth: u32) -> u64 {
    if depth < 4 {
        return perft(pos, depth);
    }
    let mut roots = Vec::new();
    for mv in super::movegen::legal_moves(pos) {
        let child = pos.play(mv);
        for reply in super::movegen::legal_moves(&child) {
            roots.push(child.play(reply));
        }
    }
    roots.par_iter().map(|p| perft(p, depth - 2)).sum()
}
