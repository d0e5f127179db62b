//! The book file: every position of the book tree with its score, sorted by key so
//! that a lookup is a binary search over the bytes as they were read.
//!
//! File (little-endian):
//!
//! | bytes | field |
//! |---|---|
//! | 0-7 | magic `KROONBOK` |
//! | 8-11 | format version (1) |
//! | 12-15 | number of positions N |
//! | 16-23 | nodes each leaf was searched with |
//! | 24-25 | plies from the start in which every move was expanded |
//! | 26-27 | the build margin, hundredths of a man |
//! | 28-29 | the cost of a ply in the expansion order, hundredths of a man |
//! | 30-31 | reserved (0) |
//! | then N x 12 | positions, by increasing key: Zobrist key `u64` (pieces and side to move), score `i16`, flags `u16` |
//! | last 8 | FNV-1a 64 checksum of everything before it |
//!
//! A score is in hundredths of a man from the side to move's view: the minimax value
//! of the book tree below the position if flag bit 0 (expanded) is set, which means
//! every legal move's successor is in the book too; else the score of the leaf's
//! own search. Other flag bits are 0.

use crate::knowledge_file::{u16_at, u32_at, u64_at, Frame};
use kroon_rules::board::zobrist::Key;

const FRAME: Frame = Frame {
    tag: b"KROONBOK",
    version: 1,
    oldest: 1,
    what: "book",
};
const HEADER: usize = 32;
const ENTRY: usize = 12;
const EXPANDED: u16 = 1;

/// How a book was built (see `kroon::tools::book_builder`); kept in the file so that an
/// extension can use the same settings and `kroon book stats` can show them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BuildSettings {
    /// Nodes of each leaf's search (one thread, fresh table: the same score every time).
    pub leaf_nodes: u64,
    /// Every position fewer than this many plies from the start is expanded.
    pub full_plies: u16,
    /// Past those plies, only moves this many hundredths of a man or less worse
    /// than the best are followed.
    pub margin: u16,
    /// What a ply deeper costs in the expansion order, against a move's drop-out.
    pub ply_cost: u16,
}

/// One position of the book.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Entry {
    pub key: Key,
    /// Hundredths of a man, side to move's view.
    pub score: i16,
    /// Every successor is in the book and `score` is their minimax value.
    pub expanded: bool,
}

/// Writes a book file's bytes; `entries` are sorted here.
#[must_use]
pub fn encode(settings: &BuildSettings, entries: &mut [Entry]) -> Vec<u8> {
    entries.sort_unstable_by_key(|e| e.key);
    let mut out = FRAME.start(HEADER + entries.len() * ENTRY + 8);
    out.extend_from_slice(&(entries.len() as u32).to_le_bytes());
    out.extend_from_slice(&settings.leaf_nodes.to_le_bytes());
    for v in [settings.full_plies, settings.margin, settings.ply_cost, 0] {
        out.extend_from_slice(&v.to_le_bytes());
    }
    for e in entries.iter() {
        out.extend_from_slice(&e.key.to_le_bytes());
        out.extend_from_slice(&e.score.to_le_bytes());
        out.extend_from_slice(&u16::from(e.expanded).to_le_bytes());
    }
    Frame::seal(&mut out);
    out
}

/// Checks a book file's bytes: the settings and the entries, or why it is refused.
pub fn decode(bytes: &[u8]) -> Result<(BuildSettings, Vec<Entry>), String> {
    FRAME.open(bytes, HEADER + 8)?;
    let count = u32_at(bytes, 12) as usize;
    if bytes.len() != HEADER + count * ENTRY + 8 {
        return Err(format!(
            "the book says it holds {count} positions but is {} bytes long (truncated?)",
            bytes.len()
        ));
    }
    let body = FRAME.unseal(bytes)?;
    let settings = BuildSettings {
        leaf_nodes: u64_at(bytes, 16),
        full_plies: u16_at(bytes, 24),
        margin: u16_at(bytes, 26),
        ply_cost: u16_at(bytes, 28),
    };
    let entries: Vec<Entry> = body[HEADER..]
        .chunks_exact(ENTRY)
        .map(|c| Entry {
            key: u64_at(c, 0),
            score: u16_at(c, 8) as i16,
            expanded: u16_at(c, 10) & EXPANDED != 0,
        })
        .collect();
    if entries.windows(2).any(|w| w[0].key >= w[1].key) {
        return Err("the book's positions are not sorted by key".into());
    }
    Ok((settings, entries))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> (BuildSettings, Vec<Entry>) {
        let settings = BuildSettings {
            leaf_nodes: 500_000,
            full_plies: 3,
            margin: 25,
            ply_cost: 5,
        };
        let entries = vec![
            Entry {
                key: 99,
                score: -12,
                expanded: false,
            },
            Entry {
                key: 7,
                score: 30_000,
                expanded: true,
            },
        ];
        (settings, entries)
    }

    #[test]
    fn a_book_round_trips_sorted() {
        let (settings, mut entries) = sample();
        let bytes = encode(&settings, &mut entries);
        let (s, e) = decode(&bytes).unwrap();
        assert_eq!(s, settings);
        assert_eq!(e.iter().map(|e| e.key).collect::<Vec<_>>(), [7, 99]);
        assert_eq!(e, entries);
    }

    #[test]
    fn damage_is_refused_with_a_reason() {
        let (settings, mut entries) = sample();
        let bytes = encode(&settings, &mut entries);
        let mut flipped = bytes.clone();
        flipped[HEADER + 3] ^= 1;
        assert!(decode(&flipped).unwrap_err().contains("checksum"));
        assert!(decode(&bytes[..bytes.len() - 1])
            .unwrap_err()
            .contains("truncated"));
        assert!(decode(b"hello").unwrap_err().contains("KROONBOK"));
        let mut later = bytes;
        later[8] = 2;
        assert!(decode(&later).unwrap_err().contains("version 2"));
    }
}
