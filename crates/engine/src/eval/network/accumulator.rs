//! The network's first layer kept along a line of play (the search's path), as
//! chess's efficiently updatable networks keep it.
//!
//! The first layer's sums (the accumulator) of a position are the bias plus the
//! rows of its pieces; a move changes two to a few dozen of those rows (the man or
//! king that moves: one off, one on; each piece it captures: off; a crowning: a man
//! off, a king on). So a position's sums follow from its parent's at the cost of
//! the rows that changed, instead of the 25-40 rows of a full refresh.
//!
//! The inputs are seen from the side to move, so the sums are kept for both views
//! (White's and Black's, as if each were to move) and evaluation takes the side to
//! move's (and the other side's too, for a network of two views): a move changes
//! the rows of both views in the same few places, where one view could not be
//! turned into the other.
//!
//! The stack is lazy: a move only notes the position at its ply; the sums are
//! brought up to date when a position is evaluated, from the nearest ply above
//! whose sums are known, and only for the views the network reads (the side to
//! move's; both, in one walk over each move's changes, for a network of two
//! views). Interior nodes that are never evaluated, and nodes the table cuts off,
//! cost no rows. The sums are a function of the pieces alone, and every update is
//! exact (integer sums that [`Network::check`] keeps in range), so the score equals
//! the full refresh's: tested below, and asserted at every evaluation in debug
//! builds.

use super::pairs::{changed_squares, pair_changes_both, MAX_CHANGED_SQUARES};
use super::{
    bucket, inputs, inputs_both, lanes, lanes_mut, Network, Pieces, BUCKETS, LANES, MAX_PIECES,
};
use kroon_rules::board::{Position, Side};
use std::sync::Arc;

impl Network {
    /// Sets `sums` to the first layer's sums of `to` seen by `view`, from `parent`,
    /// those of `from`: off with the rows of the pieces that left, on with those
    /// that came. Any two positions will do; a move apart, that is a few rows.
    /// Where a bucketed network's bucket differs between the two (a first king,
    /// a last king taken, the endgame reached), every row differs: a refresh.
    #[inline(always)]
    pub fn update(&self, from: Pieces, to: Pieces, view: Side, parent: &[i16], sums: &mut [i16]) {
        let first = self.first_input(to, view);
        if first != self.first_input(from, view) {
            return self.refresh(to, view, sums);
        }
        let changed = changed_squares(from, to);
        if self.pairs && changed.count_ones() > MAX_CHANGED_SQUARES {
            return self.refresh(to, view, sums);
        }
        // The pieces that left and came, found in White's layout; each is then
        // mapped to `view`'s input by itself (no board turned for Black).
        let (gone, came) = changes(from, to);
        let (mut off, mut on) = (Rows::new(), Rows::new());
        off.collect(self, gone, view, first);
        on.collect(self, came, view, first);
        if self.pairs {
            Rows::collect_pairs((&mut off, &mut on), self, (from, to), changed, view);
        }
        self.apply(&off, &on, parent, sums);
    }

    /// [`Network::update`] for both views at once (of a network of two views, whose
    /// every evaluation needs both): `parent` and `sums` hold White's sums, then
    /// Black's. The pieces that changed are found and walked once for the two:
    /// updated one view after the other, that walk was most of the second view's
    /// cost.
    #[inline(always)]
    pub fn update_both(&self, from: Pieces, to: Pieces, parent: &[i16], sums: &mut [i16]) {
        let h = self.hidden;
        let (white_parent, black_parent) = parent.split_at(h);
        let (white, black) = sums.split_at_mut(h);
        let first = [Side::White, Side::Black].map(|view| self.first_input(to, view));
        let changed = changed_squares(from, to);
        if first != [Side::White, Side::Black].map(|view| self.first_input(from, view))
            || (self.pairs && changed.count_ones() > MAX_CHANGED_SQUARES)
        {
            // Rare (a bucket changed, or a capture too large for the lists):
            // each view on its own, refreshed.
            self.update(from, to, Side::White, white_parent, white);
            return self.update(from, to, Side::Black, black_parent, black);
        }
        let (gone, came) = changes(from, to);
        let (mut off, mut on) = ([Rows::new(), Rows::new()], [Rows::new(), Rows::new()]);
        Rows::collect_both(&mut off, self, gone, first);
        Rows::collect_both(&mut on, self, came, first);
        if self.pairs {
            let first = self.first_pair();
            pair_changes_both(from, to, changed, |view, before, after| {
                off[view.index()].push_some(self, first, before);
                on[view.index()].push_some(self, first, after);
            });
        }
        self.apply(&off[0], &on[0], white_parent, white);
        self.apply(&off[1], &on[1], black_parent, black);
    }

    /// Sets `sums` to `parent` less the rows `off` plus the rows `on`.
    #[inline(always)]
    fn apply(&self, off: &Rows, on: &Rows, parent: &[i16], sums: &mut [i16]) {
        match self.hidden {
            128 => return self.update_fixed::<128>(off, on, parent, sums),
            64 => return self.update_fixed::<64>(off, on, parent, sums),
            192 => return self.update_fixed::<192>(off, on, parent, sums),
            256 => return self.update_fixed::<256>(off, on, parent, sums),
            _ => {}
        }
        // A block of lanes at a time, all the rows at once, so that the block
        // stays in registers: one load and one store of the sums, not one of each
        // for every row.
        for (start, (parent, sums)) in parent
            .chunks_exact(LANES)
            .zip(sums.chunks_exact_mut(LANES))
            .enumerate()
        {
            let start = start * LANES;
            let mut block = *lanes(parent);
            for row in off.rows() {
                let w = lanes(&self.input[row + start..row + start + LANES]);
                for j in 0..LANES {
                    // Wrapping, as in the full refresh: a sum that wraps on the
                    // way comes back exact, as arithmetic modulo 2^16 does, and
                    // check() keeps every position's sums in range.
                    block[j] = block[j].wrapping_sub(w[j]);
                }
            }
            for row in on.rows() {
                let w = lanes(&self.input[row + start..row + start + LANES]);
                for j in 0..LANES {
                    block[j] = block[j].wrapping_add(w[j]);
                }
            }
            *lanes_mut(sums) = block;
        }
    }
}

/// How many pieces left or came between `from` and `to` (a man crowned counts
/// twice): the rows an update between them adds or takes.
fn differ(from: Pieces, to: Pieces) -> u32 {
    let (gone, came) = changes(from, to);
    gone.iter().chain(&came).map(|k| k.count_ones()).sum()
}

/// The pieces of each kind (as [`Pieces::kinds`] gives them) that left and that
/// came between `from` and `to`.
#[inline(always)]
fn changes(from: Pieces, to: Pieces) -> ([u64; 4], [u64; 4]) {
    let (before, after) = (from.kinds(), to.kinds());
    (
        std::array::from_fn(|k| before[k] & !after[k]),
        std::array::from_fn(|k| after[k] & !before[k]),
    )
}

impl Network {
    /// [`Network::update`] for a first layer of `W` units, its width known when
    /// compiled (64 and 128 as trained so far, 192 and 256 for wider ones): the
    /// sums then stay in registers through all the rows, with no bounds checked
    /// inside.
    #[inline(always)]
    fn update_fixed<const W: usize>(
        &self,
        off: &Rows,
        on: &Rows,
        parent: &[i16],
        sums: &mut [i16],
    ) {
        let mut block: [i16; W] = parent.try_into().expect("the fixed width");
        let row = |r: usize| -> &[i16; W] {
            self.input[r..r + W]
                .try_into()
                .expect("a row of the fixed width")
        };
        for r in off.rows() {
            let w = row(r);
            for j in 0..W {
                block[j] = block[j].wrapping_sub(w[j]);
            }
        }
        for r in on.rows() {
            let w = row(r);
            for j in 0..W {
                block[j] = block[j].wrapping_add(w[j]);
            }
        }
        sums.copy_from_slice(&block);
    }
}

/// Where the rows of some inputs start in the input weights (`u32`, and filled
/// in place: a list of `usize` handed back by value cost a copy of the list).
/// [`MAX_PIECES`] rows: at most 21 pieces leave in a move (a capture of 20), one
/// comes; with pairs, an update of at most [`MAX_CHANGED_SQUARES`] squares has a
/// piece and four pairs on each.
struct Rows {
    starts: [u32; MAX_PIECES as usize],
    len: usize,
}

impl Rows {
    #[inline(always)]
    fn new() -> Rows {
        Rows {
            starts: [0; MAX_PIECES as usize],
            len: 0,
        }
    }

    /// Adds the rows of the inputs of `kinds` (see [`Pieces::kinds`]) as `view`
    /// sees them, in the bucket whose feature 0 is input `first`.
    #[inline(always)]
    fn collect(&mut self, net: &Network, kinds: [u64; 4], view: Side, first: usize) {
        inputs(kinds, view, |f| self.push(net, first + f));
    }

    /// Adds the rows of the inputs of `kinds` as White sees them to `rows[0]`,
    /// as Black sees them to `rows[1]` (each view's bucket from its `first`).
    #[inline(always)]
    fn collect_both(rows: &mut [Rows; 2], net: &Network, kinds: [u64; 4], first: [usize; 2]) {
        inputs_both(kinds, |white, black| {
            rows[0].push(net, first[0] + white);
            rows[1].push(net, first[1] + black);
        });
    }

    /// Adds to `off` the rows of the pairs' inputs (as `view` sees them) that
    /// the pieces' change from `pieces.0` to `pieces.1` takes away, to `on` those
    /// it brings (see [`pair_changes_both`]: the other view's are passed over).
    #[inline(always)]
    fn collect_pairs(
        (off, on): (&mut Rows, &mut Rows),
        net: &Network,
        (from, to): (Pieces, Pieces),
        changed: u64,
        view: Side,
    ) {
        const _: () = assert!(MAX_CHANGED_SQUARES * 5 <= MAX_PIECES as u32);
        let first = net.first_pair();
        pair_changes_both(from, to, changed, |seen_by, before, after| {
            if seen_by == view {
                off.push_some(net, first, before);
                on.push_some(net, first, after);
            }
        });
    }

    /// Adds the row of input `first + f` if there is an `f`.
    #[inline(always)]
    fn push_some(&mut self, net: &Network, first: usize, f: Option<usize>) {
        if let Some(f) = f {
            self.push(net, first + f);
        }
    }

    /// Adds the row of input `f`.
    #[inline(always)]
    fn push(&mut self, net: &Network, f: usize) {
        self.starts[self.len] = (f * net.hidden) as u32;
        self.len += 1;
    }

    #[inline(always)]
    fn rows(&self) -> impl Iterator<Item = usize> + '_ {
        self.starts[..self.len].iter().map(|&r| r as usize)
    }
}

/// What the stack knows of one ply.
#[derive(Clone, Copy, Default)]
struct Ply {
    pieces: Pieces,
    /// Whether this ply's sums seen by each side (by [`Side::index`]) are those of
    /// `pieces`.
    known: [bool; 2],
    /// Whether the position came by a move from the ply before, so that its sums
    /// are best made from that ply's.
    linked: bool,
}

/// The first layer's sums of the positions along a line of play, ply by ply, for
/// one thread's search.
pub struct Accumulators {
    net: Arc<Network>,
    /// Ply p's sums seen by side s at `(2 * p + s) * hidden`.
    sums: Vec<i16>,
    plies: Vec<Ply>,
    /// For a bucketed network: the last sums made in each bucket, by view.
    last: BucketSums,
}

/// The last sums a bucketed network's stack made in each bucket, seen by each side
/// (as chess engines keep theirs for king buckets). A move that changes a view's
/// bucket (a first king, a last king taken, in the quiescence search's crownings
/// too; an exchange into the endgame's buckets) needs every row of the new
/// bucket: refreshes cost about a quarter of the search's time. The sums the
/// line last had in that bucket are mostly a few pieces away, so they are updated
/// instead.
struct BucketSums {
    /// Bucket b's sums seen by side s at `(2 * b + s) * hidden`, of `pieces[b][s]`.
    sums: Vec<i16>,
    pieces: [[Option<Pieces>; 2]; BUCKETS],
}

impl Accumulators {
    /// A stack of `plies` plies for `net`'s sums.
    #[must_use]
    pub fn new(net: Arc<Network>, plies: usize) -> Accumulators {
        let buckets = if net.buckets == 1 { 0 } else { BUCKETS };
        Accumulators {
            sums: vec![0; 2 * plies * net.hidden],
            last: BucketSums {
                sums: vec![0; 2 * buckets * net.hidden],
                pieces: [[None; 2]; BUCKETS],
            },
            net,
            plies: vec![Ply::default(); plies],
        }
    }

    /// `pos` stands at `ply`, reached by a move from the position at `ply - 1`:
    /// its sums are not made until it is evaluated.
    #[inline]
    pub fn push(&mut self, ply: usize, pos: &Position) {
        self.plies[ply] = Ply {
            pieces: Pieces::of(pos),
            known: [false; 2],
            linked: true,
        };
    }

    /// `pos` stands at `ply`, not (or not known to be) reached from the position
    /// at `ply - 1`: the root, or a split point another thread made. Its sums are
    /// refreshed when first needed, unless this ply held it already.
    pub fn start(&mut self, ply: usize, pos: &Position) {
        let pieces = Pieces::of(pos);
        let at = &mut self.plies[ply];
        if at.pieces != pieces {
            at.pieces = pieces;
            at.known = [false; 2];
        }
        at.linked = false;
    }

    /// The network's score of `pos`, which stands at `ply` (see
    /// [`Network::evaluate`]).
    #[must_use]
    #[inline]
    pub fn evaluate(&mut self, pos: &Position, ply: usize) -> i32 {
        #[cfg(target_arch = "x86_64")]
        if std::arch::is_x86_feature_detected!("avx2") {
            return self.evaluate_avx2(pos, ply);
        }
        self.evaluate_here(pos, ply)
    }

    /// [`Accumulators::evaluate`] compiled for AVX2, where the processor has it:
    /// the same code (inlined here whole), with vectors twice as wide as the
    /// baseline's SSE2 for the rows and the dot products. The binary still runs on
    /// any x86-64; `docs/learning.md` has the measurement that keeps it.
    #[cfg(target_arch = "x86_64")]
    #[allow(unsafe_code)]
    fn evaluate_avx2(&mut self, pos: &Position, ply: usize) -> i32 {
        #[target_feature(enable = "avx2")]
        fn wide(stack: &mut Accumulators, pos: &Position, ply: usize) -> i32 {
            stack.evaluate_here(pos, ply)
        }
        // SAFETY: the one requirement of a function compiled for a target feature
        // is that the processor running it has the feature, and the only caller
        // checked that it has AVX2. The body is safe code.
        unsafe { wide(self, pos, ply) }
    }

    #[inline(always)]
    fn evaluate_here(&mut self, pos: &Position, ply: usize) -> i32 {
        // The search notes every position it moves to, but a caller that did not
        // (a test searching from a node) gets the right score all the same.
        if self.plies[ply].pieces != Pieces::of(pos) {
            self.start(ply, pos);
        }
        let view = pos.side_to_move();
        if self.net.views == 2 {
            self.bring_both_up_to_date(ply);
        } else {
            self.bring_up_to_date(ply, view);
        }
        let h = self.net.hidden;
        let own = (2 * ply + view.index()) * h;
        let theirs = (2 * ply + view.opponent().index()) * h;
        let score = self
            .net
            .output(&self.sums[own..own + h], &self.sums[theirs..theirs + h]);
        debug_assert_eq!(score, self.net.evaluate(pos), "{}", pos.to_fen());
        score
    }

    /// Makes the sums of `ply` seen by `view` known: from the nearest ply above
    /// whose sums are known, through the moves since (or from a refresh where the
    /// line starts).
    #[inline(always)]
    fn bring_up_to_date(&mut self, ply: usize, view: Side) {
        let v = view.index();
        let mut base = ply;
        while !self.plies[base].known[v] && self.plies[base].linked {
            base -= 1;
        }
        self.refresh_unknown(base, view);
        for p in base + 1..=ply {
            self.step(p, view);
        }
    }

    /// Makes the sums of ply `p` seen by `view` known from those of ply `p - 1`
    /// (known): updated by the move's changes, or where the move changed the
    /// view's bucket, from the bucket's last sums.
    #[inline(always)]
    fn step(&mut self, p: usize, view: Side) {
        let (from, to) = (self.plies[p - 1].pieces, self.plies[p].pieces);
        if self.net.first_input(from, view) != self.net.first_input(to, view) {
            return self.update_from_last(p, view);
        }
        let (h, v) = (self.net.hidden, view.index());
        let (above, here) = self.sums.split_at_mut(2 * p * h);
        let parent = &above[(2 * (p - 1) + v) * h..][..h];
        self.net
            .update(from, to, view, parent, &mut here[v * h..][..h]);
        self.plies[p].known[v] = true;
    }

    /// [`Accumulators::bring_up_to_date`] for both views, as a network of two views
    /// evaluates: each move's changes are walked once for the two.
    #[inline(always)]
    fn bring_both_up_to_date(&mut self, ply: usize) {
        let mut base = ply;
        while self.plies[base].known != [true; 2] && self.plies[base].linked {
            base -= 1;
        }
        for view in [Side::White, Side::Black] {
            self.refresh_unknown(base, view);
        }
        let h = self.net.hidden;
        for p in base + 1..=ply {
            let (from, to) = (self.plies[p - 1].pieces, self.plies[p].pieces);
            let sides = [Side::White, Side::Black];
            if sides.map(|view| self.net.first_input(from, view))
                != sides.map(|view| self.net.first_input(to, view))
            {
                // A bucket changed (rare): each view on its own.
                for view in sides {
                    self.step(p, view);
                }
                continue;
            }
            let (above, here) = self.sums.split_at_mut(2 * p * h);
            let parent = &above[2 * (p - 1) * h..];
            let sums = &mut here[..2 * h];
            self.net.update_both(from, to, parent, sums);
            self.plies[p].known = [true; 2];
        }
    }

    /// Makes the sums of `ply` seen by `view` known by a full refresh, unless they
    /// are.
    #[inline(always)]
    fn refresh_unknown(&mut self, ply: usize, view: Side) {
        let v = view.index();
        if !self.plies[ply].known[v] {
            if self.net.buckets > 1 {
                return self.update_from_last(ply, view);
            }
            let h = self.net.hidden;
            let at = (2 * ply + v) * h;
            let pieces = self.plies[ply].pieces;
            self.net.refresh(pieces, view, &mut self.sums[at..at + h]);
            self.plies[ply].known[v] = true;
        }
    }

    /// Makes the sums of `ply` seen by `view` (of a bucketed network) known from
    /// the last sums made in its bucket (see [`BucketSums`]), or by a refresh
    /// when there are none or they are further away than a refresh; they are then
    /// the bucket's last.
    #[inline(never)]
    fn update_from_last(&mut self, ply: usize, view: Side) {
        let (h, v) = (self.net.hidden, view.index());
        let pieces = self.plies[ply].pieces;
        let b = bucket(pieces, view);
        let at = (2 * ply + v) * h;
        let sums = &mut self.sums[at..at + h];
        let last = &mut self.last.sums[(2 * b + v) * h..][..h];
        match self.last.pieces[b][v] {
            Some(before) if differ(before, pieces) < (pieces.white | pieces.black).count_ones() => {
                self.net.update(before, pieces, view, last, sums);
            }
            _ => self.net.refresh(pieces, view, sums),
        }
        last.copy_from_slice(sums);
        self.last.pieces[b][v] = Some(pieces);
        self.plies[ply].known[v] = true;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::network::testing::{
        busy_bucketed_network, busy_network, busy_network_of_views, busy_paired_network,
        busy_squared_network,
    };
    use crate::eval::network::{bucket, BUCKETS, MAX_HIDDEN};
    use kroon_rules::board::movegen::legal_moves;

    /// A seeded generator of indices below its argument.
    fn generator(seed: u64) -> impl FnMut(usize) -> usize {
        let mut rng = crate::random::Rng::new(seed, 0);
        move |n| rng.below(n)
    }

    #[test]
    fn a_move_updates_both_views_to_their_refresh() {
        // The widths compiled in (64, 128, 192, 256) and one that is not (48).
        for hidden in [48, 64, 128, 192, 256] {
            updates_as_refresh(&busy_network(8, hidden));
        }
        // Bucketed: a move that changes a view's bucket refreshes it.
        for hidden in [48, 128] {
            updates_as_refresh(&busy_bucketed_network(8, hidden, 2, BUCKETS));
        }
        // With pairs: the pairs of the squares a move changed, and large captures
        // refreshed.
        for (hidden, buckets) in [(128, BUCKETS), (48, 1)] {
            updates_as_refresh(&busy_paired_network(8, hidden, 2, buckets));
        }
    }

    fn updates_as_refresh(net: &Network) {
        let mut next = generator(8);
        let (mut captures, mut crownings, mut king_moves, mut new_buckets) = (0, 0, 0, 0);
        for _ in 0..40 {
            let mut pos = Position::initial();
            for _ in 0..200 {
                let moves = legal_moves(&pos);
                if moves.is_empty() {
                    break;
                }
                let mv = moves[next(moves.len())];
                let child = pos.play(mv);
                captures += usize::from(mv.is_capture());
                crownings +=
                    usize::from(child.king_bits().count_ones() > pos.king_bits().count_ones());
                king_moves += usize::from(pos.king_bits() >> mv.from_bit() & 1 != 0);
                new_buckets += usize::from(
                    bucket(Pieces::of(&pos), Side::White)
                        != bucket(Pieces::of(&child), Side::White),
                );
                let h = net.hidden;
                let (mut parents, mut both) = ([0i16; 2 * MAX_HIDDEN], [0i16; 2 * MAX_HIDDEN]);
                for view in [Side::White, Side::Black] {
                    let parent = &mut parents[view.index() * h..][..h];
                    net.refresh(Pieces::of(&pos), view, parent);
                    let mut sums = [0i16; MAX_HIDDEN];
                    let sums = &mut sums[..h];
                    net.update(Pieces::of(&pos), Pieces::of(&child), view, parent, sums);
                    let mut fresh = [0i16; MAX_HIDDEN];
                    net.refresh(Pieces::of(&child), view, &mut fresh[..h]);
                    assert_eq!(sums, &fresh[..h], "{} {mv:?}", pos.to_fen());
                }
                // Both views at once: White's sums, then Black's.
                let (from, to) = (Pieces::of(&pos), Pieces::of(&child));
                net.update_both(from, to, &parents[..2 * h], &mut both[..2 * h]);
                let mut fresh = [0i16; 2 * MAX_HIDDEN];
                for view in [Side::White, Side::Black] {
                    let at = view.index() * h;
                    net.refresh(Pieces::of(&child), view, &mut fresh[at..at + h]);
                }
                assert_eq!(both[..2 * h], fresh[..2 * h], "{} {mv:?}", pos.to_fen());
                pos = child;
            }
        }
        assert!(captures > 500 && crownings > 20 && king_moves > 200);
        assert!(
            new_buckets > 40,
            "moves that change a bucket: {new_buckets}"
        );
    }

    #[test]
    fn the_stack_scores_as_the_full_refresh_does() {
        for net in [
            busy_network(9, 128),
            busy_network_of_views(9, 64, 2),
            busy_network_of_views(9, 48, 2),
            // Both wider scratch buffers of the second layer.
            busy_network_of_views(9, 192, 2),
            busy_network_of_views(9, 512, 2),
            busy_bucketed_network(9, 128, 2, BUCKETS),
            busy_bucketed_network(9, 64, 1, BUCKETS),
            busy_squared_network(9, 128, 2, BUCKETS),
            busy_squared_network(9, 192, 2, 1),
            busy_paired_network(9, 128, 2, BUCKETS),
            busy_paired_network(9, 64, 1, 1),
        ] {
            stack_scores_as_refresh(Arc::new(net));
        }
    }

    fn stack_scores_as_refresh(net: Arc<Network>) {
        let mut stack = Accumulators::new(Arc::clone(&net), 40);
        let mut next = generator(9);
        let mut evaluated = 0;
        for _ in 0..60 {
            // A line of play from a random position as a search walks it: down a
            // move at a time, back up a few plies, evaluating here and there.
            let mut line = vec![Position::initial()];
            stack.start(0, &line[0]);
            for _ in 0..400 {
                let ply = line.len() - 1;
                let moves = legal_moves(&line[ply]);
                if next(3) == 0 {
                    assert_eq!(stack.evaluate(&line[ply], ply), net.evaluate(&line[ply]));
                    evaluated += 1;
                }
                if moves.is_empty() || ply + 1 == 40 || next(4) == 0 {
                    line.truncate((ply + 1).saturating_sub(next(4)).max(1));
                    continue;
                }
                let child = line[ply].play(moves[next(moves.len())]);
                stack.push(ply + 1, &child);
                line.push(child);
            }
        }
        assert!(evaluated > 5000);
    }

    #[test]
    fn a_position_the_stack_was_not_told_of_is_scored_right() {
        let net = Arc::new(busy_network(10, 32));
        let mut stack = Accumulators::new(Arc::clone(&net), 8);
        for pos in crate::eval::testing::random_positions(10, 10, 100) {
            let ply = pos.king_bits().count_ones() as usize % 8;
            assert_eq!(stack.evaluate(&pos, ply), net.evaluate(&pos));
        }
    }
}
