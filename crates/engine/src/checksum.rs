//! The one checksum of Kroon's knowledge files (weights, book, endgame tables,
//! the table builder's checkpoints): FNV-1a, 64 bits. Simple, and enough to catch a
//! damaged or cut file; nothing here guards against tampering.

const OFFSET_BASIS: u64 = 0xcbf2_9ce4_8422_2325;
const PRIME: u64 = 0x0100_0000_01b3;

/// The FNV-1a 64-bit hash of `bytes`.
#[must_use]
pub fn fnv1a(bytes: &[u8]) -> u64 {
    fnv1a_on(OFFSET_BASIS, bytes)
}

/// [`fnv1a`] continued from `hash`, the hash of the bytes before: for data too
/// large to hold at once.
#[must_use]
pub fn fnv1a_on(hash: u64, bytes: &[u8]) -> u64 {
    bytes
        .iter()
        .fold(hash, |h, &b| (h ^ u64::from(b)).wrapping_mul(PRIME))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_published_test_vectors_and_continuation() {
        // From the FNV reference: "" and "a".
        assert_eq!(fnv1a(b""), 0xcbf2_9ce4_8422_2325);
        assert_eq!(fnv1a(b"a"), 0xaf63_dc4c_8601_ec8c);
        assert_eq!(fnv1a_on(fnv1a(b"kro"), b"on"), fnv1a(b"kroon"));
    }
}
