//! A unit's work in progress, saved while it is built, so that a build stopped in the
//! middle of a unit (the machine shut down, a job's time ran out) resumes from its
//! last checkpoint instead of from nothing. A 6-piece unit takes up to an hour on
//! two cores; without this, every stop lost the unit in hand.
//!
//! The checkpoint holds the states of every position after pass 1 or after some
//! round of passing values back, and the best value each position's moves out of
//! the unit gave it. The check pass verifies every final value against its
//! successors whatever route led there, so a checkpoint that is wrong in some way
//! its checksum cannot see costs a failed unit, never a wrong table.
//!
//! Format (all numbers little-endian): magic `KROONPRT`, version (2), the number of
//! slices and each slice's material (four bytes, as in the tables' files), the
//! rounds done and the parity of the next, then for each slice its states (one byte
//! a position) and its outside values (four positions a byte), each preceded by its
//! length (8 bytes); last an FNV-1a 64 checksum of everything before it. Written
//! to a temporary name and renamed, so a stop while writing leaves the last one.

use kroon_engine::checksum::{fnv1a, fnv1a_on};
use kroon_engine::egdb::index::Material;
use std::fs::File;
use std::io::{BufReader, BufWriter, Read, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU8, Ordering::Relaxed};

const MAGIC: &[u8; 8] = b"KROONPRT";
/// 2: the outside values in the tables' two-bit code (version 1 had its own).
const VERSION: u32 = 2;
/// Bytes moved between the states and the file at a time.
const CHUNK: usize = 1 << 20;

/// Where the build of a unit stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Progress {
    /// Rounds of passing values back done (0: pass 1 only).
    pub rounds: u32,
    /// The parity of the next round.
    pub parity: usize,
}

/// The checkpoint's file for a unit: hidden, beside the tables, named for the unit.
#[must_use]
pub fn path(dir: &Path, unit: &[Material]) -> PathBuf {
    let name: Vec<String> = unit.iter().map(Material::to_string).collect();
    dir.join(format!(".wdl-{}.partial", name.join("+")))
}

/// A running checksum of the bytes written or read.
struct Summed<T> {
    inner: T,
    sum: u64,
}

impl<T> Summed<T> {
    fn add(&mut self, bytes: &[u8]) {
        self.sum = fnv1a_on(self.sum, bytes);
    }
}

impl<W: Write> Summed<W> {
    fn put(&mut self, bytes: &[u8]) -> std::io::Result<()> {
        self.add(bytes);
        self.inner.write_all(bytes)
    }

    fn put_cells(&mut self, cells: &[AtomicU8]) -> std::io::Result<()> {
        self.put(&(cells.len() as u64).to_le_bytes())?;
        let mut buffer = Vec::with_capacity(CHUNK);
        for chunk in cells.chunks(CHUNK) {
            buffer.clear();
            buffer.extend(chunk.iter().map(|c| c.load(Relaxed)));
            self.put(&buffer)?;
        }
        Ok(())
    }
}

impl<R: Read> Summed<R> {
    fn take(&mut self, bytes: &mut [u8]) -> std::io::Result<()> {
        self.inner.read_exact(bytes)?;
        self.add(bytes);
        Ok(())
    }

    fn take_u32(&mut self) -> std::io::Result<u32> {
        let mut b = [0u8; 4];
        self.take(&mut b)?;
        Ok(u32::from_le_bytes(b))
    }

    /// Fills `cells` from the file; false when the file holds another length.
    fn take_cells(&mut self, cells: &[AtomicU8]) -> std::io::Result<bool> {
        let mut len = [0u8; 8];
        self.take(&mut len)?;
        if u64::from_le_bytes(len) != cells.len() as u64 {
            return Ok(false);
        }
        let mut buffer = vec![0u8; CHUNK];
        for chunk in cells.chunks(CHUNK) {
            let bytes = &mut buffer[..chunk.len()];
            self.take(bytes)?;
            for (cell, &b) in chunk.iter().zip(bytes.iter()) {
                cell.store(b, Relaxed);
            }
        }
        Ok(true)
    }
}

fn header(unit: &[Material], progress: Progress) -> Vec<u8> {
    let mut out = Vec::new();
    out.extend_from_slice(MAGIC);
    out.extend_from_slice(&VERSION.to_le_bytes());
    out.extend_from_slice(&(unit.len() as u32).to_le_bytes());
    for m in unit {
        out.extend_from_slice(&[m.white_men, m.white_kings, m.black_men, m.black_kings]);
    }
    out.extend_from_slice(&progress.rounds.to_le_bytes());
    out.extend_from_slice(&(progress.parity as u32).to_le_bytes());
    out
}

/// Saves a unit's states and outside values with its progress.
pub fn save(
    path: &Path,
    unit: &[Material],
    progress: Progress,
    states: &[Vec<AtomicU8>],
    outside: &[Vec<AtomicU8>],
) -> Result<(), String> {
    let tmp = path.with_extension("tmp");
    let fail = |e: std::io::Error| format!("cannot write {}: {e}", tmp.display());
    let file = File::create(&tmp).map_err(fail)?;
    let mut out = Summed {
        inner: BufWriter::with_capacity(CHUNK, file),
        sum: fnv1a(&[]),
    };
    out.put(&header(unit, progress)).map_err(fail)?;
    for (s, o) in states.iter().zip(outside) {
        out.put_cells(s).map_err(fail)?;
        out.put_cells(o).map_err(fail)?;
    }
    let sum = out.sum.to_le_bytes();
    out.inner.write_all(&sum).map_err(fail)?;
    let file = out.inner.into_inner().map_err(|e| fail(e.into_error()))?;
    file.sync_all().map_err(fail)?;
    std::fs::rename(&tmp, path).map_err(|e| format!("cannot write {}: {e}", path.display()))
}

/// Loads a unit's checkpoint into `states` and `outside` (made for the unit, all
/// zero) and returns its progress; None when there is none. One that holds
/// another unit, or is damaged, is reported on stderr and removed, and the unit is
/// built from the start (the states may then hold part of it: the caller starts
/// over with fresh ones).
pub fn load(
    path: &Path,
    unit: &[Material],
    states: &[Vec<AtomicU8>],
    outside: &[Vec<AtomicU8>],
) -> Option<Progress> {
    let file = File::open(path).ok()?;
    match read(file, unit, states, outside) {
        Ok(progress) => Some(progress),
        Err(why) => {
            eprintln!(
                "egdb: {} is not a usable checkpoint ({why}); building the unit from the start",
                path.display()
            );
            let _ = std::fs::remove_file(path);
            None
        }
    }
}

fn read(
    file: File,
    unit: &[Material],
    states: &[Vec<AtomicU8>],
    outside: &[Vec<AtomicU8>],
) -> Result<Progress, String> {
    let mut input = Summed {
        inner: BufReader::with_capacity(CHUNK, file),
        sum: fnv1a(&[]),
    };
    let io = |e: std::io::Error| format!("cut short: {e}");
    // The header with the progress left out, which it then reads.
    let expected = header(
        unit,
        Progress {
            rounds: 0,
            parity: 0,
        },
    );
    let mut head = vec![0u8; expected.len() - 8];
    input.take(&mut head).map_err(io)?;
    if head[..] != expected[..expected.len() - 8] {
        return Err("another unit's, or not a checkpoint".into());
    }
    let rounds = input.take_u32().map_err(io)?;
    let parity = input.take_u32().map_err(io)? as usize;
    if parity > 1 {
        return Err("bad parity".into());
    }
    for (s, o) in states.iter().zip(outside) {
        for cells in [s, o] {
            if !input.take_cells(cells).map_err(io)? {
                return Err("a slice of another size".into());
            }
        }
    }
    let computed = input.sum;
    let mut stored = [0u8; 8];
    input.inner.read_exact(&mut stored).map_err(io)?;
    if u64::from_le_bytes(stored) != computed {
        return Err("checksum mismatch".into());
    }
    let mut rest = [0u8; 1];
    if input.inner.read(&mut rest).map_err(io)? != 0 {
        return Err("bytes after the checksum".into());
    }
    Ok(Progress { rounds, parity })
}

/// Removes a unit's checkpoint once its files are written.
pub fn remove(path: &Path) {
    let _ = std::fs::remove_file(path);
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cells(values: &[u8]) -> Vec<AtomicU8> {
        values.iter().map(|&v| AtomicU8::new(v)).collect()
    }

    fn zeros(n: usize) -> Vec<AtomicU8> {
        (0..n).map(|_| AtomicU8::new(0)).collect()
    }

    fn values(cells: &[AtomicU8]) -> Vec<u8> {
        cells.iter().map(|c| c.load(Relaxed)).collect()
    }

    #[test]
    fn a_checkpoint_reads_back_and_a_damaged_one_is_refused() {
        let dir = std::env::temp_dir().join(format!("kroon-egdb-partial-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let unit: Vec<Material> = ["0112", "1201"]
            .iter()
            .map(|m| m.parse().unwrap())
            .collect();
        let path = path(&dir, &unit);
        assert!(path.ends_with(".wdl-0112+1201.partial"));
        let states = vec![cells(&[1, 2, 0xF0, 0xF3]), cells(&[5; 3000])];
        let outside = vec![cells(&[0b1001]), cells(&[7; 750])];
        let progress = Progress {
            rounds: 12,
            parity: 1,
        };
        save(&path, &unit, progress, &states, &outside).unwrap();
        let fresh = || (vec![zeros(4), zeros(3000)], vec![zeros(1), zeros(750)]);
        let (s, o) = fresh();
        assert_eq!(load(&path, &unit, &s, &o), Some(progress));
        assert_eq!(values(&s[0]), [1, 2, 0xF0, 0xF3]);
        assert_eq!(values(&s[1]), vec![5; 3000]);
        assert_eq!((values(&o[0]), values(&o[1])), (vec![0b1001], vec![7; 750]));
        let bytes = std::fs::read(&path).unwrap();
        // Another unit's states are not taken.
        let other: Vec<Material> = ["0113", "1301"]
            .iter()
            .map(|m| m.parse().unwrap())
            .collect();
        let (s, o) = fresh();
        assert_eq!(load(&path, &other, &s, &o), None);
        assert!(!path.exists(), "an unusable checkpoint is removed");
        // Nor a changed byte or a cut file.
        for damaged in [
            {
                let mut b = bytes.clone();
                b[100] ^= 4;
                b
            },
            bytes[..bytes.len() - 3].to_vec(),
        ] {
            std::fs::write(&path, &damaged).unwrap();
            let (s, o) = fresh();
            assert_eq!(load(&path, &unit, &s, &o), None);
            assert!(!path.exists());
        }
        // None at all: nothing to resume.
        let (s, o) = fresh();
        assert_eq!(load(&path, &unit, &s, &o), None);
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
