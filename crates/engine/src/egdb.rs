//! Endgame tables: the win/draw/loss value of every position with few pieces, built
//! by retrograde analysis (`kroon egdb build`, in the tools layer) and read by the search, `kroon egdb probe` and
//! `kroon match` ([`Tables`]).
//!
//! Values follow the FMJD move rules and, like the tables of Scan and Kingsrow,
//! ignore the 25-, 16- and 5-move rules and repetition: a table win is a win with
//! best play when nobody counts moves. The search keeps applying those rules.
//!
//! A table is split into material slices (men and kings of each side, White to
//! move: see [`index`]), one file each ([`file`](mod@file)), named in the data folder the
//! engine reports on stderr ([`default_dir`]).

pub mod file;
pub mod index;
pub mod on_demand;
#[cfg(all(target_arch = "x86_64", target_feature = "bmi2"))]
mod pext;
pub mod probe;

use file::SliceFile;
use index::Material;
use kroon_rules::board::movegen::{generate_captures, has_capture};
use kroon_rules::board::{Position, Side};
pub use kroon_rules::wdl::Wdl;
use std::fmt;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, OnceLock};

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

/// Slices of up to this many pieces are read whole when the tables are opened
/// (70 MB for all of 2-5 pieces); larger ones, whose files run to gigabytes
/// together, only when a probe first needs them.
pub const READ_AT_OPEN_PIECES: u32 = 5;

/// One slice of the folder: its file read when opened, or when first probed.
struct Slot {
    path: PathBuf,
    material: Material,
    /// The file's size, about.
    bytes: usize,
    /// Shared with the thread that reads it in the background, if one does.
    file: Arc<OnceLock<Option<SliceFile>>>,
    /// A background read was started.
    reading: AtomicBool,
}

/// A slice's file, read and checked; a file that turns out damaged is named on
/// stderr (once: the caller keeps the outcome) and then treated as absent, so the
/// search goes on without it.
fn read_slot(path: &Path, material: Material) -> Option<SliceFile> {
    let checked = SliceFile::read(path).and_then(|slice| {
        if slice.material == material {
            Ok(slice)
        } else {
            Err(format!(
                "{} holds slice {}, not {material}",
                path.display(),
                slice.material
            ))
        }
    });
    checked
        .map_err(|e| eprintln!("kroon: endgame table not used: {e}"))
        .ok()
}

impl Slot {
    fn new(path: PathBuf, material: Material, bytes: usize, file: Option<SliceFile>) -> Slot {
        Slot {
            path,
            material,
            bytes,
            file: Arc::new(file.map_or_else(OnceLock::new, |f| OnceLock::from(Some(f)))),
            reading: AtomicBool::new(false),
        }
    }

    /// The slice, read now if not yet.
    fn file(&self) -> Option<&SliceFile> {
        self.file
            .get_or_init(|| read_slot(&self.path, self.material))
            .as_ref()
    }

    /// The slice if it has been read; if not, None, and the file is read on a
    /// thread of its own, so that a search on the clock never waits for a disk
    /// (a 6-piece file of 24 MB read and checked takes a few tenths of a second on
    /// a busy machine, which a move with one second left does not have).
    fn file_if_read(&self) -> Option<&SliceFile> {
        if let Some(file) = self.file.get() {
            return file.as_ref();
        }
        if !self.reading.swap(true, Ordering::Relaxed) {
            let (cell, path, material) = (Arc::clone(&self.file), self.path.clone(), self.material);
            let started = std::thread::Builder::new()
                .name("egdb-read".into())
                .spawn(move || {
                    cell.get_or_init(|| read_slot(&path, material));
                });
            if started.is_err() {
                // No thread to be had: the next probe tries again.
                self.reading.store(false, Ordering::Relaxed);
            }
        }
        None
    }
}

/// The slices of one folder, ready to probe. Cheap to share: probes only read
/// (each block is decompressed on first use and kept, within a memory budget).
pub struct Tables {
    dir: PathBuf,
    /// By [`Material::slot`].
    slices: Vec<Option<Slot>>,
    count: usize,
    bytes: usize,
    /// Every slice of up to this many pieces is here.
    complete: u32,
    /// Slices not yet read are read on a thread of their own, and are unknown
    /// until then (see [`Tables::read_in_background`]).
    background_reads: bool,
}

impl fmt::Debug for Tables {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.describe())
    }
}

/// Where a probe starts from a position: a side without pieces has lost; a capture
/// pending is played out (the tables store no such position); a quiet position is
/// looked up as White to move. The reader and the builder's own probe of smaller
/// slices both start so.
pub enum ProbeStart {
    /// The game is over: this value for the side to move.
    Over(Wdl),
    /// The side to move must capture.
    Captures,
    /// The position, turned so that White is to move.
    Quiet(Position),
}

impl ProbeStart {
    #[must_use]
    pub fn of(pos: &Position) -> ProbeStart {
        match ProbeStart::turned(pos) {
            Err(over) => ProbeStart::Over(over),
            Ok(_) if has_capture(pos) => ProbeStart::Captures,
            Ok(turned) => ProbeStart::Quiet(turned),
        }
    }

    /// [`ProbeStart::of`] without the test for captures: the position turned so that
    /// White is to move, or the value of a game that is over. For tables that hold
    /// the values of positions with a capture pending too (the builder's resolved
    /// smaller slices).
    pub fn turned(pos: &Position) -> Result<Position, Wdl> {
        let side = pos.side_to_move();
        if pos.pieces(side).is_empty() {
            Err(Wdl::Loss)
        } else if pos.pieces(side.opponent()).is_empty() {
            Err(Wdl::Win)
        } else if side == Side::White {
            Ok(*pos)
        } else {
            Ok(pos.flipped_unkeyed())
        }
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
            background_reads: false,
        }
    }

    /// Opens every slice of up to `max_pieces` pieces found in `dir`: those of up
    /// to [`READ_AT_OPEN_PIECES`] pieces are read and checked now, larger ones'
    /// headers are checked now and their files read when first probed. A folder
    /// without tables gives empty tables; a damaged file is an error naming it.
    pub fn open(dir: &Path, max_pieces: u32) -> Result<Tables, String> {
        Tables::open_reading(dir, max_pieces, READ_AT_OPEN_PIECES)
    }

    /// [`Tables::open`], reading slices of up to `read_now` pieces at once.
    pub fn open_reading(dir: &Path, max_pieces: u32, read_now: u32) -> Result<Tables, String> {
        let mut tables = Tables::empty(dir);
        if !dir.is_dir() {
            return Ok(tables);
        }
        for pieces in 2..=max_pieces.min(index::MAX_PIECES) {
            for m in Material::all_with(pieces) {
                let path = dir.join(m.file_name());
                if path.exists() && pieces > read_now {
                    let material = SliceFile::peek(&path)?;
                    if material != m {
                        return Err(format!(
                            "{} holds slice {material}, not {m}",
                            path.display()
                        ));
                    }
                    let bytes = std::fs::metadata(&path).map_or(0, |meta| meta.len());
                    tables.insert_slot(Slot::new(path, material, bytes as usize, None));
                } else if path.exists() {
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
        self.insert_slot(Slot::new(
            self.dir.join(slice.material.file_name()),
            slice.material,
            slice.compressed_bytes(),
            Some(slice),
        ));
    }

    fn insert_slot(&mut self, slice: Slot) {
        let slot = slice.material.slot();
        match &self.slices[slot] {
            Some(old) => self.bytes -= old.bytes,
            None => self.count += 1,
        }
        self.bytes += slice.bytes;
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

    /// From now on a probe never waits for a slice's file to be read: a slice not
    /// yet read is read on a thread of its own, and its positions are unknown until
    /// it is. For the search, whose moves are on a clock; the builder and `egdb
    /// probe` wait, to answer every position they can.
    pub fn read_in_background(&mut self) {
        self.background_reads = true;
    }

    /// Drops the decompressed blocks every slice keeps (the builder, between units,
    /// so that the budget serves the slices the next unit probes).
    pub fn forget_blocks(&mut self) {
        for slot in self.slices.iter_mut().flatten() {
            if let Some(Some(file)) = Arc::get_mut(&mut slot.file).and_then(OnceLock::get_mut) {
                file.forget_blocks();
            }
        }
    }

    /// Whether no slice is here.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.count == 0
    }

    /// A slice's file, read now if not yet (None when it is not here or damaged).
    #[must_use]
    pub fn slice(&self, m: Material) -> Option<&SliceFile> {
        self.slices[m.slot()].as_ref()?.file()
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
            let later: Vec<&Slot> = self
                .slices
                .iter()
                .flatten()
                .filter(|s| s.file.get().is_none())
                .collect();
            let later = if later.is_empty() {
                String::new()
            } else {
                format!(
                    " ({} slices, {:.1} MB, read when first needed)",
                    later.len(),
                    later.iter().map(|s| s.bytes).sum::<usize>() as f64 / 1e6
                )
            };
            format!(
                "endgame tables: {} slices, {complete}, {:.1} MB{later}, from {}",
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
        let pos = match ProbeStart::of(pos) {
            ProbeStart::Over(value) => return Some(value),
            ProbeStart::Captures => return self.probe_captures(pos),
            ProbeStart::Quiet(white_to_move) => white_to_move,
        };
        let m = Material::of(&pos);
        if m.pieces() > index::MAX_PIECES {
            return None;
        }
        let slot = self.slices[m.slot()].as_ref()?;
        let slice = if self.background_reads {
            slot.file_if_read()?
        } else {
            slot.file()?
        };
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
