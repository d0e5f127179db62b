//! `kroon egdb build`, `kroon egdb check`, `kroon egdb crosscheck` and `kroon egdb probe`.

use super::engine_options::{egdb_dir, thread_pool};
use crate::engine::TimeControl;
use crate::tools::egdb_crosscheck::{self, CrosscheckConfig, Report};
use clap::Subcommand;
use std::path::PathBuf;
use std::time::Instant;

/// `kroon egdb`: see [`crate::egdb`].
#[derive(clap::Args, Debug)]
pub struct EgdbArgs {
    #[command(subcommand)]
    pub action: EgdbAction,
}

#[derive(Subcommand, Debug)]
pub enum EgdbAction {
    /// Build every slice of up to N pieces by retrograde analysis, smaller slices
    /// first, on every core. Finished slices in the folder are kept (their checksums
    /// checked); an interrupted one is built again.
    Build {
        /// Pieces (men and kings of both sides), 2 to 7.
        #[arg(long, value_parser = clap::value_parser!(u32).range(2..=7))]
        pieces: u32,
        /// The tables' folder (default: the per-user data folder, see README).
        #[arg(long)]
        dir: Option<PathBuf>,
        /// Threads (default: every core).
        #[arg(long)]
        threads: Option<usize>,
        /// No progress lines.
        #[arg(long)]
        quiet: bool,
        /// Only the slices play from this material can reach, as four digits: white
        /// men, white kings, black men, black kings (e.g. 0301).
        #[arg(long)]
        material: Option<String>,
    },
    /// Check the tables in a folder again, position by position: each stored value
    /// must be the best its successors' values give. Exits with an error naming the
    /// slices that disagree.
    Check {
        /// The tables' folder (default: the per-user data folder, see README).
        #[arg(long)]
        dir: Option<PathBuf>,
        /// Check every slice of up to this many pieces.
        #[arg(long, value_parser = clap::value_parser!(u32).range(2..=7))]
        pieces: u32,
        /// Threads (default: every core).
        #[arg(long)]
        threads: Option<usize>,
    },
    /// Check the tables of N pieces against the engine's search, given only the
    /// tables of fewer pieces: positions drawn at random from the N-piece slices in
    /// the folder, each one's stored value compared with what a search proves from
    /// it. Exits with an error when a proof contradicts a stored value, naming the
    /// position.
    Crosscheck {
        /// The pieces of the positions checked, 3 to 7.
        #[arg(long, value_parser = clap::value_parser!(u32).range(3..=7))]
        pieces: u32,
        /// The tables' folder (default: the per-user data folder, see README).
        #[arg(long)]
        dir: Option<PathBuf>,
        /// Positions drawn.
        #[arg(long, default_value_t = 1000)]
        positions: usize,
        /// Seed of the draw (the same seed draws the same positions).
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Nodes each search may take.
        #[arg(long, default_value_t = 200_000, conflicts_with = "depth")]
        nodes: u64,
        /// Search each position this many plies deep instead of by nodes.
        #[arg(long)]
        depth: Option<u32>,
        /// Threads, one search each (default: every core).
        #[arg(long)]
        threads: Option<usize>,
        /// Print every position checked on stdout: its FEN, the stored value, the
        /// verdict (agree, not-contradicted, open, disagree) and the search's score.
        #[arg(long)]
        list: bool,
    },
    /// Read positions (FEN or Hub), one a line, on stdin; print each line followed by
    /// `win`, `draw`, `loss` (for the side to move) or `unknown`.
    Probe {
        /// The tables' folder (default: the per-user data folder, see README).
        #[arg(long)]
        dir: Option<PathBuf>,
        /// Use slices of up to this many pieces.
        #[arg(long, default_value_t = 7, value_parser = clap::value_parser!(u32).range(2..=7))]
        pieces: u32,
    },
}

pub(super) fn run_egdb(args: &EgdbArgs) -> Result<(), String> {
    match &args.action {
        EgdbAction::Build {
            pieces,
            dir,
            threads,
            quiet,
            material,
        } => {
            let config = crate::tools::egdb_builder::BuildConfig {
                dir: egdb_dir(dir.as_deref())?,
                pieces: *pieces,
                progress: !quiet,
                only: material.as_deref().map(str::parse).transpose()?,
            };
            let start = Instant::now();
            let tables =
                thread_pool(*threads)?.install(|| crate::tools::egdb_builder::build(&config))?;
            eprintln!(
                "{}; {:.1} s",
                tables.describe(),
                start.elapsed().as_secs_f64()
            );
            Ok(())
        }
        EgdbAction::Check {
            dir,
            pieces,
            threads,
        } => {
            let dir = egdb_dir(dir.as_deref())?;
            let start = Instant::now();
            let checked = thread_pool(*threads)?
                .install(|| crate::tools::egdb_builder::verify::check(&dir, *pieces, true))?;
            eprintln!(
                "egdb check: {checked} positions agree with their successors; {:.1} s",
                start.elapsed().as_secs_f64()
            );
            Ok(())
        }
        EgdbAction::Crosscheck {
            pieces,
            dir,
            positions,
            seed,
            nodes,
            depth,
            threads,
            list,
        } => {
            let config = CrosscheckConfig {
                dir: egdb_dir(dir.as_deref())?,
                pieces: *pieces,
                positions: *positions,
                seed: *seed,
                limit: depth.map_or(TimeControl::Nodes(*nodes), TimeControl::Depth),
                progress: true,
            };
            crosscheck(&config, *threads, *list)
        }
        EgdbAction::Probe { dir, pieces } => {
            let dir = egdb_dir(dir.as_deref())?;
            let tables = crate::egdb::Tables::open(&dir, *pieces)?;
            eprintln!("{}", tables.describe());
            let input = std::io::BufReader::new(std::io::stdin());
            crate::egdb::probe::run(&tables, input, std::io::stdout().lock())
                .map_err(|e| format!("probe: {e}"))
        }
    }
}

/// `kroon egdb crosscheck`: the report on stderr (every position on stdout with
/// `list`), and an error when a proof contradicts a stored value.
fn crosscheck(config: &CrosscheckConfig, threads: Option<usize>, list: bool) -> Result<(), String> {
    let start = Instant::now();
    let checked = thread_pool(threads)?.install(|| egdb_crosscheck::crosscheck(config))?;
    if list {
        for one in &checked {
            println!("{}", one.line());
        }
    }
    let report = Report::of(&checked);
    eprintln!("egdb crosscheck: {}", report.drawn());
    for bad in &report.disagree {
        eprintln!(
            "egdb crosscheck: disagree: {} is {} in the tables, the search proves {} (score {})",
            bad.position.to_fen(),
            bad.stored,
            egdb_crosscheck::proven(bad.score).map_or("nothing".into(), |v| v.to_string()),
            bad.score
        );
    }
    let summary = format!(
        "{}; {:.1} s",
        report.summary(),
        start.elapsed().as_secs_f64()
    );
    if report.disagree.is_empty() {
        eprintln!("{summary}");
        Ok(())
    } else {
        Err(summary)
    }
}
