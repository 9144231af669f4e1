//! What the sandbox promises, checked from inside a real container. One container carries
//! several probes (2 shared cores): network, read-only root, writable workspace, identity
//! and capabilities, cgroup limits, absent hidden tests, tmpfs sizes, owners and contents,
//! the output cap, and the deadline. The same probes run on Docker and on Podman.

use crate::common;

use nab_harness::env::sandbox::{
    ContainerSpec, DockerBackend, ExecRequest, ExecUser, Flavor, Labels, Lockdown, SandboxBackend,
    TmpfsMount, VERIFIER_UID,
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
# Root in a user namespace of its own (Podman's default seccomp profile allows it).
unshare -Ur true 2>/dev/null && echo userns=made || echo userns=refused
for f in /sys/fs/cgroup/pids.max /sys/fs/cgroup/pids/pids.max; do [ -r $f ] && echo "pids.max=$(cat $f)"; done
for f in /sys/fs/cgroup/memory.max /sys/fs/cgroup/memory/memory.limit_in_bytes; do [ -r $f ] && echo "memory.max=$(cat $f)"; done
[ -e /nab/tests ] && echo tests=present || echo tests=absent
[ -e /nab/solution ] && echo solution=present || echo solution=absent
# The image planted /tmp/planted: the tmpfs over /tmp does not show it.
[ -e /tmp/planted ] && echo tmpplanted=present || echo tmpplanted=absent
echo "private=$(stat -c '%u:%g:%a' /nab/private)"
ls -A /nab/private >/dev/null 2>&1 && echo privatels=readable || echo privatels=denied
touch /nab/private/x 2>/dev/null && echo privatew=writable || echo privatew=denied
"#;

/// The base image with a file where every container mounts a tmpfs: an engine that copies
/// the image up into a tmpfs (Podman does unless told `notmpcopyup`) would show it.
const PLANTED: &str = "FROM {base}\nCOPY planted /tmp/planted\n";

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
    let docker = nab_harness::env::sandbox::connect().await.unwrap();
    let image = planted_image(&docker, &common::base_image().await).await;
    let run = common::unique("lockdown");
    let _sweep = common::SweepOnDrop(run.clone());
    probe(DockerBackend::new(docker), image, &run).await;
    assert_eq!(
        common::labelled(&format!("nab.run={run}")),
        (vec![], vec![])
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn on_podman_a_container_is_locked_down_capped_and_killed_at_its_deadline() {
    let Some(podman) = common::podman::engine().await else {
        return;
    };
    let base = common::podman::base_image(&podman).await;
    let image = planted_image(&podman, &base).await;
    let run = common::unique("lockdown-podman");
    let _sweep = common::podman::SweepOnDrop(run.clone());
    let backend = DockerBackend::new(podman);
    assert!(
        matches!(backend.flavor().await.unwrap(), Flavor::Podman(_)),
        "the engine at {} is not Podman",
        common::podman::url()
    );
    probe(backend, image, &run).await;
    assert_eq!(
        common::podman::labelled(&format!("nab.run={run}")),
        (vec![], vec![])
    );
}

#[tokio::test(flavor = "multi_thread")]
async fn on_a_remote_engine_a_container_is_locked_down_capped_and_killed_at_its_deadline() {
    // The engine of `remote_engine`: its own network and mount namespaces, none of our paths.
    let socket = crate::remote_engine::start_engine();
    let base = common::base_image().await;
    let engine = crate::remote_engine::with_images(&socket, std::slice::from_ref(&base)).await;
    let image = planted_image(&engine, &base).await;
    let run = common::unique("lockdown-remote");
    let relay = nab_harness::trial::model::locate_binary("nab-relay").unwrap();
    let backend =
        DockerBackend::remote(engine, nab_harness::env::sandbox::Remote::new(Some(relay)));
    probe(backend, image, &run).await;
    let label = format!("label=nab.run={run}");
    let left = crate::remote_engine::remote_docker(&socket, &["ps", "-aq", "--filter", &label])
        + &crate::remote_engine::remote_docker(
            &socket,
            &["volume", "ls", "-q", "--filter", &label],
        );
    assert_eq!(left.trim(), "", "left on the remote engine");
}

/// [`PLANTED`] on `engine`, built when missing.
async fn planted_image(engine: &nab_harness::env::sandbox::Engine, base: &str) -> String {
    use futures::StreamExt;
    let tag = format!("nab-test-planted:{}", base.rsplit(':').next().unwrap());
    if nab_harness::env::sandbox::engine::image_exists(engine, &tag)
        .await
        .unwrap()
    {
        return tag;
    }
    let mut tar = tar::Builder::new(Vec::new());
    for (name, body) in [
        ("Dockerfile", PLANTED.replace("{base}", base)),
        ("planted", "planted by the image\n".to_owned()),
    ] {
        let mut h = tar::Header::new_gnu();
        h.set_size(body.len() as u64);
        h.set_mode(0o644);
        h.set_cksum();
        tar.append_data(&mut h, name, body.as_bytes()).unwrap();
    }
    let context = tar.into_inner().unwrap();
    let events: Vec<_> = nab_harness::env::sandbox::engine::build_image(engine, &tag, context)
        .collect()
        .await;
    for ev in events {
        if let nab_harness::env::sandbox::engine::BuildEvent::Failed(m) = ev.unwrap() {
            panic!("building {tag}: {m}");
        }
    }
    tag
}

async fn probe(backend: DockerBackend, image: String, run: &str) {
    let labels = Labels {
        run: run.to_owned(),
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
        tmpfs: vec![TmpfsMount {
            path: "/nab/private".into(),
            mb: 4,
            uid: VERIFIER_UID,
            mode: 0o700,
        }],
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
    assert_eq!(value(&out, "userns"), "refused");
    assert_eq!(value(&out, "pids.max"), "77");
    assert_eq!(
        value(&out, "memory.max"),
        (300u64 * 1024 * 1024).to_string()
    );
    assert_eq!(value(&out, "tests"), "absent");
    assert_eq!(value(&out, "solution"), "absent");
    assert_eq!(
        value(&out, "tmpplanted"),
        "absent",
        "the image's /tmp shows through"
    );
    assert_eq!(
        value(&out, "private"),
        format!("{VERIFIER_UID}:{VERIFIER_UID}:700")
    );
    assert_eq!(value(&out, "privatels"), "denied");
    assert_eq!(value(&out, "privatew"), "denied");
    let mine = backend
        .exec(
            &c,
            &ExecRequest {
                user: ExecUser::Verifier,
                ..req(vec!["touch", "/nab/private/ok"], 60, 4096)
            },
            &cancel,
        )
        .await
        .unwrap();
    assert_eq!(mine.exit_code, Some(0), "{}", mine.output);

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
}
