//! Whether the index may gather and scatter bits with BMI2's `pext` and `pdep`:
//! one instruction each for what takes a loop (a layout change, a numbering among
//! the free squares), and the table builder does little else between its reads.
//! Compiled in only where the build targets BMI2 (see `.cargo/config.toml`), and
//! used only where the processor runs them in hardware: AMD's Zen 1 and 2 (family
//! 17h, and Hygon's 18h) run them in microcode, tens to hundreds of cycles each,
//! where the loops are faster.

use std::sync::atomic::{AtomicU8, Ordering::Relaxed};

const UNKNOWN: u8 = 0;
const SLOW: u8 = 1;
const FAST: u8 = 2;

static SPEED: AtomicU8 = AtomicU8::new(UNKNOWN);

/// Whether `pext` and `pdep` are fast here (asked of the processor once).
#[inline]
pub fn fast() -> bool {
    match SPEED.load(Relaxed) {
        FAST => true,
        SLOW => false,
        _ => detect(),
    }
}

/// The bits of `bits` under `mask`, packed down (`pext`).
#[inline]
#[allow(unsafe_code)]
pub fn gather(bits: u64, mask: u64) -> u64 {
    // SAFETY: this is compiled only when the build targets BMI2 (built for a
    // processor that has it, `.cargo/config.toml`), and then the compiler may use
    // BMI2 instructions anywhere in the program: the binary already requires a
    // processor that has them. The instruction reads and writes registers only.
    unsafe { std::arch::x86_64::_pext_u64(bits, mask) }
}

/// The low bits of `bits` spread onto the bits of `mask` (`pdep`).
#[inline]
#[allow(unsafe_code)]
pub fn scatter(bits: u64, mask: u64) -> u64 {
    // SAFETY: as for `gather`.
    unsafe { std::arch::x86_64::_pdep_u64(bits, mask) }
}

#[cold]
fn detect() -> bool {
    let fast = !microcoded();
    SPEED.store(if fast { FAST } else { SLOW }, Relaxed);
    fast
}

/// AMD (or Hygon) families 17h and 18h.
fn microcoded() -> bool {
    use std::arch::x86_64::__cpuid;
    let vendor = __cpuid(0);
    let amd = (vendor.ebx, vendor.edx, vendor.ecx) == (0x6874_7541, 0x6974_6E65, 0x444D_4163);
    let hygon = (vendor.ebx, vendor.edx, vendor.ecx) == (0x6F67_7948, 0x6E65_476E, 0x656E_6975);
    let eax = __cpuid(1).eax;
    let base = (eax >> 8) & 0xF;
    let family = if base == 0xF {
        base + ((eax >> 20) & 0xFF)
    } else {
        base
    };
    (amd || hygon) && (family == 0x17 || family == 0x18)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_answer_is_asked_once_and_kept() {
        let first = fast();
        assert_eq!(SPEED.load(Relaxed), if first { FAST } else { SLOW });
        assert_eq!(fast(), first);
    }
}
