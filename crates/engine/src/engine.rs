//! The engine facade: the one type every front end (Hub, DXP, text mode, matches,
//! bench) drives. It owns the options and the transposition table, starts searches
//! on their own threads, and reports through callbacks: each iteration, then the
//! end of the search, so a front end waits for an event instead of polling. It
//! never reads input or prints protocol text.
//!
//! ```
//! use kroon_engine::engine::{Engine, EngineOptions, TimeControl};
//! use kroon_rules::game::Game;
//!
//! let mut engine = Engine::new(EngineOptions { threads: 1, hash_mb: 16 });
//! let game = Game::new();
//! let result = engine.search_blocking(&game, TimeControl::Depth(6));
//! assert!(result.best_move.is_some());
//! ```

use crate::book::BookUse;
use crate::egdb::{on_demand, Tables};
use crate::eval::Evaluator;
use crate::random::Rng;
use crate::search::control::Control;
use crate::search::correction::Corrections;
use crate::search::root::{self, SearchParams};
use crate::search::tt::TranspositionTable;
use kroon_rules::game::Game;
use std::panic::AssertUnwindSafe;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::thread::JoinHandle;

pub use crate::search::{nodes_as_time, GoMode, Info, Pruning, Score, SearchResult, MAX_DEPTH};
pub use crate::time_control::TimeControl;

/// The number of a search [`Engine::go`] started: the first an engine starts is
/// 1, each later one a number higher.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct SearchId(u64);

/// Engine options, as a front end sets them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct EngineOptions {
    /// Search threads (at least 1).
    pub threads: usize,
    /// Transposition table size in MiB (at least 1).
    pub hash_mb: usize,
}

impl Default for EngineOptions {
    fn default() -> EngineOptions {
        EngineOptions {
            threads: 1,
            hash_mb: 64,
        }
    }
}

/// The engine a front end plays with, as its command line or config sets it up:
/// the options, the evaluation with the name it was chosen by (`learned`,
/// `hand`, or a weights file), which Hub shows as its `eval` param, and the book.
#[derive(Clone, Debug)]
pub struct EngineSetup {
    pub options: EngineOptions,
    pub eval_name: String,
    pub evaluator: Evaluator,
    pub book: BookUse,
    pub endgame: Endgame,
}

/// The endgame tables the searches probe. Without any, everything works as before.
#[derive(Clone, Default)]
pub struct Endgame {
    /// The tables' folder, as given or the per-user default (Hub's `bb-path`).
    pub dir: Option<PathBuf>,
    /// Probe positions of up to this many pieces (Hub's `bb-size`, as Scan names
    /// it; below 2: none).
    pub pieces: u32,
    /// The slices loaded, if any.
    pub tables: Option<Arc<Tables>>,
}

/// Probes positions of up to this many pieces unless told otherwise (what is there).
pub const DEFAULT_TABLE_PIECES: u32 = 6;

impl Endgame {
    /// Reads the slices of up to `pieces` pieces from `dir` (default: the per-user
    /// folder) and says on stderr what it found; a damaged file is an error naming it.
    pub fn open(dir: Option<PathBuf>, pieces: u32) -> Result<Endgame, String> {
        let dir = dir.or_else(crate::egdb::default_dir);
        let tables = match &dir {
            Some(path) if pieces >= 2 => {
                let mut tables = Tables::open(path, pieces)?;
                tables.read_in_background();
                // Loaded tables are named on stderr; a folder without any only in the
                // log (`RUST_LOG=info`) here: front ends that read stderr expect their
                // own first line there, so each says so after it (see
                // [`Endgame::say_if_missing`]).
                if tables.is_empty() {
                    log::info!("{}", tables.describe());
                } else {
                    eprintln!("kroon: {}", tables.describe());
                }
                (!tables.is_empty()).then(|| Arc::new(tables))
            }
            _ => None,
        };
        Ok(Endgame {
            dir,
            pieces,
            tables,
        })
    }

    /// [`Endgame::open`], or no tables (saying why on stderr) when a file is damaged:
    /// an engine starts without them rather than not at all.
    #[must_use]
    pub fn load(dir: Option<PathBuf>, pieces: u32) -> Endgame {
        Endgame::open(dir.clone(), pieces).unwrap_or_else(|e| {
            eprintln!("kroon: endgame tables not used: {e}");
            Endgame {
                dir,
                pieces,
                tables: None,
            }
        })
    }
}

/// What building the tables a front end misses takes, from the README's measured
/// figures (2-5 pieces from nothing in 4 min 54 s on an idle 2-core machine).
const BUILD_HINT: &str = "build them (2-5 pieces, 71 MB, about 5 minutes on two cores) with: \
                          kroon egdb build --pieces 5";

/// What a front end that makes tables itself ([`on_demand`]) does without them.
const MADE_HINT: &str = "Kroon builds the 2-4 piece tables there when a game comes down to \
                         30 pieces (2.3 MB, about 10 s on one core beside the search)";

/// A search whose root has this many pieces or fewer asks for the tables a front
/// end can make: a search of more never reaches 4 pieces, and the many brief
/// Kroons that GUIs and scripts start for a position or two build nothing.
pub const ASK_FOR_TABLES_PIECES: u32 = 30;

/// The hint of [`Endgame::say_if_missing`] was given in this process.
static MISSING_SAID: AtomicBool = AtomicBool::new(false);

/// Whether `dir` holds table files (read or not: damaged ones are named when read).
fn holds_table_files(dir: &Path) -> bool {
    std::fs::read_dir(dir).is_ok_and(|entries| {
        entries.flatten().any(|e| {
            let name = e.file_name();
            let name = name.to_string_lossy();
            name.starts_with("wdl-") && name.ends_with(".egdb")
        })
    })
}

impl Endgame {
    /// One line for a user who has no tables: where they were looked for, what
    /// Kroon does about it in a front end that makes them ([`on_demand`]), and
    /// which command builds them all; None when tables were loaded, when they are
    /// turned off (fewer than 2 pieces), or when the folder holds table files
    /// (damaged ones were named on stderr already).
    #[must_use]
    pub fn missing_hint(&self) -> Option<String> {
        if self.tables.is_some() || self.pieces < 2 {
            return None;
        }
        let dir = self.dir.as_ref()?;
        if holds_table_files(dir) {
            return None;
        }
        let dir = dir.display();
        Some(if on_demand::registered() {
            format!("no endgame tables in {dir}; {MADE_HINT}; or {BUILD_HINT}")
        } else {
            format!("no endgame tables in {dir}; {BUILD_HINT}")
        })
    }

    /// Says [`Endgame::missing_hint`] on stderr, once a process however many
    /// engines or sessions it has: a front end calls this after its own first
    /// lines on stderr (the address it listens on), and Hub after `init`, when the
    /// GUI's `bb-size` and `bb-path` are set.
    pub fn say_if_missing(&self) {
        if let Some(hint) = self.missing_hint() {
            if !MISSING_SAID.swap(true, Ordering::Relaxed) {
                eprintln!("kroon: {hint}");
            }
        }
    }

    /// The tables the searches use: those loaded, else those a front end has made
    /// for this folder since ([`on_demand`]); None when turned off.
    #[must_use]
    pub fn in_use(&self) -> Option<Arc<Tables>> {
        if self.pieces < 2 {
            return None;
        }
        self.tables
            .clone()
            .or_else(|| on_demand::ready(self.dir.as_deref()))
    }

    /// Without tables, a search of `pieces` or fewer asks for the ones a front end
    /// can make ([`on_demand`]) when the folder holds none, and the tables are taken
    /// up once made. Not under a node clock (`node_rate`), whose games must repeat
    /// exactly however soon a build ends. Whether they were taken up now.
    fn take_up_made_tables(&mut self, pieces: u32, node_rate: Option<u64>) -> bool {
        if self.tables.is_some() || self.pieces < 2 || node_rate.is_some() {
            return false;
        }
        let dir = self.dir.as_deref();
        if pieces <= ASK_FOR_TABLES_PIECES
            && on_demand::registered()
            && !on_demand::requested()
            && !dir.is_some_and(holds_table_files)
        {
            on_demand::request(dir);
        }
        self.tables = on_demand::ready(dir);
        self.tables.is_some()
    }
}

impl std::fmt::Debug for Endgame {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Endgame")
            .field("dir", &self.dir)
            .field("pieces", &self.pieces)
            .field("loaded", &self.tables.is_some())
            .finish()
    }
}

impl EngineSetup {
    /// `options` with the evaluation `eval_name` names; a weights file that cannot
    /// be read is an error naming it. The built-in book is used (if it cannot be
    /// read, stderr says why and the engine plays without it).
    pub fn new(options: EngineOptions, eval_name: &str) -> Result<EngineSetup, String> {
        Ok(EngineSetup {
            options,
            eval_name: eval_name.to_string(),
            evaluator: Evaluator::from_name(eval_name)?,
            book: builtin_book(),
            endgame: Endgame::default(),
        })
    }

    /// An idle engine set up so.
    #[must_use]
    pub fn engine(&self) -> Engine {
        let mut engine = Engine::new(self.options);
        engine.set_evaluator(self.evaluator.clone());
        engine.set_book(self.book.clone());
        engine.set_endgame(self.endgame.clone());
        engine
    }
}

/// The built-in book, or none if it does not decode (said on stderr: the engine
/// plays on without it).
fn builtin_book() -> BookUse {
    let (book, error) = BookUse::named("on");
    if let Some(error) = error {
        eprintln!("no opening book: {error}");
    }
    book
}

impl Default for EngineSetup {
    /// The default options and the built-in evaluation.
    fn default() -> EngineSetup {
        EngineSetup {
            options: EngineOptions::default(),
            eval_name: crate::eval::DEFAULT_NAME.into(),
            evaluator: Evaluator::default(),
            book: builtin_book(),
            endgame: Endgame::default(),
        }
    }
}

/// A searching engine. One search runs at a time; [`Engine::go`] returns at once
/// and [`Engine::wait`] collects the result.
pub struct Engine {
    options: EngineOptions,
    /// The searches `go` has started, which number them.
    searches: u64,
    tt: Arc<TranspositionTable>,
    /// What this game's searches found the static score to miss, by the men's
    /// formations: kept across the game's moves and cleared with the table.
    corrections: Arc<Corrections>,
    control: Option<Arc<Control>>,
    handle: Option<JoinHandle<SearchResult>>,
    /// The threads of searches with more than one, made when first needed.
    workers: Option<Arc<rayon::ThreadPool>>,
    evaluator: Evaluator,
    /// The book `go think` plays from (none unless set), and its choices.
    book: BookUse,
    book_rng: Rng,
    endgame: Endgame,
    /// The search's margins: the defaults unless a tuner or a match sets others.
    pruning: Pruning,
    /// Nodes counted as a second of the clock, for matches that must not depend on
    /// the machine's load (None: the real clock).
    node_rate: Option<u64>,
}

impl Engine {
    /// An idle engine with an empty table of `options.hash_mb` MiB.
    #[must_use]
    pub fn new(options: EngineOptions) -> Engine {
        let options = EngineOptions {
            threads: options.threads.max(1),
            hash_mb: options.hash_mb.max(1),
        };
        Engine {
            options,
            searches: 0,
            tt: Arc::new(TranspositionTable::new(options.hash_mb)),
            corrections: Arc::new(Corrections::new()),
            control: None,
            handle: None,
            workers: None,
            evaluator: Evaluator::default(),
            book: BookUse::off(),
            book_rng: Rng::new(0, 0),
            endgame: Endgame::default(),
            pruning: Pruning::DEFAULT,
            node_rate: None,
        }
    }

    /// The book of the next `go think`s; its seed starts the choices afresh.
    pub fn set_book(&mut self, book: BookUse) {
        self.book_rng = Rng::new(book.seed, 0);
        self.book = book;
    }

    /// The book in use.
    #[must_use]
    pub fn book(&self) -> &BookUse {
        &self.book
    }

    /// The evaluation of the next searches.
    pub fn set_evaluator(&mut self, evaluator: Evaluator) {
        self.evaluator = evaluator;
    }

    /// The pruning and reduction margins of the next searches.
    pub fn set_pruning(&mut self, pruning: Pruning) {
        self.pruning = pruning;
    }

    /// The pruning and reduction margins in use.
    #[must_use]
    pub fn pruning(&self) -> Pruning {
        self.pruning
    }

    /// The next searches' clock: `rate` nodes a second, or the real clock (None or
    /// 0). A match that charges its engines the same way (`kroon match
    /// --node-rate`) plays the same games however busy the machine is, so time
    /// management can be tested beside other work.
    pub fn set_node_rate(&mut self, rate: Option<u64>) {
        self.node_rate = rate.filter(|&r| r > 0);
    }

    /// Nodes a second of the clock, when it counts nodes.
    #[must_use]
    pub fn node_rate(&self) -> Option<u64> {
        self.node_rate
    }

    /// The endgame tables of the next searches.
    pub fn set_endgame(&mut self, endgame: Endgame) {
        self.endgame = endgame;
    }

    /// The endgame tables in use.
    #[must_use]
    pub fn endgame(&self) -> &Endgame {
        &self.endgame
    }

    /// The evaluation in use.
    #[must_use]
    pub fn evaluator(&self) -> &Evaluator {
        &self.evaluator
    }

    /// The options in force.
    #[must_use]
    pub fn options(&self) -> EngineOptions {
        self.options
    }

    /// Threads for the next search (at least 1).
    pub fn set_threads(&mut self, n: usize) {
        let n = n.max(1);
        if n != self.options.threads {
            self.options.threads = n;
            // A search under way keeps its own handle on the old threads.
            self.workers = None;
        }
    }

    /// Resizes (and so clears) the table; a search under way finishes first.
    pub fn set_hash_mb(&mut self, mb: usize) {
        let mb = mb.max(1);
        if mb != self.options.hash_mb {
            self.finish();
            self.options.hash_mb = mb;
            self.tt = Arc::new(TranspositionTable::new(mb));
        }
    }

    /// The next search is unrelated to the last: forget the table. A search under way
    /// is stopped first (its result is dropped).
    pub fn new_game(&mut self) {
        self.finish();
        self.tt.clear();
        self.corrections.clear();
    }

    /// Starts searching the game's current position and returns at once. The game's
    /// earlier positions count for repetitions, and its draw clock for the 25-, 16-
    /// and 5-move rules. On the search thread, `on_info` hears each completed
    /// iteration and `on_done` the end of the search, however it ended (its limit,
    /// [`Engine::stop`], a panic): [`Engine::wait`] then returns at once. A search
    /// already running is stopped and its result dropped. In [`GoMode::Think`], a
    /// position of the book (see [`Engine::set_book`]) is answered from it at once:
    /// one `on_info` with [`Info::from_book`] set, then `on_done`.
    ///
    /// Returns the search's number, which `on_done` hears too: a front end that
    /// stopped a search for another can tell the end it waits for from the end of
    /// the one it stopped, which may still come.
    pub fn go(
        &mut self,
        game: &Game,
        limit: TimeControl,
        mode: GoMode,
        on_info: impl FnMut(&Info) + Send + 'static,
        on_done: impl FnOnce(SearchId) + Send + 'static,
    ) -> SearchId {
        self.finish();
        self.searches += 1;
        let id = SearchId(self.searches);
        let on_done = move || on_done(id);
        if mode == GoMode::Think {
            if let Some(result) = self.book_move(game) {
                self.answer_from_book(result, on_info, on_done);
                return id;
            }
        }
        let pieces = game.position().occupied().count();
        if self.endgame.take_up_made_tables(pieces, self.node_rate) {
            // The table's scores were found without the tables: kept, they would cut
            // the searches short of what the tables now know.
            self.tt.clear();
        }
        let params = SearchParams {
            position: *game.position(),
            keys: game.keys().to_vec(),
            clock: game.draw_clock(),
            limit,
            mode,
            threads: self.options.threads,
            evaluator: self.evaluator.clone(),
            tables: self.endgame.tables.clone(),
            table_pieces: self.endgame.pieces,
            pruning: self.pruning,
            corrections: Arc::clone(&self.corrections),
        };
        let settled = self
            .endgame
            .tables
            .as_ref()
            .map_or(0, |t| t.complete_pieces().min(self.endgame.pieces));
        let control =
            Arc::new(Control::new(limit, mode, pieces, settled).with_node_rate(self.node_rate));
        if self.workers.is_none() {
            self.workers = root::search_threads(self.options.threads).map(Arc::new);
        }
        let workers = self.workers.clone();
        let tt = Arc::clone(&self.tt);
        let shared = Arc::clone(&control);
        let mut on_info = on_info;
        self.control = Some(control);
        let search = move || {
            let run = || root::run(params, &tt, &shared, workers.as_deref(), &mut on_info);
            let result = std::panic::catch_unwind(AssertUnwindSafe(run));
            // Even a search that panicked has ended: a front end waiting for the
            // event must hear it (`wait` then passes the panic on).
            on_done();
            result.unwrap_or_else(|panic| std::panic::resume_unwind(panic))
        };
        self.handle = Some(
            std::thread::Builder::new()
                .name("kroon-search".into())
                .spawn(search)
                .expect("the system can start a thread"),
        );
        id
    }

    /// Answers a `go` with the book's `result` as a search is answered, from its
    /// own thread, so front ends need not know: one `on_info` with
    /// [`Info::from_book`] set, then `on_done`.
    fn answer_from_book(
        &mut self,
        result: SearchResult,
        mut on_info: impl FnMut(&Info) + Send + 'static,
        on_done: impl FnOnce() + Send + 'static,
    ) {
        let info = Info {
            depth: 0,
            seldepth: 0,
            mean_depth: 0.0,
            score: result.score,
            nodes: 0,
            time: std::time::Duration::ZERO,
            pv: result.pv.clone(),
            from_book: true,
        };
        let answer = move || {
            on_info(&info);
            on_done();
            result
        };
        self.handle = Some(
            std::thread::Builder::new()
                .name("kroon-book".into())
                .spawn(answer)
                .expect("the system can start a thread"),
        );
    }

    /// Asks the search to end now; [`Engine::wait`] then returns its best move so
    /// far. Harmless when idle.
    pub fn stop(&self) {
        if let Some(control) = &self.control {
            control.stop();
        }
    }

    /// The expected move was played: a ponder search becomes a normal timed search,
    /// its clock starting now. Harmless otherwise.
    pub fn ponder_hit(&self) {
        if let Some(control) = &self.control {
            control.ponder_hit();
        }
    }

    /// Blocks until the search ends by itself or after [`Engine::stop`], and returns
    /// its result. Without a search started by `go`, returns at once a result with no
    /// move.
    pub fn wait(&mut self) -> SearchResult {
        self.control = None;
        match self.handle.take() {
            Some(handle) => handle
                .join()
                .unwrap_or_else(|panic| std::panic::resume_unwind(panic)),
            None => SearchResult {
                best_move: None,
                ponder_move: None,
                score: Score::DRAW,
                depth: 0,
                nodes: 0,
                time: std::time::Duration::ZERO,
                pv: Vec::new(),
            },
        }
    }

    /// Searches in Think mode and waits for the result, without progress reports.
    pub fn search_blocking(&mut self, game: &Game, limit: TimeControl) -> SearchResult {
        self.go(game, limit, GoMode::Think, |_| {}, |_| {});
        self.wait()
    }

    /// Searches in Analyze mode and waits for the result: unlike play, a position
    /// with a single legal move (a forced capture) is searched too and gets a score.
    /// For the tools that want the search's verdict on a position, not a move.
    pub fn analyse_blocking(&mut self, game: &Game, limit: TimeControl) -> SearchResult {
        self.go(game, limit, GoMode::Analyze, |_| {}, |_| {});
        self.wait()
    }

    /// A move from the book for the game's position, with the book's expected reply
    /// to ponder on; None past the book's plies or outside the book.
    fn book_move(&mut self, game: &Game) -> Option<SearchResult> {
        let book = self.book.book.as_ref()?;
        if game.moves().len() >= self.book.max_ply as usize {
            return None;
        }
        let position = game.position();
        let picked = book.pick(position, self.book.margin, &mut self.book_rng)?;
        let reply = book
            .moves(&position.play(picked.mv))
            .map(|replies| replies[0].mv);
        let pv: Vec<_> = std::iter::once(picked.mv).chain(reply).collect();
        Some(SearchResult {
            best_move: Some(picked.mv),
            ponder_move: reply,
            score: picked.score,
            depth: 0,
            nodes: 0,
            time: std::time::Duration::ZERO,
            pv,
        })
    }

    /// Stops and collects a search under way, if any.
    fn finish(&mut self) {
        if self.handle.is_some() {
            self.stop();
            let _ = self.wait();
        }
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        self.finish();
    }
}
