//! The opening book: positions Kroon's own search has scored, a tree grown from the
//! start position (by the app's book builder), and how a game picks its moves from it.
//!
//! A position is in the book with its score; when it was expanded, every successor
//! is in it too, so its book moves are its legal moves with their successors'
//! scores. A game plays one of the moves within a margin of the best, chosen at
//! random from a seed, so that games against the same opponent differ.
//!
//! ```
//! use kroon_engine::book::Book;
//! use kroon_rules::board::Position;
//!
//! let book = Book::builtin().expect("the built-in book decodes");
//! let moves = book.moves(&Position::initial()).expect("the start position is in it");
//! assert_eq!(moves.len(), 9);
//! assert!(moves.windows(2).all(|w| w[0].score >= w[1].score));
//! ```

pub mod format;

use crate::random::Rng;
use crate::search::Score;
use format::{BuildSettings, Entry};
use kroon_rules::board::movegen::legal_moves;
use kroon_rules::board::{Move, Position};
use std::path::Path;
use std::sync::{Arc, OnceLock};

/// `openings/book.bin`, built in so that no front end needs a path.
const BUILTIN: &[u8] = include_bytes!("../../../openings/book.bin");
/// How the built-in book is named in messages.
pub const BUILTIN_NAME: &str = "openings/book.bin (built in)";

/// A decoded book.
#[derive(Debug)]
pub struct Book {
    settings: BuildSettings,
    /// Sorted by key.
    entries: Vec<Entry>,
}

/// A move of a book position with the score of the position it leads to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BookMove {
    pub mv: Move,
    /// From the view of the side that plays the move.
    pub score: Score,
}

impl Book {
    /// A book from a file's bytes; the error says why they are refused.
    pub fn decode(bytes: &[u8]) -> Result<Book, String> {
        let (settings, entries) = format::decode(bytes)?;
        Ok(Book { settings, entries })
    }

    /// Reads a book file; the error names it.
    pub fn load(path: &Path) -> Result<Book, String> {
        let bytes =
            std::fs::read(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
        Book::decode(&bytes).map_err(|e| format!("{}: {e}", path.display()))
    }

    /// The built-in book, decoded once; the error names the file.
    pub fn builtin() -> Result<Arc<Book>, String> {
        static BOOK: OnceLock<Result<Arc<Book>, String>> = OnceLock::new();
        BOOK.get_or_init(|| {
            Book::decode(BUILTIN)
                .map(Arc::new)
                .map_err(|e| format!("{BUILTIN_NAME}: {e}"))
        })
        .clone()
    }

    /// How it was built.
    #[must_use]
    pub fn settings(&self) -> BuildSettings {
        self.settings
    }

    /// Every position, by key.
    #[must_use]
    pub fn entries(&self) -> &[Entry] {
        &self.entries
    }

    /// The book's entry for a position.
    #[must_use]
    pub fn get(&self, position: &Position) -> Option<Entry> {
        let key = position.key();
        self.entries
            .binary_search_by_key(&key, |e| e.key)
            .ok()
            .map(|i| self.entries[i])
    }

    /// The book moves of an expanded position, best first (ties in move
    /// generation order); None for a position the book did not expand.
    #[must_use]
    pub fn moves(&self, position: &Position) -> Option<Vec<BookMove>> {
        if !self.get(position)?.expanded {
            return None;
        }
        let mut moves: Vec<BookMove> = legal_moves(position)
            .into_iter()
            .filter_map(|mv| {
                let after = self.get(&position.play(mv))?;
                Some(BookMove {
                    mv,
                    score: Score(-i32::from(after.score)),
                })
            })
            .collect();
        moves.sort_by_key(|m| std::cmp::Reverse(m.score));
        (!moves.is_empty()).then_some(moves)
    }

    /// A move within `margin` hundredths of a man of the best, chosen by `rng`.
    pub fn pick(&self, position: &Position, margin: i32, rng: &mut Rng) -> Option<BookMove> {
        let moves = self.moves(position)?;
        let best = moves[0].score.0;
        let good = moves
            .iter()
            .take_while(|m| m.score.0 >= best - margin.max(0))
            .count();
        Some(moves[rng.below(good)])
    }
}

/// What `kroon book stats` prints: the size, the build settings, how deep the
/// expanded lines go, the start position's moves.
#[must_use]
pub fn stats_text(book: &Book) -> String {
    let s = book.settings();
    let expanded = book.entries.iter().filter(|e| e.expanded).count();
    let mut text = format!(
        "positions {} (expanded {}, leaves {})\n\
         built with: --nodes {} --full-plies {} --margin {} --ply-cost {}\n",
        book.entries.len(),
        expanded,
        book.entries.len() - expanded,
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
pub fn show_text(book: &Book, position: &Position, margin: i32) -> String {
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
            kroon_rules::board::notation::pdn_move(position, m.mv),
            m.score.men()
        );
    }
    text
}

/// Default of `book-ply`: the book is used in the first this many plies of a game.
pub const DEFAULT_PLY: u32 = 40;
/// Default of `book-margin`, hundredths of a man.
pub const DEFAULT_MARGIN: i32 = 4;

/// How a front end plays from the book: which book, for how many plies, within which
/// margin, and the seed of its choices.
#[derive(Clone, Debug)]
pub struct BookUse {
    /// None: no book.
    pub book: Option<Arc<Book>>,
    /// As chosen: `on` (the built-in book), `off`, or a file.
    pub name: String,
    /// Book moves are played while fewer than this many plies of the game are played.
    pub max_ply: u32,
    /// Moves within this many hundredths of a man of the best book move are played.
    pub margin: i32,
    /// Seed of the choice among them.
    pub seed: u64,
}

impl BookUse {
    /// The book a name chooses: `on` (or `true`, `yes`, `1`, `builtin`) the
    /// built-in one, `off` (`false`, `no`, `0`) none, anything else a file. A book
    /// that cannot be used is an error naming it.
    pub fn open(name: &str) -> Result<Option<Arc<Book>>, String> {
        match name.trim().to_ascii_lowercase().as_str() {
            "on" | "true" | "yes" | "1" | "builtin" => Book::builtin().map(Some),
            "off" | "false" | "no" | "0" | "none" => Ok(None),
            _ => Book::load(Path::new(name.trim())).map(|b| Some(Arc::new(b))),
        }
    }

    /// The built-in book (if it decodes) with the default ply and margin and a seed
    /// from the clock, so that every session plays its own lines.
    #[must_use]
    pub fn builtin() -> BookUse {
        BookUse::named("on").0
    }

    /// The book `name` chooses, else none; the second value says why the book could
    /// not be used (the engine plays on without it).
    #[must_use]
    pub fn named(name: &str) -> (BookUse, Option<String>) {
        let (book, error) = match BookUse::open(name) {
            Ok(book) => (book, None),
            Err(e) => (None, Some(e)),
        };
        let book_use = BookUse {
            name: if book.is_some() || error.is_none() {
                name.trim().to_string()
            } else {
                "off".into()
            },
            book,
            max_ply: DEFAULT_PLY,
            margin: DEFAULT_MARGIN,
            seed: clock_seed(),
        };
        (book_use, error)
    }

    /// No book.
    #[must_use]
    pub fn off() -> BookUse {
        BookUse {
            book: None,
            name: "off".into(),
            max_ply: DEFAULT_PLY,
            margin: DEFAULT_MARGIN,
            seed: 0,
        }
    }
}

/// A seed that differs from one session to the next.
fn clock_seed() -> u64 {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos() as u64);
    nanos ^ u64::from(std::process::id()).rotate_left(32)
}

#[cfg(test)]
mod tests {
    use super::*;
    use kroon_rules::board::notation::hub_move;

    /// A two-level book: the start expanded, its successors leaves scored by move order.
    fn small_book() -> Book {
        let start = Position::initial();
        let mut entries = vec![Entry {
            key: start.key(),
            score: 0,
            expanded: true,
        }];
        for (i, mv) in legal_moves(&start).into_iter().enumerate() {
            entries.push(Entry {
                key: start.play(mv).key(),
                // From Black's view: the first move is best for White.
                score: i as i16 * 3,
                expanded: false,
            });
        }
        let settings = BuildSettings {
            leaf_nodes: 1,
            full_plies: 1,
            margin: 10,
            ply_cost: 1,
        };
        Book::decode(&format::encode(&settings, &mut entries)).unwrap()
    }

    #[test]
    fn book_moves_are_scored_from_the_mover_and_sorted() {
        let book = small_book();
        let start = Position::initial();
        let moves = book.moves(&start).unwrap();
        assert_eq!(moves.len(), 9);
        assert_eq!(moves[0].score, Score(0));
        assert_eq!(moves[8].score, Score(-24));
        assert_eq!(moves[0].mv, legal_moves(&start)[0]);
        // A leaf has no book moves, nor has a position outside the book.
        assert!(book.moves(&start.play(moves[0].mv)).is_none());
        let elsewhere: Position = "W:W31-50:B1-19".parse().unwrap();
        assert!(book.moves(&elsewhere).is_none());
    }

    #[test]
    fn a_pick_stays_within_the_margin_and_varies() {
        let book = small_book();
        let start = Position::initial();
        let mut rng = Rng::new(1, 0);
        let picked: std::collections::HashSet<String> = (0..200)
            .map(|_| hub_move(book.pick(&start, 6, &mut rng).unwrap().mv))
            .collect();
        // Scores 0, -3 and -6 are within 6 of the best.
        let expected: std::collections::HashSet<String> = legal_moves(&start)[..3]
            .iter()
            .map(|&m| hub_move(m))
            .collect();
        assert_eq!(picked, expected);
        assert_eq!(
            book.pick(&start, 0, &mut rng).unwrap().mv,
            legal_moves(&start)[0]
        );
    }

    #[test]
    fn names_choose_the_book() {
        assert!(BookUse::open("off").unwrap().is_none());
        assert!(BookUse::open("false").unwrap().is_none());
        let missing = BookUse::open("/nonexistent/kroon.book").unwrap_err();
        assert!(missing.contains("/nonexistent/kroon.book"), "{missing}");
        let (book_use, error) = BookUse::named("/nonexistent/kroon.book");
        assert!(book_use.book.is_none() && error.is_some());
        assert_eq!(book_use.name, "off");
    }
}
