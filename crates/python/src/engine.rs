//! `kroon.Engine`: Kroon's search through the engine facade, with the GIL released
//! while it thinks and a stop that works from any Python thread.

use crate::board::Board;
use crate::errors::{value_error, GameOverError};
use crate::moves::Move;
use kroon_engine::book::BookUse;
use kroon_engine::engine::{
    Endgame, Engine as Facade, EngineOptions, GoMode, SearchResult as Found, TimeControl,
    DEFAULT_TABLE_PIECES,
};
use kroon_engine::eval::Evaluator;
use kroon_rules::board::Position;
use kroon_rules::game::Game;
use kroon_rules::wdl::Wdl;
use pyo3::exceptions::PyRuntimeError;
use pyo3::prelude::*;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc;
use std::sync::{Mutex, MutexGuard};
use std::time::Duration;

/// Kroon's engine: the learned evaluation, the parallel search, the opening
/// book and the endgame tables.
///
/// `threads` search threads, a transposition table of `hash_mb` MiB, `eval`
/// `"network"` (the built-in network, the default), `"learned"` (the built-in
/// pattern weights), `"hand"`, or a weights or network file; `book`
/// `False` (the default: every search searches), `True` for the built-in book
/// or a book file; `tables` a folder of endgame tables, `True` for the default
/// folder (`~/.local/share/kroon/egdb`, where `kroon.build_tables()` builds them),
/// or `None`. A folder that holds no tables gets the 2-4 piece ones, built there
/// by the engine itself beside its search once a search has 30 pieces or fewer
/// (about 10 s on one core), as `kroon hub` does. A file that cannot be read
/// raises `ValueError` naming it.
///
/// >>> import kroon
/// >>> engine = kroon.Engine(threads=1, hash_mb=16)
/// >>> board = kroon.Board()
/// >>> result = engine.search(board, depth=6)
/// >>> result.move in board.legal_moves
/// True
/// >>> board.push(result.move) == result.move
/// True
#[pyclass(module = "kroon", frozen)]
pub struct Engine {
    engine: Mutex<Facade>,
    /// Set for the whole of a search: a second search from another thread is
    /// refused rather than stopping the first.
    searching: AtomicBool,
}

/// A search's answer.
#[pyclass(module = "kroon", frozen, get_all)]
pub struct SearchResult {
    /// The move to play (`None` only when the side to move has no legal move).
    pub r#move: Option<Move>,
    /// From the side to move's view, in hundredths of a man.
    pub score: i32,
    /// Plies to the end of the game when the score is a forced win (positive)
    /// or loss (negative), else `None`.
    pub win_in: Option<i32>,
    /// The deepest completed iteration (0 for a forced or book move).
    pub depth: u32,
    pub nodes: u64,
    /// Seconds.
    pub time: f64,
    /// The principal variation, the move first.
    pub pv: Vec<Move>,
}

#[pymethods]
impl SearchResult {
    fn __repr__(&self) -> String {
        format!(
            "SearchResult(move={}, score={}, depth={}, nodes={}, pv=[{}])",
            self.r#move
                .map_or("None".to_string(), |m| format!("'{}'", m.pdn_text())),
            self.score,
            self.depth,
            self.nodes,
            self.pv
                .iter()
                .map(|m| m.pdn_text())
                .collect::<Vec<_>>()
                .join(" ")
        )
    }
}

/// Clears the searching flag however the search ends (a panic included).
struct Searching<'a>(&'a AtomicBool);

impl Drop for Searching<'_> {
    fn drop(&mut self) {
        self.0.store(false, Ordering::SeqCst);
    }
}

fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    // A panic in a search was turned into a Python exception; the engine is
    // still usable.
    mutex.lock().unwrap_or_else(|e| e.into_inner())
}

/// The book a Python value chooses.
fn book_from(value: &Bound<'_, PyAny>) -> PyResult<BookUse> {
    let name = if let Ok(on) = value.extract::<bool>() {
        if on { "on" } else { "off" }.to_string()
    } else {
        value.str()?.to_string()
    };
    match BookUse::open(&name) {
        Ok(_) => Ok(BookUse::named(&name).0),
        Err(e) => Err(value_error(format!("book: {e}"))),
    }
}

/// The endgame tables a Python value chooses.
fn tables_from(value: Option<&Bound<'_, PyAny>>, pieces: u32) -> PyResult<Endgame> {
    let dir = match value {
        None => return Ok(Endgame::default()),
        Some(v) if v.is_none() => return Ok(Endgame::default()),
        Some(v) => match v.extract::<bool>() {
            Ok(false) => return Ok(Endgame::default()),
            Ok(true) => None,
            Err(_) => Some(PathBuf::from(v.str()?.to_string())),
        },
    };
    Endgame::open(dir, pieces).map_err(|e| value_error(format!("tables: {e}")))
}

/// The limit of a search from the keywords given (exactly one).
fn limit_from(
    depth: Option<u32>,
    nodes: Option<u64>,
    movetime: Option<f64>,
    clock: Option<(f64, f64, Option<u32>)>,
    infinite: bool,
) -> PyResult<TimeControl> {
    let seconds = |s: f64, what: &str| {
        Duration::try_from_secs_f64(s)
            .map_err(|_| value_error(format!("{what} must be a number of seconds >= 0, not {s}")))
    };
    let mut limits = Vec::new();
    if let Some(d) = depth {
        limits.push(TimeControl::Depth(d.max(1)));
    }
    if let Some(n) = nodes {
        limits.push(TimeControl::Nodes(n.max(1)));
    }
    if let Some(t) = movetime {
        limits.push(TimeControl::MoveTime(seconds(t, "movetime")?));
    }
    if let Some((left, increment, moves)) = clock {
        limits.push(TimeControl::Clock {
            time: seconds(left, "clock time")?,
            increment: seconds(increment, "clock increment")?,
            moves,
        });
    }
    if infinite {
        limits.push(TimeControl::Infinite);
    }
    match limits.as_slice() {
        [one] => Ok(*one),
        [] => Err(value_error(
            "give one limit: depth=, nodes=, movetime= (seconds), clock=(seconds left, increment) or infinite=True",
        )),
        _ => Err(value_error("give only one of depth=, nodes=, movetime=, clock=, infinite=")),
    }
}

/// A clock given as seconds left, or `(left, increment)`, or `(left,
/// increment, moves to go)`.
fn clock_from(value: Option<&Bound<'_, PyAny>>) -> PyResult<Option<(f64, f64, Option<u32>)>> {
    let Some(value) = value else { return Ok(None) };
    if let Ok(left) = value.extract::<f64>() {
        return Ok(Some((left, 0.0, None)));
    }
    if let Ok((left, inc)) = value.extract::<(f64, f64)>() {
        return Ok(Some((left, inc, None)));
    }
    value
        .extract::<(f64, f64, u32)>()
        .map(|(left, inc, to_go)| Some((left, inc, Some(to_go))))
        .map_err(|_| {
            value_error("clock is seconds left, or (seconds left, increment[, moves to go])")
        })
}

fn result_of(found: Found, pos: Position) -> SearchResult {
    let mut at = pos;
    let pv = found
        .pv
        .iter()
        .map(|&mv| {
            let m = Move::new(mv, at);
            at = at.play(mv);
            m
        })
        .collect();
    SearchResult {
        r#move: found.best_move.map(|mv| Move::new(mv, pos)),
        score: found.score.0,
        win_in: found.score.decisive_plies(),
        depth: found.depth,
        nodes: found.nodes,
        time: found.time.as_secs_f64(),
        pv,
    }
}

impl Engine {
    /// Starts the search and waits for it without the GIL, looking for Ctrl-C
    /// every 50 ms.
    fn run(&self, py: Python<'_>, game: &Game, limit: TimeControl) -> PyResult<Found> {
        let (done, mut finished) = mpsc::channel();
        lock(&self.engine).go(
            game,
            limit,
            GoMode::Think,
            |_| {},
            move |_| {
                let _ = done.send(());
            },
        );
        loop {
            let (waited, receiver) = py.allow_threads(move || {
                let waited = finished.recv_timeout(Duration::from_millis(50));
                (waited, finished)
            });
            finished = receiver;
            if !matches!(waited, Err(mpsc::RecvTimeoutError::Timeout)) {
                break;
            }
            if let Err(interrupt) = py.check_signals() {
                lock(&self.engine).stop();
                py.allow_threads(|| lock(&self.engine).wait());
                return Err(interrupt);
            }
        }
        Ok(py.allow_threads(|| lock(&self.engine).wait()))
    }
}

#[pymethods]
impl Engine {
    #[new]
    #[pyo3(signature = (threads = 1, hash_mb = 64, eval = kroon_engine::eval::DEFAULT_NAME, book = None, tables = None, table_pieces = DEFAULT_TABLE_PIECES))]
    fn new(
        threads: usize,
        hash_mb: usize,
        eval: &str,
        book: Option<&Bound<'_, PyAny>>,
        tables: Option<&Bound<'_, PyAny>>,
        table_pieces: u32,
    ) -> PyResult<Engine> {
        let evaluator =
            Evaluator::from_name(eval).map_err(|e| value_error(format!("eval: {e}")))?;
        let mut facade = Facade::new(EngineOptions { threads, hash_mb });
        facade.set_evaluator(evaluator);
        facade.set_book(match book {
            Some(b) if !b.is_none() => book_from(b)?,
            _ => BookUse::off(),
        });
        facade.set_endgame(tables_from(tables, table_pieces)?);
        Ok(Engine {
            engine: Mutex::new(facade),
            searching: AtomicBool::new(false),
        })
    }

    /// Searches the board's position (its earlier positions count for
    /// repetitions, its draw counters for the 25-, 16- and 5-move rules) within
    /// one limit: `depth` plies, `nodes`, `movetime` seconds, a `clock` (seconds
    /// left, or `(left, increment)` or `(left, increment, moves to go)`; this
    /// move earns its increment too), or
    /// `infinite=True` (until `stop()`). Returns a `kroon.SearchResult`.
    ///
    /// The GIL is released while the engine searches: other Python threads run,
    /// and one of them may call `stop()`. Ctrl-C stops the search too.
    #[pyo3(signature = (board, *, depth = None, nodes = None, movetime = None, clock = None, infinite = false))]
    #[allow(clippy::too_many_arguments)]
    fn search(
        &self,
        py: Python<'_>,
        board: &Bound<'_, Board>,
        depth: Option<u32>,
        nodes: Option<u64>,
        movetime: Option<f64>,
        clock: Option<&Bound<'_, PyAny>>,
        infinite: bool,
    ) -> PyResult<SearchResult> {
        let limit = limit_from(depth, nodes, movetime, clock_from(clock)?, infinite)?;
        let game = board.borrow().game.clone();
        if let Some(result) = game.result() {
            return Err(GameOverError::new_err(format!(
                "the game is over: {result}"
            )));
        }
        if self.searching.swap(true, Ordering::SeqCst) {
            return Err(PyRuntimeError::new_err(
                "this engine is already searching (in another thread); use one engine per thread",
            ));
        }
        let _searching = Searching(&self.searching);
        let found = self.run(py, &game, limit)?;
        Ok(result_of(found, *game.position()))
    }

    /// Asks a search under way (in another thread) to end now: it returns its
    /// best move so far. Harmless when the engine is idle.
    fn stop(&self) {
        lock(&self.engine).stop();
    }

    /// Forgets what earlier searches learned (the transposition table): the next
    /// search is of an unrelated game.
    fn new_game(&self, py: Python<'_>) {
        py.allow_threads(|| lock(&self.engine).new_game());
    }

    /// The static evaluation of the board's position, from the side to move's
    /// view, in hundredths of a man (meant for quiet positions: the search
    /// plays captures out before it evaluates).
    fn evaluate(&self, board: &Bound<'_, Board>) -> i32 {
        let pos = board.borrow().position();
        lock(&self.engine).evaluator().evaluate(&pos)
    }

    /// The endgame tables' value of the board's position for the side to move:
    /// `"win"`, `"draw"`, `"loss"`, or `None` when no table holds it (or no
    /// tables are loaded). A capture pending is played out first.
    fn probe(&self, board: &Bound<'_, Board>) -> Option<&'static str> {
        let pos = board.borrow().position();
        let tables = lock(&self.engine).endgame().in_use()?;
        tables.probe(&pos).map(|wdl| match wdl {
            Wdl::Win => "win",
            Wdl::Draw => "draw",
            Wdl::Loss => "loss",
        })
    }

    /// Whether endgame tables are loaded (or built by the engine since).
    #[getter]
    fn has_tables(&self) -> bool {
        lock(&self.engine).endgame().in_use().is_some()
    }

    fn __repr__(&self) -> String {
        let engine = lock(&self.engine);
        let o = engine.options();
        format!(
            "Engine(threads={}, hash_mb={}, book={:?}, tables={})",
            o.threads,
            o.hash_mb,
            engine.book().name,
            engine.endgame().in_use().is_some()
        )
    }
}
