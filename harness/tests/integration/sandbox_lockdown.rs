//! What the sandbox promises, checked from inside a real container. One container carries
//! several probes (2 shared cores): network, read-only root, writable workspace, identity
//! and capabilities, cgroup limits, absent hidden tests, the output cap, and the deadline.

use crate::common;

use nab_harness::env::sandbox::{
    ContainerSpec, DockerBackend, ExecRequest, ExecUser, Labels, Lockdown, SandboxBackend,
};
use std::time::Duration;
use tokio_util::sync::CancellationToken;

const PROBE: &str = r#"
echo "net=$(ls /sys/class/net | sort | tr '\n' ' ')"
touch /usr/nab-probe 2>/dev/null && echo usr=writable || echo usr=readonly
touch /etc/nab-probe 2>/dev/null && echo etc=writable || echo etc=readonly
# uid 1000 owns /home/nab: only a read-only root file system stops this write.
touch /home/nab/probe 2>/dev/null && echo home=writable || echo home=readonly
awk '$2 == "/" {print "rootmount=" $4}' /proc/mounts
touch /workspace/probe 2>/dev/null && echo ws=writable || echo ws=readonly
touch /tmp/probe 2>/dev/null && echo tmp=writable || echo tmp=readonly
echo "uid=$(id -u)"
grep -E '^(CapEff|CapPrm|CapBnd|NoNewPrivs):' /proc/self/status | tr -d '\t ' 
for f in /sys/fs/cgroup/pids.max /sys/fs/cgroup/pids/pids.max; do [ -r $f ] && echo "pids.max=$(cat $f)"; done
for f in /sys/fs/cgroup/memory.max /sys/fs/cgroup/memory/memory.limit_in_bytes; do [ -r $f ] && echo "memory.max=$(cat $f)"; done
[ -e /nab/tests ] && echo tests=present || echo tests=absent
[ -e /nab/solution ] && echo solution=present || echo solution=absent
"#;

fn value<'a>(out: &'a str, key: &str) -> &'a str {
    out.lines()
        .find_map(|l| {
            l.strip_prefix(&format!("{key}="))
                .or_else(|| l.strip_prefix(&format!("{key}:")))
        })
        .unwrap_or_else(|| panic!("no {key} in probe output:\n{out}"))
        .trim()
}

#[tokio::test(flavor = "multi_thread")]
async fn a_container_is_locked_down_capped_and_killed_at_its_deadline() {
    let image = common::base_image().await;
    let backend = DockerBackend::new(nab_harness::env::sandbox::connect().await.unwrap());
    let run = common::unique("lockdown");
    let _sweep = common::SweepOnDrop(run.clone());
    let labels = Labels {
        run: run.clone(),
        task: "probe".into(),
        trial: "0".into(),
        role: "agent".into(),
    };
    let volume = backend.create_volume(&labels, None).await.unwrap();
    let spec = ContainerSpec {
        image,
        labels,
        limits: Lockdown {
            cpus: 0.5,
            memory_mb: 300,
            pids: 77,
            tmp_mb: 16,
        },
        workspace: Some(volume.clone()),
        binds: vec![],
        scratch_volumes: vec![],
        tmpfs: vec![],
        env: vec!["HOME=/tmp".into()],
    };
    let c = backend.create(&spec).await.unwrap();
    let cancel = CancellationToken::new();
    let req = |argv: Vec<&str>, timeout_s: u64, cap: usize| ExecRequest {
        argv: argv.into_iter().map(str::to_owned).collect(),
        user: ExecUser::Sandbox,
        env: vec![],
        workdir: "/workspace".into(),
        timeout: Duration::from_secs(timeout_s),
        output_cap: cap,
    };

    let probe = backend
        .exec(&c, &req(vec!["bash", "-c", PROBE], 60, 64 * 1024), &cancel)
        .await
        .unwrap();
    let out = probe.output.to_text();
    assert_eq!(probe.exit_code, Some(0), "{out}");
    assert_eq!(value(&out, "net"), "lo", "only loopback may exist");
    assert_eq!(value(&out, "usr"), "readonly");
    assert_eq!(value(&out, "etc"), "readonly");
    assert_eq!(
        value(&out, "home"),
        "readonly",
        "the root file system is not read-only"
    );
    assert!(value(&out, "rootmount").starts_with("ro,"), "{out}");
    assert_eq!(value(&out, "ws"), "writable");
    assert_eq!(value(&out, "tmp"), "writable");
    assert_ne!(value(&out, "uid"), "0");
    assert_eq!(value(&out, "uid"), "1000");
    assert_eq!(value(&out, "CapEff"), "0000000000000000");
    assert_eq!(value(&out, "CapPrm"), "0000000000000000");
    assert_eq!(value(&out, "CapBnd"), "0000000000000000");
    assert_eq!(value(&out, "NoNewPrivs"), "1");
    assert_eq!(value(&out, "pids.max"), "77");
    assert_eq!(
        value(&out, "memory.max"),
        (300u64 * 1024 * 1024).to_string()
    );
    assert_eq!(value(&out, "tests"), "absent");
    assert_eq!(value(&out, "solution"), "absent");

    // The tmpfs /tmp is size-limited (16 MiB here).
    let fill = backend
        .exec(
            &c,
            &req(
                vec!["dd", "if=/dev/zero", "of=/tmp/fill", "bs=1M", "count=64"],
                60,
                4096,
            ),
            &cancel,
        )
        .await
        .unwrap();
    assert_ne!(
        fill.exit_code,
        Some(0),
        "a 64 MiB file fit in a 16 MiB tmpfs: {}",
        fill.output
    );

    // 8 MiB of output against a 64 KiB cap: the first 64 KiB are kept, the rest counted.
    let loud = backend
        .exec(
            &c,
            &req(vec!["head", "-c", "8388608", "/dev/zero"], 60, 64 * 1024),
            &cancel,
        )
        .await
        .unwrap();
    assert_eq!(loud.exit_code, Some(0));
    assert_eq!(loud.output.bytes().len(), 64 * 1024);
    assert_eq!(loud.output.dropped, 8 * 1024 * 1024 - 64 * 1024);
    assert!(loud.output.to_text().contains("output truncated"));

    // Past its deadline, a process is killed with its container and reported as a timeout.
    let slow = backend
        .exec(&c, &req(vec!["sleep", "300"], 2, 1024), &cancel)
        .await
        .unwrap();
    assert!(slow.timed_out);
    assert!(
        slow.duration < Duration::from_secs(60),
        "{:?}",
        slow.duration
    );
    let state = backend
        .docker()
        .inspect_container(&c.0, None)
        .await
        .unwrap()
        .state
        .unwrap();
    assert_eq!(
        state.running,
        Some(false),
        "the container must be dead after the deadline"
    );

    backend.destroy(&c).await.unwrap();
    backend.destroy_volume(&volume).await.unwrap();
    assert_eq!(
        common::labelled(&format!("nab.run={run}")),
        (vec![], vec![])
    );
}
