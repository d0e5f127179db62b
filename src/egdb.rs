//! Endgame tables: the win/draw/loss value of every position with few pieces, built
//! by retrograde analysis ([`build`]) and read by the search, `kroon egdb probe` and
//! `kroon match` ([`Tables`]).
//!
//! Values follow the FMJD move rules and, like the tables of Scan and Kingsrow,
//! ignore the 25-, 16- and 5-move rules and repetition: a table win is a win with
//! best play when nobody counts moves. The search keeps applying those rules.
//!
//! A table is split into material slices (men and kings of each side, White to
//! move: see [`index`]), one file each ([`file`]), named in the data folder the
//! engine reports on stderr ([`default_dir`]).

pub mod build;
pub mod file;
pub mod index;
pub mod probe;

use crate::board::movegen::{generate_captures, has_capture};
use crate::board::{Position, Side};
use file::SliceFile;
use index::Material;
use std::fmt;
use std::path::{Path, PathBuf};

/// A game value for the side to move.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash, PartialOrd, Ord)]
pub enum Wdl {
    Loss,
    Draw,
    Win,
}

impl Wdl {
    /// The value for the other side.
    #[must_use]
    pub const fn negated(self) -> Wdl {
        match self {
            Wdl::Loss => Wdl::Win,
            Wdl::Draw => Wdl::Draw,
            Wdl::Win => Wdl::Loss,
        }
    }
}

impl fmt::Display for Wdl {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Wdl::Loss => "loss",
            Wdl::Draw => "draw",
            Wdl::Win => "win",
        })
    }
}

/// The tables' folder when none is given: `$XDG_DATA_HOME/kroon/egdb`, or
/// `~/.local/share/kroon/egdb` (None without a home folder).
#[must_use]
pub fn default_dir() -> Option<PathBuf> {
    let data = std::env::var_os("XDG_DATA_HOME")
        .map(PathBuf::from)
        .filter(|p| p.is_absolute())
        .or_else(|| {
            std::env::var_os("HOME").map(|home| PathBuf::from(home).join(".local/share"))
        })?;
    Some(data.join("kroon").join("egdb"))
}

/// The slices of one folder, ready to probe. Cheap to share: probes only read
/// (each block is decompressed once, on first use).
pub struct Tables {
    dir: PathBuf,
    /// By [`Material::slot`].
    slices: Vec<Option<SliceFile>>,
    count: usize,
    bytes: usize,
    /// Every slice of up to this many pieces is here.
    complete: u32,
}

impl fmt::Debug for Tables {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.describe())
    }
}

impl Tables {
    /// No slices yet (the builder adds them one by one).
    #[must_use]
    pub fn empty(dir: &Path) -> Tables {
        Tables {
            dir: dir.to_path_buf(),
            slices: (0..Material::SLOTS).map(|_| None).collect(),
            count: 0,
            bytes: 0,
            complete: 1,
        }
    }

    /// Reads every slice of up to `max_pieces` pieces found in `dir`. A folder
    /// without tables gives empty tables; a damaged file is an error naming it.
    pub fn open(dir: &Path, max_pieces: u32) -> Result<Tables, String> {
        let mut tables = Tables::empty(dir);
        if !dir.is_dir() {
            return Ok(tables);
        }
        for pieces in 2..=max_pieces.min(index::MAX_PIECES) {
            for m in Material::all_with(pieces) {
                let path = dir.join(m.file_name());
                if path.exists() {
                    let slice = SliceFile::read(&path)?;
                    if slice.material != m {
                        return Err(format!(
                            "{} holds slice {}, not {m}",
                            path.display(),
                            slice.material
                        ));
                    }
                    tables.insert(slice);
                }
            }
        }
        Ok(tables)
    }

    /// Adds a slice read from its file.
    pub fn insert(&mut self, slice: SliceFile) {
        let slot = slice.material.slot();
        if self.slices[slot].is_none() {
            self.count += 1;
        }
        self.bytes += slice.compressed_bytes();
        self.slices[slot] = Some(slice);
        while (self.complete < index::MAX_PIECES)
            && Material::all_with(self.complete + 1)
                .iter()
                .all(|m| self.has(*m))
        {
            self.complete += 1;
        }
    }

    /// Every position of up to this many pieces has a value (1 when there are no tables).
    #[must_use]
    pub fn complete_pieces(&self) -> u32 {
        self.complete
    }

    /// Whether no slice is here.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.count == 0
    }

    /// Whether a slice is here.
    #[must_use]
    pub fn has(&self, m: Material) -> bool {
        self.slices[m.slot()].is_some()
    }

    /// One line for stderr: which tables were loaded, and from where.
    #[must_use]
    pub fn describe(&self) -> String {
        let bytes = self.bytes;
        if self.count == 0 {
            format!("no endgame tables in {}", self.dir.display())
        } else {
            let complete = if self.complete >= 2 {
                format!("complete to {} pieces", self.complete)
            } else {
                "no piece count complete".into()
            };
            format!(
                "endgame tables: {} slices, {complete}, {:.1} MB, from {}",
                self.count,
                bytes as f64 / 1e6,
                self.dir.display()
            )
        }
    }

    /// The value of a position for the side to move, or None when it is not in the
    /// tables. A capture pending is played out (the tables do not store those
    /// positions), also from a position with more pieces than the tables hold.
    #[must_use]
    pub fn probe(&self, pos: &Position) -> Option<Wdl> {
        let side = pos.side_to_move();
        if pos.pieces(side).is_empty() {
            return Some(Wdl::Loss);
        }
        if pos.pieces(side.opponent()).is_empty() {
            return Some(Wdl::Win);
        }
        if has_capture(pos) {
            return self.probe_captures(pos);
        }
        let pos = match side {
            Side::White => *pos,
            Side::Black => pos.flipped_unkeyed(),
        };
        let m = Material::of(&pos);
        if m.pieces() > index::MAX_PIECES {
            return None;
        }
        let slice = self.slices[m.slot()].as_ref()?;
        Some(slice.get(m.index(&pos)))
    }

    /// The best value over the captures of a position that must capture.
    fn probe_captures(&self, pos: &Position) -> Option<Wdl> {
        let mut moves = Vec::new();
        generate_captures(pos, &mut moves);
        let taken = moves.first().map_or(0, |m| m.captured().count());
        if pos.occupied().count() - taken > index::MAX_PIECES {
            return None;
        }
        let mut best = Some(Wdl::Loss);
        for mv in moves {
            match self.probe(&pos.play_unkeyed(mv)).map(Wdl::negated) {
                Some(Wdl::Win) => return Some(Wdl::Win),
                Some(v) => best = best.map(|b| b.max(v)),
                None => best = None,
            }
        }
        best
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_negate_and_print() {
        assert_eq!(Wdl::Win.negated(), Wdl::Loss);
        assert_eq!(Wdl::Draw.negated(), Wdl::Draw);
        assert_eq!(Wdl::Loss.to_string(), "loss");
        assert!(Wdl::Win > Wdl::Draw && Wdl::Draw > Wdl::Loss);
    }

    #[test]
    fn without_tables_nothing_is_known_but_the_end() {
        let tables = Tables::empty(Path::new("/nonexistent"));
        let pos = Position::from_fen("W:WK46:BK5").unwrap();
        assert_eq!(tables.probe(&pos), None);
        // White captures Black's last piece: a win whatever the tables hold.
        let pos = Position::from_fen("W:W28:B23").unwrap();
        assert_eq!(tables.probe(&pos), Some(Wdl::Win));
        assert_eq!(tables.complete_pieces(), 1);
    }
}
