//! The network's second layer in AVX2, chosen at run time where the processor has
//! it (every x86-64 made since 2013; the binary itself targets the baseline, whose
//! SSE2 vectors are half as wide). The second layer was the larger part of a
//! network node's cost, and the compiler did not widen the portable loop to 256
//! bits by itself. The sums are the portable ones, exactly: integer products and
//! sums in another order (tested below, and in debug builds at every evaluation of
//! the search, against the full refresh's portable score).
//!
//! A kernel over plain slices: it knows vectors, not the network.

use std::arch::x86_64::{
    __m256i, _mm256_add_epi32, _mm256_hadd_epi32, _mm256_loadu_si256, _mm256_madd_epi16,
    _mm256_permute2x128_si256, _mm256_setzero_si256, _mm256_storeu_si256,
};

/// `i16`s in a 256-bit vector.
const LANES: usize = 16;
/// Rows whose dot products one pass computes: eight running sums in registers.
const GROUP: usize = 8;

/// Whether this processor runs [`dot_rows`].
#[inline]
pub fn available() -> bool {
    std::arch::is_x86_feature_detected!("avx2")
}

/// Sets `out[r]` to the dot product of `activations` with row `r` of `weights`
/// (rows of `activations.len()`, one after another).
///
/// # Panics
/// Where the processor lacks AVX2 (ask [`available`] first), or where the sizes
/// disagree: `activations` whole vectors, `out` whole groups of eight rows.
#[inline]
pub fn dot_rows(activations: &[i16], weights: &[i16], out: &mut [i32]) {
    let h = activations.len();
    assert!(available(), "AVX2 kernels on a processor without AVX2");
    assert!(
        h.is_multiple_of(LANES)
            && out.len().is_multiple_of(GROUP)
            && weights.len() == out.len() * h
    );
    // SAFETY: a function compiled for a target feature may only run on a processor
    // that has it: checked just above.
    #[allow(unsafe_code)]
    unsafe {
        dot_rows_avx2(activations, weights, out);
    }
}

#[target_feature(enable = "avx2")]
fn dot_rows_avx2(activations: &[i16], weights: &[i16], out: &mut [i32]) {
    let h = activations.len();
    for (rows, out) in weights
        .chunks_exact(GROUP * h)
        .zip(out.chunks_exact_mut(GROUP))
    {
        let mut acc = [_mm256_setzero_si256(); GROUP];
        // Block by block of the activations, each loaded once for the eight rows
        // (row by row it was loaded eight times: a third of the kernel's
        // instructions). As iterators over whole vectors: indexing the weights by
        // block left bounds checks in the inner loop that cost as much as the
        // products.
        for (b, a) in activations.chunks_exact(LANES).enumerate() {
            let a = load(a);
            for (acc, row) in acc.iter_mut().zip(rows.chunks_exact(h)) {
                let w = &row[b * LANES..(b + 1) * LANES];
                *acc = _mm256_add_epi32(*acc, _mm256_madd_epi16(a, load(w)));
            }
        }
        store(sum_each(acc), out);
    }
}

/// The eight lanes of each of eight vectors summed: lane k holds vector k's sum.
#[target_feature(enable = "avx2")]
fn sum_each(v: [__m256i; GROUP]) -> __m256i {
    // Pairwise sums within each 128-bit half, twice, leave rows 0-3 (and 4-7) in
    // order in each half; the halves are then added.
    let s01 = _mm256_hadd_epi32(v[0], v[1]);
    let s23 = _mm256_hadd_epi32(v[2], v[3]);
    let s45 = _mm256_hadd_epi32(v[4], v[5]);
    let s67 = _mm256_hadd_epi32(v[6], v[7]);
    let low = _mm256_hadd_epi32(s01, s23);
    let high = _mm256_hadd_epi32(s45, s67);
    _mm256_add_epi32(
        _mm256_permute2x128_si256::<0x20>(low, high),
        _mm256_permute2x128_si256::<0x31>(low, high),
    )
}

#[target_feature(enable = "avx2")]
fn load(block: &[i16]) -> __m256i {
    let block: &[i16; LANES] = block.try_into().expect("a whole vector");
    // SAFETY: the reference is to 16 `i16`s, the 32 bytes read; the unaligned
    // load has no alignment requirement.
    #[allow(unsafe_code)]
    unsafe {
        _mm256_loadu_si256(block.as_ptr().cast())
    }
}

#[target_feature(enable = "avx2")]
fn store(v: __m256i, out: &mut [i32]) {
    let out: &mut [i32; GROUP] = out.try_into().expect("a whole group");
    // SAFETY: the reference is to 8 `i32`s, the 32 bytes written; the unaligned
    // store has no alignment requirement.
    #[allow(unsafe_code)]
    unsafe {
        _mm256_storeu_si256(out.as_mut_ptr().cast(), v);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_wide_dot_products_are_the_plain_ones() {
        if !available() {
            return;
        }
        let mut state = 7u64;
        let mut next = |range: i64| {
            state = state
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1);
            ((state >> 33) as i64 % (2 * range + 1) - range) as i16
        };
        for (h, rows) in [(16, 8), (128, 32), (512, 32)] {
            for _ in 0..50 {
                // Activations as the clipped layer gives them, weights of either sign.
                let a: Vec<i16> = (0..h).map(|_| next(127).abs()).collect();
                let w: Vec<i16> = (0..rows * h).map(|_| next(i64::from(i16::MAX))).collect();
                let mut out = vec![0; rows];
                dot_rows(&a, &w, &mut out);
                for (r, &got) in out.iter().enumerate() {
                    let want: i64 = (0..h)
                        .map(|i| i64::from(a[i]) * i64::from(w[r * h + i]))
                        .sum();
                    assert_eq!(i64::from(got), want, "row {r} of {rows}, {h} wide");
                }
            }
        }
    }
}
