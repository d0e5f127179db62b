//! The learned evaluation's weights and their file.
//!
//! The weights are the trainer's parameters: for each window and pattern a value
//! for the middle game and one for the endgame, seen from White's side; and for
//! each dense term of [`super::pattern`] the same pair. The evaluation scores White's
//! patterns with them and subtracts Black's, each Black pattern read as the White
//! pattern it mirrors, so a position and its colour-flipped mirror always score
//! opposite (see [`super::learned`]).
//!
//! File (little-endian):
//!
//! | bytes | field |
//! |---|---|
//! | 0-7 | magic `KROONEVL` |
//! | 8-11 | format version (1) |
//! | 12-15, 16-19, 20-23 | windows (28), patterns per window (6561), dense terms (10) |
//! | 24-27 | units per hundredth of a man ([`SCALE`]) |
//! | 28-31 | reserved (0) |
//! | then | windows x patterns pairs of `i16` (middle game, endgame), window by window |
//! | then | dense-term pairs of `i16` |
//! | last 8 | FNV-1a 64 checksum of everything before it |
//!
//! Dense terms are only ever added just before the side to move, which stays last:
//! a file with fewer of them (the weights of 2026 had 8) reads with the terms it
//! lacks at zero, and so plays exactly as it did.

use super::pattern::{DENSE, PATTERNS, WINDOWS};
use crate::knowledge_file::{self, u32_at, Frame};
use std::path::Path;

const FRAME: Frame = Frame {
    tag: b"KROONEVL",
    version: 1,
    oldest: 1,
    what: "weights",
};
/// Weights are stored in eighths of a hundredth of a man: a pattern worth a fraction
/// of a hundredth still counts, and the sum of 28 windows stays exact.
pub const SCALE: i32 = 8;
const HEADER: usize = 32;
/// The size of a file with `dense` dense terms.
#[must_use]
pub const fn file_size(dense: usize) -> usize {
    HEADER + (WINDOWS * PATTERNS + dense) * 4 + 8
}

/// The size of a file as this Kroon writes it.
pub const FILE_SIZE: usize = file_size(DENSE);

/// The fewest dense terms a file may have: material (men, kings) and the side to move.
const MIN_DENSE: usize = 3;

/// Middle-game and endgame values of one weight, in 1/[`SCALE`] hundredths.
pub type Pair = [i16; 2];

/// The weights of the learned evaluation.
#[derive(Clone, PartialEq, Eq)]
pub struct Weights {
    /// Window `w`, pattern `i` at `w * PATTERNS + i`.
    pub patterns: Vec<Pair>,
    pub dense: [Pair; DENSE],
}

impl std::fmt::Debug for Weights {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Weights {{ dense: {:?}, .. }}", self.dense)
    }
}

impl Weights {
    /// All zero.
    #[must_use]
    pub fn zero() -> Weights {
        Weights {
            patterns: vec![[0, 0]; WINDOWS * PATTERNS],
            dense: [[0, 0]; DENSE],
        }
    }

    /// The file's bytes.
    #[must_use]
    pub fn encode(&self) -> Vec<u8> {
        let mut out = FRAME.start(FILE_SIZE);
        for v in [
            WINDOWS as u32,
            PATTERNS as u32,
            DENSE as u32,
            SCALE as u32,
            0,
        ] {
            out.extend_from_slice(&v.to_le_bytes());
        }
        for pair in self.patterns.iter().chain(self.dense.iter()) {
            out.extend_from_slice(&pair[0].to_le_bytes());
            out.extend_from_slice(&pair[1].to_le_bytes());
        }
        Frame::seal(&mut out);
        out
    }

    /// Reads a file's bytes; the error says what is wrong.
    pub fn decode(bytes: &[u8]) -> Result<Weights, String> {
        FRAME.open(bytes, HEADER)?;
        let shape = [u32_at(bytes, 12), u32_at(bytes, 16), u32_at(bytes, 24)];
        let expected = [WINDOWS as u32, PATTERNS as u32, SCALE as u32];
        let terms = u32_at(bytes, 20) as usize;
        if shape != expected || !(MIN_DENSE..=DENSE).contains(&terms) {
            return Err(format!(
                "weights for {} windows of {} patterns, {terms} dense terms, scale {}; this Kroon has {}, {}, {MIN_DENSE} to {DENSE}, {}",
                shape[0], shape[1], shape[2], expected[0], expected[1], expected[2]
            ));
        }
        let size = file_size(terms);
        if bytes.len() != size {
            return Err(format!(
                "{} bytes where a weights file with {terms} dense terms has {size} (truncated or padded)",
                bytes.len()
            ));
        }
        let body = FRAME.unseal(bytes)?;
        let mut pairs = body[HEADER..].chunks_exact(4).map(|c| {
            [
                i16::from_le_bytes([c[0], c[1]]),
                i16::from_le_bytes([c[2], c[3]]),
            ]
        });
        let patterns: Vec<Pair> = pairs.by_ref().take(WINDOWS * PATTERNS).collect();
        // The file's terms but its last in their places, its last (the side to
        // move) last: the terms added since it was written sit between, at zero.
        let mut dense = [[0, 0]; DENSE];
        for d in &mut dense[..terms - 1] {
            *d = pairs.next().expect("the size was checked");
        }
        dense[DENSE - 1] = pairs.next().expect("the size was checked");
        Ok(Weights { patterns, dense })
    }

    /// Reads a weights file; the error names it.
    pub fn load(path: &Path) -> Result<Weights, String> {
        knowledge_file::read(path, Weights::decode)
    }

    /// Writes a weights file (through a temporary file, so a reader never sees half
    /// of one).
    pub fn save(&self, path: &Path) -> Result<(), String> {
        knowledge_file::write(path, &self.encode())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> Weights {
        let mut w = Weights::zero();
        for (i, p) in w.patterns.iter_mut().enumerate() {
            *p = [(i % 977) as i16 - 400, -((i % 313) as i16)];
        }
        w.dense[0] = [800, 900];
        w.dense[DENSE - 1] = [-3, 4];
        w
    }

    /// A file as Kroon wrote it when there were `terms` dense terms.
    fn older_file(w: &Weights, terms: usize) -> Vec<u8> {
        let mut bytes = w.encode();
        bytes.truncate(bytes.len() - 8);
        bytes[20..24].copy_from_slice(&(terms as u32).to_le_bytes());
        let dense_at = HEADER + WINDOWS * PATTERNS * 4;
        let last = bytes[bytes.len() - 4..].to_vec();
        bytes.truncate(dense_at + (terms - 1) * 4);
        bytes.extend_from_slice(&last);
        Frame::seal(&mut bytes);
        bytes
    }

    #[test]
    fn weights_round_trip() {
        let w = sample();
        let bytes = w.encode();
        assert_eq!(bytes.len(), FILE_SIZE);
        assert_eq!(Weights::decode(&bytes), Ok(w));
    }

    #[test]
    fn a_file_from_before_the_newer_dense_terms_reads_with_them_at_zero() {
        let mut w = sample();
        w.dense[1] = [50, 60];
        let old = older_file(&w, 8);
        assert_eq!(old.len(), file_size(8));
        let read = Weights::decode(&old).unwrap();
        assert_eq!(read.patterns, w.patterns);
        assert_eq!(read.dense[..7], w.dense[..7]);
        assert!(read.dense[7..DENSE - 1].iter().all(|&d| d == [0, 0]));
        assert_eq!(
            read.dense[DENSE - 1],
            [-3, 4],
            "the side to move stays last"
        );
        // The compiled-in weights are such a file, and evaluate as they did.
        let builtin = include_bytes!("kroon.weights");
        assert!(Weights::decode(builtin).is_ok());
        // More terms than this Kroon knows, or too few to be a model: refused.
        let mut more = w.encode();
        more[20] = (DENSE + 1) as u8;
        assert!(Weights::decode(&more).unwrap_err().contains("dense terms"));
        assert!(Weights::decode(&older_file(&w, 2))
            .unwrap_err()
            .contains("2 dense terms"));
    }

    #[test]
    fn damaged_files_are_refused() {
        let bytes = sample().encode();
        let mut flipped = bytes.clone();
        flipped[1000] ^= 1;
        assert!(Weights::decode(&flipped).unwrap_err().contains("checksum"));
        assert!(Weights::decode(&bytes[..bytes.len() - 1])
            .unwrap_err()
            .contains("truncated"));
        let mut version = bytes.clone();
        version[8] = 2;
        assert!(Weights::decode(&version).unwrap_err().contains("version 2"));
        assert!(Weights::decode(b"hello")
            .unwrap_err()
            .contains("not a Kroon"));
        assert!(Weights::decode(&[]).is_err());
    }
}
