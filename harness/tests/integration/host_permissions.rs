//! What a running trial keeps on the host is out of other local users' reach (issue 34):
//! the gateway's socket (it spends the run's key), the MCP servers' sockets and /nab/out
//! live in folders only nab's user can enter, and, with nab as root, each socket belongs to
//! the sandbox user and its group (0660). Checked while a trial runs (its agent waits), with an attack
//! from another uid that tries to connect.

use crate::common;

use common::{copy_dir, repo_tasks, write_exec};
use std::os::unix::fs::{MetadataExt, PermissionsExt};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// Folders under `dir` whose name starts with `prefix`.
fn named(dir: &Path, prefix: &str) -> Vec<PathBuf> {
    std::fs::read_dir(dir)
        .map(|rd| {
            rd.filter_map(Result::ok)
                .filter(|e| e.file_name().to_string_lossy().starts_with(prefix))
                .map(|e| e.path())
                .collect()
        })
        .unwrap_or_default()
}

/// Connects to `socket` as uid/gid 65534 (nobody): `true` when it got in.
fn nobody_connects(socket: &Path) -> bool {
    let script = format!(
        "import socket\ns = socket.socket(socket.AF_UNIX)\ns.connect({:?})\n",
        socket.display().to_string()
    );
    std::process::Command::new("setpriv")
        .args([
            "--reuid=65534",
            "--regid=65534",
            "--clear-groups",
            "python3",
            "-c",
        ])
        .arg(script)
        .stderr(std::process::Stdio::null())
        .status()
        .expect("setpriv")
        .success()
}

#[tokio::test(flavor = "multi_thread")]
async fn a_running_trials_sockets_and_out_folder_are_private_to_nab_and_the_sandbox_user() {
    common::base_image().await;
    if !nix::unistd::geteuid().is_root() {
        eprintln!("skipped: the attack needs root to act as another user (CI runs as root)");
        return;
    }
    let root = common::agent_root();
    let tmp = root.path().join("tmp");
    std::fs::create_dir(&tmp).unwrap();
    std::fs::set_permissions(&tmp, std::fs::Permissions::from_mode(0o1777)).unwrap();
    let suite = root.path().join("suite");
    copy_dir(
        &repo_tasks().join("mcp-ticket-triage"),
        &suite.join("mcp-ticket-triage"),
    );
    let agent = root.path().join("waiter.sh");
    write_exec(&agent, "#!/bin/sh\nsleep 12\n");
    let (run_id, _sweep, out) = common::run_slot(root.path(), "hostperm");
    let mut child = common::nab_run(&run_id, 1)
        .env("TMPDIR", &tmp)
        .args(["--tasks".as_ref(), suite.as_os_str()])
        .args(["--agent", &format!("command:{}", agent.display())])
        .args(["--model", "scripted:task", "--out"])
        .arg(&out)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    // Wait for the trial's gateway and MCP host to be up.
    let deadline = Instant::now() + Duration::from_secs(120);
    let (gw, mcp, outdir) = loop {
        let gw = named(&tmp, "nab-gw-");
        let mcp = named(&tmp, "nab-mcp-");
        let outd = named(&tmp, "nab-out-");
        let sock_ready = mcp
            .first()
            .is_some_and(|d| d.join("mount/tracker.sock").exists());
        if !gw.is_empty() && sock_ready {
            break (gw[0].clone(), mcp[0].clone(), outd.first().cloned());
        }
        assert!(
            Instant::now() < deadline,
            "no trial folders appeared in {tmp:?}"
        );
        std::thread::sleep(Duration::from_millis(100));
    };
    let mode = |p: &Path| std::fs::metadata(p).unwrap().mode() & 0o7777;
    let uid = |p: &Path| std::fs::metadata(p).unwrap().uid();
    let gw_sock = gw.join("llm.sock");
    let mcp_sock = mcp.join("mount/tracker.sock");
    assert_eq!(mode(&gw), 0o700, "{gw:?}");
    assert_eq!(mode(&mcp), 0o700, "{mcp:?}");
    for s in [&gw_sock, &mcp_sock] {
        let gid = std::fs::metadata(s).unwrap().gid();
        assert_eq!((uid(s), gid, mode(s) & 0o777), (1000, 1000, 0o660), "{s:?}");
    }
    if let Some(o) = &outdir {
        // Quotas off: a private temporary folder; quotas on: the quota's own mount.
        assert_eq!(mode(o), 0o700, "{o:?}");
    }
    // Another local user cannot spend the key or read the tracker.
    assert!(!nobody_connects(&gw_sock), "uid 65534 reached the gateway");
    assert!(
        !nobody_connects(&mcp_sock),
        "uid 65534 reached the MCP server"
    );
    let status = child.wait().unwrap();
    assert!(status.success() || status.code() == Some(1), "{status:?}");
}
