//! Zobrist keys, made at compile time by a fixed pseudo-random sequence so that a
//! position's key is the same in every build and every run.

/// A position's hash key.
pub type Key = u64;

const fn splitmix(state: u64) -> (u64, u64) {
    let state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    (state, z ^ (z >> 31))
}

const fn table(seed: u64) -> [u64; 64] {
    let mut keys = [0u64; 64];
    let mut state = seed;
    let mut i = 0;
    while i < 64 {
        let (next, value) = splitmix(state);
        state = next;
        keys[i] = value;
        i += 1;
    }
    keys
}

/// Keys by piece kind (white man, black man, white king, black king) and bit.
pub const PIECE: [[u64; 64]; 4] = [
    table(0x4B52_4F4F_4E00_0001),
    table(0x4B52_4F4F_4E00_0002),
    table(0x4B52_4F4F_4E00_0003),
    table(0x4B52_4F4F_4E00_0004),
];

/// Xored in when Black is to move.
pub const BLACK_TO_MOVE: u64 = splitmix(0x4B52_4F4F_4E00_0005).1;
