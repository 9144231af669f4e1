//! A bounded log of what a server printed that was not protocol: junk stdout lines and
//! its stderr. When the server dies for good, its tail is what the model is shown.

use std::collections::VecDeque;
use std::sync::{Arc, Mutex};

/// How many lines are kept (the oldest are dropped).
pub const RING_LINES: usize = 200;
/// A single line is cut to this many characters so a binary blob cannot fill memory.
const MAX_LINE_CHARS: usize = 2_000;

#[derive(Debug, Clone, Default)]
pub struct RingBuffer {
    inner: Arc<Mutex<Ring>>,
}

#[derive(Debug, Default)]
struct Ring {
    lines: VecDeque<String>,
    /// Every line ever pushed, including those dropped since.
    total: u64,
}

impl RingBuffer {
    pub fn push(&self, source: &str, line: &str) {
        let line = line.trim_end_matches(['\r', '\n']);
        let mut text = format!("{source}: ");
        match line.char_indices().nth(MAX_LINE_CHARS) {
            Some((cut, _)) => {
                text.push_str(&line[..cut]);
                text.push_str(" […]");
            }
            None => text.push_str(line),
        }
        let mut ring = self.inner.lock().unwrap_or_else(|p| p.into_inner());
        if ring.lines.len() == RING_LINES {
            ring.lines.pop_front();
        }
        ring.lines.push_back(text);
        ring.total += 1;
    }

    /// The last `n` lines, oldest first.
    pub fn tail(&self, n: usize) -> Vec<String> {
        let ring = self.inner.lock().unwrap_or_else(|p| p.into_inner());
        let skip = ring.lines.len().saturating_sub(n);
        ring.lines.iter().skip(skip).cloned().collect()
    }

    pub fn len(&self) -> usize {
        self.inner
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .lines
            .len()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    pub fn total_pushed(&self) -> u64 {
        self.inner.lock().unwrap_or_else(|p| p.into_inner()).total
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keeps_the_last_200_lines() {
        let r = RingBuffer::default();
        for i in 0..250 {
            r.push("stdout", &format!("junk {i}\n"));
        }
        assert_eq!(r.len(), RING_LINES);
        assert_eq!(r.total_pushed(), 250);
        assert_eq!(r.tail(2), vec!["stdout: junk 248", "stdout: junk 249"]);
        assert_eq!(
            r.tail(1000).first().map(String::as_str),
            Some("stdout: junk 50")
        );
    }

    #[test]
    fn cuts_long_lines() {
        let r = RingBuffer::default();
        r.push("stderr", &"é".repeat(5_000));
        let line = &r.tail(1)[0];
        assert!(
            line.ends_with(" […]") && line.chars().count() < 2_100,
            "{}",
            line.len()
        );
    }
}
