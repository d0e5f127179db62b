//! The root of one search: the main thread's iterative deepening (how deep, when
//! to stop, which move to play), what the endgame tables say of the root, and the
//! threads that help: they wait for split points (see [`super::split_point`]) and
//! search the moves shared there. All share the transposition table and the
//! [`Control`]. The threads themselves belong to the engine and serve search after
//! search.

use super::control::Control;
use super::split_point::SplitPool;
use super::time::MAX_DEPTH;
use super::tt::TranspositionTable;
use super::worker::{Iteration, Worker};
use super::{GoMode, Info, SearchResult};
use crate::egdb::Wdl;
use crate::search::score::Score;
use crate::time_control::TimeControl;
use kroon_rules::board::draw::DrawClock;
use kroon_rules::board::movegen::legal_moves;
use kroon_rules::board::{Key, Move, Position};
use std::time::Duration;

/// How settled the search is, iteration by iteration, and so how far past its
/// usual time it should go on: a best move that keeps changing, or a score that
/// falls, says the next iteration may well change the move, so it is worth the
/// time; a move that every iteration confirms is not.
#[derive(Clone, Copy, Debug, Default)]
struct Stability {
    /// Best-move changes, the older ones counting half as much at each iteration.
    changes: u32,
    best: Option<Move>,
    score: Option<Score>,
}

/// Iterations before this depth are too shallow to judge the search by.
const STABILITY_DEPTH: u32 = 5;

impl Stability {
    /// Takes in a completed iteration; returns the soft limit's stretch in percent.
    fn update(&mut self, it: &Iteration) -> u32 {
        let best = it.pv.first().copied();
        let changed = self.best.is_some() && best != self.best;
        // In hundredths of a change: halves each iteration, a change adds one.
        self.changes = self.changes / 2 + if changed { 100 } else { 0 };
        let drop = self
            .score
            .filter(|s| !s.is_decisive() && !it.score.is_decisive())
            .map_or(0, |before| (before.0 - it.score.0).max(0));
        self.best = best;
        self.score = Some(it.score);
        if it.depth < STABILITY_DEPTH {
            return 100;
        }
        // A change just now: +80%; a score down by a fifth of a man: +50%.
        let unsettled = 80 * self.changes / 100 + (drop.min(60) as u32) * 5 / 2;
        // A move confirmed for several iterations at an even score: a little less.
        let settled = if self.changes == 0 && drop == 0 {
            15
        } else {
            0
        };
        (100 + unsettled - settled).clamp(70, 250)
    }
}

/// Everything one search needs besides the shared table and control.
pub struct SearchParams {
    pub position: Position,
    /// Keys of the game's positions, oldest first, the root's last.
    pub keys: Vec<Key>,
    pub clock: DrawClock,
    pub limit: TimeControl,
    pub mode: GoMode,
    pub threads: usize,
    pub evaluator: crate::eval::Evaluator,
    /// Endgame tables to probe, for positions of up to `table_pieces` pieces.
    pub tables: Option<std::sync::Arc<crate::egdb::Tables>>,
    pub table_pieces: u32,
    /// The margins of pruning and reductions.
    pub pruning: crate::search::pruning::Pruning,
    /// What the game's searches so far found the static score to miss (used when
    /// `pruning.correction` says so).
    pub corrections: std::sync::Arc<crate::search::correction::Corrections>,
}

/// A search whose root the tables settle as a draw or a loss plays a move that keeps
/// that value after this depth: nothing deeper changes the result.
const KNOWN_RESULT_DEPTH: u32 = 6;

/// What the tables say of the root: its value, and the moves that keep it (None
/// when the root is not in the tables, or every move keeps it).
fn table_root(params: &SearchParams, moves: &[Move]) -> Option<(Wdl, Vec<Move>)> {
    let tables = params.tables.as_deref()?;
    let root = &params.position;
    if root.occupied().count() > params.table_pieces {
        return None;
    }
    let value = tables.probe(root)?;
    let keep: Vec<_> = moves
        .iter()
        .copied()
        .filter(|&m| tables.probe(&root.play(m)).map(Wdl::negated) == Some(value))
        .collect();
    Some((value, keep))
}

/// The reply to expect after the iteration's move: the second move of its PV, or
/// when the PV ends there, the table's best move in the position after it.
fn ponder_move(tt: &TranspositionTable, pos: &Position, it: &Iteration) -> Option<Move> {
    if let Some(&mv) = it.pv.get(1) {
        return Some(mv);
    }
    let first = *it.pv.first()?;
    let child = pos.play(first);
    let index = tt.probe(child.key())?.move_index?;
    legal_moves(&child).get(index as usize).copied()
}

/// The threads a search asks for, but no more than the machine runs at once: a
/// thread that waits at a split point for one that is not running wastes its turn.
/// (64 threads on 2 cores took twice as long as 1 thread; 4 took as long as 2.)
fn usable_threads(asked: usize) -> usize {
    asked.clamp(1, crate::cores::available_cores())
}

/// The threads that search together when a search has more than one: see [`run`].
/// They live as long as the engine, so that each search finds them already spread
/// over the cores. (Threads started for each search began on the core of the thread
/// that started them, and the kernel took 10-20 ms to move one away: for that long,
/// two search threads took turns on one core.)
#[must_use]
pub fn search_threads(threads: usize) -> Option<rayon::ThreadPool> {
    let threads = usable_threads(threads);
    (threads > 1)
        .then(|| {
            rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .thread_name(|i| format!("kroon-search-{i}"))
                .build()
                .map_err(|e| log::warn!("searching on one thread: no thread pool ({e})"))
                .ok()
        })
        .flatten()
}

/// Runs a search to its end and reports each iteration the main thread completes
/// through `on_info`. With `workers` (from [`search_threads`]) and `params.threads`
/// above 1, the search runs on up to that many of their threads, the main thread
/// among them; otherwise on this thread alone.
pub fn run(
    params: SearchParams,
    tt: &TranspositionTable,
    control: &Control,
    workers: Option<&rayon::ThreadPool>,
    on_info: &mut (dyn FnMut(&Info) + Send),
) -> SearchResult {
    let (plan, nothing) = match plan_root(&params) {
        Ok(planned) => planned,
        Err(answer) => return answer,
    };
    tt.new_search();
    let (best, unfinished) = search_on_threads(&params, &plan, tt, control, workers, on_info);
    let best = best.map(|it| better_unfinished(it, unfinished));
    match best {
        Some(it) => SearchResult {
            best_move: it.pv.first().copied().or(nothing.best_move),
            ponder_move: ponder_move(tt, &params.position, &it),
            score: it.score,
            depth: it.depth,
            nodes: control.nodes(),
            time: control.elapsed(),
            pv: it.pv,
        },
        None => SearchResult {
            nodes: control.nodes(),
            time: control.elapsed(),
            ..nothing
        },
    }
}

/// The answer of a search that completes no iteration: the first of the root's
/// `moves` (none if there is none), at a draw's score.
fn first_move_answer(moves: &[Move]) -> SearchResult {
    SearchResult {
        best_move: moves.first().copied(),
        ponder_move: None,
        score: Score::DRAW,
        depth: 0,
        nodes: 0,
        time: Duration::ZERO,
        pv: moves.first().copied().into_iter().collect(),
    }
}

/// What the search of the root will be: the moves it searches and how deep, and
/// the answer should no iteration complete. `Err` with the answer when there is
/// nothing to search: no legal move (a loss), or a single one to play.
fn plan_root(params: &SearchParams) -> Result<(RootPlan, SearchResult), SearchResult> {
    let moves = legal_moves(&params.position);
    if moves.is_empty() {
        return Err(SearchResult {
            score: Score::loss_in(0),
            ..first_move_answer(&moves)
        });
    }
    // In the tables: only the moves that keep the root's value are searched (a win
    // still needs the search to make progress within the draw rules), and a known
    // draw or loss is not searched deep.
    let known = table_root(params, &moves);
    let root_moves = known
        .as_ref()
        .map(|(_, keep)| keep.clone())
        .filter(|keep| !keep.is_empty() && keep.len() < moves.len());
    let moves = root_moves.clone().unwrap_or(moves);
    let nothing = first_move_answer(&moves);
    if moves.len() == 1 && params.mode == GoMode::Think {
        return Err(nothing);
    }
    let known_result = known.is_some_and(|(v, _)| v != Wdl::Win) && params.mode != GoMode::Analyze;
    let plan = RootPlan {
        moves: root_moves,
        max_depth: if known_result {
            KNOWN_RESULT_DEPTH
        } else {
            MAX_DEPTH
        },
    };
    Ok((plan, nothing))
}

/// The main thread's iterative deepening (see [`deepen`]), with helpers on as many
/// of the `workers`' threads as the search may use, which share the moves of its
/// nodes.
fn search_on_threads(
    params: &SearchParams,
    plan: &RootPlan,
    tt: &TranspositionTable,
    control: &Control,
    workers: Option<&rayon::ThreadPool>,
    on_info: &mut (dyn FnMut(&Info) + Send),
) -> (Option<Iteration>, Option<Unfinished>) {
    let threads = workers.map_or(1, |w| {
        usable_threads(params.threads).min(w.current_num_threads())
    });
    let pool = SplitPool::default();
    let mut main =
        |shared: Option<&SplitPool>| deepen(params, plan, tt, control, &pool, shared, on_info);
    match workers {
        Some(workers) if threads > 1 => workers.scope(|scope| {
            for _ in 1..threads {
                let keys = params.keys.clone();
                let pool = &pool;
                let eval = &params.evaluator;
                let tables = params.tables.as_deref();
                let pieces = params.table_pieces;
                let pruning = params.pruning;
                let corrections = &*params.corrections;
                scope.spawn(move |_| {
                    Worker::new(tt, control, eval, keys, Some(pool))
                        .with_tables(tables, pieces)
                        .with_pruning(pruning)
                        .with_corrections(corrections)
                        .help();
                });
            }
            main(Some(&pool))
        }),
        _ => main(None),
    }
}

/// The last completed iteration `it`, or what the stopped iteration found when it
/// found a better move than `it`'s at a greater depth: that is the one to play.
fn better_unfinished(mut it: Iteration, unfinished: Option<Unfinished>) -> Iteration {
    if let Some((depth, (score, pv))) = unfinished {
        if depth > it.depth && pv.first() != it.pv.first() {
            it.score = score;
            it.pv = pv;
        }
    }
    it
}

/// What a stopped iteration had found: its depth, and the score and PV of the
/// root move it had proved best so far.
type Unfinished = (u32, (Score, Vec<Move>));

/// The root's moves when the tables restrict them, and the deepest iteration.
struct RootPlan {
    moves: Option<Vec<Move>>,
    max_depth: u32,
}

/// The main thread's iterative deepening, sharing its nodes' moves in `shared`
/// when other threads help: iterations of growing depth until the limit or the
/// clock says stop, each reported through `on_info`. Returns the last completed
/// iteration, and what the one stopped had found. Then tells the helpers that the
/// search is over.
#[allow(clippy::too_many_arguments)]
fn deepen(
    params: &SearchParams,
    plan: &RootPlan,
    tt: &TranspositionTable,
    control: &Control,
    pool: &SplitPool,
    shared: Option<&SplitPool>,
    on_info: &mut (dyn FnMut(&Info) + Send),
) -> (Option<Iteration>, Option<Unfinished>) {
    let max_depth = match params.limit {
        TimeControl::Depth(d) => d.clamp(1, MAX_DEPTH),
        _ => MAX_DEPTH,
    }
    .min(plan.max_depth);
    let mut worker = Worker::new(tt, control, &params.evaluator, params.keys.clone(), shared)
        .with_tables(params.tables.as_deref(), params.table_pieces)
        .with_pruning(params.pruning)
        .with_corrections(&params.corrections);
    worker.restrict_root(plan.moves.clone());
    let mut best: Option<Iteration> = None;
    let mut unfinished = None;
    let mut stability = Stability::default();
    for depth in 1..=max_depth {
        let guess = best.as_ref().map(|it| it.score);
        let Some(it) = worker.iterate(&params.position, params.clock, depth, guess) else {
            unfinished = worker.unfinished().map(|found| (depth, found));
            break;
        };
        worker.flush();
        on_info(&Info {
            depth: it.depth,
            seldepth: it.seldepth,
            mean_depth: it.mean_depth,
            score: it.score,
            nodes: control.nodes(),
            time: control.elapsed(),
            pv: it.pv.clone(),
            from_book: false,
        });
        let stretch = stability.update(&it);
        control.set_stretch(stretch);
        best = Some(it);
        if control.past_soft_limit() {
            break;
        }
    }
    control.stop();
    pool.finish();
    worker.flush();
    (best, unfinished)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn iteration(depth: u32, score: i32, mv: Move) -> Iteration {
        Iteration {
            depth,
            score: Score(score),
            pv: vec![mv],
            seldepth: depth,
            mean_depth: f64::from(depth),
        }
    }

    #[test]
    fn an_unsettled_search_stretches_its_time() {
        let moves = legal_moves(&Position::initial());
        let (a, b) = (moves[0], moves[1]);
        let mut s = Stability::default();
        // Shallow iterations say nothing; a move confirmed again and again at an
        // even score takes a little less than the usual time.
        assert_eq!(s.update(&iteration(3, 0, a)), 100);
        for depth in 4..12 {
            s.update(&iteration(depth, 0, a));
        }
        assert!(s.update(&iteration(12, 0, a)) < 100);
        // The best move changes: more time, less again as it holds.
        let changed = s.update(&iteration(13, 0, b));
        assert!(changed > 150, "{changed}");
        let held = s.update(&iteration(14, 0, b));
        assert!(held > 100 && held < changed, "{held}");
        // The score falls by half a man: more time too, within bounds.
        let mut s = Stability::default();
        s.update(&iteration(10, 20, a));
        let fell = s.update(&iteration(11, -30, a));
        assert!(fell > 150 && fell <= 250, "{fell}");
    }

    #[test]
    fn threads_are_capped_at_the_cores() {
        let cores = crate::cores::available_cores();
        assert_eq!(usable_threads(0), 1);
        assert_eq!(usable_threads(1), 1);
        assert_eq!(usable_threads(cores), cores);
        assert_eq!(usable_threads(1000), cores);
    }
}
