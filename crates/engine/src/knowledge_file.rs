//! The frame Kroon's learned files share (pattern weights, networks, the opening
//! book): an 8-byte tag, a little-endian format version after it, the body, and the
//! [`fnv1a`] checksum of everything before it in the last 8 bytes. Each format lays
//! out its own header words and body; the frame is what a reader checks first, so
//! every file is refused the same way: not ours, another version, or damaged.

use crate::checksum::fnv1a;
use std::path::Path;

/// One format's frame.
pub struct Frame {
    /// The first 8 bytes of every file of the format.
    pub tag: &'static [u8; 8],
    /// The version this Kroon writes (and reads).
    pub version: u32,
    /// The oldest version this Kroon still reads (`version` when only that one).
    pub oldest: u32,
    /// What the file is, for messages ("weights", "network", "book").
    pub what: &'static str,
}

impl Frame {
    /// A file's first bytes: the tag and the version.
    #[must_use]
    pub fn start(&self, capacity: usize) -> Vec<u8> {
        self.start_version(self.version, capacity)
    }

    /// [`Frame::start`] of an older version (one of `oldest..=version`), for a
    /// file that needs nothing newer, so that older Kroons read it too.
    #[must_use]
    pub fn start_version(&self, version: u32, capacity: usize) -> Vec<u8> {
        debug_assert!((self.oldest..=self.version).contains(&version));
        let mut out = Vec::with_capacity(capacity);
        out.extend_from_slice(self.tag);
        out.extend_from_slice(&version.to_le_bytes());
        out
    }

    /// Ends a file: appends the checksum of what is there.
    pub fn seal(out: &mut Vec<u8>) {
        let sum = fnv1a(out);
        out.extend_from_slice(&sum.to_le_bytes());
    }

    /// Checks the tag and the version of a file at least `header` bytes long (its
    /// own header words and the checksum included); returns the version, one of
    /// `oldest..=version`.
    pub fn open(&self, bytes: &[u8], header: usize) -> Result<u32, String> {
        if bytes.len() < header.max(12) || &bytes[..8] != self.tag {
            return Err(format!(
                "not a Kroon {} file (no {} header)",
                self.what,
                String::from_utf8_lossy(self.tag)
            ));
        }
        let version = u32_at(bytes, 8);
        if !(self.oldest..=self.version).contains(&version) {
            let reads = if self.oldest == self.version {
                format!("version {}", self.version)
            } else {
                format!("versions {} to {}", self.oldest, self.version)
            };
            return Err(format!(
                "{} format version {version}; this Kroon reads {reads}",
                self.what
            ));
        }
        Ok(version)
    }

    /// The bytes before the checksum, once it matches (the length already checked).
    pub fn unseal<'a>(&self, bytes: &'a [u8]) -> Result<&'a [u8], String> {
        let (body, sum) = bytes.split_at(bytes.len().saturating_sub(8));
        if sum.len() != 8 || fnv1a(body) != u64_at(sum, 0) {
            return Err(format!(
                "checksum mismatch: the {} file is corrupt",
                self.what
            ));
        }
        Ok(body)
    }
}

/// Reads a file and decodes it; the error names the file.
pub fn read<T>(path: &Path, decode: impl FnOnce(&[u8]) -> Result<T, String>) -> Result<T, String> {
    let bytes = std::fs::read(path).map_err(|e| format!("{}: {e}", path.display()))?;
    decode(&bytes).map_err(|e| format!("{}: {e}", path.display()))
}

/// Writes a file through a temporary one beside it, so that a reader (an engine
/// starting while a trainer saves) never sees half of one.
pub fn write(path: &Path, bytes: &[u8]) -> Result<(), String> {
    let tmp = path.with_extension("tmp");
    std::fs::write(&tmp, bytes)
        .and_then(|()| std::fs::rename(&tmp, path))
        .map_err(|e| format!("{}: {e}", path.display()))
}

/// The little-endian `u16` at `at`.
#[must_use]
pub fn u16_at(b: &[u8], at: usize) -> u16 {
    u16::from_le_bytes([b[at], b[at + 1]])
}

/// The little-endian `u32` at `at`.
#[must_use]
pub fn u32_at(b: &[u8], at: usize) -> u32 {
    u32::from_le_bytes(b[at..at + 4].try_into().expect("4 bytes"))
}

/// The little-endian `u64` at `at`.
#[must_use]
pub fn u64_at(b: &[u8], at: usize) -> u64 {
    u64::from_le_bytes(b[at..at + 8].try_into().expect("8 bytes"))
}

#[cfg(test)]
mod tests {
    use super::*;

    const FRAME: Frame = Frame {
        tag: b"KROONTST",
        version: 3,
        oldest: 3,
        what: "test",
    };

    #[test]
    fn a_sealed_file_opens_and_each_kind_of_damage_is_named() {
        let mut file = FRAME.start(32);
        file.extend_from_slice(b"body");
        Frame::seal(&mut file);
        assert_eq!(FRAME.open(&file, 24), Ok(3));
        assert_eq!(&FRAME.unseal(&file).unwrap()[12..], b"body");

        let mut other = file.clone();
        other[0] = b'X';
        assert!(FRAME
            .open(&other, 24)
            .unwrap_err()
            .contains("no KROONTST header"));
        assert!(FRAME
            .open(&file[..10], 0)
            .unwrap_err()
            .contains("not a Kroon test file"));
        let mut newer = file.clone();
        newer[8] = 4;
        let err = FRAME.open(&newer, 24).unwrap_err();
        assert!(
            err.contains("version 4") && err.contains("reads version 3"),
            "{err}"
        );
        // A format that still reads its older versions takes those, not others.
        let reader = Frame { oldest: 2, ..FRAME };
        let mut older = file.clone();
        older[8] = 2;
        assert_eq!(reader.open(&older, 24), Ok(2));
        older[8] = 1;
        let err = reader.open(&older, 24).unwrap_err();
        assert!(err.contains("reads versions 2 to 3"), "{err}");
        let mut damaged = file.clone();
        damaged[13] ^= 1;
        assert!(FRAME
            .unseal(&damaged)
            .unwrap_err()
            .contains("test file is corrupt"));
        assert!(FRAME.unseal(&file[..5]).is_err());
    }
}
