//! The training-position file: what `kroon selfplay` writes and `kroon train` reads.
//!
//! A file is a sequence of 32-byte little-endian blocks. A run starts with a header
//! block, then one record block per kept position. Because every block has the same
//! size and a header can stand anywhere, files simply concatenate (`cat a b > c`):
//! the shards of a run spread over many machines join into one training set.
//!
//! Header (32 bytes):
//!
//! | bytes | field |
//! |---|---|
//! | 0-7 | magic `KROONPOS` |
//! | 8-9 | format version (1) |
//! | 10-11 | block size (32) |
//! | 12 | the endgame tables' piece count the games were ended by (0: none; see `kroon selfplay --tables`) |
//! | 13 | 1: the run's evaluation played another (`kroon selfplay --versus`); 0: itself |
//! | 14 | 1: positions where only the other side can capture kept too (`kroon selfplay --threats`); 0: neither side can |
//! | 15 | reserved (0) |
//! | 16-23 | the run's seed |
//! | 24-25, 26-27 | shard index and shard count |
//! | 28-31 | nodes per move |
//!
//! Record (32 bytes):
//!
//! | bytes | field |
//! |---|---|
//! | 0-7, 8-15, 16-23 | White's pieces, Black's pieces, the kings: bit n-1 for square n |
//! | 24 | bit 0: side to move (1 Black); bits 1-2: the game's result for the side to move (0 loss, 1 draw, 2 win) |
//! | 25 | ply of the game (255 for 255 and later) |
//! | 26-27 | the search's score, hundredths of a man for the side to move, within ±[`SCORE_LIMIT`] |
//! | 28-31 | the game's number in its run |
//!
//! A header's first word has bit 62 set (`S` of the magic), which no record's can:
//! records hold squares 1-50 only, so the two kinds never mix up.

use crate::board::{Bitboard, Position, Side, Square};
use crate::wdl::Wdl;
use std::io::Read;
use std::path::Path;

/// Size of every block, header or record.
pub const BLOCK: usize = 32;
const MAGIC: &[u8; 8] = b"KROONPOS";
const VERSION: u16 = 1;
/// Scores are stored within this bound; won or lost positions are stored at it.
pub const SCORE_LIMIT: i32 = 3000;

/// What identifies a self-play run: its games are numbered within it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RunHeader {
    pub seed: u64,
    pub shard: u16,
    pub shards: u16,
    pub nodes: u32,
    /// Games were ended as soon as they reached the endgame tables, of up to this
    /// many pieces (0: no tables): a run with tables is another run.
    pub tables: u8,
    /// The games were played against another evaluation (`kroon selfplay
    /// --versus`): a run against another player is another run.
    pub versus: bool,
    /// Positions where only the other side can capture were kept too (`kroon
    /// selfplay --threats`): the same games, other records, so another run.
    pub threats: bool,
}

/// One kept position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Record {
    pub position: Position,
    /// For the side to move.
    pub outcome: Wdl,
    pub ply: u8,
    /// For the side to move, in hundredths of a man.
    pub score: i16,
    pub game: u32,
}

/// One block of a file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Block {
    Header(RunHeader),
    Record(Record),
}

/// Square n as bit n-1, independent of the engine's internal layout.
fn plain_bits(board: Bitboard) -> u64 {
    board
        .squares()
        .fold(0, |bits, sq| bits | 1 << (sq.number() - 1))
}

fn from_plain_bits(bits: u64) -> Result<Bitboard, String> {
    if bits >> 50 != 0 {
        return Err("a square beyond 50".into());
    }
    Ok(Bitboard::from_squares(
        (1..=50u8)
            .filter(|n| bits & 1 << (n - 1) != 0)
            .filter_map(Square::new),
    ))
}

impl RunHeader {
    #[must_use]
    pub fn encode(&self) -> [u8; BLOCK] {
        let mut b = [0u8; BLOCK];
        b[..8].copy_from_slice(MAGIC);
        b[8..10].copy_from_slice(&VERSION.to_le_bytes());
        b[10..12].copy_from_slice(&(BLOCK as u16).to_le_bytes());
        b[12] = self.tables;
        b[13] = u8::from(self.versus);
        b[14] = u8::from(self.threats);
        b[16..24].copy_from_slice(&self.seed.to_le_bytes());
        b[24..26].copy_from_slice(&self.shard.to_le_bytes());
        b[26..28].copy_from_slice(&self.shards.to_le_bytes());
        b[28..32].copy_from_slice(&self.nodes.to_le_bytes());
        b
    }
}

impl Record {
    #[must_use]
    pub fn encode(&self) -> [u8; BLOCK] {
        let p = &self.position;
        let mut b = [0u8; BLOCK];
        b[..8].copy_from_slice(&plain_bits(p.pieces(Side::White)).to_le_bytes());
        b[8..16].copy_from_slice(&plain_bits(p.pieces(Side::Black)).to_le_bytes());
        let kings = p.kings(Side::White) | p.kings(Side::Black);
        b[16..24].copy_from_slice(&plain_bits(kings).to_le_bytes());
        b[24] = u8::from(p.side_to_move() == Side::Black) | wdl_byte(self.outcome) << 1;
        b[25] = self.ply;
        b[26..28].copy_from_slice(&self.score.to_le_bytes());
        b[28..32].copy_from_slice(&self.game.to_le_bytes());
        b
    }
}

fn word(b: &[u8], at: usize) -> u64 {
    u64::from_le_bytes(b[at..at + 8].try_into().expect("8 bytes"))
}

impl Block {
    #[must_use]
    pub fn encode(&self) -> [u8; BLOCK] {
        match self {
            Block::Header(h) => h.encode(),
            Block::Record(r) => r.encode(),
        }
    }

    /// Decodes one block; the error says what is wrong with it.
    pub fn decode(b: &[u8; BLOCK]) -> Result<Block, String> {
        if &b[..8] == MAGIC {
            let version = u16::from_le_bytes([b[8], b[9]]);
            let size = u16::from_le_bytes([b[10], b[11]]);
            if version != VERSION || usize::from(size) != BLOCK {
                return Err(format!(
                    "format version {version} with {size}-byte blocks (this Kroon reads version {VERSION}, {BLOCK}-byte blocks)"
                ));
            }
            return Ok(Block::Header(RunHeader {
                seed: word(b, 16),
                shard: u16::from_le_bytes([b[24], b[25]]),
                shards: u16::from_le_bytes([b[26], b[27]]),
                nodes: u32::from_le_bytes(b[28..32].try_into().expect("4 bytes")),
                tables: b[12],
                versus: flag(b[13], "versus")?,
                threats: flag(b[14], "threats")?,
            }));
        }
        let white = from_plain_bits(word(b, 0))?;
        let black = from_plain_bits(word(b, 8))?;
        let kings = from_plain_bits(word(b, 16))?;
        let side = if b[24] & 1 == 0 {
            Side::White
        } else {
            Side::Black
        };
        let outcome = match (b[24] >> 1) & 0x7f {
            0 => Wdl::Loss,
            1 => Wdl::Draw,
            2 => Wdl::Win,
            other => return Err(format!("result code {other}")),
        };
        let position = Position::new(white, black, kings, side).map_err(|e| e.to_string())?;
        let score = i16::from_le_bytes([b[26], b[27]]);
        if i32::from(score).abs() > SCORE_LIMIT {
            return Err(format!("score {score} out of range"));
        }
        Ok(Block::Record(Record {
            position,
            outcome,
            ply: b[25],
            score,
            game: u32::from_le_bytes(b[28..32].try_into().expect("4 bytes")),
        }))
    }
}

/// A header's flag byte: 0 or 1.
fn flag(byte: u8, name: &str) -> Result<bool, String> {
    match byte {
        0 => Ok(false),
        1 => Ok(true),
        other => Err(format!("a header's {name} flag {other} (0 or 1)")),
    }
}

/// A result's code in a record: 0 loss, 1 draw, 2 win (for the side to move).
const fn wdl_byte(outcome: Wdl) -> u8 {
    match outcome {
        Wdl::Loss => 0,
        Wdl::Draw => 1,
        Wdl::Win => 2,
    }
}

/// Reads every block of a file, calling `each` with it. A file that does not start
/// with a header, or holds a block that does not decode, is refused with a message
/// naming the file and the block. A partial block at the end (a run killed while
/// writing) is left out; `truncated` reports its size.
pub fn read_file(path: &Path, mut each: impl FnMut(&Block)) -> Result<ReadSummary, String> {
    let file = std::fs::File::open(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let mut reader = std::io::BufReader::with_capacity(1 << 20, file);
    let mut summary = ReadSummary::default();
    let mut buf = [0u8; BLOCK];
    loop {
        let got =
            read_up_to(&mut reader, &mut buf).map_err(|e| format!("{}: {e}", path.display()))?;
        if got < BLOCK {
            summary.truncated = got;
            return Ok(summary);
        }
        let block = Block::decode(&buf).map_err(|e| {
            format!(
                "{}: block {} (byte {}) is not a training position: {e}",
                path.display(),
                summary.blocks,
                summary.blocks * BLOCK as u64
            )
        })?;
        if summary.blocks == 0 && !matches!(block, Block::Header(_)) {
            return Err(format!(
                "{}: not a Kroon training file (no KROONPOS header)",
                path.display()
            ));
        }
        summary.blocks += 1;
        if matches!(block, Block::Record(_)) {
            summary.records += 1;
        }
        each(&block);
    }
}

/// What [`read_file`] found.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ReadSummary {
    pub blocks: u64,
    pub records: u64,
    /// Bytes of a partial last block, left out.
    pub truncated: usize,
}

fn read_up_to(reader: &mut impl Read, buf: &mut [u8]) -> std::io::Result<usize> {
    let mut got = 0;
    while got < buf.len() {
        match reader.read(&mut buf[got..])? {
            0 => break,
            n => got += n,
        }
    }
    Ok(got)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn blocks_round_trip() {
        let header = RunHeader {
            seed: 0x0123_4567_89ab_cdef,
            shard: 3,
            shards: 8,
            nodes: 4000,
            tables: 5,
            versus: false,
            threats: false,
        };
        assert_eq!(Block::decode(&header.encode()), Ok(Block::Header(header)));
        let versus = RunHeader {
            versus: true,
            ..header
        };
        assert_eq!(Block::decode(&versus.encode()), Ok(Block::Header(versus)));
        let threats = RunHeader {
            threats: true,
            ..header
        };
        assert_eq!(Block::decode(&threats.encode()), Ok(Block::Header(threats)));
        let position: Position = "B:WK3,31,40:B1,K45,20".parse().unwrap();
        let record = Record {
            position,
            outcome: Wdl::Win,
            ply: 77,
            score: -1234,
            game: 99_999,
        };
        assert_eq!(Block::decode(&record.encode()), Ok(Block::Record(record)));
    }

    #[test]
    fn bad_blocks_are_refused() {
        let mut b = RunHeader {
            seed: 1,
            shard: 0,
            shards: 1,
            nodes: 1,
            tables: 0,
            versus: false,
            threats: false,
        }
        .encode();
        let mut flag = b;
        flag[13] = 2;
        assert!(Block::decode(&flag).unwrap_err().contains("versus flag 2"));
        flag[13] = 0;
        flag[14] = 3;
        assert!(Block::decode(&flag).unwrap_err().contains("threats flag 3"));
        b[8] = 9;
        assert!(Block::decode(&b).unwrap_err().contains("version 9"));
        let mut r = Record {
            position: Position::initial(),
            outcome: Wdl::Draw,
            ply: 0,
            score: 0,
            game: 0,
        }
        .encode();
        r[24] = 7 << 1;
        assert!(Block::decode(&r).is_err());
        let mut overlap = r;
        overlap[24] = 0;
        let white: [u8; 8] = overlap[..8].try_into().unwrap();
        overlap[8..16].copy_from_slice(&white);
        assert!(Block::decode(&overlap).is_err());
    }
}
