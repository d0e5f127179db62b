//! Building the tables by retrograde analysis, slice after slice, smaller first.
//!
//! The unit of work is a slice together with its colour-swapped twin (one slice when
//! the material is symmetric): White's quiet moves in one lead, flipped, into the
//! other, while captures and promotions lead into slices already built, fewer pieces
//! or fewer men. A unit is solved in three passes over a byte per position:
//!
//! 1. Forward: each position's moves. A capture or promotion is looked up in the
//!    smaller tables, unpacked whole for the unit, those of fewer pieces with their
//!    captures pending played out once a build (`smaller`); a successor in the
//!    unit is only counted, from the position's bits (`quiet`). A position is won if
//!    one successor is lost for the opponent, lost if it has no move or every
//!    successor is won for the opponent, else it waits with its count of unknown
//!    successors (and a mark when one of the known ones is a draw).
//! 2. Backward, round by round: the positions decided in the last round pass their
//!    value to their predecessors in the unit (un-making quiet moves): a lost
//!    position makes each predecessor won; a won one lowers each predecessor's count,
//!    and the predecessor whose count reaches zero is lost (drawn if marked). What is
//!    undecided when no round decides anything is a draw. A round writes its
//!    updates down by region and then applies them region by region (`rounds`),
//!    so that they find their cells in the cache.
//! 3. Check: every position's value is recomputed from its successors' final values
//!    and must agree; then the values are packed, compressed and written. The
//!    successors outside the unit count as pass 1 found them (it keeps their best
//!    for each position, two bits): probing them again would repeat the same reads
//!    of the same files, which took half of a 6-piece unit's time, while what the
//!    check is there to catch, a slip in passing values back, lies in the unit.
//!
//! Pass 2 and the check index a king's moves ray by ray ([`KingSlide`]): the other
//! pieces' share of the index is summed once a king, not once a move.
//!
//! [`KingSlide`]: kroon_engine::egdb::index::KingSlide
//!
//! Units are independent once the smaller ones exist, so a build can be spread over
//! machines (see the README); a unit's files are written whole or not at all. While
//! a unit is built its work in progress is saved now and then (`checkpoint`), so a
//! stopped build takes it up where it was.

mod cells;
mod checkpoint;
mod quiet;
mod rounds;
mod smaller;
mod states;
mod successors;
pub mod verify;

use crate::progress::{cpu_time, format_duration};
use checkpoint::Progress;
use kroon_engine::egdb::file::{self, SliceFile, BLOCK_POSITIONS};
use kroon_engine::egdb::index::{Cursor, Material};
use kroon_engine::egdb::{Tables, Wdl};
use kroon_rules::board::movegen::{generate_captures, has_capture};
use kroon_rules::board::{Move, Position};
use rayon::prelude::*;
use smaller::{Resolved, Smaller};
use states::{final_value, DRAW, DRAW_MARK, INVALID, LOSS_NEW, MAX_COUNT, WIN_NEW};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicU8, Ordering::Relaxed};
use std::sync::OnceLock;
use std::time::{Duration, Instant};

/// What to build.
#[derive(Clone, Debug)]
pub struct BuildConfig {
    pub dir: PathBuf,
    /// Every slice of up to this many pieces.
    pub pieces: u32,
    /// A line per unit on stderr.
    pub progress: bool,
    /// Only the slices that play from this material can reach (itself, fewer
    /// pieces, men crowned), with either side to move; None for all.
    pub only: Option<Material>,
}

/// Builds every missing slice of up to `config.pieces` pieces; slices already in the
/// folder are read and their checksums checked, and kept. Returns the tables.
pub fn build(config: &BuildConfig) -> Result<Tables, String> {
    std::fs::create_dir_all(&config.dir)
        .map_err(|e| format!("cannot create {}: {e}", config.dir.display()))?;
    let units: Vec<_> = units(config.pieces)
        .into_iter()
        .filter(|unit| {
            config
                .only
                .is_none_or(|m| unit.iter().any(|&x| m.reaches(x)))
        })
        .collect();
    let total: u64 = units.iter().flatten().map(|m| m.size()).sum();
    let mut tables = Tables::empty(&config.dir);
    let mut resolved = Resolved::for_build(config.pieces);
    let start = Instant::now();
    let (mut done, mut built) = (0u64, 0u64);
    for (number, unit) in units.iter().enumerate() {
        let size: u64 = unit.iter().map(|m| m.size()).sum();
        let name = unit
            .iter()
            .map(|m| m.to_string())
            .collect::<Vec<_>>()
            .join("+");
        let kept = unit
            .iter()
            .map(|m| read_finished(&config.dir, *m))
            .collect::<Option<Vec<_>>>();
        let unit_start = Instant::now();
        let note = if let Some(slices) = kept {
            slices.into_iter().for_each(|s| tables.insert(s));
            "kept (checksums good)".to_string()
        } else {
            let (blocks, phases) = solve(unit, &tables, &config.dir, &mut resolved)?;
            for (m, blocks) in unit.iter().zip(blocks) {
                let path = file::write(&config.dir, *m, &blocks)?;
                tables.insert(SliceFile::read(&path)?);
            }
            checkpoint::remove(&checkpoint::path(&config.dir, unit));
            built += size;
            format!("built and checked ({phases})")
        };
        done += size;
        if config.progress {
            let elapsed = start.elapsed();
            let eta = if built > 0 {
                let rate = built as f64 / elapsed.as_secs_f64().max(1e-3);
                format_duration(Duration::from_secs_f64((total - done) as f64 / rate))
            } else {
                "-".into()
            };
            eprintln!(
                "egdb [{}/{}] {} pieces, slice {name}: {size} positions {note} in {}; \
                 {:.1}% of positions done, elapsed {}, ETA {eta}",
                number + 1,
                units.len(),
                unit[0].pieces(),
                format_duration(unit_start.elapsed()),
                100.0 * done as f64 / total.max(1) as f64,
                format_duration(elapsed),
            );
        }
    }
    Ok(tables)
}

/// The slices a unit's moves lead into outside the unit: by a capture, any slice
/// with fewer pieces; by a crowning, the slices one man crowned, in either colour.
fn reached(unit: &[Material], tables: &Tables) -> Vec<Material> {
    let pieces = unit[0].pieces();
    let crowned = unit.iter().filter(|m| m.white_men > 0).flat_map(|m| {
        let c = Material {
            white_men: m.white_men - 1,
            white_kings: m.white_kings + 1,
            ..*m
        };
        [c, c.swapped()]
    });
    let mut reached: Vec<Material> = (2..pieces)
        .flat_map(Material::all_with)
        .chain(crowned)
        .filter(|&m| tables.has(m))
        .collect();
    reached.sort_unstable();
    reached.dedup();
    reached
}

/// A slice's finished file, if it is there and sound; a damaged one is reported and
/// left to be built again.
fn read_finished(dir: &Path, m: Material) -> Option<SliceFile> {
    let path = dir.join(m.file_name());
    if !path.exists() {
        return None;
    }
    match SliceFile::read(&path) {
        Ok(slice) if slice.material == m => Some(slice),
        Ok(slice) => {
            eprintln!(
                "egdb: {} holds slice {}; building it again",
                path.display(),
                slice.material
            );
            None
        }
        Err(e) => {
            eprintln!("egdb: {e}; building it again");
            None
        }
    }
}

/// The units of work in build order: a slice and its colour-swapped twin, by pieces,
/// then by men (a promotion leads to fewer men).
#[must_use]
pub fn units(pieces: u32) -> Vec<Vec<Material>> {
    let mut units: Vec<Vec<Material>> = (2..=pieces)
        .flat_map(Material::all_with)
        .filter(|m| *m <= m.swapped())
        .map(|m| {
            if m == m.swapped() {
                vec![m]
            } else {
                vec![m, m.swapped()]
            }
        })
        .collect();
    units.sort_by_key(|u| (u[0].pieces(), u[0].men(), u[0]));
    units
}

/// The positions of one unit during its build.
struct Unit<'a> {
    materials: &'a [Material],
    states: Vec<Vec<AtomicU8>>,
    /// Per slice, where positions decided and not yet passed back may lie (see
    /// [`rounds`]).
    fresh: Vec<Vec<AtomicU8>>,
    /// Per slice, the best of each position's moves out of the unit, as pass 1
    /// found it (a position with none has [`Wdl::Loss`], the value of having no
    /// move): two bits a position in the tables' own code ([`file::encode`]),
    /// four a byte; read by the check.
    best_outside: Vec<Vec<AtomicU8>>,
    /// Per slice, a bit a position (eight a byte) set by pass 1 when a capture
    /// is pending, so that the check need not look for captures again; not in
    /// the checkpoint, so a resumed unit's check looks for them itself.
    capture: Vec<Vec<AtomicU8>>,
    /// Per slice, what the rounds weigh (see [`rounds`]), counted before the
    /// first round this process runs.
    tallies: OnceLock<Vec<rounds::Tally>>,
    /// Whether pass 1 ran in this process and so filled [`Unit::capture`].
    capture_known: AtomicBool,
    /// A successor the smaller tables did not have: the build order is broken.
    missing: AtomicBool,
}

/// Each slice's compressed blocks.
type Solved = Vec<Vec<Vec<u8>>>;

/// How often a unit's work in progress is saved while values are passed back (and
/// once after pass 1): each save writes a byte and a quarter a position, seconds
/// for the largest unit, so a stop costs at most this much of the unit.
const CHECKPOINT_EVERY: Duration = Duration::from_secs(15 * 60);
/// Pass 1 is saved only when it took this long: redoing less costs less than
/// writing it.
const MIN_CHECKPOINT_WORK: Duration = Duration::from_secs(60);

/// Solves a unit and returns each slice's compressed blocks, and how long each
/// pass took. Its work in progress is saved in `dir` (see [`checkpoint`]) and
/// taken up again if a checkpoint is there.
fn solve(
    materials: &[Material],
    tables: &Tables,
    dir: &Path,
    resolved: &mut Resolved,
) -> Result<(Solved, String), String> {
    let start = Instant::now();
    let cpu_start = cpu_time();
    let saved_at = checkpoint::path(dir, materials);
    let unit = Unit::new(materials);
    let mut resolving = String::new();
    let had_checkpoint = saved_at.exists();
    let resumed = checkpoint::load(&saved_at, materials, &unit.states, &unit.best_outside);
    let Progress {
        mut rounds,
        mut parity,
    } = match resumed {
        Some(progress) => progress,
        None => {
            if had_checkpoint {
                // A refused checkpoint may have filled some of the states.
                unit.clear();
            }
            resolving = unit.first_pass(tables, resolved)?;
            let progress = Progress {
                rounds: 0,
                parity: 0,
            };
            // A unit this quick to start is not worth a checkpoint yet.
            if start.elapsed() >= MIN_CHECKPOINT_WORK {
                unit.save(&saved_at, progress);
            }
            progress
        }
    };
    let forward = start.elapsed();
    let cpu_forward = cpu_time();
    let mut saved = Instant::now();
    while unit.round(parity) > 0 {
        parity ^= 1;
        rounds += 1;
        if saved.elapsed() >= CHECKPOINT_EVERY {
            unit.save(&saved_at, Progress { rounds, parity });
            saved = Instant::now();
        }
    }
    let backward = start.elapsed() - forward;
    let cpu_backward = cpu_time();
    let solved = (0..materials.len())
        .map(|slot| unit.check(slot))
        .collect::<Result<Solved, String>>()?;
    for (slot, &m) in materials.iter().enumerate() {
        if resolved.wants(m) {
            resolved.keep(m, unit.values(slot));
        }
    }
    let check = start.elapsed() - forward - backward;
    let cpu = |from: Duration, to: Duration| format_duration(to.saturating_sub(from));
    let cpu_check = cpu(cpu_backward, cpu_time());
    let first = match resumed {
        Some(p) => format!(
            "resumed after {} rounds from {}",
            p.rounds,
            saved_at.display()
        ),
        None => format!(
            "forward {} (CPU {}{resolving})",
            format_duration(forward),
            cpu(cpu_start, cpu_forward)
        ),
    };
    let phases = format!(
        "{first}, {rounds} rounds back {} (CPU {}{}), check {} (CPU {cpu_check})",
        format_duration(backward),
        cpu(cpu_forward, cpu_backward),
        unit.pulled_note(),
        format_duration(check),
    );
    Ok((solved, phases))
}

impl<'a> Unit<'a> {
    fn new(materials: &'a [Material]) -> Unit<'a> {
        Unit {
            materials,
            states: materials
                .iter()
                .map(|m| cells::zeroed(m.size() as usize))
                .collect(),
            fresh: materials
                .iter()
                .map(|m| rounds::all_fresh(m.size() as usize))
                .collect(),
            best_outside: materials
                .iter()
                .map(|m| cells::zeroed(m.size().div_ceil(4) as usize))
                .collect(),
            capture: materials
                .iter()
                .map(|m| cells::zeroed(m.size().div_ceil(8) as usize))
                .collect(),
            tallies: OnceLock::new(),
            capture_known: AtomicBool::new(false),
            missing: AtomicBool::new(false),
        }
    }

    /// Pass 1 over every slice of the unit, with the smaller slices unpacked for
    /// it (only pass 1 moves out of the unit: the check reads what it found).
    /// Returns what resolving smaller slices took, for the progress line.
    fn first_pass(&self, tables: &Tables, resolved: &mut Resolved) -> Result<String, String> {
        let before = resolved.work();
        let smaller = Smaller::unpack(
            tables,
            &reached(self.materials, tables),
            self.materials[0].pieces(),
            resolved,
        );
        let (count, took) = resolved.work();
        let resolving = if count > before.0 {
            format!(
                ", {} of it resolving {} smaller slices",
                format_duration(took - before.1),
                count - before.0
            )
        } else {
            String::new()
        };
        for slot in 0..self.materials.len() {
            self.forward(slot, &smaller);
        }
        self.capture_known.store(true, Relaxed);
        if self.missing.load(Relaxed) {
            return Err(format!(
                "slice {}: a smaller slice is missing (build smaller slices first)",
                self.materials[0]
            ));
        }
        Ok(resolving)
    }

    /// Every state and outside value back to zero, as [`Unit::new`] made them.
    fn clear(&self) {
        let all = self.states.iter().chain(&self.best_outside);
        for cells in all.chain(&self.capture) {
            cells.par_iter().for_each(|c| c.store(0, Relaxed));
        }
    }

    /// Saves the unit's work in progress; a failure to write only costs the
    /// resumption, so it is reported and the build goes on.
    fn save(&self, path: &Path, progress: Progress) {
        if let Err(e) = checkpoint::save(
            path,
            self.materials,
            progress,
            &self.states,
            &self.best_outside,
        ) {
            eprintln!("egdb: {e} (the build goes on without it)");
        }
    }

    fn slot(&self, m: Material) -> usize {
        self.materials
            .iter()
            .position(|&x| x == m)
            .expect("quiet moves stay in the unit")
    }

    /// The value of a successor (Black to move) outside the unit, for Black.
    #[inline]
    fn outside(&self, smaller: &Smaller, child: &Position, below: &mut Vec<Vec<Move>>) -> Wdl {
        smaller.probe(child, below, 0).unwrap_or_else(|| {
            self.missing.store(true, Relaxed);
            Wdl::Draw
        })
    }

    /// Pass 1 over one slice.
    fn forward(&self, slot: usize, smaller: &Smaller) {
        let m = self.materials[slot];
        let states = &self.states[slot];
        let best_outside = &self.best_outside[slot];
        let capture = &self.capture[slot];
        (0..states.len())
            .into_par_iter()
            .with_min_len(1024)
            .for_each_init(
                || (Vec::new(), Cursor::new(m)),
                |(below, cursor), index| {
                    let state = match cursor.position(index as u64) {
                        None => INVALID,
                        Some(pos) => {
                            let (state, outside, captures) = self.first_state(&pos, smaller, below);
                            let bits = file::encode(outside) << (2 * (index % 4));
                            if bits != 0 {
                                best_outside[index / 4].fetch_or(bits, Relaxed);
                            }
                            if captures {
                                capture[index / 8].fetch_or(1 << (index % 8), Relaxed);
                            }
                            state
                        }
                    };
                    states[index].store(state, Relaxed);
                },
            );
    }

    /// A position's first state, the best its moves out of the unit give it, and
    /// whether a capture is pending. `below` holds lists of moves for the
    /// captures played out in the smaller slices, its first one this position's
    /// captures.
    fn first_state(
        &self,
        pos: &Position,
        smaller: &Smaller,
        below: &mut Vec<Vec<Move>>,
    ) -> (u8, Wdl, bool) {
        // The best of the moves out of the unit, for the side to move.
        let mut best = Wdl::Loss;
        let mut probe = |child: Position, below: &mut Vec<Vec<Move>>| {
            best = best.max(self.outside(smaller, &child, below).negated());
            best != Wdl::Win
        };
        let captures = has_capture(pos);
        let count = if captures {
            // Every capture leaves the unit; the probes' own captures start a
            // level deeper.
            let mut captures = below.pop().unwrap_or_default();
            captures.clear();
            generate_captures(pos, &mut captures);
            for &mv in &captures {
                if !probe(pos.play_unkeyed(mv), below) {
                    break;
                }
            }
            below.push(captures);
            0
        } else {
            // A crowning leaves the unit (few: no need to stop at a win).
            quiet::for_each_crowning(pos, |mv| {
                probe(pos.play_unkeyed(mv), below);
            });
            quiet::count_staying(pos)
        };
        if best == Wdl::Win {
            return (WIN_NEW[0], Wdl::Win, captures);
        }
        let draw = best == Wdl::Draw;
        let count = u8::try_from(count).unwrap_or(u8::MAX);
        assert!(count <= MAX_COUNT, "too many moves to count");
        let outside = if draw { Wdl::Draw } else { Wdl::Loss };
        let state = match (count, draw) {
            (0, true) => DRAW,
            (0, false) => LOSS_NEW[0],
            (c, true) => c | DRAW_MARK,
            (c, false) => c,
        };
        (state, outside, captures)
    }

    /// One round of pass 2: see [`rounds`].
    fn round(&self, parity: usize) -> u64 {
        self.round_with(parity, rounds::LOOK_COST)
    }

    /// [`Unit::round`], a look forward for wins weighed as `look_cost` updates.
    fn round_with(&self, parity: usize, look_cost: u64) -> u64 {
        let tallies = self.tallies();
        let states = (&self.states[..], &self.fresh[..]);
        rounds::round(self.materials, states, tallies, (parity, look_cost))
    }

    fn tallies(&self) -> &[rounds::Tally] {
        self.tallies.get_or_init(|| {
            self.materials
                .iter()
                .zip(&self.states)
                .map(|(&m, s)| rounds::Tally::count(m, s))
                .collect()
        })
    }

    /// Positions the rounds made won by looking forward.
    fn pulled(&self) -> u64 {
        self.tallies().iter().map(|t| t.pulled.load(Relaxed)).sum()
    }

    /// [`Unit::pulled`] for the progress line, when there are any.
    fn pulled_note(&self) -> String {
        match self.pulled() {
            0 => String::new(),
            n => format!(", {n} won looking forward"),
        }
    }

    /// Every final value of one slice, four a byte as in a file's blocks (a capture
    /// pending's too, which a file does not hold; an invalid index's as a draw).
    fn values(&self, slot: usize) -> Vec<u8> {
        /// Bytes one task packs.
        const TASK_BYTES: usize = 1 << 16;
        let states = &self.states[slot];
        let mut values = vec![0u8; states.len().div_ceil(4)];
        values
            .par_chunks_mut(TASK_BYTES)
            .enumerate()
            .for_each(|(task, bytes)| {
                let first = task * TASK_BYTES * 4;
                for (at, byte) in bytes.iter_mut().enumerate() {
                    let four = &states[first + 4 * at..(first + 4 * at + 4).min(states.len())];
                    *byte = four.iter().enumerate().fold(0, |b, (k, state)| {
                        let value = final_value(state.load(Relaxed)).unwrap_or(Wdl::Draw);
                        b | file::encode(value) << (2 * k)
                    });
                }
            });
        values
    }

    /// Pass 3 over one slice: checks every value against its successors' and
    /// returns the compressed blocks.
    fn check(&self, slot: usize) -> Result<Vec<Vec<u8>>, String> {
        let m = self.materials[slot];
        let states = &self.states[slot];
        let best_outside = &self.best_outside[slot];
        let capture_bits = &self.capture[slot];
        let capture_known = self.capture_known.load(Relaxed);
        let lost_bits = successors::Lost::of(&self.states[self.slot(m.swapped())]);
        let bad = AtomicU64::new(0);
        let blocks = (0..states.len().div_ceil(BLOCK_POSITIONS as usize))
            .into_par_iter()
            .map(|block| {
                let start = block * BLOCK_POSITIONS as usize;
                let end = (start + BLOCK_POSITIONS as usize).min(states.len());
                let mut values = Vec::with_capacity(end - start);
                let mut inside = Vec::new();
                let mut cursor = Cursor::new(m);
                // A quiet move keeps the material, which the flip swaps.
                let after = Cursor::new(m.swapped());
                let after_states = &self.states[self.slot(m.swapped())];
                let lost = |at: usize| lost_bits.has(at);
                let mut last = 0;
                for (index, state) in states.iter().enumerate().take(end).skip(start) {
                    let stored = final_value(state.load(Relaxed));
                    let (Some(value), Some(pos)) = (stored, cursor.position(index as u64)) else {
                        values.push(last);
                        continue;
                    };
                    let outside = file::decode(
                        best_outside[index / 4].load(Relaxed) >> (2 * (index % 4)) & 3,
                    );
                    // With a capture pending every move leaves the unit: pass 1's
                    // best of them is the value, and no move need be made again.
                    let capture = if capture_known {
                        capture_bits[index / 8].load(Relaxed) >> (index % 8) & 1 != 0
                    } else {
                        has_capture(&pos)
                    };
                    let recomputed = if capture || outside == Wdl::Win {
                        outside
                    } else if value == Wdl::Win
                        && successors::wins_inside(&pos, (&after, lost), &mut inside)
                    {
                        // One successor lost for the opponent proves the win: the
                        // others cannot raise the best above it.
                        Wdl::Win
                    } else {
                        let unit = (&after, after_states.as_slice(), &lost_bits);
                        successors::best_inside(&pos, unit, outside, &mut inside)
                    };
                    if recomputed != value && bad.fetch_add(1, Relaxed) == 0 {
                        log::error!("egdb: {} is not {value}", pos.to_fen());
                    }
                    // A capture pending is played out by the probe: its value is
                    // never read, so it continues the run before it.
                    if !capture {
                        last = file::encode(value);
                    }
                    values.push(last);
                }
                file::compress_block(&values)
            })
            .collect();
        match bad.into_inner() {
            0 => Ok(blocks),
            n => Err(format!(
                "slice {m}: {n} positions disagree with their successors (see the log)"
            )),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use states::LOSS_DONE;

    #[test]
    fn the_check_refuses_a_value_that_disagrees_with_the_successors() {
        // A king against a king: every capture ends the game, so the unit needs no
        // smaller table.
        let tables = Tables::empty(Path::new("no tables"));
        let materials = ["0101".parse::<Material>().unwrap()];
        let no_smaller = Smaller::unpack(&tables, &[], 2, &mut Resolved::default());
        let solved = || {
            let unit = Unit::new(&materials);
            unit.forward(0, &no_smaller);
            let mut parity = 0;
            while unit.round(parity) > 0 {
                parity ^= 1;
            }
            assert!(unit.check(0).is_ok());
            unit
        };
        // One won position made lost, of either kind: with a capture pending (its
        // value comes from pass 1's moves out of the unit) and without (from the
        // unit's own successors, the values passed back).
        for capture in [true, false] {
            let unit = solved();
            let won = (0..unit.states[0].len())
                .find(|&i| {
                    final_value(unit.states[0][i].load(Relaxed)) == Some(Wdl::Win)
                        && materials[0]
                            .position(i as u64)
                            .is_some_and(|pos| has_capture(&pos) == capture)
                })
                .expect("1 king against 1 has won positions of both kinds");
            unit.states[0][won].store(LOSS_DONE, Relaxed);
            let refused = unit.check(0).unwrap_err();
            assert!(
                refused.contains("disagree with their successors"),
                "{refused}"
            );
        }
    }

    #[test]
    fn looking_forward_for_wins_gives_the_values_passing_losses_back_gives() {
        // Three kings against one and two men against one king: lopsided units,
        // where the losses to pass back soon outnumber the undecided positions.
        let dir = built("pull");
        let tables = Tables::open(&dir, 3).unwrap();
        for unit in [["0103", "0301"], ["0120", "2001"]] {
            let materials: Vec<Material> = unit.iter().map(|m| m.parse().unwrap()).collect();
            let smaller = Smaller::unpack(
                &tables,
                &reached(&materials, &tables),
                4,
                &mut Resolved::default(),
            );
            let solved = |look_cost| {
                let unit = Unit::new(&materials);
                unit.forward(0, &smaller);
                unit.forward(1, &smaller);
                let mut parity = 0;
                while unit.round_with(parity, look_cost) > 0 {
                    parity ^= 1;
                }
                assert!((0..2).all(|slot| unit.check(slot).is_ok()));
                let values: Vec<_> = (0..2).map(|slot| unit.values(slot)).collect();
                (values, unit.pulled())
            };
            let (pushed, none) = solved(u64::MAX);
            let (pulled, some) = solved(0);
            assert_eq!(none, 0);
            assert!(some > 0, "{unit:?}: no win found looking forward");
            assert!(pulled == pushed, "{unit:?}");
        }
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_unit_taken_up_from_its_checkpoint_gives_the_same_files() {
        let dir = std::env::temp_dir().join(format!("kroon-egdb-resume-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let tables = build(&BuildConfig {
            dir: dir.clone(),
            pieces: 2,
            progress: false,
            only: None,
        })
        .unwrap();
        let materials: Vec<Material> = ["0102", "0201"]
            .iter()
            .map(|m| m.parse().unwrap())
            .collect();
        let (fresh, _) = solve(&materials, &tables, &dir, &mut Resolved::default()).unwrap();
        // The same unit stopped after pass 1 and two rounds, its states saved.
        let unit = Unit::new(&materials);
        let smaller = Smaller::unpack(
            &tables,
            &reached(&materials, &tables),
            3,
            &mut Resolved::default(),
        );
        unit.forward(0, &smaller);
        unit.forward(1, &smaller);
        assert!(unit.round(0) > 0 && unit.round(1) > 0);
        let saved_at = checkpoint::path(&dir, &materials);
        unit.save(
            &saved_at,
            Progress {
                rounds: 2,
                parity: 0,
            },
        );
        let (resumed, phases) = solve(&materials, &tables, &dir, &mut Resolved::default()).unwrap();
        assert!(phases.starts_with("resumed after 2 rounds"), "{phases}");
        assert_eq!(resumed, fresh);
        // A damaged checkpoint (here cut short after its states were read into the
        // unit) is refused and the unit built from the start, to the same files.
        unit.save(
            &saved_at,
            Progress {
                rounds: 2,
                parity: 0,
            },
        );
        let bytes = std::fs::read(&saved_at).unwrap();
        std::fs::write(&saved_at, &bytes[..bytes.len() - 1]).unwrap();
        let (rebuilt, phases) = solve(&materials, &tables, &dir, &mut Resolved::default()).unwrap();
        assert!(phases.starts_with("forward"), "{phases}");
        assert_eq!(rebuilt, fresh);
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn units_come_smaller_first() {
        let units = units(4);
        assert_eq!(units.iter().map(Vec::len).sum::<usize>(), 4 + 12 + 25);
        for pair in units.windows(2) {
            let (a, b) = (pair[0][0], pair[1][0]);
            assert!((a.pieces(), a.men()) <= (b.pieces(), b.men()));
        }
    }

    // The reader on what the builder wrote: slices read at once and when first
    // needed give the same values, and damage is found either way.

    /// Tables of up to 3 pieces in a folder of their own.
    pub(super) fn built(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("kroon-egdb-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        build(&BuildConfig {
            dir: dir.clone(),
            pieces: 3,
            progress: false,
            only: None,
        })
        .unwrap();
        dir
    }

    #[test]
    fn slices_read_when_first_probed_give_the_values_of_slices_read_at_once() {
        let dir = built("lazy");
        let now = Tables::open_reading(&dir, 3, 3).unwrap();
        let later = Tables::open_reading(&dir, 3, 2).unwrap();
        assert!(
            !now.describe().contains("first needed"),
            "{}",
            now.describe()
        );
        assert!(
            later.describe().contains("(12 slices,") && later.describe().contains("first needed"),
            "{}",
            later.describe()
        );
        assert_eq!(later.complete_pieces(), 3);
        for fen in [
            "W:WK46,K1:BK5",
            "B:W28,K50:B5",
            "W:W6:BK3,K45",
            "B:WK10:B20,21",
        ] {
            let pos = Position::from_fen(fen).unwrap();
            assert_eq!(later.probe(&pos), now.probe(&pos), "{fen}");
            assert!(now.probe(&pos).is_some(), "{fen}");
        }
        // The slices probed are read now; the others still wait.
        assert!(
            later.describe().contains("(8 slices,"),
            "{}",
            later.describe()
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_search_never_waits_for_a_slice_read_in_the_background() {
        let dir = built("background");
        let now = Tables::open_reading(&dir, 3, 3).unwrap();
        let mut later = Tables::open_reading(&dir, 3, 2).unwrap();
        later.read_in_background();
        let pos = Position::from_fen("W:WK46,K1:BK5").unwrap();
        // Unknown at first: the file is being read on a thread of its own.
        assert_eq!(later.probe(&pos), None);
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(60);
        while later.probe(&pos).is_none() {
            assert!(std::time::Instant::now() < deadline, "never read");
            std::thread::sleep(std::time::Duration::from_millis(5));
        }
        assert_eq!(later.probe(&pos), now.probe(&pos));
        // 2 pieces were read when opened; one 3-piece slice since.
        assert!(
            later.describe().contains("(11 slices,"),
            "{}",
            later.describe()
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn a_slice_damaged_inside_is_refused_at_its_first_probe_and_the_rest_still_answer() {
        let dir = built("lazy-damaged");
        let sound = Position::from_fen("W:WK46:BK5,K1").unwrap();
        let value = Tables::open(&dir, 3).unwrap().probe(&sound);
        assert!(value.is_some());
        let victim = dir.join("wdl-0201.egdb");
        let mut bytes = std::fs::read(&victim).unwrap();
        let last = bytes.len() - 20;
        bytes[last] ^= 0x10;
        std::fs::write(&victim, &bytes).unwrap();
        // Read at once: refused when opened.
        let err = Tables::open_reading(&dir, 3, 3).err().unwrap();
        assert!(
            err.contains("wdl-0201.egdb") && err.contains("checksum"),
            "{err}"
        );
        // Read when first needed: the header is sound, the checksum fails then;
        // that slice is unknown and the others still answer.
        let tables = Tables::open_reading(&dir, 3, 2).unwrap();
        let damaged = Position::from_fen("W:WK46,K1:BK5").unwrap();
        assert_eq!(tables.probe(&damaged), None);
        assert_eq!(tables.probe(&sound), value);
        // Cut short: the header's block table no longer matches, refused when opened.
        std::fs::write(&victim, &bytes[..bytes.len() - 3]).unwrap();
        let err = Tables::open_reading(&dir, 3, 2).err().unwrap();
        assert!(
            err.contains("wdl-0201.egdb") && err.contains("not a usable table"),
            "{err}"
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
