//! What a judge sees of a diff: a fair share per file. The diff is the agent's output,
//! and a large file that sorts first must not hide the real change, so every changed file
//! gets a section of the budget (small files whole, the rest an equal share of what
//! remains). A section that is cut keeps its header lines, which name the file and give
//! its size and sha256 (see the harness's diff.patch format), and says how much was cut.

/// A file's section starts at a line beginning with this.
const SECTION: &str = "diff --git ";
/// Lines of a section that are kept whole: the header and the size/hash line.
const HEADER_LINES: usize = 2;

fn sections(diff: &str) -> Vec<&str> {
    let mut starts: Vec<usize> = diff
        .match_indices(SECTION)
        .map(|(i, _)| i)
        .filter(|&i| i == 0 || diff.as_bytes()[i - 1] == b'\n')
        .collect();
    // The harness's closing list of files not shown is its own section.
    if let Some(i) = diff.find("\n# nab: diff.patch stops here") {
        starts.push(i + 1);
    }
    if starts.first() != Some(&0) {
        starts.insert(0, 0);
    }
    starts.sort_unstable();
    starts.dedup();
    starts
        .iter()
        .zip(starts.iter().skip(1).chain(std::iter::once(&diff.len())))
        .map(|(&a, &b)| &diff[a..b])
        .filter(|s| !s.is_empty())
        .collect()
}

/// The longest prefix of `s` of at most `max` bytes that ends on a char boundary.
fn prefix(s: &str, max: usize) -> &str {
    let mut end = max.min(s.len());
    while !s.is_char_boundary(end) {
        end -= 1;
    }
    &s[..end]
}

fn cut(section: &str, share: usize) -> String {
    let header_end = section
        .match_indices('\n')
        .nth(HEADER_LINES - 1)
        .map(|(i, _)| i + 1)
        .unwrap_or(section.len());
    let (header, body) = section.split_at(header_end);
    let kept = prefix(body, share.saturating_sub(header.len()));
    let mut out = format!("{header}{kept}");
    if !out.ends_with('\n') {
        out.push('\n');
    }
    out.push_str(&format!(
        "[nab: this file's diff is cut here: {} more bytes not shown; its size and sha256 are on its second line]\n",
        body.len() - kept.len()
    ));
    out
}

/// `diff` within about `max` bytes, every file represented. Unchanged when it fits.
pub fn budget_diff(diff: &str, max: usize) -> String {
    if diff.len() <= max {
        return diff.to_owned();
    }
    let parts = sections(diff);
    // Water-filling: the smallest sections first, each whole if it fits its fair share.
    let mut order: Vec<usize> = (0..parts.len()).collect();
    order.sort_by_key(|&i| parts[i].len());
    let mut share = vec![0usize; parts.len()];
    let mut left = max;
    for (n, &i) in order.iter().enumerate() {
        let fair = left / (parts.len() - n);
        share[i] = parts[i].len().min(fair);
        left -= share[i];
    }
    let mut out = String::with_capacity(max + 1024);
    let mut cut_files = 0;
    for (i, p) in parts.iter().enumerate() {
        if share[i] >= p.len() {
            out.push_str(p);
        } else {
            cut_files += 1;
            out.push_str(&cut(p, share[i]));
        }
    }
    out.push_str(&format!(
        "[nab: the diff was {} bytes, over the judge's budget of {max}; {cut_files} of {} section(s) cut to a fair share]\n",
        diff.len(),
        parts.len()
    ));
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn file(name: &str, body: &str) -> String {
        format!(
            "diff --git a/{name} b/{name}\n# before: absent; after: {} bytes, sha256 abc\n{body}",
            body.len()
        )
    }

    #[test]
    fn a_huge_file_that_sorts_first_cannot_hide_the_real_change() {
        let huge = file("aaa_generated.json", &"+{}\n".repeat(100_000));
        let real = file(
            "src/fix.py",
            "-    end = start + size - 1\n+    end = start + size\n",
        );
        let diff = format!("{huge}{real}");
        let judged = budget_diff(&diff, 10_000);
        assert!(judged.len() < 11_000, "{}", judged.len());
        assert!(
            judged.contains("+    end = start + size\n"),
            "the real change is shown whole"
        );
        assert!(judged.contains("diff --git a/aaa_generated.json"));
        assert!(judged.contains("after: 400000 bytes, sha256 abc"));
        assert!(judged.contains("this file's diff is cut here"));
        assert!(judged.contains("1 of 2 section(s) cut"));
    }

    #[test]
    fn a_diff_within_budget_is_unchanged_and_cuts_respect_char_boundaries() {
        let d = file("x", "+é\n");
        assert_eq!(budget_diff(&d, 1000), d);
        let many: String = (0..20)
            .map(|i| file(&format!("f{i}"), &"+éééé\n".repeat(50)))
            .collect();
        let judged = budget_diff(&many, 4000);
        for i in 0..20 {
            assert!(
                judged.contains(&format!("diff --git a/f{i} b/f{i}\n")),
                "f{i}"
            );
        }
    }
}
