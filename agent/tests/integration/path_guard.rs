//! The path guard: escapes by `..`, absolute paths, symlinks and symlink chains are refused;
//! paths under folders that do not exist yet resolve inside the workspace.

use std::os::unix::fs::symlink;

use nab_agent::{PathError, PathGuard};

fn setup() -> (tempfile::TempDir, PathGuard) {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(dir.path().join("src/pkg")).unwrap();
    std::fs::write(dir.path().join("src/pkg/a.py"), "x").unwrap();
    let guard = PathGuard::new(dir.path()).unwrap();
    (dir, guard)
}

#[test]
fn dot_dot_escapes_are_refused() {
    let (_d, g) = setup();
    for p in [
        "../outside.txt",
        "src/../../x",
        "src/pkg/../../../etc/passwd",
        "..",
    ] {
        let err = g.resolve(p).unwrap_err();
        assert!(matches!(err, PathError::Outside { .. }), "{p}: {err}");
        assert!(err.to_string().contains("outside the workspace"), "{err}");
    }
    // `..` that stays inside is fine.
    assert_eq!(
        g.resolve("src/pkg/../pkg/a.py").unwrap(),
        g.root().join("src/pkg/a.py")
    );
}

#[test]
fn absolute_paths_outside_are_refused_and_inside_accepted() {
    let (_d, g) = setup();
    assert!(matches!(
        g.resolve("/etc/passwd").unwrap_err(),
        PathError::Outside { .. }
    ));
    assert!(matches!(
        g.resolve("/tmp").unwrap_err(),
        PathError::Outside { .. }
    ));
    let inside = g.root().join("src/pkg/a.py");
    assert_eq!(g.resolve(inside.to_str().unwrap()).unwrap(), inside);
}

#[test]
fn a_symlink_to_etc_is_refused() {
    let (d, g) = setup();
    symlink("/etc", d.path().join("etc_link")).unwrap();
    let err = g.resolve("etc_link/passwd").unwrap_err();
    assert!(
        matches!(err, PathError::Outside { ref resolved, .. } if resolved == "/etc/passwd"),
        "{err}"
    );
    // Also a file that does not exist behind the link (a write target).
    assert!(matches!(
        g.resolve("etc_link/new.conf").unwrap_err(),
        PathError::Outside { .. }
    ));
    assert!(matches!(
        g.resolve("etc_link").unwrap_err(),
        PathError::Outside { .. }
    ));
}

#[test]
fn a_symlink_chain_that_ends_outside_is_refused() {
    let (d, g) = setup();
    let outside = tempfile::tempdir().unwrap();
    std::fs::write(outside.path().join("secret.txt"), "s").unwrap();
    symlink(outside.path(), d.path().join("hop3")).unwrap();
    symlink(d.path().join("hop3"), d.path().join("hop2")).unwrap();
    symlink("hop2", d.path().join("hop1")).unwrap();
    let err = g.resolve("hop1/secret.txt").unwrap_err();
    assert!(matches!(err, PathError::Outside { .. }), "{err}");
    // A chain that stays inside is followed.
    symlink("src/pkg", d.path().join("inner2")).unwrap();
    symlink("inner2", d.path().join("inner1")).unwrap();
    assert_eq!(
        g.resolve("inner1/a.py").unwrap(),
        g.root().join("src/pkg/a.py")
    );
}

#[test]
fn a_dangling_symlink_is_not_followed() {
    let (d, g) = setup();
    symlink(
        "/etc/nab-agent-test-does-not-exist",
        d.path().join("dangling"),
    )
    .unwrap();
    let err = g.resolve("dangling").unwrap_err();
    assert!(matches!(err, PathError::DanglingSymlink { .. }), "{err}");
}

#[test]
fn paths_under_folders_that_do_not_exist_yet_resolve_inside() {
    let (_d, g) = setup();
    assert_eq!(
        g.resolve("new/deeper/file.py").unwrap(),
        g.root().join("new/deeper/file.py")
    );
    assert_eq!(
        g.resolve("src/pkg/new_mod/b.py").unwrap(),
        g.root().join("src/pkg/new_mod/b.py")
    );
    // `..` below a missing folder cannot be checked against the disk: refused.
    let err = g.resolve("new/../../../etc/passwd").unwrap_err();
    assert!(matches!(err, PathError::DotDotInMissing { .. }), "{err}");
    let err = g.resolve("new/../x").unwrap_err();
    assert!(matches!(err, PathError::DotDotInMissing { .. }), "{err}");
}

#[test]
fn the_workspace_itself_and_empty_paths() {
    let (_d, g) = setup();
    assert_eq!(g.resolve(".").unwrap(), g.root());
    assert!(matches!(g.resolve("  ").unwrap_err(), PathError::Empty));
}
