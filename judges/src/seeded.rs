//! Seeded randomness whose sequence is fixed by this file, not by a dependency's version:
//! ChaCha8 (a portable, specified stream) plus our own index and shuffle on top of it, so a
//! review sample or bootstrap interval made with seed S today is the same next year.

use rand_chacha::ChaCha8Rng;
use rand_chacha::rand_core::{RngCore, SeedableRng};

pub(crate) struct Seeded(ChaCha8Rng);

impl Seeded {
    pub(crate) fn new(seed: u64) -> Seeded {
        Seeded(ChaCha8Rng::seed_from_u64(seed))
    }

    /// An index in `0..n` (multiply-shift; bias below 2⁻³² for the sizes used here).
    pub(crate) fn index(&mut self, n: usize) -> usize {
        ((u128::from(self.0.next_u64()) * n as u128) >> 64) as usize
    }

    /// Fisher–Yates.
    pub(crate) fn shuffle<T>(&mut self, items: &mut [T]) {
        for i in (1..items.len()).rev() {
            let j = self.index(i + 1);
            items.swap(i, j);
        }
    }
}
