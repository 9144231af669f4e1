//! Every path a tool touches must resolve inside the workspace.
//!
//! Resolution: take the path (relative to the workspace, or absolute), find its nearest
//! ancestor that exists, resolve that ancestor's real path (following every symlink), and
//! append the rest. The rest does not exist yet, so it must hold no `..` and no dangling
//! symlink; the result must lie under the workspace's real path. This covers files that do
//! not exist yet (`new_dir/sub/file.py`) as well as symlinks and symlink chains pointing out.

use std::ffi::OsString;
use std::io;
use std::path::{Path, PathBuf};

#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum PathError {
    #[error(
        "path `{path}` is outside the workspace (it resolves to {resolved}); only paths under the workspace are allowed"
    )]
    Outside { path: String, resolved: String },
    #[error(
        "path `{path}` uses `..` below a folder that does not exist; write the path without `..`"
    )]
    DotDotInMissing { path: String },
    #[error("path `{path}` goes through a dangling symlink `{link}`; refusing to follow it")]
    DanglingSymlink { path: String, link: String },
    #[error("path is empty")]
    Empty,
    #[error("cannot resolve path `{path}`: {source}")]
    Io {
        path: String,
        #[source]
        source: io::Error,
    },
}

#[derive(Debug, Clone)]
pub struct PathGuard {
    root: PathBuf,
}

impl PathGuard {
    /// `workspace` must exist; it is canonicalized once.
    pub fn new(workspace: &Path) -> io::Result<PathGuard> {
        Ok(PathGuard {
            root: std::fs::canonicalize(workspace)?,
        })
    }

    /// The workspace's real path.
    pub fn root(&self) -> &Path {
        &self.root
    }

    /// Resolves `user_path` to a real path inside the workspace, or says why not.
    pub fn resolve(&self, user_path: &str) -> Result<PathBuf, PathError> {
        if user_path.trim().is_empty() {
            return Err(PathError::Empty);
        }
        let given = Path::new(user_path);
        let joined = if given.is_absolute() {
            given.to_path_buf()
        } else {
            self.root.join(given)
        };

        // Walk up until an ancestor exists (following symlinks); keep the missing tail.
        let mut tail: Vec<OsString> = Vec::new();
        let mut cursor = joined.as_path();
        let base = loop {
            match std::fs::canonicalize(cursor) {
                Ok(real) => break real,
                Err(e)
                    if matches!(
                        e.kind(),
                        io::ErrorKind::NotFound | io::ErrorKind::NotADirectory
                    ) =>
                {
                    let Some(name) = cursor.file_name() else {
                        // `..` or `/`: a component we cannot peel without resolving it.
                        return Err(PathError::DotDotInMissing {
                            path: user_path.into(),
                        });
                    };
                    // A missing tail component that is itself a symlink is dangling.
                    if std::fs::symlink_metadata(cursor).is_ok_and(|m| m.file_type().is_symlink()) {
                        return Err(PathError::DanglingSymlink {
                            path: user_path.into(),
                            link: cursor.display().to_string(),
                        });
                    }
                    tail.push(name.to_os_string());
                    cursor = cursor.parent().ok_or(PathError::DotDotInMissing {
                        path: user_path.into(),
                    })?;
                }
                Err(source) => {
                    return Err(PathError::Io {
                        path: user_path.into(),
                        source,
                    });
                }
            }
        };
        // Only plain names were peeled into `tail` (a `..` stops the walk above), so the
        // missing part cannot climb out; the existing part is a real path already.
        let mut resolved = base;
        for part in tail.iter().rev() {
            resolved.push(part);
        }
        if !resolved.starts_with(&self.root) {
            return Err(PathError::Outside {
                path: user_path.into(),
                resolved: resolved.display().to_string(),
            });
        }
        Ok(resolved)
    }

    /// `p` relative to the workspace, for messages (`.` for the root).
    pub fn display(&self, p: &Path) -> String {
        match p.strip_prefix(&self.root) {
            Ok(rel) if rel.as_os_str().is_empty() => ".".into(),
            Ok(rel) => rel.display().to_string(),
            Err(_) => p.display().to_string(),
        }
    }
}
