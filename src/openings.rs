//! Match start positions: every distinct position a few plies from the initial
//! one, optionally only the balanced ones, written one per line as
//! `FEN ; moves` (the moves that lead there from the initial position, in Hub
//! move text), optionally `; score`. `#` starts a comment line; blank lines are
//! skipped.
//!
//! ```
//! use kroon::openings::{enumerate, Opening};
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
use crate::engine::{Engine, EngineOptions, Limit};
use crate::game::Game;
use std::collections::HashSet;

/// `openings/3-move.fen`, built in: the default start positions of self-play.
pub const THREE_MOVE: &str = include_str!("../openings/3-move.fen");

/// A start position and the moves that reach it from the initial position.
#[derive(Clone, Debug, PartialEq)]
pub struct Opening {
    pub position: Position,
    /// Hub move text, first move first (empty when read from a file without them).
    pub moves: Vec<String>,
}

impl Opening {
    /// The file line: `FEN ; m1 m2 ...`.
    #[must_use]
    pub fn to_line(&self) -> String {
        format!("{} ; {}", self.position.to_fen(), self.moves.join(" "))
    }

    /// Reads one line of an openings file: `Ok(None)` for blank and comment lines.
    pub fn from_line(line: &str) -> Result<Option<Opening>, String> {
        // `#` starts a comment, at the start of a line or after a position.
        let line = line.split('#').next().unwrap_or("").trim();
        if line.is_empty() {
            return Ok(None);
        }
        let (fen, comment) = line.split_once(';').unwrap_or((line, ""));
        let position = fen
            .trim()
            .parse::<Position>()
            .map_err(|e| format!("bad position '{}': {e}", fen.trim()))?;
        Ok(Some(Opening {
            position,
            // Anything after a second `;` (a score, a note) is not a move.
            moves: comment
                .split(';')
                .next()
                .unwrap_or("")
                .split_whitespace()
                .map(String::from)
                .collect(),
        }))
    }
}

/// Reads an openings file's text; the error names the line.
pub fn parse_file(text: &str) -> Result<Vec<Opening>, String> {
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        if let Some(opening) =
            Opening::from_line(line).map_err(|e| format!("line {}: {e}", i + 1))?
        {
            out.push(opening);
        }
    }
    Ok(out)
}

/// Reads a file of positions in the format above (`kroon openings` writes it; a bare
/// FEN or Hub string a line will do): the start positions of matches and DXP games,
/// and the position sets of `kroon bench`. A file without a position is an error.
pub fn read_positions(path: &std::path::Path) -> Result<Vec<Position>, String> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    let lines = parse_file(&text).map_err(|e| format!("{}: {e}", path.display()))?;
    if lines.is_empty() {
        return Err(format!("{} holds no positions", path.display()));
    }
    Ok(lines.into_iter().map(|o| o.position).collect())
}

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

/// Searches each opening to `depth` on one thread with a fresh table and keeps
/// those scoring within `margin` hundredths of equality. `progress` hears of every
/// opening searched (for a progress line).
pub fn balanced(
    openings: Vec<Opening>,
    depth: u32,
    margin: i32,
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
        let result =
            engine.analyse_blocking(&Game::from_position(opening.position), Limit::Depth(depth));
        let scored = Scored {
            opening,
            score: result.score.0,
        };
        progress(i, &scored);
        if scored.score.abs() <= margin {
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
    /// Keep only openings Kroon's search at this depth scores within this many
    /// hundredths of a man of equality.
    pub balance: Option<(u32, i32)>,
    /// Where to write (stdout if None).
    pub out: Option<std::path::PathBuf>,
}

/// `kroon openings`: enumerates, filters, writes the file.
pub fn run(config: &Config) -> Result<(), String> {
    if config.plies > 8 {
        return Err("--plies above 8 would enumerate millions of positions".into());
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
        Some((depth, margin)) => {
            let kept = balanced(all, depth, margin, |i, s| {
                eprint!(
                    "\rsearched {}/{total}: {} {:+}   ",
                    i + 1,
                    s.opening.moves.join(" "),
                    s.score
                );
            });
            eprintln!();
            text.push_str(&format!(
                ", kept where Kroon at depth {depth} scores within {margin} hundredths of a man ({} of {total})\n",
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
    fn position_files() {
        let dir = std::env::temp_dir().join(format!("kroon-openings-{}", std::process::id()));
        std::fs::write(
            &dir,
            "# two\nW:W31-50:B1-20\n\n  B:W28,33:B19,18 # comment\n",
        )
        .unwrap();
        let got = read_positions(&dir).unwrap();
        assert_eq!(got.len(), 2);
        // The files `kroon openings` writes, as committed in openings/.
        std::fs::write(
            &dir,
            "# made by kroon openings\nW:W31-50:B1-20 ; ; 0\nB:W28,33:B19,18 ; 32-28 19-23 ; -2\n",
        )
        .unwrap();
        assert_eq!(read_positions(&dir).unwrap().len(), 2);
        std::fs::write(&dir, "# none\n").unwrap();
        assert!(read_positions(&dir).is_err());
        std::fs::write(&dir, "nonsense\n").unwrap();
        assert!(read_positions(&dir).unwrap_err().contains("line 1"));
        let _ = std::fs::remove_file(&dir);
    }

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
        let kept = balanced(vec![forced], 6, 20, |_, s| seen.push(s.score));
        assert!(kept.is_empty());
        assert!(seen[0] > 50, "{seen:?}");
    }

    #[test]
    fn lines_round_trip_and_junk_is_an_error() {
        for o in enumerate(2) {
            assert_eq!(Opening::from_line(&o.to_line()).unwrap(), Some(o));
        }
        assert_eq!(Opening::from_line("  # comment").unwrap(), None);
        assert_eq!(Opening::from_line("").unwrap(), None);
        assert!(Opening::from_line("W:W99:B1 ; 32-28").is_err());
        assert!(parse_file("W:W31-50:B1-20\nnonsense\n")
            .unwrap_err()
            .starts_with("line 2"));
    }
}
