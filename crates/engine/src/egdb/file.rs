//! One slice's file: its values, two bits a position, in blocks compressed one by
//! one so that a probe decompresses only the block it needs.
//!
//! Format (version 1, all numbers little-endian):
//!
//! | bytes | what |
//! |---|---|
//! | 8 | magic `KROONWDL` |
//! | 4 | format version (1) |
//! | 4 | the material: white men, white kings, black men, black kings (White to move) |
//! | 8 | indices in the slice ([`Material::size`]) |
//! | 4 | positions per block (a multiple of 4) |
//! | 4 | blocks |
//! | 8 x (blocks + 1) | where each block starts in the data, the last entry its end |
//! | ... | the blocks, each LZ4-compressed (block format, no frame) |
//! | 8 | FNV-1a 64 checksum of every byte before it |
//!
//! A block holds 4 values a byte, lowest bits first: 0 draw, 1 win, 2 loss, for the
//! side to move. Where a value is never read (an index that names no position, or a
//! position with a capture pending, which a probe resolves by playing the captures)
//! the builder repeats the value before it, which compresses to almost nothing.

use super::index::Material;
use crate::checksum::fnv1a;
use kroon_rules::wdl::Wdl;
use std::fs::File;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::OnceLock;

const MAGIC: &[u8; 8] = b"KROONWDL";
const VERSION: u32 = 1;
const HEADER: usize = 32;
/// Positions per block: 4 KiB unpacked, decompressed in a few microseconds.
pub const BLOCK_POSITIONS: u64 = 16384;

/// A value's two bits.
#[must_use]
pub const fn encode(v: Wdl) -> u8 {
    match v {
        Wdl::Draw => 0,
        Wdl::Win => 1,
        Wdl::Loss => 2,
    }
}

/// The value of two bits [`encode`] made.
#[must_use]
pub const fn decode(bits: u8) -> Wdl {
    match bits {
        1 => Wdl::Win,
        2 => Wdl::Loss,
        _ => Wdl::Draw,
    }
}

/// Packs one block's values (two bits each) and compresses them.
#[must_use]
pub fn compress_block(values: &[u8]) -> Vec<u8> {
    let mut packed = vec![0u8; values.len().div_ceil(4)];
    for (i, &v) in values.iter().enumerate() {
        packed[i / 4] |= v << (2 * (i % 4));
    }
    lz4_flex::block::compress(&packed)
}

/// Writes a slice from its compressed blocks: to a temporary name first, renamed
/// when complete, so that an interrupted write leaves no file that looks finished.
pub fn write(dir: &Path, material: Material, blocks: &[Vec<u8>]) -> Result<PathBuf, String> {
    let mut bytes = Vec::with_capacity(blocks.iter().map(Vec::len).sum::<usize>() + 1024);
    bytes.extend_from_slice(MAGIC);
    bytes.extend_from_slice(&VERSION.to_le_bytes());
    bytes.extend_from_slice(&[
        material.white_men,
        material.white_kings,
        material.black_men,
        material.black_kings,
    ]);
    bytes.extend_from_slice(&material.size().to_le_bytes());
    bytes.extend_from_slice(&(BLOCK_POSITIONS as u32).to_le_bytes());
    bytes.extend_from_slice(&(blocks.len() as u32).to_le_bytes());
    let mut offset = 0u64;
    bytes.extend_from_slice(&offset.to_le_bytes());
    for block in blocks {
        offset += block.len() as u64;
        bytes.extend_from_slice(&offset.to_le_bytes());
    }
    for block in blocks {
        bytes.extend_from_slice(block);
    }
    let sum = fnv1a(&bytes);
    bytes.extend_from_slice(&sum.to_le_bytes());
    let path = dir.join(material.file_name());
    let temporary = dir.join(format!("{}.part", material.file_name()));
    std::fs::write(&temporary, &bytes)
        .and_then(|()| std::fs::rename(&temporary, &path))
        .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    Ok(path)
}

/// Bytes of one decompressed block.
const UNPACKED_BLOCK: usize = BLOCK_POSITIONS as usize / 4;

/// How many decompressed blocks every table of the process keeps, counted in bytes.
/// Blocks are kept until their slice is dropped or told to forget them; past the
/// limit a probe decompresses its block for itself alone.
struct BlockCache {
    used: AtomicUsize,
    limit: AtomicUsize,
}

impl BlockCache {
    /// Room for one more block, taken if there is.
    fn reserve(&self) -> bool {
        let limit = self.limit.load(Ordering::Relaxed);
        let room = self.used.fetch_add(UNPACKED_BLOCK, Ordering::Relaxed) + UNPACKED_BLOCK <= limit;
        if !room {
            self.release(1);
        }
        room
    }

    /// Gives back the room of `blocks` blocks.
    fn release(&self, blocks: usize) {
        self.used
            .fetch_sub(blocks * UNPACKED_BLOCK, Ordering::Relaxed);
    }
}

/// The block budget of a process that plays: all of the 2-5 piece tables (400 MB
/// unpacked) and the parts of the 6-piece ones a session reaches.
pub const PLAY_BLOCK_BUDGET: usize = 1 << 30;

static BLOCK_CACHE: BlockCache = BlockCache {
    used: AtomicUsize::new(0),
    limit: AtomicUsize::new(PLAY_BLOCK_BUDGET),
};

/// Bytes of all of a slice's blocks decompressed.
#[must_use]
pub fn unpacked_bytes(m: Material) -> usize {
    m.size().div_ceil(BLOCK_POSITIONS) as usize * UNPACKED_BLOCK
}

/// Sets how many bytes of decompressed blocks the process keeps. The builder probes
/// the slices a unit reaches billions of times: it makes room for them whole (with
/// the budget of play, a 6-piece build filled it with the blocks of earlier units, and
/// from then on decompressed a block of 4 KiB for each probe of a slice not yet in).
pub fn set_block_budget(bytes: usize) {
    BLOCK_CACHE.limit.store(bytes, Ordering::Relaxed);
}

/// Reads the header and block table at the start of a file of `len` bytes:
/// the material and where each block starts.
fn parse_header(bytes: &[u8], len: usize) -> Result<(Material, Vec<u64>), String> {
    if len < HEADER + 16 || bytes.len() < HEADER || &bytes[..8] != MAGIC {
        return Err("no endgame table (wrong magic tag or too short)".into());
    }
    let u32_at = |at: usize| u32::from_le_bytes(bytes[at..at + 4].try_into().unwrap());
    let u64_at = |at: usize| u64::from_le_bytes(bytes[at..at + 8].try_into().unwrap());
    let version = u32_at(8);
    if version != VERSION {
        return Err(format!(
            "format version {version}, this Kroon reads {VERSION}"
        ));
    }
    let material = Material {
        white_men: bytes[12],
        white_kings: bytes[13],
        black_men: bytes[14],
        black_kings: bytes[15],
    };
    let both_sides = material.white_men + material.white_kings > 0
        && material.black_men + material.black_kings > 0;
    if material.pieces() > super::index::MAX_PIECES || !both_sides {
        return Err(format!("material {material} is no slice"));
    }
    let size = u64_at(16);
    let per_block = u64::from(u32_at(24));
    let count = u32_at(28) as usize;
    if size != material.size()
        || per_block != BLOCK_POSITIONS
        || count as u64 != size.div_ceil(per_block)
    {
        return Err("sizes do not match the material".into());
    }
    let body = len - 8;
    let table_end = HEADER + 8 * (count + 1);
    if table_end > body || table_end > bytes.len() {
        return Err("block table cut short".into());
    }
    let offsets: Vec<u64> = (0..=count).map(|i| u64_at(HEADER + 8 * i)).collect();
    if offsets.windows(2).any(|w| w[0] > w[1]) || offsets[count] != (body - table_end) as u64 {
        return Err("block table does not match the data (damaged or cut short)".into());
    }
    Ok((material, offsets))
}

/// A slice read from its file: the compressed blocks, each decompressed on first
/// use and kept.
pub struct SliceFile {
    pub material: Material,
    offsets: Vec<u64>,
    data: Vec<u8>,
    blocks: Vec<OnceLock<Box<[u8]>>>,
}

impl SliceFile {
    /// Reads and checks a slice's file; anything wrong is an error naming it.
    pub fn read(path: &Path) -> Result<SliceFile, String> {
        let bytes =
            std::fs::read(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
        SliceFile::parse(bytes)
            .map_err(|e| format!("{} is not a usable table: {e}", path.display()))
    }

    /// Checks a slice's header and block table without reading the rest: the
    /// material it holds and the file's length. What this cannot see (a changed
    /// byte in the blocks) [`SliceFile::read`] finds by the checksum.
    pub fn peek(path: &Path) -> Result<Material, String> {
        let fail = |e: String| format!("{} is not a usable table: {e}", path.display());
        let mut file =
            File::open(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
        let len = file
            .metadata()
            .map_err(|e| format!("cannot read {}: {e}", path.display()))?
            .len();
        let mut prefix = vec![0u8; HEADER.min(len as usize)];
        file.read_exact(&mut prefix)
            .map_err(|e| fail(e.to_string()))?;
        if prefix.len() == HEADER {
            let count = u32::from_le_bytes(prefix[28..32].try_into().unwrap()) as u64;
            let table = (8 * (count + 1)).min(len.saturating_sub(HEADER as u64));
            prefix.resize(HEADER + table as usize, 0);
            file.read_exact(&mut prefix[HEADER..])
                .map_err(|e| fail(e.to_string()))?;
        }
        parse_header(&prefix, len as usize)
            .map(|(material, _)| material)
            .map_err(fail)
    }

    fn parse(mut bytes: Vec<u8>) -> Result<SliceFile, String> {
        // The checksum first: whatever byte is damaged, the message says so.
        if bytes.len() >= HEADER + 16 && &bytes[..8] == MAGIC {
            let body = bytes.len() - 8;
            let stored = u64::from_le_bytes(bytes[body..].try_into().unwrap());
            if fnv1a(&bytes[..body]) != stored {
                return Err("checksum mismatch (damaged or cut short)".into());
            }
        }
        let (material, offsets) = parse_header(&bytes, bytes.len())?;
        let body = bytes.len() - 8;
        let count = offsets.len() - 1;
        bytes.truncate(body);
        bytes.drain(..HEADER + 8 * (count + 1));
        Ok(SliceFile {
            material,
            offsets,
            data: bytes,
            blocks: (0..count).map(|_| OnceLock::new()).collect(),
        })
    }

    /// The stored value at an index (a don't-care index gives some value).
    #[must_use]
    pub fn get(&self, index: u64) -> Wdl {
        self.get_within(index, &BLOCK_CACHE)
    }

    /// [`SliceFile::get`], keeping decompressed blocks while `cache` has room; past
    /// it a block is decompressed for the one probe and dropped, so a long session
    /// with large tables stays within a known amount of memory.
    fn get_within(&self, index: u64, cache: &BlockCache) -> Wdl {
        let block = (index / BLOCK_POSITIONS) as usize;
        let within = (index % BLOCK_POSITIONS) as usize;
        let read = |packed: &[u8]| {
            decode((packed.get(within / 4).copied().unwrap_or(0) >> (2 * (within % 4))) & 3)
        };
        if let Some(packed) = self.blocks[block].get() {
            return read(packed);
        }
        if cache.reserve() {
            let mut made = false;
            let packed = self.blocks[block].get_or_init(|| {
                made = true;
                self.decompress(block)
            });
            if !made {
                // Another thread decompressed this block first and counted it.
                cache.release(1);
            }
            read(packed)
        } else {
            read(&self.decompress(block))
        }
    }

    fn decompress(&self, block: usize) -> Box<[u8]> {
        let bytes = &self.data[self.offsets[block] as usize..self.offsets[block + 1] as usize];
        // The checksum vouched for the bytes; a block that still fails to
        // decompress reads as draws rather than bringing the engine down.
        lz4_flex::block::decompress(bytes, UNPACKED_BLOCK)
            .unwrap_or_else(|e| {
                log::error!("endgame table {} block {block}: {e}", self.material);
                vec![0; UNPACKED_BLOCK]
            })
            .into_boxed_slice()
    }

    /// All of the slice's values, four a byte as in a block, its blocks
    /// decompressed one after another (none kept): for the builder, which looks
    /// up the slices its unit reaches billions of times.
    #[must_use]
    pub fn unpack(&self) -> Vec<u8> {
        let mut packed = Vec::with_capacity(self.material.size().div_ceil(4) as usize);
        for block in 0..self.blocks.len() {
            packed.extend_from_slice(&self.decompress(block));
        }
        packed
    }

    /// Drops the decompressed blocks kept, giving their room back to the budget.
    pub fn forget_blocks(&mut self) {
        self.forget_blocks_within(&BLOCK_CACHE);
    }

    fn forget_blocks_within(&mut self, cache: &BlockCache) {
        let kept = self.blocks.iter_mut().filter_map(OnceLock::take).count();
        cache.release(kept);
    }

    /// Bytes the file takes on disk, about.
    #[must_use]
    pub fn compressed_bytes(&self) -> usize {
        self.data.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn material() -> Material {
        Material {
            white_men: 0,
            white_kings: 1,
            black_men: 0,
            black_kings: 1,
        }
    }

    #[test]
    fn a_written_slice_reads_back() {
        let dir = std::env::temp_dir().join(format!("kroon-egdb-file-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let m = material();
        let values: Vec<u8> = (0..m.size()).map(|i| (i % 3) as u8).collect();
        let blocks: Vec<Vec<u8>> = values
            .chunks(BLOCK_POSITIONS as usize)
            .map(compress_block)
            .collect();
        let path = write(&dir, m, &blocks).unwrap();
        assert_eq!(SliceFile::peek(&path).unwrap(), m);
        let file = SliceFile::read(&path).unwrap();
        for (i, &v) in values.iter().enumerate() {
            assert_eq!(encode(file.get(i as u64)), v);
        }
        // With no room to keep blocks, each probe decompresses its block alone.
        let uncached = SliceFile::read(&path).unwrap();
        let full = BlockCache {
            used: AtomicUsize::new(0),
            limit: AtomicUsize::new(0),
        };
        for (i, &v) in values.iter().enumerate() {
            assert_eq!(encode(uncached.get_within(i as u64, &full)), v);
        }
        assert_eq!(full.used.load(Ordering::Relaxed), 0);
        assert!(uncached.blocks.iter().all(|b| b.get().is_none()));
        // With room, blocks are kept and counted until forgotten.
        let mut kept = SliceFile::read(&path).unwrap();
        let roomy = BlockCache {
            used: AtomicUsize::new(0),
            limit: AtomicUsize::new(usize::MAX / 2),
        };
        for (i, &v) in values.iter().enumerate() {
            assert_eq!(encode(kept.get_within(i as u64, &roomy)), v);
        }
        assert_eq!(roomy.used.load(Ordering::Relaxed), unpacked_bytes(m));
        kept.forget_blocks_within(&roomy);
        assert_eq!(roomy.used.load(Ordering::Relaxed), 0);
        assert!(kept.blocks.iter().all(|b| b.get().is_none()));
        assert_eq!(encode(kept.get_within(5, &roomy)), values[5]);
        // One byte changed, or the file cut short: refused, naming the file.
        let mut bytes = std::fs::read(&path).unwrap();
        let mid = bytes.len() / 2;
        bytes[mid] ^= 1;
        std::fs::write(&path, &bytes).unwrap();
        let err = SliceFile::read(&path).err().unwrap();
        assert!(
            err.contains("wdl-0101.egdb") && err.contains("checksum"),
            "{err}"
        );
        std::fs::write(&path, &bytes[..mid]).unwrap();
        assert!(SliceFile::read(&path).is_err());
        assert!(SliceFile::peek(&path).is_err());
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
