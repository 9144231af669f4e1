//! The verifier's `/nab`, packed on the host into one archive and copied into a volume of
//! the verifier container (its root file system is read-only, and nothing here is a bind
//! mount, so no host path or host uid decides who may read it):
//!
//! | path          | owner               | what                                                   |
//! |---------------|---------------------|--------------------------------------------------------|
//! | `/nab/tests`  | verifier, 0700      | the task's hidden tests and this trial's canaries      |
//! | `/nab/probes` | root, world-readable| the task's `tests/probes/`: code the sandbox user runs |
//! | `/nab/lib`    | root, world-readable| the broker, the Python probe, the runner's `nabverify` |
//! | `/nab/mcp-record` | verifier, 0700  | a task with `mcp_servers`: `calls.jsonl`, the calls its servers served |
//!
//! The MCP record is the MCP host's `mcp_calls.jsonl` of the trial (one
//! `nab_protocol::McpCall` a line, in the order the servers' answers passed), written on the
//! host from what the servers answered: the agent shapes it only by making real calls, and
//! nothing of the sandbox user's can read or change it here. Hidden tests replay it to check
//! what an agent wrote through a server's tools.
//!
//! `/nab/verify` (the runner's scratch and reports, verifier 0700) and `/nab/rpc` (the
//! broker's socket) are tmpfs mounts of their own.

use crate::env::sandbox::VERIFIER_UID;
use crate::trial::mcp_host::RECORD_CAP;
use include_dir::{Dir, include_dir};
use std::io;
use std::path::Path;

/// Where the hidden tests are, readable by the verifier user alone.
pub(crate) const TESTS: &str = "/nab/tests";
/// Where nab's verifier library is (the broker, the Python probe, `nabverify`).
pub(crate) const LIB: &str = "/nab/lib";
/// The runner's scratch folder and reports.
pub(crate) const SCRATCH: &str = "/nab/verify";
/// The broker's socket folder.
pub(crate) const RPC: &str = "/nab/rpc";
/// The broker's socket, where `nabverify` connects.
pub(crate) const BROKER_SOCKET: &str = "/nab/rpc/broker.sock";
/// The folder of the MCP servers' record, readable by the verifier user alone.
pub(crate) const MCP_RECORD_DIR: &str = "/nab/mcp-record";
/// The record of the calls a task's MCP servers served (`mcp_calls.jsonl` of the trial).
pub(crate) const MCP_RECORD: &str = "/nab/mcp-record/calls.jsonl";

/// The folder of a task's `tests/` that the sandbox user may read (at [`PROBES`]).
pub(crate) const PROBES_DIR: &str = "probes";

/// The broker, the Python probe and the runner's library, shipped inside nab.
static VERIFIER_LIB: Dir<'static> = include_dir!("$CARGO_MANIFEST_DIR/verifier");

/// The archive to extract at `/nab`: the hidden tests from `tests` plus `planted` (file
/// name, contents) in `tests/`, the probes, and the library. With `tests_shared` (a task
/// whose tests run beside the code under test, `verifier: shared`), every user may read
/// the tests. With `mcp_record` (a task with `mcp_servers`), the servers' record goes to
/// [`MCP_RECORD`], the verifier's alone whatever `tests_shared` says, cut after the last
/// whole line within [`RECORD_CAP`] bytes.
pub(crate) fn pack(
    tests: &Path,
    planted: &[(String, String)],
    tests_shared: bool,
    mcp_record: Option<&[u8]>,
) -> io::Result<Vec<u8>> {
    let mut b = tar::Builder::new(Vec::new());
    b.follow_symlinks(false);
    let public = Owner {
        uid: 0,
        dir_mode: 0o755,
        file_mode: |m| if m & 0o111 != 0 { 0o755 } else { 0o644 },
    };
    let verifier = if tests_shared {
        public.clone()
    } else {
        Owner {
            uid: VERIFIER_UID,
            dir_mode: 0o700,
            file_mode: |m| 0o600 | (m & 0o100),
        }
    };
    append_dir(&mut b, "tests", &verifier)?;
    // A task checked on the host alone may have no tests/ at all.
    if tests.is_dir() {
        append_tree(&mut b, tests, Path::new("tests"), &verifier)?;
    }
    for (name, text) in planted {
        append_file(
            &mut b,
            &format!("tests/{name}"),
            text.as_bytes(),
            0o600,
            &verifier,
        )?;
    }
    if let Some(record) = mcp_record {
        let private = Owner {
            uid: VERIFIER_UID,
            dir_mode: 0o700,
            file_mode: |_| 0o600,
        };
        // Paths in the archive are relative to /nab.
        let relative = |p: &'static str| p.trim_start_matches("/nab/");
        append_dir(&mut b, relative(MCP_RECORD_DIR), &private)?;
        append_file(
            &mut b,
            relative(MCP_RECORD),
            whole_lines(record, RECORD_CAP),
            0o600,
            &private,
        )?;
    }
    append_dir(&mut b, "probes", &public)?;
    let probes = tests.join(PROBES_DIR);
    if probes.is_dir() {
        append_tree(&mut b, &probes, Path::new("probes"), &public)?;
    }
    append_dir(&mut b, "lib", &public)?;
    append_embedded(&mut b, &VERIFIER_LIB, &public)?;
    b.into_inner()
}

/// `bytes` up to `cap`, cut after the last newline when longer.
fn whole_lines(bytes: &[u8], cap: usize) -> &[u8] {
    if bytes.len() <= cap {
        return bytes;
    }
    let head = &bytes[..cap];
    head.iter()
        .rposition(|&b| b == b'\n')
        .map_or(&head[..0], |i| &head[..=i])
}

/// Who owns a part of the tree, and the permissions its folders and files get.
#[derive(Clone)]
struct Owner {
    uid: u32,
    dir_mode: u32,
    /// A file's mode from its mode on the host (keeps it executable, or not).
    file_mode: fn(u32) -> u32,
}

fn header(owner: &Owner, mode: u32) -> tar::Header {
    let mut h = tar::Header::new_gnu();
    h.set_uid(owner.uid.into());
    h.set_gid(owner.uid.into());
    h.set_mode(mode);
    h.set_mtime(0);
    h
}

fn append_dir(b: &mut tar::Builder<Vec<u8>>, path: &str, owner: &Owner) -> io::Result<()> {
    let mut h = header(owner, owner.dir_mode);
    h.set_entry_type(tar::EntryType::Directory);
    h.set_size(0);
    b.append_data(&mut h, path, io::empty())
}

fn append_file(
    b: &mut tar::Builder<Vec<u8>>,
    path: &str,
    data: &[u8],
    mode: u32,
    owner: &Owner,
) -> io::Result<()> {
    let mut h = header(owner, (owner.file_mode)(mode));
    h.set_entry_type(tar::EntryType::Regular);
    h.set_size(data.len() as u64);
    b.append_data(&mut h, path, data)
}

/// Everything under `root` as `prefix/...`, owned by `owner`. Links are stored as links
/// (the folder is the suite's own); special files are skipped.
fn append_tree(
    b: &mut tar::Builder<Vec<u8>>,
    root: &Path,
    prefix: &Path,
    owner: &Owner,
) -> io::Result<()> {
    use std::os::unix::fs::PermissionsExt;
    for entry in walkdir::WalkDir::new(root)
        .follow_links(false)
        .min_depth(1)
        .sort_by_file_name()
    {
        let entry = entry.map_err(io::Error::other)?;
        let rel = entry.path().strip_prefix(root).map_err(io::Error::other)?;
        let path = prefix.join(rel);
        let meta = std::fs::symlink_metadata(entry.path())?;
        let ft = meta.file_type();
        if ft.is_dir() {
            append_dir(b, &path.to_string_lossy(), owner)?;
        } else if ft.is_file() {
            let data = std::fs::read(entry.path())?;
            let mode = meta.permissions().mode();
            append_file(b, &path.to_string_lossy(), &data, mode, owner)?;
        } else if ft.is_symlink() {
            let mut h = header(owner, 0o777);
            h.set_entry_type(tar::EntryType::Symlink);
            h.set_size(0);
            b.append_link(&mut h, &path, std::fs::read_link(entry.path())?)?;
        }
    }
    Ok(())
}

/// The embedded library under `lib/`, without byte code (a developer's run leaves some).
fn append_embedded(b: &mut tar::Builder<Vec<u8>>, dir: &Dir<'_>, owner: &Owner) -> io::Result<()> {
    for d in dir.dirs() {
        if d.path().file_name().is_some_and(|n| n == "__pycache__") {
            continue;
        }
        append_dir(b, &format!("lib/{}", d.path().display()), owner)?;
        append_embedded(b, d, owner)?;
    }
    for f in dir.files() {
        if f.path().extension().is_some_and(|e| e == "pyc") {
            continue;
        }
        append_file(
            b,
            &format!("lib/{}", f.path().display()),
            f.contents(),
            0o644,
            owner,
        )?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::unix::fs::PermissionsExt;

    fn entries(tar: &[u8]) -> Vec<(String, u64, u32)> {
        let mut a = tar::Archive::new(tar);
        a.entries()
            .unwrap()
            .map(|e| {
                let e = e.unwrap();
                let h = e.header();
                (
                    e.path().unwrap().to_string_lossy().into_owned(),
                    h.uid().unwrap(),
                    h.mode().unwrap(),
                )
            })
            .collect()
    }

    #[test]
    fn hidden_tests_belong_to_the_verifier_alone_and_probes_and_the_library_to_everyone() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("test_a.py"), "x").unwrap();
        std::fs::create_dir(dir.path().join("probes")).unwrap();
        std::fs::write(dir.path().join("probes/run.sh"), "echo").unwrap();
        std::fs::set_permissions(
            dir.path().join("probes/run.sh"),
            std::fs::Permissions::from_mode(0o755),
        )
        .unwrap();
        let shared = pack(dir.path(), &[], true, None).unwrap();
        assert!(
            entries(&shared)
                .iter()
                .any(|(n, uid, mode)| n == "tests/test_a.py" && *uid == 0 && *mode == 0o644),
            "a shared task's tests are readable by everyone"
        );
        let tar = pack(dir.path(), &[("test_c.py".into(), "y".into())], false, None).unwrap();
        let all = entries(&tar);
        let find = |p: &str| {
            all.iter()
                .find(|(n, ..)| n.trim_end_matches('/') == p)
                .unwrap_or_else(|| panic!("{p} not in {all:?}"))
                .clone()
        };
        assert_eq!(find("tests"), ("tests".into(), 2000, 0o700));
        assert_eq!(find("tests/test_a.py").1, 2000);
        assert_eq!(
            find("tests/test_a.py").2 & 0o077,
            0,
            "no group or other bits"
        );
        assert_eq!(find("tests/test_c.py").1, 2000);
        assert_eq!(find("probes/run.sh").1, 0);
        assert_eq!(find("probes/run.sh").2, 0o755);
        assert_eq!(find("lib/broker.py").2, 0o644);
        assert_eq!(find("lib/nabverify/__init__.py").1, 0);
        assert!(!all.iter().any(|(n, ..)| n.ends_with(".pyc")));
        assert!(
            !all.iter().any(|(n, ..)| n.starts_with("mcp-record")),
            "no record without MCP servers"
        );
    }

    #[test]
    fn the_mcp_record_is_the_verifiers_alone_even_for_shared_tests_and_cut_at_a_line() {
        let dir = tempfile::tempdir().unwrap();
        for shared in [false, true] {
            let tar = pack(dir.path(), &[], shared, Some(b"{\"a\":1}\n")).unwrap();
            let all = entries(&tar);
            let find = |p: &str| {
                all.iter()
                    .find(|(n, ..)| n.trim_end_matches('/') == p)
                    .unwrap_or_else(|| panic!("{p} not in {all:?}"))
                    .clone()
            };
            assert_eq!(find("mcp-record"), ("mcp-record".into(), 2000, 0o700));
            assert_eq!(
                find("mcp-record/calls.jsonl"),
                ("mcp-record/calls.jsonl".into(), 2000, 0o600)
            );
        }
        assert_eq!(whole_lines(b"ab\ncd\nef", 7), b"ab\ncd\n");
        assert_eq!(whole_lines(b"abcdef", 3), b"");
        assert_eq!(whole_lines(b"ab\n", 3), b"ab\n");
    }
}
