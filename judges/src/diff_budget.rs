//! What a judge sees of a diff: a fair share per file. The diff is the agent's output,
//! and a large file that sorts first must not hide the real change, so every changed file
//! gets a section of the budget (small files whole, the rest an equal share of what
//! remains). A section that is cut keeps its header lines, which name the file and give
//! its size and sha256 (see the harness's diff.patch format), and says how much was cut.

/// A file's section starts at a line beginning with this.
const SECTION: &str = "diff --git ";
/// Lines of a section that are kept whole: the header and the size/hash line.
const HEADER_LINES: usize = 2;

/// The diff's sections: one per file, each from its `diff --git` line, and the harness's
/// closing list; text before the first file is a section of its own.
pub(crate) fn sections(diff: &str) -> Vec<&str> {
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
    let (header, body) = section.split_at(header_len(section));
    let kept = prefix(body, share.saturating_sub(header.len() + CUT_MARKER_ROOM));
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

/// Room for the line that closes a cut diff (sizes and counts).
const CLOSING_ROOM: usize = 200;
/// Room for the marker that ends a cut section.
const CUT_MARKER_ROOM: usize = 120;

fn header_len(section: &str) -> usize {
    section
        .match_indices('\n')
        .nth(HEADER_LINES - 1)
        .map(|(i, _)| i + 1)
        .unwrap_or(section.len())
}

/// The least a section can be shown in: whole, or its header lines and the cut marker.
fn least(section: &str) -> usize {
    section.len().min(header_len(section) + CUT_MARKER_ROOM)
}

/// `diff` within about `max` bytes, every file represented while its header fits.
/// Unchanged when it fits. When even the files' header lines are over `max` (hundreds of
/// files in a small judge window), the largest sections are left out whole and counted.
pub fn budget_diff(diff: &str, max: usize) -> String {
    if diff.len() <= max {
        return diff.to_owned();
    }
    let parts = sections(diff);
    let room = max.saturating_sub(CLOSING_ROOM);
    let mut shown = vec![true; parts.len()];
    let mut need: usize = parts.iter().map(|p| least(p)).sum();
    let mut largest_first: Vec<usize> = (0..parts.len()).collect();
    // Among equals the later ones go first, so the diff is shown from its start.
    largest_first.sort_by_key(|&i| std::cmp::Reverse((parts[i].len(), i)));
    for &i in &largest_first {
        if need <= room {
            break;
        }
        shown[i] = false;
        need -= least(parts[i]);
    }
    // Water-filling: the smallest sections first, each whole if it fits its fair share.
    let mut order: Vec<usize> = (0..parts.len()).filter(|&i| shown[i]).collect();
    order.sort_by_key(|&i| parts[i].len());
    let mut share = vec![0usize; parts.len()];
    let mut left = room;
    for (n, &i) in order.iter().enumerate() {
        let fair = left / (order.len() - n);
        share[i] = parts[i].len().min(fair.max(least(parts[i])));
        left = left.saturating_sub(share[i]);
    }
    let mut out = String::with_capacity(max + 1024);
    let mut cut_files = 0;
    for (i, p) in parts.iter().enumerate() {
        if !shown[i] {
            continue;
        }
        if share[i] >= p.len() {
            out.push_str(p);
        } else {
            cut_files += 1;
            out.push_str(&cut(p, share[i]));
        }
    }
    let left_out = shown.iter().filter(|s| !**s).count();
    out.push_str(&format!(
        "[nab: the diff was {} bytes, over the judge's budget of {max}; {cut_files} of {} section(s) cut to a fair share",
        diff.len(),
        parts.len()
    ));
    if left_out > 0 {
        out.push_str(&format!(", {left_out} (the largest) not shown at all"));
    }
    out.push_str("]\n");
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
    fn hundreds_of_files_over_the_budget_leave_the_largest_out_and_say_so() {
        let mut diff: String = (0..300)
            .map(|i| file(&format!("src/m{i:03}.py"), "+import x\n"))
            .collect();
        diff.push_str(&file("src/huge.py", &"+y = 1\n".repeat(5000)));
        let judged = budget_diff(&diff, 8_000);
        assert!(judged.len() <= 8_000, "{}", judged.len());
        assert!(
            !judged.contains("src/huge.py"),
            "the largest file goes first"
        );
        assert!(judged.contains("diff --git a/src/m000.py"));
        let left_out: usize = judged
            .rsplit(", ")
            .next()
            .and_then(|t| t.split(' ').next())
            .and_then(|n| n.parse().ok())
            .unwrap();
        let shown = judged.matches("diff --git ").count();
        assert_eq!(shown + left_out, 301, "every file is shown or counted");
        assert!(
            judged.ends_with("(the largest) not shown at all]\n"),
            "{}",
            &judged[judged.len() - 200..]
        );
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
