//! `kroon egdb build`, `kroon egdb check` and `kroon egdb probe`.

use super::engine_options::{egdb_dir, thread_pool};
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
