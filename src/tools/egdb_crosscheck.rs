//! `kroon egdb crosscheck`: the tables of N pieces checked against Kroon's own
//! search, which is given only the tables of fewer pieces. Positions are drawn at
//! random from the N-piece slices in a folder; each one's stored value is compared
//! with what a deep search proves from it. The search shares none of the builder's
//! retrograde code (its moves, its predecessors, its rounds), so a slip there cannot
//! be repeated here; `kroon egdb check` by contrast re-checks each value against its
//! successors' values in the same tables.
//!
//! A search proves a value when its score is beyond [`Score::TABLE_WIN`]: every
//! leaf of the tree behind such a score is a position without moves or one the
//! smaller tables call won or lost, so it rests on the rules and those tables alone,
//! never on the evaluation (which stays below it). That holds only if the loser's
//! every move was searched: the forward pruning that skips moves on a guess (late-
//! move pruning, futility, reverse futility, probcut) is turned off for these
//! searches ([`SOUND`]). Reductions stay: a reduced search is still a search, only
//! shallower, and what it proves is proved.
//!
//! The draw rules (the 25-, 16- and 5-move rules, repetition), which the tables
//! ignore, cannot make a table win look like a draw or a loss to this check: a
//! position a rule draws scores 0, never beyond the table-win score, so it is never
//! a leaf of a proof, and where the smaller tables call a node won its score is
//! held at or above the table-win score whatever the rules do below it. The rules
//! can only hide a win from the search (the position stays open), and so a table
//! draw can only be "not contradicted", never confirmed.

use crate::board::movegen::has_capture;
use crate::board::Position;
use crate::egdb::index::Material;
use crate::egdb::{Tables, Wdl};
use crate::engine::{Endgame, Engine, EngineOptions, Pruning, Score, TimeControl};
use crate::game::Game;
use crate::random::Rng;
use rayon::prelude::*;
use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

/// The search's margins with every forward pruning that skips a move on a guess
/// turned off (a depth limit of 0 never applies; probcut's is beyond any depth).
pub const SOUND: Pruning = Pruning {
    lmp_depth: 0,
    rfp_depth: 0,
    futility_depth: 0,
    probcut_depth: 1000,
    ..Pruning::DEFAULT
};

/// Transposition table of each search, in MiB.
const HASH_MB: usize = 16;

/// What to check.
#[derive(Clone, Debug)]
pub struct CrosscheckConfig {
    /// The tables' folder.
    pub dir: PathBuf,
    /// The pieces of the positions checked; the search gets the tables of fewer.
    pub pieces: u32,
    /// Positions drawn.
    pub positions: usize,
    /// Seed of the draw: the same seed, the same positions.
    pub seed: u64,
    /// Each search's limit (nodes or depth).
    pub limit: TimeControl,
    /// A line on stderr every tenth of the positions.
    pub progress: bool,
}

/// How a search's score stands to a stored value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// The search proves the stored win or loss.
    Agree,
    /// A stored draw, and the search proves neither a win nor a loss.
    NotContradicted,
    /// A stored win or loss the search does not prove at its depth.
    Open,
    /// The search proves a value other than the stored one.
    Disagree,
}

/// The value a search's score proves, if any (see the module's doc).
#[must_use]
pub fn proven(score: Score) -> Option<Wdl> {
    if score >= Score::TABLE_WIN {
        Some(Wdl::Win)
    } else if score <= -Score::TABLE_WIN {
        Some(Wdl::Loss)
    } else {
        None
    }
}

/// Judges a search's `score` of a position against its `stored` value.
#[must_use]
pub fn classify(stored: Wdl, score: Score) -> Verdict {
    match (stored, proven(score)) {
        (Wdl::Draw, None) => Verdict::NotContradicted,
        (_, None) => Verdict::Open,
        (stored, Some(value)) if value == stored => Verdict::Agree,
        _ => Verdict::Disagree,
    }
}

/// One position checked.
#[derive(Clone, Debug)]
pub struct Checked {
    pub position: Position,
    /// The tables' value for the side to move.
    pub stored: Wdl,
    /// The search's score, for the side to move.
    pub score: Score,
    pub verdict: Verdict,
}

impl Checked {
    /// One line: the FEN, the stored value, the verdict and the search's score.
    #[must_use]
    pub fn line(&self) -> String {
        let verdict = match self.verdict {
            Verdict::Agree => "agree",
            Verdict::NotContradicted => "not-contradicted",
            Verdict::Open => "open",
            Verdict::Disagree => "disagree",
        };
        format!(
            "{} {} {verdict} {}",
            self.position.to_fen(),
            self.stored,
            self.score
        )
    }
}

/// The counts of a cross-check, and the positions that disagree.
#[derive(Clone, Debug, Default)]
pub struct Report {
    pub positions: usize,
    /// Positions with a capture pending: the tables hold no value for them but
    /// play the captures out into the smaller tables, so these check those.
    pub captures: usize,
    /// Positions without a capture pending, whose values the N-piece slices store.
    pub quiet: usize,
    /// The stored values, for the side to move.
    pub wins: usize,
    pub draws: usize,
    pub losses: usize,
    /// The verdicts.
    pub agree: usize,
    pub not_contradicted: usize,
    pub open: usize,
    pub disagree: Vec<Checked>,
}

impl Report {
    /// The counts of these positions.
    #[must_use]
    pub fn of(checked: &[Checked]) -> Report {
        let mut report = Report::default();
        for one in checked {
            report.add(one.clone());
        }
        report
    }

    fn add(&mut self, checked: Checked) {
        self.positions += 1;
        if has_capture(&checked.position) {
            self.captures += 1;
        } else {
            self.quiet += 1;
        }
        match checked.stored {
            Wdl::Win => self.wins += 1,
            Wdl::Draw => self.draws += 1,
            Wdl::Loss => self.losses += 1,
        }
        match checked.verdict {
            Verdict::Agree => self.agree += 1,
            Verdict::NotContradicted => self.not_contradicted += 1,
            Verdict::Open => self.open += 1,
            Verdict::Disagree => self.disagree.push(checked),
        }
    }

    /// What was drawn: one line.
    #[must_use]
    pub fn drawn(&self) -> String {
        format!(
            "{} positions ({} with a capture pending, {} quiet); the tables say {} wins, {} draws, {} losses",
            self.positions, self.captures, self.quiet, self.wins, self.draws, self.losses
        )
    }

    /// The outcome: one line.
    #[must_use]
    pub fn summary(&self) -> String {
        format!(
            "egdb crosscheck: {} agree, {} not contradicted, {} open, {} disagree",
            self.agree,
            self.not_contradicted,
            self.open,
            self.disagree.len()
        )
    }
}

/// Draws `count` positions uniformly from the `pieces`-piece slices `tables` hold,
/// either side to move, with the seed's generator.
fn draw_positions(
    tables: &Tables,
    pieces: u32,
    count: usize,
    seed: u64,
) -> Result<Vec<Position>, String> {
    let slices: Vec<Material> = Material::all_with(pieces)
        .into_iter()
        .filter(|m| tables.has(*m))
        .collect();
    let total: u64 = slices.iter().map(|m| m.size()).sum();
    if total == 0 {
        return Err(format!("no slice of {pieces} pieces in the folder"));
    }
    let mut rng = Rng::new(seed, 0);
    let mut drawn = Vec::with_capacity(count);
    while drawn.len() < count {
        let mut index = rng.next_u64() % total;
        let m = slices
            .iter()
            .find(|m| {
                let inside = index < m.size();
                if !inside {
                    index -= m.size();
                }
                inside
            })
            .expect("the index falls in a slice");
        // Indices where pieces would share a square hold no position: drawn again,
        // which keeps the draw uniform over the positions.
        let Some(pos) = m.position(index) else {
            continue;
        };
        let pos = if rng.next_u64().is_multiple_of(2) {
            pos
        } else {
            pos.flipped_unkeyed()
        };
        // Through the FEN, for a position whose hash key is set as the search wants.
        drawn.push(Position::from_fen(&pos.to_fen()).map_err(|e| e.to_string())?);
    }
    Ok(drawn)
}

/// Checks `config.positions` positions, in the order drawn (the caller decides
/// what a disagreement means: see [`Report::of`]). Runs in the current rayon pool,
/// one search a thread.
pub fn crosscheck(config: &CrosscheckConfig) -> Result<Vec<Checked>, String> {
    if config.pieces < 3 {
        return Err(
            "crosscheck needs at least 3 pieces (the search gets the tables of fewer)".into(),
        );
    }
    let all = Tables::open(&config.dir, config.pieces)?;
    let positions = draw_positions(&all, config.pieces, config.positions, config.seed)?;
    let smaller = Arc::new(Tables::open(&config.dir, config.pieces - 1)?);
    if smaller.complete_pieces() < config.pieces - 1 {
        return Err(format!(
            "the tables of fewer than {} pieces are not all in {}",
            config.pieces,
            config.dir.display()
        ));
    }
    let endgame = Endgame {
        dir: Some(config.dir.clone()),
        pieces: config.pieces - 1,
        tables: Some(smaller),
    };
    let done = AtomicUsize::new(0);
    let tenth = (positions.len() / 10).max(1);
    positions
        .par_iter()
        .map_init(
            || {
                let mut engine = Engine::new(EngineOptions {
                    threads: 1,
                    hash_mb: HASH_MB,
                });
                engine.set_pruning(SOUND);
                engine.set_endgame(endgame.clone());
                engine
            },
            |engine, pos| {
                let stored = all
                    .probe(pos)
                    .ok_or_else(|| format!("{} is not in the tables", pos.to_fen()))?;
                engine.new_game();
                let score = engine
                    .analyse_blocking(&Game::from_position(*pos), config.limit)
                    .score;
                let n = done.fetch_add(1, Ordering::Relaxed) + 1;
                if config.progress && n.is_multiple_of(tenth) {
                    eprintln!(
                        "egdb crosscheck: {n} of {} positions searched",
                        positions.len()
                    );
                }
                Ok(Checked {
                    position: *pos,
                    stored,
                    score,
                    verdict: classify(stored, score),
                })
            },
        )
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_proven_value_agrees_or_disagrees_and_an_unproven_one_stays_open() {
        let win = Score::win_in(7);
        let table_win = Score(Score::TABLE_WIN.0 + 120);
        let eval = Score(850);
        assert_eq!(classify(Wdl::Win, win), Verdict::Agree);
        assert_eq!(classify(Wdl::Win, table_win), Verdict::Agree);
        assert_eq!(classify(Wdl::Loss, -table_win), Verdict::Agree);
        assert_eq!(classify(Wdl::Win, eval), Verdict::Open);
        assert_eq!(classify(Wdl::Loss, Score::DRAW), Verdict::Open);
        assert_eq!(classify(Wdl::Draw, eval), Verdict::NotContradicted);
        assert_eq!(classify(Wdl::Draw, -eval), Verdict::NotContradicted);
        // A deliberately wrong stored value: the search's proof names it.
        assert_eq!(classify(Wdl::Draw, table_win), Verdict::Disagree);
        assert_eq!(classify(Wdl::Draw, -win), Verdict::Disagree);
        assert_eq!(classify(Wdl::Win, -table_win), Verdict::Disagree);
        assert_eq!(classify(Wdl::Loss, win), Verdict::Disagree);
    }
}
