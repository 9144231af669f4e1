//! The reaper: one exec, as the sandbox user, that kills every other process of that user
//! and reports whether any is left. It replaces a `pkill` and a `pgrep` (two execs, each a
//! round trip to the engine) on every verifier step's path.
//!
//! It runs as the sandbox user because only that user (or a capability the verifier does
//! not have) may signal the sandbox user's processes. Its first act is `kill(-1, SIGKILL)`,
//! which signals every process the caller may signal except itself and init in one system
//! call, so a process cannot outrun it by forking; then it reads `/proc` until no process
//! of the user but itself is left, killing again each round. A zombie counts as left: a
//! thread group whose first thread exited shows as a zombie while its other threads run.
//!
//! It is a bash script passed by argv (`--norc --noprofile`, builtins only: no process of
//! its own that the next round would kill), run from the read-only root, so nothing the
//! code under test wrote is loaded. Its shell is [`SHELL`], a copy of bash that no one may
//! read (the base image's set-up makes it): the kernel makes a process started from a file
//! its user cannot read non-dumpable, and a non-dumpable process cannot be traced by
//! another process of its user. So the code under test cannot `ptrace` the reaper and make
//! it report "all gone" while it lives on (selftest's `reaper-tracer`; with a readable bash
//! it won). A process of the user can still kill the reaper (the same uid); the exec then
//! does not exit 0, the caller tries again, and after its rounds counts the step's
//! processes as not stopped: the trial's own failure (selftest's `reaper-killer`).

use super::{ExecRequest, ExecUser};
use std::time::Duration;

/// The reaper's shell: bash, mode 0111 (harness/image/setup.sh).
pub(crate) const SHELL: &str = "/usr/lib/nab/reaper-bash";

/// Exit code of a reaper that found every other process of the user gone.
pub(crate) const ALL_GONE: i64 = 0;

/// Kills, looks, and kills again while any process is left (200 rounds, each a read of
/// `/proc`: well under a second).
const SCRIPT: &str = r#"
uid=$1
me=$$
for ((round = 0; round < 200; round++)); do
  kill -KILL -1 2>/dev/null
  left=
  for dir in /proc/[0-9]*; do
    pid=${dir#/proc/}
    [ "$pid" = "$me" ] && continue
    while read -r key real effective _; do
      if [ "$key" = "Uid:" ]; then
        if [ "$real" = "$uid" ] || [ "$effective" = "$uid" ]; then left="$left $pid"; fi
        break
      fi
    done 2>/dev/null < "$dir/status"
  done
  [ -z "$left" ] && exit 0
done
echo "still running:$left"
exit 3
"#;

/// The exec that reaps the processes of `uid` (the sandbox user's).
pub(crate) fn request(uid: u32) -> ExecRequest {
    ExecRequest {
        argv: vec![
            SHELL.into(),
            "--norc".into(),
            "--noprofile".into(),
            "-c".into(),
            SCRIPT.into(),
            "nab-reaper".into(),
            uid.to_string(),
        ],
        user: ExecUser::Sandbox,
        env: vec![],
        workdir: "/".into(),
        timeout: Duration::from_secs(20),
        output_cap: 4096,
    }
}
