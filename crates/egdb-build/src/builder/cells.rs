//! The arrays a unit is built in: a byte per position (or per four), up to billions
//! of them, read and written at random. On the default 4 KiB pages nearly every such
//! access also misses the TLB, and in a virtual machine each miss walks two sets of
//! page tables; on 2 MiB pages the TLB covers gigabytes. So the arrays are allocated
//! untouched, marked as candidates for huge pages, and only then filled.

use std::sync::atomic::AtomicU8;

/// The huge-page size of x86_64 Linux.
const HUGE_PAGE: usize = 2 << 20;

/// `len` cells, all zero, on huge pages where the kernel gives them.
#[must_use]
pub fn zeroed(len: usize) -> Vec<AtomicU8> {
    let mut cells: Vec<AtomicU8> = Vec::with_capacity(len);
    if len >= HUGE_PAGE {
        advise_huge_pages(cells.as_ptr() as usize, len);
    }
    cells.resize_with(len, || AtomicU8::new(0));
    cells
}

/// Asks the kernel to back the whole huge pages within `len` bytes from `start`
/// with huge pages. Only advice: the arrays work the same, only slower, where it is
/// not taken.
#[cfg(target_os = "linux")]
#[allow(unsafe_code)]
fn advise_huge_pages(start: usize, len: usize) {
    let first = start.next_multiple_of(HUGE_PAGE);
    let end = (start + len) / HUGE_PAGE * HUGE_PAGE;
    if end <= first {
        return;
    }
    // SAFETY: madvise neither reads nor writes memory through the pointer, and with
    // MADV_HUGEPAGE it changes neither the contents nor the validity of the range: it
    // only marks the pages as candidates for huge pages. The range lies inside the
    // caller's live allocation (its capacity, rounded inwards to whole huge pages).
    // A failure (an old kernel, huge pages switched off) leaves the default pages,
    // so the result is ignored.
    unsafe {
        libc::madvise(first as *mut libc::c_void, end - first, libc::MADV_HUGEPAGE);
    }
}

#[cfg(not(target_os = "linux"))]
fn advise_huge_pages(_start: usize, _len: usize) {}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::Ordering::Relaxed;

    #[test]
    fn cells_start_at_zero_whatever_their_pages() {
        for len in [0, 5, HUGE_PAGE * 3 + 17] {
            let cells = zeroed(len);
            assert_eq!(cells.len(), len);
            assert!(cells.iter().step_by(4093).all(|c| c.load(Relaxed) == 0));
        }
    }
}
