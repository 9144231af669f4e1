//! Byte-pair merging of one pre-tokenized word, exactly as tiktoken does it (its
//! `_byte_pair_merge` for words under 100 bytes, `_byte_pair_merge_large` with a heap for
//! longer ones), so the tokens come out the same. The lowest-ranked adjacent pair whose
//! concatenation is a token is merged first; among equal ranks, the leftmost.
//!
//! The results are token boundaries (`[start, end)` byte ranges, in order), handed to a
//! callback so that counting never builds a vector of tokens.

use crate::vocab::rank;
use std::collections::BinaryHeap;

/// No merge: the pair is not a token.
const NONE: u32 = u32::MAX;

/// Words shorter than this use the quadratic merge, as tiktoken does.
const LARGE: usize = 100;

fn pair_rank(word: &[u8], start: usize, end: usize) -> u32 {
    word.get(start..end).and_then(rank).unwrap_or(NONE)
}

/// Calls `token(start, end)` for each token of `word` (at least 2 bytes long), in order.
pub fn merge(word: &[u8], token: impl FnMut(usize, usize)) {
    if word.len() < LARGE {
        merge_small(word, token)
    } else {
        merge_large(word, token)
    }
}

/// tiktoken's `_byte_pair_merge`: a vector of (start, rank of the pair starting there).
fn merge_small(word: &[u8], mut token: impl FnMut(usize, usize)) {
    let mut parts: Vec<(usize, u32)> = Vec::with_capacity(word.len() + 1);
    let mut min = (NONE, usize::MAX);
    for i in 0..word.len() - 1 {
        let r = pair_rank(word, i, i + 2);
        if r < min.0 {
            min = (r, i);
        }
        parts.push((i, r));
    }
    parts.push((word.len() - 1, NONE));
    parts.push((word.len(), NONE));
    // The rank of merging parts i and i+1 once part i+1 has absorbed part i+2 (which is
    // still in the vector, hence i+3).
    let rank_after = |parts: &[(usize, u32)], i: usize| {
        if i + 3 < parts.len() {
            pair_rank(word, parts[i].0, parts[i + 3].0)
        } else {
            NONE
        }
    };
    while min.0 != NONE {
        let i = min.1;
        if i > 0 {
            parts[i - 1].1 = rank_after(&parts, i - 1);
        }
        parts[i].1 = rank_after(&parts, i);
        parts.remove(i + 1);
        min = (NONE, usize::MAX);
        for (j, &(_, r)) in parts[..parts.len() - 1].iter().enumerate() {
            if r < min.0 {
                min = (r, j);
            }
        }
    }
    for w in parts.windows(2) {
        token(w[0].0, w[1].0);
    }
}

#[derive(PartialEq, Eq)]
struct Merge {
    start: usize,
    rank: u32,
}

impl Ord for Merge {
    // A max-heap that pops the lowest rank first, then the leftmost start.
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        other
            .rank
            .cmp(&self.rank)
            .then_with(|| other.start.cmp(&self.start))
    }
}

impl PartialOrd for Merge {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

struct State {
    prev: usize,
    end: usize,
    next_end: usize,
    next_rank: u32,
}

/// tiktoken's `_byte_pair_merge_large`: a linked list of parts and a heap of candidate
/// merges, invalidated lazily.
fn merge_large(word: &[u8], mut token: impl FnMut(usize, usize)) {
    let mut state = Vec::with_capacity(word.len());
    state.push(State {
        prev: usize::MAX,
        end: 1,
        next_end: 2,
        next_rank: NONE,
    });
    let mut heap = BinaryHeap::with_capacity(word.len());
    for i in 0..word.len() - 1 {
        let r = pair_rank(word, i, i + 2);
        if r != NONE {
            heap.push(Merge { start: i, rank: r });
            state[i].next_rank = r;
        }
        state.push(State {
            prev: i,
            end: i + 2,
            next_end: i + 3,
            next_rank: NONE,
        });
    }
    let potential = |state: &mut Vec<State>, heap: &mut BinaryHeap<Merge>, start, next_end| {
        let s: &mut State = &mut state[start];
        s.next_end = next_end;
        s.next_rank = NONE;
        if next_end <= word.len() {
            let r = pair_rank(word, start, next_end);
            if r != NONE {
                heap.push(Merge { start, rank: r });
                s.next_rank = r;
            }
        }
    };
    while let Some(left) = heap.pop() {
        if left.rank == NONE {
            break;
        }
        if left.rank != state[left.start].next_rank {
            continue; // invalidated since it was pushed
        }
        let left_start = left.start;
        let right_start = state[left_start].end;
        let right_end = state[left_start].next_end;
        let right_next_end = state[right_start].next_end;
        state[left_start].end = right_end;
        potential(&mut state, &mut heap, left_start, right_next_end);
        if right_end < state.len() {
            state[right_end].prev = left_start;
        }
        if left_start > 0 {
            let prev_start = state[left_start].prev;
            potential(&mut state, &mut heap, prev_start, right_end);
        }
        state[right_start].next_rank = NONE;
    }
    let mut i = 0;
    while i < state.len() {
        token(i, state[i].end);
        i = state[i].end;
    }
}
