//! Opening files: match, self-play and bench start positions, one a line, written
//! as `FEN ; moves` (the moves that lead there from the initial position, in Hub
//! move text), optionally `; score`. `#` starts a comment; blank lines are skipped.
//! `kroon openings` writes them (in the tools layer); this reads them.
//!
//! ```
//! use kroon_engine::openings::{parse_file, Opening};
//!
//! let openings = parse_file("# two\nW:W31-50:B1-20\nB:W28,31-50:B1-20 ; 32-28\n").unwrap();
//! assert_eq!(openings.len(), 2);
//! assert_eq!(openings[1].moves, ["32-28"]);
//! let back = Opening::from_line(&openings[1].to_line()).unwrap().unwrap();
//! assert_eq!(back, openings[1]);
//! ```

use kroon_rules::board::Position;

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
    fn lines_round_trip_and_junk_is_an_error() {
        let line = "B:W28,31-50:B1-20 ; 32-28 ; -2";
        let opening = Opening::from_line(line).unwrap().unwrap();
        assert_eq!(opening.moves, ["32-28"]);
        assert_eq!(
            Opening::from_line(&opening.to_line()).unwrap(),
            Some(opening)
        );
        assert_eq!(Opening::from_line("  # comment").unwrap(), None);
        assert_eq!(Opening::from_line("").unwrap(), None);
        assert!(Opening::from_line("W:W99:B1 ; 32-28").is_err());
        assert!(parse_file("W:W31-50:B1-20\nnonsense\n")
            .unwrap_err()
            .starts_with("line 2"));
    }
}
