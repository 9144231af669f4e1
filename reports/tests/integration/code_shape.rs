//! The shape rules of the workspace's code (issue 37), checked on every crate's `src/`:
//!
//! - no import cycle between the files of a crate (a file's `use` and inline `crate::`,
//!   `super::`, `self::` paths point at the module file they name; a `pub use` is an export,
//!   not a dependency, and test code does not count);
//! - no function outside test code longer than [`MAX_FN_LINES`] lines (from `fn` to its
//!   closing brace) unless a comment starting `// Long:` right above it says why;
//! - no renamed re-export (`pub use a::b as c`): a name that needs its area to say whose it
//!   is is used with its path.
//!
//! The sources are parsed with syn, so strings, comments and macros cannot fool the counts.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use syn::visit::Visit;

const MAX_FN_LINES: usize = 80;
const CRATES: &[&str] = &[
    "protocol", "agent", "gateway", "harness", "judges", "reports", "tokens",
];

/// One source file of a crate: its module path (`["run", "merge"]` for `run/merge/mod.rs`)
/// and its text.
struct Source {
    path: PathBuf,
    module: Vec<String>,
    text: String,
}

/// What the rules found in one crate.
#[derive(Debug, Default)]
struct Findings {
    long_fns: Vec<String>,
    renames: Vec<String>,
    cycles: Vec<String>,
    /// Files, functions and paths looked at: a check that saw nothing proves nothing.
    files: usize,
    fns: usize,
    edges: usize,
}

fn module_of(rel: &Path) -> Vec<String> {
    let mut parts: Vec<String> = rel
        .iter()
        .map(|p| p.to_string_lossy().into_owned())
        .collect();
    let last = parts.pop().unwrap_or_default();
    let stem = last.trim_end_matches(".rs");
    if !matches!(stem, "mod" | "lib" | "main") {
        parts.push(stem.to_owned());
    }
    parts
}

fn read_crate(src: &Path) -> Vec<Source> {
    let mut out = Vec::new();
    for e in walkdir::WalkDir::new(src).sort_by_file_name() {
        let e = e.unwrap();
        if !e.file_type().is_file() || e.path().extension() != Some("rs".as_ref()) {
            continue;
        }
        let rel = e.path().strip_prefix(src).unwrap();
        // The binary's root and its modules form a crate of their own.
        if rel == Path::new("main.rs") {
            continue;
        }
        out.push(Source {
            path: e.path().to_path_buf(),
            module: module_of(rel),
            text: std::fs::read_to_string(e.path()).unwrap(),
        });
    }
    out
}

fn is_test_attr(attrs: &[syn::Attribute]) -> bool {
    attrs.iter().any(|a| {
        let p = a.path();
        if p.is_ident("test") {
            return true;
        }
        if p.is_ident("cfg") {
            let mut test = false;
            let _ = a.parse_nested_meta(|m| {
                test |= m.path.is_ident("test");
                Ok(())
            });
            return test;
        }
        false
    })
}

/// Walks one file, outside test code.
struct Walker<'a> {
    lines: Vec<&'a str>,
    file: String,
    module: Vec<String>,
    /// Module paths named by non-export paths (`crate::…`, `super::…`, `self::…`).
    named: BTreeSet<Vec<String>>,
    long_fns: Vec<String>,
    renames: Vec<String>,
    fns: usize,
}

impl Walker<'_> {
    fn check_fn(&mut self, name: &syn::Ident, sig: &syn::Signature, body: &syn::Block) {
        self.fns += 1;
        let start = sig.fn_token.span.start().line;
        let end = body.brace_token.span.close().end().line;
        let len = end + 1 - start;
        if len <= MAX_FN_LINES {
            return;
        }
        // A reason: a `// Long:` comment among the lines just above (doc and attributes
        // may sit between it and the `fn`).
        let above = self.lines[start.saturating_sub(10)..start.saturating_sub(1)].join("\n");
        if !above.contains("// Long:") {
            self.long_fns
                .push(format!("{}:{start} fn {name}: {len} lines", self.file));
        }
    }

    /// The module a path starting with `crate`, `super` or `self` names, as far as the
    /// path goes (the item's own name included; resolution trims it).
    fn record_path<'p>(&mut self, segments: impl Iterator<Item = &'p syn::Ident>) {
        let segs: Vec<String> = segments.map(|s| s.to_string()).collect();
        let Some(first) = segs.first() else { return };
        let mut base = match first.as_str() {
            "crate" => Vec::new(),
            "self" => self.module.clone(),
            "super" => {
                let mut m = self.module.clone();
                m.pop();
                m
            }
            _ => return,
        };
        let mut rest = &segs[1..];
        while rest.first().map(String::as_str) == Some("super") {
            base.pop();
            rest = &rest[1..];
        }
        base.extend(rest.iter().cloned());
        self.named.insert(base);
    }
}

/// Every path a use tree names, as segment lists.
fn use_paths(tree: &syn::UseTree, prefix: &mut Vec<syn::Ident>, out: &mut Vec<Vec<syn::Ident>>) {
    match tree {
        syn::UseTree::Path(p) => {
            prefix.push(p.ident.clone());
            use_paths(&p.tree, prefix, out);
            prefix.pop();
        }
        syn::UseTree::Name(n) => {
            let mut v = prefix.clone();
            if n.ident != "self" {
                v.push(n.ident.clone());
            }
            out.push(v);
        }
        syn::UseTree::Rename(r) => {
            let mut v = prefix.clone();
            v.push(r.ident.clone());
            out.push(v);
        }
        syn::UseTree::Glob(_) => out.push(prefix.clone()),
        syn::UseTree::Group(g) => {
            for t in &g.items {
                use_paths(t, prefix, out);
            }
        }
    }
}

fn has_rename(tree: &syn::UseTree) -> bool {
    match tree {
        syn::UseTree::Path(p) => has_rename(&p.tree),
        syn::UseTree::Rename(r) => r.rename != "_",
        syn::UseTree::Group(g) => g.items.iter().any(has_rename),
        syn::UseTree::Name(_) | syn::UseTree::Glob(_) => false,
    }
}

impl<'ast> Visit<'ast> for Walker<'_> {
    fn visit_item_mod(&mut self, m: &'ast syn::ItemMod) {
        if !is_test_attr(&m.attrs) {
            syn::visit::visit_item_mod(self, m);
        }
    }
    fn visit_item_fn(&mut self, f: &'ast syn::ItemFn) {
        if is_test_attr(&f.attrs) {
            return;
        }
        self.check_fn(&f.sig.ident, &f.sig, &f.block);
        syn::visit::visit_item_fn(self, f);
    }
    fn visit_impl_item_fn(&mut self, f: &'ast syn::ImplItemFn) {
        if is_test_attr(&f.attrs) {
            return;
        }
        self.check_fn(&f.sig.ident, &f.sig, &f.block);
        syn::visit::visit_impl_item_fn(self, f);
    }
    fn visit_trait_item_fn(&mut self, f: &'ast syn::TraitItemFn) {
        if let Some(body) = &f.default {
            self.check_fn(&f.sig.ident, &f.sig, body);
        }
        syn::visit::visit_trait_item_fn(self, f);
    }
    fn visit_item_use(&mut self, u: &'ast syn::ItemUse) {
        if is_test_attr(&u.attrs) {
            return;
        }
        let exported = !matches!(u.vis, syn::Visibility::Inherited);
        if exported {
            if has_rename(&u.tree) {
                let line = u.use_token.span.start().line;
                self.renames.push(format!("{}:{line}", self.file));
            }
            return;
        }
        let mut out = Vec::new();
        use_paths(&u.tree, &mut Vec::new(), &mut out);
        for p in out {
            self.record_path(p.iter());
        }
    }
    fn visit_path(&mut self, p: &'ast syn::Path) {
        self.record_path(p.segments.iter().map(|s| &s.ident));
        syn::visit::visit_path(self, p);
    }
}

/// The file a module path names: its longest prefix that is a module of the crate.
fn resolve<'a>(modules: &'a BTreeMap<Vec<String>, usize>, path: &[String]) -> Option<&'a usize> {
    (0..=path.len()).rev().find_map(|n| modules.get(&path[..n]))
}

/// The strongly connected components of more than one file (Tarjan's algorithm).
fn cycles(edges: &[BTreeSet<usize>]) -> Vec<Vec<usize>> {
    struct T<'e> {
        edges: &'e [BTreeSet<usize>],
        index: Vec<Option<usize>>,
        low: Vec<usize>,
        on: Vec<bool>,
        stack: Vec<usize>,
        next: usize,
        out: Vec<Vec<usize>>,
    }
    fn strong(t: &mut T, v: usize) {
        t.index[v] = Some(t.next);
        t.low[v] = t.next;
        t.next += 1;
        t.stack.push(v);
        t.on[v] = true;
        for &w in t.edges[v].iter() {
            match t.index[w] {
                None => {
                    strong(t, w);
                    t.low[v] = t.low[v].min(t.low[w]);
                }
                Some(i) if t.on[w] => t.low[v] = t.low[v].min(i),
                Some(_) => {}
            }
        }
        if Some(t.low[v]) == t.index[v] {
            let mut comp = Vec::new();
            while let Some(w) = t.stack.pop() {
                t.on[w] = false;
                comp.push(w);
                if w == v {
                    break;
                }
            }
            if comp.len() > 1 {
                comp.sort_unstable();
                t.out.push(comp);
            }
        }
    }
    let n = edges.len();
    let mut t = T {
        edges,
        index: vec![None; n],
        low: vec![0; n],
        on: vec![false; n],
        stack: Vec::new(),
        next: 0,
        out: Vec::new(),
    };
    for v in 0..n {
        if t.index[v].is_none() {
            strong(&mut t, v);
        }
    }
    t.out
}

fn check_sources(sources: &[Source]) -> Findings {
    let mut f = Findings::default();
    let modules: BTreeMap<Vec<String>, usize> = sources
        .iter()
        .enumerate()
        .map(|(i, s)| (s.module.clone(), i))
        .collect();
    let mut edges = vec![BTreeSet::new(); sources.len()];
    for (i, s) in sources.iter().enumerate() {
        let file = s.path.display().to_string();
        let parsed = match syn::parse_file(&s.text) {
            Ok(p) => p,
            Err(e) => {
                f.long_fns.push(format!("{file}: does not parse: {e}"));
                continue;
            }
        };
        let mut w = Walker {
            lines: s.text.lines().collect(),
            file,
            module: s.module.clone(),
            named: BTreeSet::new(),
            long_fns: Vec::new(),
            renames: Vec::new(),
            fns: 0,
        };
        w.visit_file(&parsed);
        f.files += 1;
        f.fns += w.fns;
        f.long_fns.append(&mut w.long_fns);
        f.renames.append(&mut w.renames);
        for named in &w.named {
            if let Some(&j) = resolve(&modules, named)
                && j != i
            {
                edges[i].insert(j);
            }
        }
        f.edges += edges[i].len();
    }
    for comp in cycles(&edges) {
        let names: Vec<String> = comp
            .iter()
            .map(|&i| sources[i].path.display().to_string())
            .collect();
        f.cycles.push(names.join(" <-> "));
    }
    f
}

fn source(module: &[&str], text: &str) -> Source {
    Source {
        path: PathBuf::from(format!("{}.rs", module.join("/"))),
        module: module.iter().map(|s| s.to_string()).collect(),
        text: text.to_owned(),
    }
}

#[test]
fn the_workspace_keeps_its_shape() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap();
    let mut problems = Vec::new();
    let (mut files, mut fns, mut edges) = (0, 0, 0);
    for krate in CRATES {
        let f = check_sources(&read_crate(&root.join(krate).join("src")));
        files += f.files;
        fns += f.fns;
        edges += f.edges;
        problems.extend(
            f.long_fns
                .iter()
                .map(|l| format!("over {MAX_FN_LINES} lines: {l}")),
        );
        problems.extend(f.renames.iter().map(|r| format!("renamed re-export: {r}")));
        problems.extend(
            f.cycles
                .iter()
                .map(|c| format!("import cycle in {krate}: {c}")),
        );
    }
    assert!(
        files > 200 && fns > 1000 && edges > 300,
        "saw too little: {files} files, {fns} functions, {edges} edges"
    );
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn each_rule_catches_what_it_forbids() {
    let long_body = "    let _ = 1;\n".repeat(MAX_FN_LINES);
    let f = check_sources(&[
        source(&[], "mod a;\nmod b;\npub use a::x as renamed;\n"),
        source(&["a"], "use crate::b::y;\npub fn x() { y() }\n"),
        source(
            &["b"],
            &format!(
                "pub fn y() {{ super::a::x() }}\nfn long() {{\n{long_body}}}\n// Long: a table, one arm a line.\nfn excused() {{\n{long_body}}}\n#[cfg(test)]\nmod tests {{\n    fn long_test() {{\n{long_body}    }}\n}}\n"
            ),
        ),
    ]);
    assert_eq!(f.renames.len(), 1, "{:?}", f.renames);
    assert_eq!(f.long_fns.len(), 1, "{:?}", f.long_fns);
    assert!(f.long_fns[0].contains("fn long:"), "{:?}", f.long_fns);
    assert_eq!(f.cycles, vec!["a.rs <-> b.rs".to_owned()]);

    // A re-export is not a dependency: a parent exporting its child's item while the
    // child uses the parent's type is no cycle.
    let f = check_sources(&[
        source(&["p"], "mod c;\npub use c::f;\npub struct T;\n"),
        source(&["p", "c"], "use super::T;\npub fn f(_: T) {}\n"),
    ]);
    assert!(f.cycles.is_empty(), "{:?}", f.cycles);
}
