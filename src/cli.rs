//! The command line: one subcommand per job, each mapping its errors to a message
//! and a non-zero exit. The clap argument types live here and nowhere else: each
//! maps to the plain configuration its module runs from (`dxp::Config`,
//! `matches::MatchConfig`, `tools::openings_generator::Config`, `engine::EngineSetup`), so no module
//! below depends on the command line.

mod book;
mod egdb;
mod engine_options;
mod front_ends;
mod matches;
mod measure;
mod openings;
mod training;

pub use book::{BookBuildArgs, BookCommand, BookFileArgs, BookShowArgs};
pub use egdb::{EgdbAction, EgdbArgs};
pub use engine_options::EngineArgs;
pub use front_ends::{DxpArgs, GuiArgs};
pub use matches::MatchArgs;
pub use measure::{BenchArgs, PerftArgs};
pub use openings::OpeningsArgs;
pub use training::{RescoreArgs, SelfplayArgs, TrainArgs};

use clap::{Parser, Subcommand};

/// Kroon, an international draughts engine (10x10, FMJD rules).
#[derive(Parser, Debug)]
#[command(name = "kroon", version, about)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Subcommand, Debug)]
pub enum Command {
    /// Count the leaf nodes of the legal move tree (checks and times the move generator).
    Perft(PerftArgs),
    /// Search fixed positions to a fixed depth on one thread; prints the node signature.
    Bench(BenchArgs),
    /// Speak the Hub protocol on stdin/stdout (for the Hub GUI, pydraughts, py-draughts).
    Hub(EngineArgs),
    /// Play another program over DXP (TCP), as server or client, initiator or follower.
    Dxp(DxpArgs),
    /// Play Kroon at the terminal (text mode; reads moves and commands from stdin).
    Play(EngineArgs),
    /// Enumerate the start positions a few plies deep, optionally only balanced ones.
    Openings(OpeningsArgs),
    /// Play a match or round robin between Hub and DXP engines.
    Match(MatchArgs),
    /// Play Kroon against itself and write quiet positions as training data.
    Selfplay(SelfplayArgs),
    /// Score a training file's positions again by a deeper search (a new file).
    Rescore(RescoreArgs),
    /// Fit the learned evaluation's weights to self-play positions.
    Train(TrainArgs),
    /// Build or inspect the opening book.
    #[command(subcommand)]
    Book(BookCommand),
    /// Endgame tables: build them, or probe positions.
    Egdb(EgdbArgs),
    /// A draughts board in the browser: play and analyse with Kroon or a Hub engine.
    Gui(GuiArgs),
}

/// Runs a parsed command line; the error is the message to print before exiting.
pub fn run(cli: Cli) -> Result<(), String> {
    if matches!(
        cli.command,
        Command::Hub(_) | Command::Dxp(_) | Command::Play(_) | Command::Gui(_)
    ) {
        // The front ends that play build the small tables a user without them
        // misses; the tools (self-play, matches) use the tables they are given.
        crate::tools::egdb_on_demand::register();
    }
    match cli.command {
        Command::Perft(args) => measure::run_perft(&args),
        Command::Bench(args) => measure::run_bench(&args),
        Command::Hub(args) => {
            let setup = args.setup()?;
            let input = std::io::BufReader::new(std::io::stdin());
            crate::hub::run(input, std::io::stdout(), &setup);
            Ok(())
        }
        Command::Dxp(args) => crate::dxp::run(&args.config()?),
        Command::Play(args) => {
            let setup = args.setup()?;
            let input = std::io::BufReader::new(std::io::stdin());
            crate::text::run(input, std::io::stdout(), &setup);
            Ok(())
        }
        Command::Openings(args) => crate::tools::openings_generator::run(&args.config()),
        Command::Match(args) => crate::matches::run(&args.config()?, args.pdn_output()),
        Command::Selfplay(args) => training::run_selfplay(&args),
        Command::Rescore(args) => training::run_rescore(&args),
        Command::Train(args) => training::run_train(&args),
        Command::Book(command) => book::run_book(command),
        Command::Egdb(args) => egdb::run_egdb(&args),
        Command::Gui(args) => crate::gui::run(&args.config()?),
    }
}
