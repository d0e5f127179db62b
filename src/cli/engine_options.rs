//! What several commands share: the engine's options, the start positions of an
//! openings file, and a thread pool of the size asked for.

use crate::board::Position;
use crate::engine::{EngineOptions, EngineSetup};
use std::path::PathBuf;

/// The engine's options, shared by every command that plays.
#[derive(clap::Args, Debug, Clone)]
pub struct EngineArgs {
    /// Search threads.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u16).range(1..=64))]
    pub threads: u16,
    /// Transposition table size in MiB.
    #[arg(long, default_value_t = 64, value_parser = clap::value_parser!(u32).range(1..=65536))]
    pub hash: u32,
    /// The evaluation: `network` (built in, the default), `learned` (the pattern
    /// weights built in), `hand`, or a weights or network file.
    #[arg(long, default_value = kroon_engine::eval::DEFAULT_NAME)]
    pub eval: String,
    /// The opening book: `on` (the built-in one), `off`, or a book file. A book that
    /// cannot be read is reported and Kroon plays without one.
    #[arg(long, default_value = "on")]
    pub book: String,
    /// Play book moves in the first this many plies of a game.
    #[arg(long, default_value_t = crate::book::DEFAULT_PLY)]
    pub book_ply: u32,
    /// Play any book move within this many hundredths of a man of the best one.
    #[arg(long, default_value_t = crate::book::DEFAULT_MARGIN, value_parser = clap::value_parser!(i32).range(0..))]
    pub book_margin: i32,
    /// Seed of the choice among book moves (default: from the clock, so that each
    /// session plays its own lines).
    #[arg(long)]
    pub book_seed: Option<u64>,
    /// Probe the endgame tables for positions of up to this many pieces (0: none).
    #[arg(long, default_value_t = crate::engine::DEFAULT_TABLE_PIECES, value_parser = clap::value_parser!(u32).range(0..=7))]
    pub bb_size: u32,
    /// The endgame tables' folder (default: the per-user data folder, see README).
    #[arg(long)]
    pub bb_path: Option<PathBuf>,
}

impl EngineArgs {
    /// The engine these options set up; a weights file that cannot be used is an
    /// error.
    pub fn setup(&self) -> Result<EngineSetup, String> {
        let options = EngineOptions {
            threads: usize::from(self.threads),
            hash_mb: self.hash as usize,
        };
        let mut setup =
            EngineSetup::new(options, &self.eval).map_err(|e| format!("--eval: {e}"))?;
        let (book, error) = crate::book::BookUse::named(&self.book);
        if let Some(error) = error {
            eprintln!("--book: {error}; playing without a book");
        }
        setup.book = crate::book::BookUse {
            max_ply: self.book_ply,
            margin: self.book_margin,
            seed: self.book_seed.unwrap_or(book.seed),
            ..book
        };
        setup.endgame = crate::engine::Endgame::load(self.bb_path.clone(), self.bb_size);
        Ok(setup)
    }
}

/// The positions of an openings file, or the initial position alone.
pub(super) fn openings_or_initial(path: Option<&std::path::Path>) -> Result<Vec<Position>, String> {
    match path {
        Some(path) => crate::openings::read_positions(path),
        None => Ok(vec![Position::initial()]),
    }
}

pub(super) fn thread_pool(threads: Option<usize>) -> Result<rayon::ThreadPool, String> {
    let threads = kroon_engine::cores::threads_or_all(threads);
    if threads == 0 {
        return Err("--threads must be at least 1".into());
    }
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .map_err(|e| format!("cannot start {threads} threads: {e}"))
}

/// The tables' folder: the one given, or the default.
pub(super) fn egdb_dir(dir: Option<&std::path::Path>) -> Result<PathBuf, String> {
    dir.map(std::path::Path::to_path_buf)
        .or_else(crate::egdb::default_dir)
        .ok_or_else(|| "no home folder to keep the tables in: give --dir".into())
}
