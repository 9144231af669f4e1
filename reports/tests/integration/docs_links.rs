//! The README and the book in `docs/` link only to what exists (issue 37).
//!
//! Every relative link of `README.md` and of `docs/src/**/*.md` (`[x](path)`,
//! `[x](path#anchor)`, `[x](#anchor)`, `[x]: path`) must name a file that exists, and its
//! `#anchor` must be the slug of a heading of the target page (GitHub's and mdBook's rule:
//! lower case, whitespace to `-`, punctuation other than `-` and `_` dropped, a repeated
//! heading numbered `-1`, `-2`, …). A page of the book may not link out of `docs/src` (such a
//! link is dead in the built book: the crates' READMEs are included on pages of their own with
//! `{{#include}}`, whose headings count as the page's). Every page in `docs/src` must be in
//! `SUMMARY.md`, and every page `SUMMARY.md` names must exist. Links inside code (fenced
//! blocks, inline spans) are not links.

use std::collections::BTreeSet;
use std::path::{Component, Path, PathBuf};

/// What a check went through: enough to tell it did not check nothing.
#[derive(Debug, Default)]
struct Checked {
    pages: usize,
    links: usize,
    anchors: usize,
}

/// Checks `root`'s README.md and book; returns what was checked, or every problem found.
fn check(root: &Path) -> Result<Checked, Vec<String>> {
    let book = root.join("docs/src");
    let mut problems = Vec::new();
    let mut checked = Checked::default();

    let mut pages = vec![root.join("README.md")];
    let mut book_pages = Vec::new();
    for entry in walkdir::WalkDir::new(&book).sort_by_file_name() {
        match entry {
            Ok(e) if e.file_type().is_file() && e.path().extension() == Some("md".as_ref()) => {
                book_pages.push(e.path().to_path_buf());
            }
            Ok(_) => {}
            Err(e) => problems.push(format!("{}: {e}", book.display())),
        }
    }
    pages.extend(book_pages.iter().cloned());

    for page in &pages {
        let text = match std::fs::read_to_string(page) {
            Ok(t) => t,
            Err(e) => {
                problems.push(format!("{}: {e}", page.display()));
                continue;
            }
        };
        checked.pages += 1;
        let in_book = page.starts_with(&book);
        for (line, target) in links(&text) {
            checked.links += 1;
            let at = format!("{}:{line}: link `{target}`", rel(root, page));
            let (path, anchor) = match target.split_once('#') {
                Some((p, a)) => (p, Some(a)),
                None => (target.as_str(), None),
            };
            let file = if path.is_empty() {
                page.clone()
            } else {
                normalize(&page.parent().unwrap_or(root).join(path))
            };
            if in_book && !file.starts_with(&book) {
                problems.push(format!(
                    "{at}: leaves docs/src, so it is dead in the built book (include the file on a page instead)"
                ));
                continue;
            }
            if !file.exists() {
                problems.push(format!("{at}: no file {}", rel(root, &file)));
                continue;
            }
            let Some(anchor) = anchor else { continue };
            checked.anchors += 1;
            if file.extension() != Some("md".as_ref()) {
                problems.push(format!("{at}: an anchor into a file that is not Markdown"));
                continue;
            }
            match page_headings(&file) {
                Ok(slugs) if slugs.iter().any(|s| s == anchor) => {}
                Ok(slugs) => problems.push(format!(
                    "{at}: no heading `#{anchor}` in {} (it has: {})",
                    rel(root, &file),
                    slugs.join(", ")
                )),
                Err(e) => problems.push(format!("{at}: {e}")),
            }
        }
    }

    // SUMMARY.md against the pages.
    let summary = book.join("SUMMARY.md");
    match std::fs::read_to_string(&summary) {
        Ok(text) => {
            let mut listed = BTreeSet::new();
            for (line, target) in links(&text) {
                let file = normalize(&book.join(target.split('#').next().unwrap_or("")));
                if !file.is_file() {
                    problems.push(format!(
                        "docs/src/SUMMARY.md:{line}: names `{target}`, which is not a page"
                    ));
                }
                listed.insert(file);
            }
            for page in &book_pages {
                if *page != summary && !listed.contains(page) {
                    problems.push(format!(
                        "{}: not in docs/src/SUMMARY.md, so the book leaves it out",
                        rel(root, page)
                    ));
                }
            }
        }
        Err(e) => problems.push(format!("{}: {e}", summary.display())),
    }

    if problems.is_empty() {
        Ok(checked)
    } else {
        Err(problems)
    }
}

fn rel(root: &Path, p: &Path) -> String {
    p.strip_prefix(root).unwrap_or(p).display().to_string()
}

/// `a/b/../c` to `a/c`, without touching the file system.
fn normalize(p: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for c in p.components() {
        match c {
            Component::ParentDir => {
                out.pop();
            }
            Component::CurDir => {}
            other => out.push(other),
        }
    }
    out
}

/// Lines of `text` outside fenced code blocks, with inline code spans blanked out; numbered
/// from 1.
fn prose_lines(text: &str) -> Vec<(usize, String)> {
    let mut fence: Option<String> = None;
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let trimmed = line.trim_start();
        let marker: String = trimmed
            .chars()
            .take_while(|c| *c == '`' || *c == '~')
            .collect();
        if marker.len() >= 3
            && marker
                .chars()
                .all(|c| c == marker.chars().next().unwrap_or('`'))
        {
            match &fence {
                None => fence = Some(marker),
                Some(open) if marker.starts_with(open.as_str()) => fence = None,
                Some(_) => {}
            }
            continue;
        }
        if fence.is_some() {
            continue;
        }
        let mut code = false;
        let blanked: String = line
            .chars()
            .map(|c| {
                if c == '`' {
                    code = !code;
                    ' '
                } else if code {
                    ' '
                } else {
                    c
                }
            })
            .collect();
        out.push((i + 1, blanked));
    }
    out
}

/// The relative link targets of a Markdown page, with their line numbers: inline links and
/// images, and reference definitions. Links with a scheme (`https:`, `mailto:`) are left out.
fn links(text: &str) -> Vec<(usize, String)> {
    let mut out = Vec::new();
    for (n, line) in prose_lines(text) {
        let mut targets = Vec::new();
        let mut rest = line.as_str();
        while let Some(i) = rest.find("](") {
            let after = &rest[i + 2..];
            let end = after.find(')').unwrap_or(after.len());
            // `(path "title")`: the target ends at the first space.
            let target = after[..end].split_whitespace().next().unwrap_or("");
            targets.push(target.trim_matches(|c| c == '<' || c == '>').to_owned());
            rest = &after[end..];
        }
        let t = line.trim_start();
        if let Some(def) = t.strip_prefix('[')
            && let Some((label, target)) = def.split_once("]:")
            && !label.is_empty()
        {
            targets.push(target.split_whitespace().next().unwrap_or("").to_owned());
        }
        for target in targets {
            let external = target.contains("://") || target.starts_with("mailto:");
            if !target.is_empty() && !external {
                out.push((n, target));
            }
        }
    }
    out
}

/// The anchors of a page: its headings' slugs, those of the files it includes with mdBook's
/// `{{#include path}}` among them.
fn page_headings(page: &Path) -> Result<Vec<String>, String> {
    let text = std::fs::read_to_string(page).map_err(|e| format!("{}: {e}", page.display()))?;
    let text = expand_includes(page, &text)?;
    Ok(headings(&text))
}

fn expand_includes(page: &Path, text: &str) -> Result<String, String> {
    let mut out = String::new();
    for line in text.lines() {
        let t = line.trim();
        if let Some(inner) = t
            .strip_prefix("{{#include ")
            .and_then(|s| s.strip_suffix("}}"))
        {
            // `{{#include file:anchor}}` and `{{#include file:10:20}}` include a part: the
            // whole file's headings are a superset, which is what an anchor check needs.
            let file = inner.trim().split(':').next().unwrap_or("");
            let path = normalize(&page.parent().unwrap_or(page).join(file));
            let included = std::fs::read_to_string(&path)
                .map_err(|e| format!("{}: include of {}: {e}", page.display(), path.display()))?;
            out.push_str(&included);
        } else {
            out.push_str(line);
        }
        out.push('\n');
    }
    Ok(out)
}

/// The slugs of the ATX headings (`# …` to `###### …`) outside code, repeated ones numbered.
fn headings(text: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let mut seen = std::collections::HashMap::<String, usize>::new();
    // Code spans must survive in heading text (`## \`nab selftest\``), so fences are skipped
    // here but spans are not blanked.
    let mut fence = false;
    for line in text.lines() {
        let t = line.trim_start();
        if t.starts_with("```") || t.starts_with("~~~") {
            fence = !fence;
            continue;
        }
        if fence {
            continue;
        }
        let hashes = t.chars().take_while(|c| *c == '#').count();
        if !(1..=6).contains(&hashes) || !t[hashes..].starts_with(' ') {
            continue;
        }
        let title = t[hashes..].trim().trim_end_matches('#').trim();
        let base = slug(title);
        let n = seen.entry(base.clone()).or_insert(0);
        let s = if *n == 0 {
            base.clone()
        } else {
            format!("{base}-{n}")
        };
        *n += 1;
        out.push(s);
    }
    out
}

/// A heading's anchor as GitHub and mdBook make it: the rendered text (a link's text, a code
/// span's content), lower case, whitespace to `-`, only letters, digits, `-` and `_` kept.
fn slug(heading: &str) -> String {
    let mut text = String::new();
    let mut rest = heading;
    // `[text](url)` renders as `text`.
    while let Some(open) = rest.find('[') {
        let Some(close) = rest[open..].find("](").map(|c| open + c) else {
            break;
        };
        let Some(end) = rest[close..].find(')').map(|e| close + e) else {
            break;
        };
        text.push_str(&rest[..open]);
        text.push_str(&rest[open + 1..close]);
        rest = &rest[end + 1..];
    }
    text.push_str(rest);
    text.chars()
        .filter_map(|c| {
            if c.is_alphanumeric() || c == '-' || c == '_' {
                Some(c.to_lowercase().collect::<String>())
            } else if c.is_whitespace() {
                Some("-".to_owned())
            } else {
                None
            }
        })
        .collect()
}

fn repo_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .unwrap()
        .to_path_buf()
}

#[test]
fn docs_links_of_readme_and_book_resolve() {
    let checked = check(&repo_root()).unwrap_or_else(|problems| {
        panic!(
            "{} broken link(s) in README.md and docs/:\n{}",
            problems.len(),
            problems.join("\n")
        )
    });
    eprintln!("docs links: {checked:?}");
    // A check that found nothing to check would pass too: the book has dozens of pages and
    // hundreds of links, many with anchors.
    assert!(checked.pages >= 20, "{checked:?}");
    assert!(checked.links >= 150, "{checked:?}");
    assert!(checked.anchors >= 30, "{checked:?}");
}

/// A small repository: README.md and a book of two pages, every link good.
fn scratch() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let w = |p: &str, s: &str| {
        let path = dir.path().join(p);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, s).unwrap();
    };
    w(
        "README.md",
        "# Top\n\nSee [the guide](docs/src/guide/a.md#the-first-run-nab-run) and [b](docs/src/b.md).\n",
    );
    w("crate/README.md", "# The crate\n\n## Its part\n");
    w(
        "docs/src/SUMMARY.md",
        "# Summary\n\n- [A](guide/a.md)\n- [Notes]()\n  - [B](b.md)\n",
    );
    w(
        "docs/src/guide/a.md",
        "# A\n\n## The first run: `nab run`\n\nOn [B](../b.md#its-part), [here](#a).\n\n```sh\n[not](a/link.md)\n```\n\nAnd `[not](a/link.md)` either.\n",
    );
    w("docs/src/b.md", "{{#include ../../crate/README.md}}\n");
    dir
}

fn write(dir: &tempfile::TempDir, p: &str, s: &str) {
    std::fs::write(dir.path().join(p), s).unwrap();
}

#[test]
fn docs_links_checker_passes_a_good_tree_and_counts_it() {
    let dir = scratch();
    let c = check(dir.path()).unwrap();
    assert_eq!((c.pages, c.links, c.anchors), (4, 6, 3), "{c:?}");
}

#[test]
fn docs_links_checker_fails_on_a_missing_file() {
    let dir = scratch();
    write(&dir, "docs/src/b.md", "# B\n\nSee [gone](guide/gone.md).\n");
    let p = check(dir.path()).unwrap_err();
    assert!(
        p.iter()
            .any(|p| p.contains("docs/src/b.md:3") && p.contains("no file")),
        "{p:?}"
    );
}

#[test]
fn docs_links_checker_fails_on_an_anchor_no_heading_has() {
    let dir = scratch();
    write(
        &dir,
        "README.md",
        "# Top\n\n[a](docs/src/guide/a.md#the-first-run) [b](docs/src/b.md)\n",
    );
    let p = check(dir.path()).unwrap_err();
    assert_eq!(p.len(), 1, "{p:?}");
    assert!(
        p[0].contains("README.md:3") && p[0].contains("#the-first-run"),
        "{p:?}"
    );
    // …and on a same-page anchor.
    let dir = scratch();
    write(&dir, "docs/src/b.md", "# B\n\n[self](#c)\n");
    let p = check(dir.path()).unwrap_err();
    assert!(p.iter().any(|p| p.contains("`#c`")), "{p:?}");
}

#[test]
fn docs_links_checker_fails_on_a_link_out_of_the_book() {
    let dir = scratch();
    write(
        &dir,
        "docs/src/b.md",
        "# B\n\n[the crate](../../crate/README.md)\n",
    );
    let p = check(dir.path()).unwrap_err();
    assert!(p.iter().any(|p| p.contains("leaves docs/src")), "{p:?}");
}

#[test]
fn docs_links_checker_fails_on_pages_missing_from_summary_or_named_but_missing() {
    let dir = scratch();
    write(&dir, "docs/src/orphan.md", "# Orphan\n");
    write(
        &dir,
        "docs/src/SUMMARY.md",
        "# Summary\n\n- [A](guide/a.md)\n- [B](b.md)\n- [C](c.md)\n",
    );
    let p = check(dir.path()).unwrap_err();
    assert!(
        p.iter().any(|p| p.contains("docs/src/orphan.md: not in")),
        "{p:?}"
    );
    assert!(
        p.iter().any(|p| p.contains("SUMMARY.md:5: names `c.md`")),
        "{p:?}"
    );
}

#[test]
fn docs_links_slugs_follow_github_and_mdbook() {
    assert_eq!(slug("A pool of Docker engines"), "a-pool-of-docker-engines");
    assert_eq!(slug("`nab selftest`"), "nab-selftest");
    assert_eq!(
        slug("A real model: `ci/real-model.sh`"),
        "a-real-model-cireal-modelsh"
    );
    assert_eq!(
        slug("Anthropic (`anthropic:<model>[@<base_url>]`)"),
        "anthropic-anthropicmodelbase_url"
    );
    assert_eq!(slug("See [the guide](x.md) now"), "see-the-guide-now");
    assert_eq!(
        headings("# A\n## A\n```\n# not\n```\n## A\n"),
        ["a", "a-1", "a-2"]
    );
}
