//! The network's second layer in AVX2, chosen at run time where the processor has
//! it (every x86-64 made since 2013; the binary itself targets the baseline, whose
//! SSE2 vectors are half as wide). The second layer was the larger part of a
//! network node's cost, and the compiler did not widen the portable loop to 256
//! bits by itself. The sums are the portable ones, exactly: integer products and
//! sums in a different order (tested against it below and, in debug builds, at
//! every evaluation of the search).

use super::{lanes, Network, LANES, MAX_HIDDEN, SECOND};
use std::arch::x86_64::{
    __m256i, _mm256_add_epi32, _mm256_hadd_epi32, _mm256_loadu_si256, _mm256_madd_epi16,
    _mm256_max_epi16, _mm256_min_epi16, _mm256_permute2x128_si256, _mm256_set1_epi16,
    _mm256_setzero_si256, _mm256_storeu_si256,
};

/// Units whose dot products one pass computes: eight running sums in registers.
const GROUP: usize = 8;

/// [`Network::second_layer`]'s units, with 256-bit vectors.
pub(super) fn second_layer(net: &Network, sums: &[i16]) -> [i32; SECOND] {
    // SAFETY: a function compiled for a target feature may only run on a
    // processor that has it, and the only caller checked for AVX2.
    #[allow(unsafe_code)]
    let dots = unsafe { dots(net, sums) };
    std::array::from_fn(|o| net.unit(o, dots[o]))
}

/// The dot products of the clipped first layer with each unit's weights.
#[target_feature(enable = "avx2")]
fn dots(net: &Network, sums: &[i16]) -> [i32; SECOND] {
    let h = net.hidden;
    let blocks = h / LANES;
    let (zero, top) = (
        _mm256_setzero_si256(),
        _mm256_set1_epi16(super::ACTIVATION as i16),
    );
    let mut clipped = [zero; MAX_HIDDEN / LANES];
    for (c, s) in clipped.iter_mut().zip(sums.chunks_exact(LANES)) {
        *c = _mm256_min_epi16(_mm256_max_epi16(load(lanes(s)), zero), top);
    }
    let mut dots = [0i32; SECOND];
    for (group, out) in dots.chunks_exact_mut(GROUP).enumerate() {
        let weights = &net.dense[group * GROUP * h..(group + 1) * GROUP * h];
        let mut acc = [zero; GROUP];
        // Unit by unit, as iterators over whole blocks: indexing the weights by
        // block left bounds checks in the inner loop that cost as much as the
        // products.
        for (acc, row) in acc.iter_mut().zip(weights.chunks_exact(h)) {
            for (&a, w) in clipped[..blocks].iter().zip(row.chunks_exact(LANES)) {
                *acc = _mm256_add_epi32(*acc, _mm256_madd_epi16(a, load(lanes(w))));
            }
        }
        store(sum_each(acc), out.try_into().expect("a group"));
    }
    dots
}

/// The eight lanes of each of eight vectors summed: lane k holds vector k's sum.
#[target_feature(enable = "avx2")]
fn sum_each(v: [__m256i; GROUP]) -> __m256i {
    // Pairwise sums within each 128-bit half, twice, leave units 0-3 (and 4-7)
    // in order in each half; the halves are then added.
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
fn load(block: &[i16; LANES]) -> __m256i {
    // SAFETY: the reference is to 16 `i16`s, the 32 bytes read; the unaligned
    // load has no alignment requirement.
    #[allow(unsafe_code)]
    unsafe {
        _mm256_loadu_si256(block.as_ptr().cast())
    }
}

#[target_feature(enable = "avx2")]
fn store(v: __m256i, out: &mut [i32; GROUP]) {
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
    use crate::eval::network::testing::busy_network;

    #[test]
    fn the_wide_second_layer_is_the_portable_one() {
        if !std::arch::is_x86_feature_detected!("avx2") {
            return;
        }
        for hidden in [16, 128, MAX_HIDDEN] {
            let net = busy_network(hidden as u64, hidden);
            let mut state = 7u64;
            for _ in 0..200 {
                // Sums over the whole i16 range: the clipping is tested as well.
                let sums: Vec<i16> = (0..hidden)
                    .map(|_| {
                        state = state
                            .wrapping_mul(6_364_136_223_846_793_005)
                            .wrapping_add(1);
                        (state >> 48) as i16 / 64
                    })
                    .collect();
                assert_eq!(second_layer(&net, &sums), net.second_layer(&sums));
            }
        }
    }
}
