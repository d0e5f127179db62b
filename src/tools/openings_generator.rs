//! `kroon openings`: every distinct position a few plies from the initial one,
//! optionally only those Kroon's search finds balanced, written in the format of
//! [`crate::openings`] (the reader beside the engine).
//!
//! ```
//! use kroon::openings::Opening;
//! use kroon::tools::openings_generator::enumerate;
//!
//! let two = enumerate(2);
//! assert_eq!(two.len(), 81);
//! let line = two[0].to_line();
//! let back = Opening::from_line(&line).unwrap().unwrap();
//! assert_eq!(back.position, two[0].position);
//! ```

use crate::board::movegen::legal_moves;
use crate::board::notation::hub_move;
use crate::board::Position;
use crate::engine::{Engine, EngineOptions, TimeControl};
use crate::game::Game;
use crate::openings::Opening;
use std::collections::HashSet;

/// Every distinct position `plies` plies from the initial position (the first move
/// sequence found names each), in move-generation order. Finished games are left
/// out: a match cannot start from them.
#[must_use]
pub fn enumerate(plies: u32) -> Vec<Opening> {
    let mut seen = HashSet::new();
    let mut out = Vec::new();
    walk(
        &mut Game::new(),
        plies,
        &mut Vec::new(),
        &mut seen,
        &mut out,
    );
    out
}

fn walk(
    game: &mut Game,
    plies: u32,
    line: &mut Vec<String>,
    seen: &mut HashSet<Position>,
    out: &mut Vec<Opening>,
) {
    if game.is_over() {
        return;
    }
    if plies == 0 {
        // Same pieces and side to move is the same start for a match, whatever the
        // move order (the repetition history of a few plies cannot matter).
        if seen.insert(*game.position()) {
            out.push(Opening {
                position: *game.position(),
                moves: line.clone(),
            });
        }
        return;
    }
    for mv in legal_moves(game.position()) {
        line.push(hub_move(mv));
        if game.play(mv).is_ok() {
            walk(game, plies - 1, line, seen, out);
            game.undo();
        }
        line.pop();
    }
}

/// A balance check's verdict on one opening.
#[derive(Clone, Debug, PartialEq)]
pub struct Scored {
    pub opening: Opening,
    /// Hundredths of a man, from the side to move's view.
    pub score: i32,
}

/// Which openings a balance check keeps: those Kroon's search at `depth` scores
/// between `least` and `most` hundredths of a man either way. `least` above zero
/// makes an unbalanced set: fewer draws, so a match between near equals decides
/// more games (each opening is played with both colours, so the edge cancels).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ScoreBand {
    pub depth: u32,
    pub least: i32,
    pub most: i32,
}

impl ScoreBand {
    fn keeps(&self, score: i32) -> bool {
        (self.least..=self.most).contains(&score.abs())
    }

    fn describe(&self) -> String {
        if self.least == 0 {
            format!("within {} hundredths of a man", self.most)
        } else {
            format!(
                "between {} and {} hundredths of a man either way",
                self.least, self.most
            )
        }
    }
}

/// Searches each opening to the band's depth on one thread with a fresh table and
/// keeps those scoring within the band. `progress` hears of every opening searched
/// (for a progress line).
pub fn balanced(
    openings: Vec<Opening>,
    band: ScoreBand,
    mut progress: impl FnMut(usize, &Scored),
) -> Vec<Scored> {
    let mut engine = Engine::new(EngineOptions {
        threads: 1,
        hash_mb: 32,
    });
    let mut kept = Vec::new();
    for (i, opening) in openings.into_iter().enumerate() {
        // A fresh table each time, so the verdict does not depend on the file order.
        engine.new_game();
        // Analysis, not play: an exchange offered on the last ply leaves the capture
        // forced, and play would answer it with no score (kept as balanced, unseen).
        let result = engine.analyse_blocking(
            &Game::from_position(opening.position),
            TimeControl::Depth(band.depth),
        );
        let scored = Scored {
            opening,
            score: result.score.0,
        };
        progress(i, &scored);
        if band.keeps(scored.score) {
            kept.push(scored);
        }
    }
    kept
}

/// What `kroon openings` writes.
#[derive(Clone, Debug)]
pub struct Config {
    /// Plies from the initial position.
    pub plies: u32,
    /// Keep only openings Kroon's search scores within this band.
    pub balance: Option<ScoreBand>,
    /// Where to write (stdout if None).
    pub out: Option<std::path::PathBuf>,
}

/// `kroon openings`: enumerates, filters, writes the file.
pub fn run(config: &Config) -> Result<(), String> {
    if config.plies > 8 {
        return Err("--plies above 8 would enumerate millions of positions".into());
    }
    if let Some(band) = config.balance {
        if band.least > band.most {
            return Err(format!(
                "--min-margin {} is above --margin {}: no opening could be kept",
                band.least, band.most
            ));
        }
    }
    // Opened before the searches, which can take an hour: a path that cannot be
    // written is said at once. Not truncated yet, so an interrupted run leaves
    // the old file as it was.
    let out = config
        .out
        .as_ref()
        .map(|path| {
            std::fs::OpenOptions::new()
                .write(true)
                .create(true)
                .truncate(false)
                .open(path)
                .map(|file| (file, path))
                .map_err(|e| format!("cannot write {}: {e}", path.display()))
        })
        .transpose()?;
    let all = enumerate(config.plies);
    let total = all.len();
    let mut text = format!(
        "# Kroon openings: every distinct position after {} plies",
        config.plies
    );
    let lines: Vec<String> = match config.balance {
        None => {
            text.push_str(&format!(" ({total} positions)\n"));
            all.iter().map(Opening::to_line).collect()
        }
        Some(band) => {
            let kept = balanced(all, band, |i, s| {
                eprint!(
                    "\rsearched {}/{total}: {} {:+}   ",
                    i + 1,
                    s.opening.moves.join(" "),
                    s.score
                );
            });
            eprintln!();
            text.push_str(&format!(
                ", kept where Kroon at depth {} scores {} ({} of {total})\n",
                band.depth,
                band.describe(),
                kept.len()
            ));
            text.push_str(
                "# FEN ; moves from the initial position ; score at that depth (side to move)\n",
            );
            kept.iter()
                .map(|s| format!("{} ; {:+}", s.opening.to_line(), s.score))
                .collect()
        }
    };
    for line in lines {
        text.push_str(&line);
        text.push('\n');
    }
    match out {
        Some((mut file, path)) => {
            use std::io::Write;
            file.set_len(0)
                .and_then(|()| file.write_all(text.as_bytes()))
                .map_err(|e| format!("cannot write {}: {e}", path.display()))
        }
        None => {
            print!("{text}");
            Ok(())
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_distinct_positions() {
        assert_eq!(enumerate(0).len(), 1);
        assert_eq!(enumerate(1).len(), 9);
        // No move of either side can touch the other's in the first two plies.
        assert_eq!(enumerate(2).len(), 81);
        let three = enumerate(3);
        let distinct: HashSet<Position> = three.iter().map(|o| o.position).collect();
        assert_eq!(distinct.len(), three.len());
        // Each opening's moves reach its position.
        for o in &three {
            let mut game = Game::new();
            for m in &o.moves {
                game.play_text(m).unwrap();
            }
            assert_eq!(*game.position(), o.position);
        }
    }

    #[test]
    fn a_forced_capture_is_searched_not_scored_zero() {
        // Black's only move takes a man and stays a man up: far from balanced.
        let forced = Opening {
            position: "B:W28,45:B1,23".parse().unwrap(),
            moves: Vec::new(),
        };
        assert_eq!(legal_moves(&forced.position).len(), 1);
        let mut seen = Vec::new();
        let band = ScoreBand {
            depth: 6,
            least: 0,
            most: 20,
        };
        let kept = balanced(vec![forced], band, |_, s| seen.push(s.score));
        assert!(kept.is_empty());
        assert!(seen[0] > 50, "{seen:?}");
    }

    #[test]
    fn a_band_above_zero_keeps_only_the_unbalanced() {
        let forced = Opening {
            position: "B:W28,45:B1,23".parse().unwrap(),
            moves: vec!["forced".into()],
        };
        let start = Opening {
            position: Position::initial(),
            moves: Vec::new(),
        };
        let band = ScoreBand {
            depth: 6,
            least: 30,
            most: 10_000,
        };
        let kept = balanced(vec![start, forced.clone()], band, |_, _| {});
        assert_eq!(kept.len(), 1);
        assert_eq!(kept[0].opening, forced);
    }

    #[test]
    fn an_empty_band_is_refused_before_any_search() {
        let config = Config {
            plies: 2,
            balance: Some(ScoreBand {
                depth: 10,
                least: 40,
                most: 20,
            }),
            out: None,
        };
        let err = run(&config).unwrap_err();
        assert!(
            err.contains("--min-margin 40 is above --margin 20"),
            "{err}"
        );
    }

    #[test]
    fn enumerated_lines_read_back() {
        for o in enumerate(2) {
            assert_eq!(Opening::from_line(&o.to_line()).unwrap(), Some(o));
        }
    }
}
