//! `kroon book build`, `stats` and `show`.

use crate::board::movegen::legal_moves;
use crate::board::Position;
use crate::book::Book;
use crate::engine::Score;
use clap::Subcommand;
use std::path::PathBuf;

/// `kroon book ...`: see [`crate::book`].
#[derive(Subcommand, Debug)]
pub enum BookCommand {
    /// Grow the book from the start position by Kroon's search (resumes, extends).
    Build(BookBuildArgs),
    /// Show what a book holds and how it was built.
    Stats(BookFileArgs),
    /// The book moves of a position, with their scores.
    Show(BookShowArgs),
}

/// `kroon book build`: see [`crate::tools::book_builder`].
#[derive(clap::Args, Debug)]
pub struct BookBuildArgs {
    /// The book file: an existing one is resumed or extended.
    #[arg(long, default_value = "openings/book.bin")]
    pub out: PathBuf,
    /// Stop when the book holds this many positions.
    #[arg(long, default_value_t = 21_000)]
    pub positions: usize,
    /// Nodes of each leaf's search: a million, as the built-in book's, which beat
    /// one grown at 150,000 (openings/README.md).
    #[arg(long, default_value_t = 1_000_000, value_parser = clap::value_parser!(u64).range(1..))]
    pub nodes: u64,
    /// Every position fewer than this many plies from the start is expanded.
    #[arg(long, default_value_t = 3)]
    pub full_plies: u16,
    /// Past those plies, follow only moves this many hundredths of a man or less
    /// worse than the best.
    #[arg(long, default_value_t = 12)]
    pub margin: u16,
    /// What a ply deeper costs in the expansion order, in hundredths of a man of
    /// drop-out.
    #[arg(long, default_value_t = 1)]
    pub ply_cost: u16,
    /// Leaf searches at once (default: every core).
    #[arg(long)]
    pub threads: Option<usize>,
    /// The evaluation of the searches: `network` (built in, the default), `learned` (the pattern
    /// weights built in), `hand`, or a weights or network file.
    #[arg(long, default_value = kroon_engine::eval::DEFAULT_NAME)]
    pub eval: String,
    /// No progress line on stderr.
    #[arg(long)]
    pub quiet: bool,
}

/// A book to read.
#[derive(clap::Args, Debug)]
pub struct BookFileArgs {
    /// A book file (default: the built-in book).
    #[arg(long)]
    pub book: Option<PathBuf>,
}

/// `kroon book show`.
#[derive(clap::Args, Debug)]
pub struct BookShowArgs {
    /// The position (FEN or Hub string; default the start position).
    #[arg(long)]
    pub fen: Option<String>,
    #[command(flatten)]
    pub file: BookFileArgs,
    /// Mark the moves within this many hundredths of a man of the best.
    #[arg(long, default_value_t = crate::book::DEFAULT_MARGIN)]
    pub margin: i32,
}

impl BookFileArgs {
    fn open(&self) -> Result<std::sync::Arc<crate::book::Book>, String> {
        match &self.book {
            Some(path) => crate::book::Book::load(path).map(std::sync::Arc::new),
            None => crate::book::Book::builtin(),
        }
    }
}

pub(super) fn run_book(command: BookCommand) -> Result<(), String> {
    match command {
        BookCommand::Build(args) => {
            let settings = crate::book::format::BuildSettings {
                leaf_nodes: args.nodes,
                full_plies: args.full_plies,
                margin: args.margin,
                ply_cost: args.ply_cost.max(1),
            };
            crate::tools::book_builder::run(&crate::tools::book_builder::BuildConfig {
                out: args.out,
                positions: args.positions,
                settings,
                threads: kroon_engine::cores::threads_or_all(args.threads),
                evaluator: crate::eval::Evaluator::from_name(&args.eval)?,
                progress: !args.quiet,
            })
        }
        BookCommand::Stats(args) => {
            print!("{}", stats_text(&*args.open()?));
            Ok(())
        }
        BookCommand::Show(args) => {
            let position = match &args.fen {
                Some(text) => text
                    .parse::<Position>()
                    .map_err(|e| format!("--fen: {e}"))?,
                None => Position::initial(),
            };
            print!("{}", show_text(&*args.file.open()?, &position, args.margin));
            Ok(())
        }
    }
}

/// What `kroon book stats` prints: the size, the build settings, how deep the
/// expanded lines go, the start position's moves.
#[must_use]
fn stats_text(book: &Book) -> String {
    let s = book.settings();
    let expanded = book.entries().iter().filter(|e| e.expanded).count();
    let mut text = format!(
        "positions {} (expanded {}, leaves {})\n\
         built with: --nodes {} --full-plies {} --margin {} --ply-cost {}\n",
        book.entries().len(),
        expanded,
        book.entries().len() - expanded,
        s.leaf_nodes,
        s.full_plies,
        s.margin,
        s.ply_cost
    );
    // Expanded positions by their distance from the start, breadth first.
    let mut depth_counts = Vec::new();
    let mut seen = std::collections::HashSet::new();
    let mut layer = vec![Position::initial()];
    while !layer.is_empty() {
        let mut next = Vec::new();
        let mut count = 0;
        for position in layer {
            if !seen.insert(position.key()) || book.moves(&position).is_none() {
                continue;
            }
            count += 1;
            next.extend(
                legal_moves(&position)
                    .into_iter()
                    .map(|mv| position.play(mv)),
            );
        }
        if count > 0 {
            depth_counts.push(count);
        }
        layer = next;
    }
    text += &format!(
        "expanded positions by ply from the start: {}\n",
        depth_counts
            .iter()
            .enumerate()
            .map(|(ply, n)| format!("{ply}:{n}"))
            .collect::<Vec<_>>()
            .join(" ")
    );
    if let Some(start) = book.get(&Position::initial()) {
        text += &format!(
            "start position: {:.2}\n",
            Score(i32::from(start.score)).men()
        );
    }
    text
}

/// What `kroon book show` prints: a position's book moves, best first, with their
/// scores in men; `*` marks those within `margin` of the best (the ones a game
/// plays), `+` those after which the book goes on.
#[must_use]
fn show_text(book: &Book, position: &Position, margin: i32) -> String {
    let Some(moves) = book.moves(position) else {
        return match book.get(position) {
            Some(e) => format!(
                "a leaf of the book (score {:.2}): no book moves\n",
                Score(i32::from(e.score)).men()
            ),
            None => "not in the book\n".into(),
        };
    };
    let best = moves[0].score.0;
    let mut text = String::new();
    for m in moves {
        let after = position.play(m.mv);
        text += &format!(
            "{}{} {:<8} {:+.2}\n",
            if m.score.0 >= best - margin { '*' } else { ' ' },
            if book.moves(&after).is_some() {
                '+'
            } else {
                ' '
            },
            crate::board::notation::pdn_move(position, m.mv),
            m.score.men()
        );
    }
    text
}
