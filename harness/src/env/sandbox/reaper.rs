//! The reaper: one exec, as the sandbox user, that kills every other process of that user
//! and reports whether any is left. It replaces a `pkill` and a `pgrep` (two execs, each a
//! round trip to the engine) on every verifier step's path.
//!
//! It runs as the sandbox user because only that user (or a capability the verifier does
//! not have) may signal the sandbox user's processes. `kill(-1, SIGKILL)` signals every
//! process the caller may signal except itself and init, in one system call, so a process
//! cannot outrun it by forking; then the reaper reads `/proc` until no process of the user
//! but itself is left. A zombie counts as left: a thread group whose first thread exited
//! shows as a zombie while its other threads still run. The script is passed by argv and
//! run by the image's `python3 -I -S` (isolated: no environment, no user site, no current
//! folder on the path), from the read-only root, so nothing the code under test wrote is
//! loaded. A process of the user can still kill the reaper (the same uid); the exec then
//! does not exit 0, the caller tries again, and after its rounds counts the step's
//! processes as not stopped: the trial's own failure.

use super::{ExecRequest, ExecUser};
use std::time::Duration;

/// Exit code of a reaper that found every other process of the user gone.
pub(crate) const ALL_GONE: i64 = 0;

/// Kills, looks, and kills again while any process is left, for about a second.
const SCRIPT: &str = r#"
import os, signal, sys, time
uid, me = sys.argv[1], os.getpid()
def left():
    found = []
    for name in os.listdir("/proc"):
        if not name.isdigit() or int(name) == me:
            continue
        try:
            with open("/proc/%s/status" % name) as f:
                ids = next(l for l in f if l.startswith("Uid:")).split()[1:3]
        except (OSError, StopIteration):
            continue
        if uid in ids:
            found.append(name)
    return found
for _ in range(50):
    try:
        os.kill(-1, signal.SIGKILL)
    except OSError:
        pass
    if not left():
        sys.exit(0)
    time.sleep(0.02)
print("still running:", " ".join(left()))
sys.exit(3)
"#;

/// The exec that reaps the processes of `uid` (the sandbox user's).
pub(crate) fn request(uid: u32) -> ExecRequest {
    ExecRequest {
        argv: vec![
            "/usr/bin/python3".into(),
            "-I".into(),
            "-S".into(),
            "-c".into(),
            SCRIPT.into(),
            uid.to_string(),
        ],
        user: ExecUser::Sandbox,
        env: vec![],
        workdir: "/".into(),
        timeout: Duration::from_secs(20),
        output_cap: 4096,
    }
}
