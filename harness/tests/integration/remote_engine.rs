//! `--engine …#remote` against an engine that shares nothing nab could lean on:
//! `ci/remote-engine.sh` starts a `dockerd` in its own network namespace and its own mount
//! namespace, where /tmp, /var/lib/nab, /root and this checkout are empty folders. Nothing
//! is bind-mounted from this machine there: the task's files are copied in, the gateway's
//! and the MCP servers' sockets are relayed by `nab-relay` over an exec stream.
//!
//! The test checks that the engine really cannot see these paths, that a container there
//! is locked down as a local one is (and that the code under test cannot take the relay
//! or the copied inputs), that whole tasks pass and fail there as they do here, and that
//! nothing of the run is left on the engine.

use crate::common;

use nab_harness::env::sandbox::engine::url::EngineAddr;
use nab_harness::env::sandbox::{
    BindMount, ContainerSpec, DockerBackend, ExecRequest, ExecUser, Labels, Lockdown, Remote,
    SandboxBackend,
};
use nab_protocol::{TrialRecord, TrialStatus};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;
use tokio_util::sync::CancellationToken;

fn script() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../ci/remote-engine.sh")
}

/// Starts the remote engine (once per machine) and returns its socket.
pub(crate) fn start_engine() -> PathBuf {
    let out = Command::new(script()).arg("start").output().unwrap();
    assert!(out.status.success(), "{}", common::show(&out));
    let url = String::from_utf8_lossy(&out.stdout).trim().to_owned();
    PathBuf::from(url.strip_prefix("unix://").unwrap())
}

pub(crate) fn remote_docker(socket: &Path, args: &[&str]) -> String {
    let out = Command::new("docker")
        .arg("-H")
        .arg(format!("unix://{}", socket.display()))
        .args(args)
        .output()
        .unwrap();
    String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr)
}

/// The images the run needs, copied from this machine's engine as `nab run` copies them
/// to the engines of a pool.
pub(crate) async fn with_images(
    socket: &Path,
    tags: &[String],
) -> nab_harness::env::sandbox::Engine {
    let local = nab_harness::env::sandbox::connect().await.unwrap();
    let remote = nab_harness::env::sandbox::connect_to(&EngineAddr::Unix(socket.to_owned()))
        .await
        .unwrap();
    for tag in tags {
        if !nab_harness::env::sandbox::engine::image_exists(&remote, tag)
            .await
            .unwrap()
        {
            nab_harness::env::sandbox::engine::copy_image(&local, &remote, tag)
                .await
                .unwrap();
        }
    }
    remote
}

const PROBE: &str = r#"
echo "net=$(ls /sys/class/net | tr '\n' ' ')"
awk '$2 == "/" {print "rootmount=" $4}' /proc/mounts
echo "uid=$(id -u)"
echo "instruction=$(cat /nab/instruction.md)"
echo changed >> /nab/instruction.md 2>/dev/null && echo instruction_w=writable || echo instruction_w=readonly
rm -f /nab/echo.sock 2>/dev/null; [ -S /nab/echo.sock ] && echo socket=kept || echo socket=gone
touch /nab/forged 2>/dev/null && echo nab_w=writable || echo nab_w=readonly
touch /nab/out/events.jsonl 2>/dev/null && echo out_w=writable || echo out_w=readonly
pid=$(pgrep -x nab-relay); echo "relay_pid=$pid"
kill -KILL $pid 2>/dev/null && echo relay_kill=done || echo relay_kill=refused; sleep 0.2
echo "echo=$(python3 -c 'import socket; s = socket.socket(socket.AF_UNIX); s.connect("/nab/echo.sock"); s.sendall(b"ping"); print(s.recv(16).decode())')"
python3 - <<'PY'
# Spend the container's process limit on idle threads, then hold connections and ask: the
# relay needs no thread per connection, so it serves while the limit is spent, and after.
import socket, threading, time
stop, idle, refused = threading.Event(), [], 0
while refused < 5:
    t = threading.Thread(target=stop.wait)
    try:
        t.start()
        idle.append(t)
    except RuntimeError:
        refused += 1
        time.sleep(0.05)
def ask(word):
    try:
        s = socket.socket(socket.AF_UNIX)
        s.settimeout(10)
        s.connect("/nab/echo.sock")
        s.sendall(word)
        return s.recv(16).decode()
    except OSError as e:
        return type(e).__name__
held = []
for _ in range(16):
    c = socket.socket(socket.AF_UNIX)
    c.connect("/nab/echo.sock")
    held.append(c)
print("threads_spent=%d" % len(idle))
print("echo_while_spent=" + ask(b"spent"))
stop.set()
for t in idle:
    t.join()
for c in held:
    c.close()
print("echo_after_spent=" + ask(b"again"))
PY
"#;

fn value<'a>(out: &'a str, key: &str) -> &'a str {
    out.lines()
        .find_map(|l| l.strip_prefix(&format!("{key}=")))
        .unwrap_or_else(|| panic!("no {key} in probe output:\n{out}"))
        .trim()
}

/// An echo server on a host Unix socket: what the relay must reach.
fn echo_server(path: &Path) -> tokio::task::JoinHandle<()> {
    let listener = tokio::net::UnixListener::bind(path).unwrap();
    tokio::spawn(async move {
        while let Ok((mut s, _)) = listener.accept().await {
            tokio::spawn(async move {
                let (mut r, mut w) = s.split();
                let _ = tokio::io::copy(&mut r, &mut w).await;
            });
        }
    })
}

#[tokio::test(flavor = "multi_thread")]
async fn a_remote_engine_that_sees_none_of_our_paths_runs_tasks_locked_down() {
    let socket = start_engine();
    let image = common::base_image().await;
    let engine = with_images(&socket, std::slice::from_ref(&image)).await;

    // The engine cannot see this checkout: a bind of it is an empty folder there.
    let checkout = Path::new(env!("CARGO_MANIFEST_DIR"));
    let seen = remote_docker(
        &socket,
        &[
            "run",
            "--rm",
            "--network",
            "none",
            "-v",
            &format!("{}:/x", checkout.display()),
            &image,
            "ls",
            "-A",
            "/x",
        ],
    );
    assert_eq!(
        seen.trim(),
        "",
        "the remote engine sees {}",
        checkout.display()
    );

    probe_a_container(&engine, &image).await;
    for run_id in run_tasks(&socket)
        .into_iter()
        .chain([fill_the_disk(&socket)])
    {
        assert_nothing_left(&socket, &image, &run_id);
    }
}

/// No container, volume or disk quota of `run_id` is left on the engine (or its machine).
fn assert_nothing_left(socket: &Path, image: &str, run_id: &str) {
    let label = format!("label=nab.run={run_id}");
    let left = remote_docker(socket, &["ps", "-aq", "--filter", &label])
        + &remote_docker(socket, &["volume", "ls", "-q", "--filter", &label]);
    assert_eq!(left.trim(), "", "{run_id}: left on the remote engine");
    let quotas = format!("/q/engine-quota/run-{run_id}");
    let listed = remote_docker(
        socket,
        &[
            "run",
            "--rm",
            "-v",
            "/var/lib/nab:/q",
            image,
            "ls",
            "-A",
            &quotas,
        ],
    );
    assert!(
        listed.contains("No such file"),
        "{run_id}: disk quotas left on the engine's machine: {listed}"
    );
}

/// The attack on the quotas made on the engine's machine: an agent that writes without
/// end into its workspace and /nab/out fails for the quota, and the engine's disk holds
/// no more than the quota.
fn fill_the_disk(socket: &Path) -> String {
    let root = tempfile::tempdir().unwrap();
    let task = "py-pagination-offbyone";
    let suite = root.path().join("suite");
    common::copy_dir(&common::repo_tasks().join(task), &suite.join(task));
    let yaml = suite.join(task).join("task.yaml");
    let text = std::fs::read_to_string(&yaml).unwrap();
    std::fs::write(&yaml, text.replace("pids: 256}", "pids: 256, disk_mb: 32}")).unwrap();
    let agent = root.path().join("fill.sh");
    common::write_exec(
        &agent,
        "#!/bin/sh\ndd if=/dev/zero of=/nab/out/fill bs=1M count=200 2>/dev/null\n\
         dd if=/dev/zero of=/workspace/fill bs=1M count=200 2>/dev/null\n\
         df -k /workspace /nab/out\n",
    );
    let run_id = common::unique("remote-fill");
    let out = root.path().join("out");
    let o = common::nab_run(&run_id, 1)
        .env("NAB_LOG", "error")
        .args(["--engine", &format!("unix://{}#remote", socket.display())])
        .args(["--model", "scripted:task", "--tasks"])
        .arg(&suite)
        .arg(format!("--agent=command:{}", agent.display()))
        .arg("--out")
        .arg(&out)
        .output()
        .unwrap();
    let rec: TrialRecord = serde_json::from_str(
        std::fs::read_to_string(out.join(nab_protocol::RESULTS_FILE))
            .unwrap()
            .lines()
            .next()
            .unwrap(),
    )
    .unwrap();
    assert_eq!(
        rec.outcome.status,
        TrialStatus::Failed,
        "{}",
        common::show(&o)
    );
    assert_eq!(
        rec.outcome.failure_reason,
        Some(nab_protocol::FailureReason::DiskQuota),
        "{}",
        common::show(&o)
    );
    let log =
        std::fs::read_to_string(out.join("trials").join(task).join("0").join("agent.log")).unwrap();
    assert!(log.contains("filled its disk quota of 32 MiB"), "{log}");
    run_id
}

async fn probe_a_container(engine: &nab_harness::env::sandbox::Engine, image: &str) {
    let host = tempfile::tempdir().unwrap();
    std::fs::write(host.path().join("instruction.md"), "fix the bug").unwrap();
    let echo = host.path().join("echo.sock");
    let _server = echo_server(&echo);
    std::fs::create_dir(host.path().join("out")).unwrap();
    let relay = nab_harness::trial::model::locate_binary("nab-relay").unwrap();
    let backend = DockerBackend::remote(engine.clone(), Remote::new(Some(relay)));
    let run = common::unique("remote-probe");
    let ro = |h: &Path, c: &str| BindMount {
        host: h.to_owned(),
        container: c.into(),
        read_only: true,
        on_engine: false,
    };
    let spec = ContainerSpec {
        image: image.to_owned(),
        labels: Labels {
            run: run.clone(),
            task: "probe".into(),
            trial: "0".into(),
            role: "agent".into(),
        },
        limits: Lockdown {
            cpus: 0.5,
            memory_mb: 300,
            pids: 77,
            tmp_mb: 16,
        },
        workspace: None,
        binds: vec![
            ro(&host.path().join("instruction.md"), "/nab/instruction.md"),
            ro(&echo, "/nab/echo.sock"),
            BindMount {
                host: host.path().join("out"),
                container: "/nab/out".into(),
                read_only: false,
                on_engine: false,
            },
        ],
        scratch_volumes: vec![],
        tmpfs: vec![],
        env: vec!["HOME=/tmp".into()],
    };
    let c = backend.create(&spec).await.unwrap();
    let req = ExecRequest {
        argv: vec!["bash".into(), "-c".into(), PROBE.into()],
        user: ExecUser::Sandbox,
        env: vec![],
        workdir: "/".into(),
        timeout: Duration::from_secs(60),
        output_cap: 64 * 1024,
    };
    let out = backend
        .exec(&c, &req, &CancellationToken::new())
        .await
        .unwrap();
    let out = out.output.to_text();
    backend.destroy(&c).await.unwrap();
    assert_eq!(value(&out, "net"), "lo", "{out}");
    assert!(value(&out, "rootmount").starts_with("ro"), "{out}");
    assert_eq!(value(&out, "uid"), "1000");
    assert_eq!(value(&out, "instruction"), "fix the bug");
    // The copied inputs and the relay are root's: the code under test can neither rewrite
    // them, nor put its own socket in the relay's place, nor stop the relay.
    assert_eq!(value(&out, "instruction_w"), "readonly", "{out}");
    assert_eq!(value(&out, "socket"), "kept", "{out}");
    assert_eq!(value(&out, "nab_w"), "readonly", "{out}");
    assert_eq!(value(&out, "out_w"), "writable", "{out}");
    assert_ne!(value(&out, "relay_pid"), "", "no relay seen: {out}");
    assert_eq!(value(&out, "relay_kill"), "refused", "{out}");
    assert_eq!(value(&out, "echo"), "ping", "{out}");
    // The code under test spent the process limit and held connections: the relay (one
    // thread for all of them) served it then, and after it let go.
    assert!(
        value(&out, "threads_spent").parse::<u32>().unwrap() > 30,
        "{out}"
    );
    assert_eq!(value(&out, "echo_while_spent"), "spent", "{out}");
    assert_eq!(value(&out, "echo_after_spent"), "again", "{out}");
}

/// Runs three agents on three tasks there; returns the run ids.
fn run_tasks(socket: &Path) -> Vec<String> {
    let mut run_ids = Vec::new();
    let root = tempfile::tempdir().unwrap();
    let url = format!("unix://{}#remote", socket.display());
    let tasks = [
        "py-pagination-offbyone",
        "mcp-config-service",
        "term-log-report",
    ];
    for (agent, expect) in [
        ("oracle", TrialStatus::Passed),
        ("nab-agent", TrialStatus::Passed),
        ("null", TrialStatus::Failed),
    ] {
        let run_id = common::unique(&format!("remote-{agent}"));
        let out = root.path().join(agent);
        let mut cmd = common::nab_run(&run_id, 1);
        let o = cmd
            .env("NAB_LOG", "error")
            .args(["--engine", &url, "--agent", agent, "-j", "2", "--tasks"])
            .arg(common::repo_tasks())
            .arg("--out")
            .arg(&out)
            .args(tasks)
            .output()
            .unwrap();
        let records: Vec<TrialRecord> =
            std::fs::read_to_string(out.join(nab_protocol::RESULTS_FILE))
                .unwrap_or_default()
                .lines()
                .map(|l| serde_json::from_str(l).unwrap())
                .collect();
        assert_eq!(records.len(), 3, "{agent}: {}", common::show(&o));
        for r in &records {
            assert_eq!(
                r.outcome.status,
                expect,
                "{agent} on {}: {}",
                r.task_id,
                common::show(&o)
            );
        }
        if agent == "nab-agent" {
            // The agent's events came back from the engine: its steps are counted.
            assert!(
                records.iter().all(|r| r.behaviour.steps.unwrap_or(0) > 0),
                "{records:?}"
            );
        }
        run_ids.push(run_id);
    }
    run_ids
}

/// An sshd of the test's own on 127.0.0.1, whose sessions reach the remote engine
/// (`SetEnv DOCKER_HOST=…`): `ssh://root@127.0.0.1:PORT` is then that engine, by Docker's
/// `docker system dial-stdio` convention. Stopped when dropped.
struct Sshd {
    child: std::process::Child,
    dir: tempfile::TempDir,
    port: u16,
}

impl Sshd {
    fn start(engine_socket: &Path) -> Sshd {
        let sshd = Path::new("/usr/sbin/sshd");
        assert!(
            sshd.exists(),
            "this test needs sshd: install openssh-server (ci/deps.sh does)"
        );
        let dir = tempfile::tempdir().unwrap();
        let d = dir.path();
        let keygen = |path: &Path| {
            let o = Command::new("ssh-keygen")
                .args(["-q", "-t", "ed25519", "-N", "", "-f"])
                .arg(path)
                .output()
                .unwrap();
            assert!(o.status.success(), "{}", common::show(&o));
        };
        keygen(&d.join("host_key"));
        keygen(&d.join("client_key"));
        std::fs::copy(d.join("client_key.pub"), d.join("authorized_keys")).unwrap();
        let port = std::net::TcpListener::bind("127.0.0.1:0")
            .unwrap()
            .local_addr()
            .unwrap()
            .port();
        std::fs::write(
            d.join("sshd_config"),
            format!(
                "Port {port}\nListenAddress 127.0.0.1\nHostKey {d}/host_key\n\
                 AuthorizedKeysFile {d}/authorized_keys\nStrictModes no\n\
                 PermitRootLogin prohibit-password\nPasswordAuthentication no\n\
                 PidFile {d}/sshd.pid\nSetEnv DOCKER_HOST=unix://{sock}\n",
                d = d.display(),
                sock = engine_socket.display()
            ),
        )
        .unwrap();
        std::fs::create_dir_all("/run/sshd").unwrap();
        let child = Command::new(sshd)
            .arg("-D")
            .arg("-f")
            .arg(d.join("sshd_config"))
            .arg("-E")
            .arg(d.join("sshd.log"))
            .spawn()
            .unwrap();
        // The client: the key, and no prompt about the unknown host.
        common::write_exec(
            &d.join("ssh"),
            &format!(
                "#!/bin/sh\nexec ssh -F /dev/null -i {d}/client_key -o StrictHostKeyChecking=no \
                 -o UserKnownHostsFile=/dev/null -o LogLevel=ERROR \"$@\"\n",
                d = d.display()
            ),
        );
        for _ in 0..50 {
            if std::net::TcpStream::connect(("127.0.0.1", port)).is_ok() {
                break;
            }
            std::thread::sleep(Duration::from_millis(100));
        }
        Sshd { child, dir, port }
    }

    fn wrapper(&self) -> PathBuf {
        self.dir.path().join("ssh")
    }
}

impl Drop for Sshd {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

#[tokio::test(flavor = "multi_thread")]
async fn an_ssh_engine_runs_tasks_through_docker_system_dial_stdio() {
    let socket = start_engine();
    let image = common::base_image().await;
    with_images(&socket, std::slice::from_ref(&image)).await;
    let sshd = Sshd::start(&socket);
    let root = tempfile::tempdir().unwrap();
    let run_id = common::unique("remote-ssh");
    let out = root.path().join("out");
    let url = format!("ssh://root@127.0.0.1:{}", sshd.port);
    let o = common::nab_run(&run_id, 1)
        .env("NAB_LOG", "error")
        .env("NAB_SSH", sshd.wrapper())
        .args(["--engine", &url, "--agent", "nab-agent", "--tasks"])
        .arg(common::repo_tasks())
        .arg("--out")
        .arg(&out)
        .args(["py-pagination-offbyone", "mcp-config-service"])
        .output()
        .unwrap();
    let text = std::fs::read_to_string(out.join(nab_protocol::RESULTS_FILE)).unwrap_or_default();
    let records: Vec<TrialRecord> = text
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(records.len(), 2, "{}", common::show(&o));
    for r in &records {
        assert_eq!(
            r.outcome.status,
            TrialStatus::Passed,
            "{}: {}",
            r.task_id,
            common::show(&o)
        );
    }
    assert_nothing_left(&socket, &image, &run_id);

    // A key the server does not know: a clear error naming the engine, nothing run.
    let o = common::nab_run(&common::unique("remote-ssh-bad"), 1)
        .env("NAB_LOG", "error")
        .args(["--engine", &url, "--agent", "oracle", "--tasks"])
        .arg(common::repo_tasks())
        .arg("--out")
        .arg(root.path().join("bad"))
        .arg("py-pagination-offbyone")
        .output()
        .unwrap();
    assert!(!o.status.success());
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        err.contains(&url) && err.contains("docker version` failed"),
        "{err}"
    );
}
