//! The seccomp profile nab gives containers on Podman. Podman's default profile (4.3, from
//! containers-common) allows `unshare`, `clone` and `clone3` to everyone, so the sandbox
//! user could make a user namespace and be root in it (selftest's sandbox-privileges);
//! Docker's default allows them only without namespace flags. nab takes the engine host's
//! default profile and makes those three calls what they are on Docker: `clone` and
//! `unshare` only without namespace flags, `clone3` not implemented (its flags are out of
//! seccomp's reach; the C library falls back to `clone`). Every other rule stays.

use serde_json::{Value, json};
use sha2::Digest;
use std::path::{Path, PathBuf};

/// Where Podman reads its default profile; the first that exists is the engine's.
const DEFAULTS: [&str; 2] = [
    "/etc/containers/seccomp.json",
    "/usr/share/containers/seccomp.json",
];
/// CLONE_NEWNS | CLONE_NEWCGROUP | CLONE_NEWUTS | CLONE_NEWIPC | CLONE_NEWUSER |
/// CLONE_NEWPID | CLONE_NEWNET: the flags that make a namespace.
const NAMESPACE_FLAGS: u64 = 0x7E02_0000;
/// ENOSYS.
const NOT_IMPLEMENTED: u64 = 38;

/// Why no profile could be made.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub(super) enum SeccompError {
    #[error(
        "Podman's default seccomp profile is at none of {DEFAULTS:?} on this machine: nab needs it to keep the sandbox user from making user namespaces (Podman's default allows it; nab runs only on engines that share this machine's paths)"
    )]
    NoDefault,
    #[error("cannot read Podman's seccomp profile {}: {source}", path.display())]
    Read {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("Podman's seccomp profile {} is not a profile nab can read: {why}", path.display())]
    Unreadable { path: PathBuf, why: String },
    #[error("cannot write the seccomp profile for Podman to {}: {source} (NAB_STATE_DIR chooses the folder)", path.display())]
    Write {
        path: PathBuf,
        source: std::io::Error,
    },
}

/// The path of the tightened profile (written once per content, under nab's state folder
/// `$NAB_STATE_DIR`, default /var/lib/nab, which the engine sees as it sees bind mounts).
pub(super) fn podman_profile() -> Result<PathBuf, SeccompError> {
    let source = DEFAULTS
        .iter()
        .map(Path::new)
        .find(|p| p.is_file())
        .ok_or(SeccompError::NoDefault)?;
    let text = std::fs::read_to_string(source).map_err(|e| SeccompError::Read {
        path: source.to_owned(),
        source: e,
    })?;
    let unreadable = |why: String| SeccompError::Unreadable {
        path: source.to_owned(),
        why,
    };
    let profile: Value = serde_json::from_str(&text).map_err(|e| unreadable(e.to_string()))?;
    let out = serde_json::to_vec(&tightened(profile).map_err(unreadable)?)
        .map_err(|e| unreadable(e.to_string()))?;
    let digest = hex::encode(&sha2::Sha256::digest(&out)[..8]);
    let dir = std::env::var_os("NAB_STATE_DIR")
        .map_or_else(|| PathBuf::from("/var/lib/nab"), PathBuf::from)
        .join("seccomp");
    let path = dir.join(format!("podman-{digest}.json"));
    if !path.is_file() {
        let write = |e| SeccompError::Write {
            path: path.clone(),
            source: e,
        };
        std::fs::create_dir_all(&dir).map_err(write)?;
        // Written beside and renamed: a concurrent run never reads half a profile.
        let tmp = dir.join(format!(".podman-{digest}.{}", std::process::id()));
        std::fs::write(&tmp, &out).map_err(write)?;
        std::fs::rename(&tmp, &path).map_err(write)?;
    }
    Ok(path)
}

/// `profile` with `clone`, `unshare` and `clone3` taken out of every rule and given
/// Docker's rules for them instead.
fn tightened(mut profile: Value) -> Result<Value, String> {
    let rules = profile
        .get_mut("syscalls")
        .and_then(Value::as_array_mut)
        .ok_or("it has no `syscalls` list")?;
    for rule in rules.iter_mut() {
        if let Some(names) = rule.get_mut("names").and_then(Value::as_array_mut) {
            names.retain(|n| !matches!(n.as_str(), Some("clone" | "unshare" | "clone3")));
        }
    }
    rules.retain(|r| {
        r.get("names")
            .and_then(Value::as_array)
            .is_none_or(|n| !n.is_empty())
    });
    let without_namespaces = json!([{
        "index": 0, "value": NAMESPACE_FLAGS, "valueTwo": 0, "op": "SCMP_CMP_MASKED_EQ"
    }]);
    rules.push(json!({"names": ["clone"], "action": "SCMP_ACT_ALLOW", "args": without_namespaces}));
    rules.push(
        json!({"names": ["unshare"], "action": "SCMP_ACT_ALLOW", "args": without_namespaces}),
    );
    rules.push(
        json!({"names": ["clone3"], "action": "SCMP_ACT_ERRNO", "errnoRet": NOT_IMPLEMENTED}),
    );
    Ok(profile)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rules_for<'a>(p: &'a Value, name: &str) -> Vec<&'a Value> {
        p["syscalls"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|r| r["names"].as_array().unwrap().iter().any(|n| n == name))
            .collect()
    }

    #[test]
    fn namespaces_are_taken_out_of_podmans_allow_list_and_nothing_else_is() {
        let podman = json!({
            "defaultAction": "SCMP_ACT_ERRNO",
            "syscalls": [
                {"names": ["read", "clone", "unshare", "clone3", "write"], "action": "SCMP_ACT_ALLOW", "args": []},
                {"names": ["clone3"], "action": "SCMP_ACT_ALLOW", "args": []},
                {"names": ["setns"], "action": "SCMP_ACT_ALLOW", "includes": {"caps": ["CAP_SYS_ADMIN"]}}
            ]
        });
        let p = tightened(podman).unwrap();
        assert_eq!(p["defaultAction"], "SCMP_ACT_ERRNO");
        assert_eq!(rules_for(&p, "read").len(), 1);
        assert_eq!(rules_for(&p, "write").len(), 1);
        assert_eq!(rules_for(&p, "setns").len(), 1);
        for name in ["clone", "unshare"] {
            let rules = rules_for(&p, name);
            assert_eq!(rules.len(), 1, "{name}: {rules:?}");
            assert_eq!(rules[0]["args"][0]["value"], NAMESPACE_FLAGS);
            assert_eq!(rules[0]["args"][0]["op"], "SCMP_CMP_MASKED_EQ");
        }
        let clone3 = rules_for(&p, "clone3");
        assert_eq!(clone3.len(), 1);
        assert_eq!(clone3[0]["action"], "SCMP_ACT_ERRNO");
        // The rule left with no name is dropped, not kept empty.
        assert!(
            p["syscalls"]
                .as_array()
                .unwrap()
                .iter()
                .all(|r| !r["names"].as_array().unwrap().is_empty())
        );
    }

    #[test]
    fn a_profile_without_syscalls_is_refused() {
        assert!(tightened(json!({"defaultAction": "SCMP_ACT_ALLOW"})).is_err());
    }
}
