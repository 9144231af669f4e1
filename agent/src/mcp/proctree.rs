//! Finding and ending a server's whole process tree.
//!
//! A stdio server may start helpers of its own (a shell wrapper, a language server, a
//! `sleep`). Killing only the direct child leaves those running in the sandbox after the
//! agent ends, so the tree is read from `/proc` (children by parent PID, plus anything still
//! in the server's process group, which catches helpers already orphaned) and each process
//! is identified by PID *and* start time, so a recycled PID is never signalled.

use nix::sys::signal::{Signal, kill};
use nix::unistd::Pid;
use std::time::Duration;

/// One process as `/proc/<pid>/stat` describes it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ProcInfo {
    pub pid: i32,
    pub ppid: i32,
    pub pgid: i32,
    /// Clock ticks after boot (field 22): with the PID, a stable identity.
    pub start_time: u64,
    pub state: char,
}

pub fn read_stat(pid: i32) -> Option<ProcInfo> {
    let text = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    // The command name (field 2) is in parentheses and may itself contain spaces or ')'.
    let rest = &text[text.rfind(')')? + 1..];
    let fields: Vec<&str> = rest.split_whitespace().collect();
    Some(ProcInfo {
        pid,
        state: fields.first()?.chars().next()?,
        ppid: fields.get(1)?.parse().ok()?,
        pgid: fields.get(2)?.parse().ok()?,
        start_time: fields.get(19)?.parse().ok()?,
    })
}

/// The argv of a process (empty for kernel threads and zombies).
pub fn read_cmdline(pid: i32) -> Option<Vec<String>> {
    let raw = std::fs::read(format!("/proc/{pid}/cmdline")).ok()?;
    Some(
        raw.split(|b| *b == 0)
            .filter(|s| !s.is_empty())
            .map(|s| String::from_utf8_lossy(s).into_owned())
            .collect(),
    )
}

fn all_processes() -> Vec<ProcInfo> {
    let Ok(dir) = std::fs::read_dir("/proc") else {
        return Vec::new();
    };
    dir.filter_map(|e| e.ok()?.file_name().to_str()?.parse::<i32>().ok())
        .filter_map(read_stat)
        .collect()
}

/// True while the very process (same PID and start time) exists and is not a zombie.
pub fn is_alive(p: &ProcInfo) -> bool {
    matches!(read_stat(p.pid), Some(now) if now.start_time == p.start_time && !matches!(now.state, 'Z' | 'X'))
}

/// A process and how deep it sits below the root (the root is 0).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TreeMember {
    pub proc: ProcInfo,
    pub depth: u32,
}

/// The root and all its descendants, plus the other members of `pgid` (orphaned helpers,
/// counted as deepest so they are signalled first). Our own process is never included.
pub fn snapshot(root: i32, pgid: Option<i32>) -> Vec<TreeMember> {
    let procs = all_processes();
    let me = std::process::id() as i32;
    let mut out: Vec<TreeMember> = Vec::new();
    if let Some(r) = procs.iter().find(|p| p.pid == root) {
        out.push(TreeMember { proc: *r, depth: 0 });
    }
    let mut frontier = vec![root];
    let mut depth = 0;
    while !frontier.is_empty() {
        depth += 1;
        let next: Vec<ProcInfo> = procs
            .iter()
            .filter(|p| {
                frontier.contains(&p.ppid)
                    && p.pid != me
                    && !out.iter().any(|m| m.proc.pid == p.pid)
            })
            .copied()
            .collect();
        out.extend(next.iter().map(|p| TreeMember { proc: *p, depth }));
        let next: Vec<i32> = next.iter().map(|p| p.pid).collect();
        frontier = next;
    }
    if let Some(pgid) = pgid.filter(|g| *g > 1 && *g != me) {
        for p in procs.iter().filter(|p| p.pgid == pgid && p.pid != me) {
            if !out.iter().any(|m| m.proc.pid == p.pid) {
                out.push(TreeMember {
                    proc: *p,
                    depth: u32::MAX,
                });
            }
        }
    }
    out
}

/// Merges two snapshots (a helper may have been orphaned between them).
pub fn merge(mut a: Vec<TreeMember>, b: Vec<TreeMember>) -> Vec<TreeMember> {
    for m in b {
        if !a
            .iter()
            .any(|x| x.proc.pid == m.proc.pid && x.proc.start_time == m.proc.start_time)
        {
            a.push(m);
        }
    }
    a
}

/// TERM every process, leaves first, then KILL whatever is still alive after `grace`.
/// Returns how many needed the KILL.
pub async fn terminate(mut members: Vec<TreeMember>, grace: Duration) -> usize {
    members.sort_by_key(|m| std::cmp::Reverse(m.depth));
    for m in &members {
        if is_alive(&m.proc) {
            let _ = kill(Pid::from_raw(m.proc.pid), Signal::SIGTERM);
        }
    }
    let deadline = tokio::time::Instant::now() + grace;
    while members.iter().any(|m| is_alive(&m.proc)) && tokio::time::Instant::now() < deadline {
        tokio::time::sleep(Duration::from_millis(25)).await;
    }
    let mut killed = 0;
    for m in &members {
        if is_alive(&m.proc) {
            killed += 1;
            let _ = kill(Pid::from_raw(m.proc.pid), Signal::SIGKILL);
        }
    }
    killed
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_our_own_stat_and_cmdline() {
        let me = std::process::id() as i32;
        let s = read_stat(me).unwrap();
        assert_eq!(s.pid, me);
        assert!(s.start_time > 0);
        assert!(is_alive(&s));
        assert!(!read_cmdline(me).unwrap().is_empty());
        // A different start time is a different process, even with the same PID.
        assert!(!is_alive(&ProcInfo {
            start_time: s.start_time + 1,
            ..s
        }));
    }
}
