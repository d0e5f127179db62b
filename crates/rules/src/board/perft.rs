//! Perft: the number of leaf nodes of the legal move tree, the standard check of a
//! move generator. A capture reached by several paths with the same captured set is
//! one move, as in the published counts.

use super::movegen::{count_legal, generate};
use super::moves::Move;
use super::position::Position;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::thread;

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

/// The count under each legal move, in generation order, the moves shared out
/// over `threads` threads.
#[must_use]
pub fn divide(pos: &Position, depth: u32, threads: usize) -> Vec<(Move, u64)> {
    let moves = super::movegen::legal_moves(pos);
    let counts = spread(&moves, threads, |&mv| {
        if depth == 0 {
            0
        } else {
            perft(&pos.play(mv), depth - 1)
        }
    });
    moves.into_iter().zip(counts).collect()
}

/// Perft spread over `threads` threads. The tree is split two plies down so that
/// every thread stays busy when the root has few moves.
#[must_use]
pub fn perft_parallel(pos: &Position, depth: u32, threads: usize) -> u64 {
    if depth < 4 || threads <= 1 {
        return perft(pos, depth);
    }
    let mut roots = Vec::new();
    for mv in super::movegen::legal_moves(pos) {
        let child = pos.play(mv);
        for reply in super::movegen::legal_moves(&child) {
            roots.push(child.play(reply));
        }
    }
    spread(&roots, threads, |p| perft(p, depth - 2))
        .iter()
        .sum()
}

/// `count` of every item, in order, on `threads` scoped threads that take the
/// next item as they finish one: the subtrees differ a lot in size, so a fixed
/// share each would leave threads idle. Plain std threads keep the rules crate
/// free of a thread-pool dependency.
fn spread<T: Sync>(items: &[T], threads: usize, count: impl Fn(&T) -> u64 + Sync) -> Vec<u64> {
    let next = AtomicUsize::new(0);
    let mut counts = vec![0; items.len()];
    let found: Vec<Vec<(usize, u64)>> = thread::scope(|scope| {
        let workers: Vec<_> = (0..threads.clamp(1, items.len().max(1)))
            .map(|_| {
                scope.spawn(|| {
                    let mut mine = Vec::new();
                    loop {
                        let i = next.fetch_add(1, Ordering::Relaxed);
                        let Some(item) = items.get(i) else { break mine };
                        mine.push((i, count(item)));
                    }
                })
            })
            .collect();
        workers
            .into_iter()
            .map(|w| w.join().expect("a perft thread panicked"))
            .collect()
    });
    for (i, n) in found.into_iter().flatten() {
        counts[i] = n;
    }
    counts
}
