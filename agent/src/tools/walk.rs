//! The file walk shared by glob_files and grep_code: ripgrep's `ignore` crate, respecting
//! .gitignore even outside a git repository, showing dotfiles but never `.git/`.

use std::path::{Path, PathBuf};

use globset::{GlobBuilder, GlobMatcher};

use crate::tools::{ToolContext, ToolError};

pub fn walker(root: &Path) -> ignore::Walk {
    ignore::WalkBuilder::new(root)
        .hidden(false)
        .require_git(false)
        .git_ignore(true)
        .git_exclude(true)
        .parents(true)
        .sort_by_file_path(|a, b| a.cmp(b))
        .filter_entry(|e| e.file_name() != ".git")
        .build()
}

/// A glob matched against the path relative to the search root and, when the pattern has
/// no `/`, against the file name too (so `*.py` and `test_*.py` find files in subfolders).
pub struct PathGlob {
    matcher: GlobMatcher,
    name_only: bool,
}

impl PathGlob {
    pub fn new(pattern: &str) -> Result<PathGlob, globset::Error> {
        let matcher = GlobBuilder::new(pattern)
            .literal_separator(true)
            .backslash_escape(true)
            .build()?
            .compile_matcher();
        Ok(PathGlob {
            matcher,
            name_only: !pattern.contains('/'),
        })
    }

    pub fn is_match(&self, rel: &Path) -> bool {
        self.matcher.is_match(rel)
            || (self.name_only && rel.file_name().is_some_and(|n| self.matcher.is_match(n)))
    }
}

/// Files under `root` (a file or a folder), as (absolute, relative-to-workspace) pairs.
pub fn files(root: &Path, workspace: &Path) -> Vec<(PathBuf, PathBuf)> {
    walker(root)
        .filter_map(Result::ok)
        .filter(|e| e.file_type().is_some_and(|t| t.is_file()))
        .map(|e| {
            let abs = e.into_path();
            let rel = abs
                .strip_prefix(workspace)
                .map(Path::to_path_buf)
                .unwrap_or_else(|_| abs.clone());
            (abs, rel)
        })
        .collect()
}

/// Walks the files under `path` (a file or folder of the workspace; default its root) off
/// the async threads, keeps those `glob` matches (against the path relative to `path`), and
/// hands them to `visit` as (absolute, relative-to-workspace) pairs. `tool` names the
/// caller in the error a failed walk becomes.
pub async fn search_files<T: Send + 'static>(
    ctx: &ToolContext,
    tool: &'static str,
    path: Option<&str>,
    glob: Option<PathGlob>,
    visit: impl FnOnce(Vec<(PathBuf, PathBuf)>) -> T + Send + 'static,
) -> Result<T, ToolError> {
    let root = ctx.guard.resolve(path.unwrap_or("."))?;
    let workspace = ctx.guard.root().to_path_buf();
    tokio::task::spawn_blocking(move || {
        let found = files(&root, &workspace)
            .into_iter()
            .filter(|(abs, rel)| {
                glob.as_ref()
                    .is_none_or(|g| g.is_match(abs.strip_prefix(&root).unwrap_or(rel)))
            })
            .collect();
        visit(found)
    })
    .await
    .map_err(|source| ToolError::Task { tool, source })
}
