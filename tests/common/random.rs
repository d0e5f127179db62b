//! A small seeded generator, so that a test that plays at random plays the same
//! every run (and a failure can be replayed).

/// Marsaglia's xorshift64: fast, deterministic, good enough to pick test inputs.
pub struct XorShift(pub u64);

impl XorShift {
    /// The next number (a zero seed would stay zero: give another).
    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    /// A number in `0..n`.
    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    /// One of `items`.
    pub fn pick<'a>(&mut self, items: &[&'a str]) -> &'a str {
        items[self.below(items.len())]
    }
}
