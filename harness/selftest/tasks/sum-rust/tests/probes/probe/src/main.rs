//! Observations only: for each line of comma-separated integers on stdin, one JSON line
//! with the workspace's `sum`. The protocol goes to a copy of stdout taken before any code
//! of the workspace could print. (Debian 12's rustc is 1.63: no let-else, no std::os::fd.)
use std::io::{BufRead, Write};
use std::os::unix::io::FromRawFd;

extern "C" {
    fn dup(fd: i32) -> i32;
}

fn main() {
    // SAFETY: dup returns a new descriptor this process owns, or -1 (checked).
    let fd = unsafe { dup(1) };
    if fd < 0 {
        std::process::exit(3);
    }
    // SAFETY: fd is open and owned by nothing else.
    let mut out = unsafe { std::fs::File::from_raw_fd(fd) };
    for line in std::io::stdin().lock().lines() {
        let line = match line {
            Ok(l) => l,
            Err(_) => break,
        };
        let values: Vec<i64> = line.split(',').filter_map(|f| f.parse().ok()).collect();
        let _ = writeln!(out, "{{\"value\": {}}}", sumlib::sum(&values));
    }
}
