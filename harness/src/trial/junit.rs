//! JUnit XML reports from the verifier, read as untrusted input, and the verdict one
//! report gives once the trial's canary is taken out of it.

use crate::trial::canary::Canary;

/// One `<testcase>`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Case {
    /// `classname::name`, the id pinned in tests.lock.
    pub id: String,
    pub name: String,
    /// No `<failure>`, `<error>` or `<skipped>` inside.
    pub passed: bool,
}

/// Every `<testcase>` of a JUnit XML document; `None` when it is not well-formed XML.
pub(crate) fn parse(xml: &[u8]) -> Option<Vec<Case>> {
    use quick_xml::events::{BytesStart, Event};
    let mut reader = quick_xml::Reader::from_reader(xml);
    let mut buf = Vec::new();
    let mut cases = Vec::new();
    let mut open: Option<Case> = None;
    let attr = |e: &BytesStart, key: &[u8]| -> Option<String> {
        let a = e.try_get_attribute(key).ok().flatten()?;
        let v = a
            .normalized_value(quick_xml::XmlVersion::Implicit1_0)
            .ok()?;
        Some(v.into_owned())
    };
    let case = |e: &BytesStart| {
        let name = attr(e, b"name").unwrap_or_default();
        let class = attr(e, b"classname").unwrap_or_default();
        Case {
            id: format!("{class}::{name}"),
            name,
            passed: true,
        }
    };
    loop {
        match reader.read_event_into(&mut buf) {
            Ok(Event::Start(e)) => match e.name().as_ref() {
                b"testcase" => {
                    // A testcase inside a testcase is not JUnit; count the outer one anyway.
                    if let Some(outer) = open.replace(case(&e)) {
                        cases.push(outer);
                    }
                }
                b"failure" | b"error" | b"skipped" => {
                    if let Some(c) = open.as_mut() {
                        c.passed = false;
                    }
                }
                _ => {}
            },
            Ok(Event::Empty(e)) => match e.name().as_ref() {
                b"testcase" => cases.push(case(&e)),
                b"failure" | b"error" | b"skipped" => {
                    if let Some(c) = open.as_mut() {
                        c.passed = false;
                    }
                }
                _ => {}
            },
            Ok(Event::End(e)) if e.name().as_ref() == b"testcase" => {
                if let Some(c) = open.take() {
                    cases.push(c);
                }
            }
            Ok(Event::Eof) => break,
            Err(_) => return None,
            _ => {}
        }
        buf.clear();
    }
    if let Some(c) = open.take() {
        cases.push(c);
    }
    Some(cases)
}

/// What one step's report says once the canaries are set apart.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Verdict {
    /// A canary passed: an assertion that cannot hold was reported as holding, so the
    /// runner or its report was subverted. The reason is for verify.log.
    Tampered(String),
    /// A canary is missing: the runner did not run every test (it crashed, ran out of
    /// memory or time). A failure, not evidence of tampering.
    Incomplete(String),
    /// Every canary failed as it must; these are the other tests.
    Judged {
        passed: u32,
        total: u32,
        /// Ids of the tests other than the canaries, in report order.
        ids: Vec<String>,
    },
}

/// Judges a step's report: the canaries must be in it and fail. The other tests are the
/// verdict. A pytest report must list both pytest canaries (pytest collects every
/// `test_*.py`); another runner's, at least its own.
pub(crate) fn judge(cases: &[Case], canary: &Canary, stopped_early: bool) -> Verdict {
    let (planted, rest): (Vec<&Case>, Vec<&Case>) =
        cases.iter().partition(|c| canary.matches(&c.name));
    if let Some(c) = planted.iter().find(|c| c.passed) {
        return Verdict::Tampered(format!(
            "the planted canary test `{}`, which must fail, is reported as passed",
            c.name
        ));
    }
    // A runner told to stop at its first real failure may stop before it reaches a canary;
    // the report then shows a real failure, and only a failure can be judged from it.
    if stopped_early && rest.iter().any(|c| !c.passed) {
        return judged(&rest);
    }
    if planted.is_empty() {
        return Verdict::Incomplete(
            "the planted canary test is missing from the report: the runner did not run every test"
                .into(),
        );
    }
    let pytest = canary.pytest_names();
    let listed = |n: &String| planted.iter().any(|c| &c.name == n);
    if pytest.iter().any(listed) && !pytest.iter().all(listed) {
        return Verdict::Incomplete(
            "one of the two planted pytest canaries is missing from the report: the runner did not run every test".into(),
        );
    }
    judged(&rest)
}

/// The counts of the cases that are not canaries.
fn judged(rest: &[&Case]) -> Verdict {
    let passed = rest.iter().filter(|c| c.passed).count();
    Verdict::Judged {
        passed: u32::try_from(passed).unwrap_or(u32::MAX),
        total: u32::try_from(rest.len()).unwrap_or(u32::MAX),
        ids: rest.iter().map(|c| c.id.clone()).collect(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn failures_errors_and_skips_are_not_passes() {
        let xml = br#"<?xml version="1.0"?><testsuites><testsuite tests="4">
            <testcase classname="m" name="a"/>
            <testcase classname="m" name="b"><failure message="x">trace</failure></testcase>
            <testcase classname="m" name="c"><error/></testcase>
            <testcase classname="m.K" name="d[&lt;1&gt;]"></testcase>
            <testcase name="e"><skipped/></testcase>
            </testsuite></testsuites>"#;
        let cases = parse(xml).unwrap();
        let got: Vec<(&str, bool)> = cases.iter().map(|c| (c.id.as_str(), c.passed)).collect();
        assert_eq!(
            got,
            [
                ("m::a", true),
                ("m::b", false),
                ("m::c", false),
                ("m.K::d[<1>]", true),
                ("::e", false)
            ]
        );
        assert_eq!(parse(b"<testsuite><testcase name='x'></testsuite>"), None);
    }

    /// What a standard writer (quick-junit, cargo-nextest's) produces reads back case by
    /// case: names and class names escaped, every non-success kind a failure.
    #[test]
    fn reads_what_quick_junit_writes() {
        use quick_junit::{NonSuccessKind, Report, TestCase, TestCaseStatus, TestSuite};
        let mut suite = TestSuite::new("s");
        let mut ok = TestCase::new("a<&>\"'", TestCaseStatus::success());
        ok.set_classname("pkg.K");
        ok.set_system_out("out \u{1b}[31m red");
        let mut failed = TestCase::new("b", TestCaseStatus::non_success(NonSuccessKind::Failure));
        failed.set_classname("pkg.K");
        let errored = TestCase::new("c", TestCaseStatus::non_success(NonSuccessKind::Error));
        let skipped = TestCase::new("d", TestCaseStatus::skipped());
        suite.add_test_cases([ok, failed, errored, skipped]);
        let mut report = Report::new("r");
        report.add_test_suite(suite);
        let xml = report.to_string().unwrap();
        let cases = parse(xml.as_bytes()).unwrap();
        let got: Vec<(&str, bool)> = cases.iter().map(|c| (c.id.as_str(), c.passed)).collect();
        assert_eq!(
            got,
            [
                ("pkg.K::a<&>\"'", true),
                ("pkg.K::b", false),
                ("::c", false),
                ("::d", false)
            ]
        );
    }

    /// A runner that ran every test.
    fn judge_all(cases: &[Case], canary: &Canary) -> Verdict {
        judge(cases, canary, false)
    }

    fn cases(spec: &[(&str, bool)]) -> Vec<Case> {
        spec.iter()
            .map(|(n, p)| Case {
                id: format!("k::{n}"),
                name: n.to_string(),
                passed: *p,
            })
            .collect()
    }

    #[test]
    fn the_canaries_must_be_there_and_fail_and_then_the_rest_decide() {
        let c = Canary::random(true);
        let [first, second]: [String; 2] = c.pytest_names().try_into().unwrap();
        let both = [(first.as_str(), false), (second.as_str(), false)];
        let v = judge_all(&cases(&[("a", true), both[0], ("b", true), both[1]]), &c);
        assert_eq!(
            v,
            Verdict::Judged {
                passed: 2,
                total: 2,
                ids: vec!["k::a".into(), "k::b".into()]
            }
        );
        let v = judge_all(&cases(&[("a", false), both[0], both[1]]), &c);
        assert!(matches!(
            v,
            Verdict::Judged {
                passed: 0,
                total: 1,
                ..
            }
        ));
        // A canary reported as passing is evidence of tampering.
        for passing in [&first, &second] {
            let spec = [("a", true), both[0], both[1], (passing.as_str(), true)];
            assert!(matches!(judge_all(&cases(&spec), &c), Verdict::Tampered(_)));
        }
        // A missing one is an incomplete run: a failure, not an accusation.
        for spec in [vec![("a", true)], vec![("a", true), both[0]], vec![both[1]]] {
            assert!(
                matches!(judge_all(&cases(&spec), &c), Verdict::Incomplete(_)),
                "{spec:?}"
            );
        }
        // Another runner's report lists its own canary (the first token) alone.
        let java = format!("{}_java", c.token());
        let v = judge_all(&cases(&[("a", true), (java.as_str(), false)]), &c);
        assert!(
            matches!(
                v,
                Verdict::Judged {
                    passed: 1,
                    total: 1,
                    ..
                }
            ),
            "{v:?}"
        );
    }

    #[test]
    fn a_runner_told_to_stop_early_may_miss_a_canary_only_once_a_real_test_failed() {
        let c = Canary::random(true);
        let [first, second]: [String; 2] = c.pytest_names().try_into().unwrap();
        // It stopped at a real failure before it reached the canaries: judged, a failure.
        for spec in [
            vec![("a", true), ("b", false)],
            vec![(first.as_str(), false), ("b", false)],
        ] {
            let v = judge(&cases(&spec), &c, true);
            let failed = matches!(v, Verdict::Judged { passed, total, .. } if passed < total);
            assert!(failed, "{spec:?}: {v:?}");
        }
        // Every real test passed yet a canary is missing: no runner stops on passes, so
        // that is still an incomplete run, and never a pass.
        for spec in [
            vec![("a", true)],
            vec![("a", true), (second.as_str(), false)],
        ] {
            assert!(
                matches!(judge(&cases(&spec), &c, true), Verdict::Incomplete(_)),
                "{spec:?}"
            );
        }
        // A canary that passed is tampering, stopped early or not.
        let spec = [("b", false), (first.as_str(), true)];
        assert!(matches!(
            judge(&cases(&spec), &c, true),
            Verdict::Tampered(_)
        ));
    }
}
