//! Output captured under a byte cap: memory stays flat however much a process prints.

use std::fmt;

#[derive(Debug, Clone, Default)]
pub struct Capture {
    kept: Vec<u8>,
    cap: usize,
    /// Bytes seen beyond the cap and dropped.
    pub dropped: u64,
}

impl Capture {
    pub fn with_cap(cap: usize) -> Self {
        Capture {
            kept: Vec::with_capacity(cap.min(64 * 1024)),
            cap,
            dropped: 0,
        }
    }

    pub fn push(&mut self, chunk: &[u8]) {
        let room = self.cap.saturating_sub(self.kept.len());
        let take = room.min(chunk.len());
        self.kept.extend_from_slice(&chunk[..take]);
        self.dropped += (chunk.len() - take) as u64;
    }

    pub fn truncated(&self) -> bool {
        self.dropped > 0
    }

    pub fn bytes(&self) -> &[u8] {
        &self.kept
    }

    /// The kept text plus a marker line when something was cut.
    pub fn to_text(&self) -> String {
        let mut s = String::from_utf8_lossy(&self.kept).into_owned();
        if self.truncated() {
            if !s.ends_with('\n') {
                s.push('\n');
            }
            s.push_str(&format!(
                "[nab: output truncated: {} more bytes not kept (cap {} bytes)]\n",
                self.dropped, self.cap
            ));
        }
        s
    }
}

impl fmt::Display for Capture {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.to_text())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keeps_the_first_cap_bytes_and_counts_the_rest() {
        let mut c = Capture::with_cap(5);
        c.push(b"abc");
        c.push(b"defgh");
        assert_eq!(c.bytes(), b"abcde");
        assert_eq!(c.dropped, 3);
        assert!(c.to_text().contains("output truncated: 3 more bytes"));
        let mut small = Capture::with_cap(10);
        small.push(b"hi");
        assert_eq!(small.to_text(), "hi");
    }
}
