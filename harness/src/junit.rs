//! JUnit XML reports from the verifier, read as untrusted input, and the verdict one
//! report gives once the trial's canary is taken out of it.

use crate::canary::Canary;

/// One `<testcase>`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Case {
    /// `classname::name`, the id pinned in tests.lock.
    pub id: String,
    pub name: String,
    /// No `<failure>`, `<error>` or `<skipped>` inside.
    pub passed: bool,
}

/// Every `<testcase>` of a JUnit XML document; `None` when it is not well-formed XML.
pub fn parse(xml: &[u8]) -> Option<Vec<Case>> {
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

/// What one step's report says once the canary is set apart.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Verdict {
    /// The canary is missing, passed, or the step exited 0 although it failed: the report
    /// or the exit status was forged. The reason is for verify.log.
    Tampered(String),
    /// The canary failed as it must; these are the other tests.
    Judged {
        passed: u32,
        total: u32,
        /// Ids of the tests other than the canary, in report order.
        ids: Vec<String>,
    },
}

/// Judges a step's report: the canary must be in it and fail, and then the step's exit
/// status must be non-zero (the runner saw a failing test). The other tests are the verdict.
pub fn judge(cases: &[Case], canary: &Canary, exit_code: Option<i64>) -> Verdict {
    let (planted, rest): (Vec<&Case>, Vec<&Case>) =
        cases.iter().partition(|c| canary.matches(&c.name));
    if planted.is_empty() {
        return Verdict::Tampered(
            "the planted canary test is missing from the report (it was rewritten or the runner did not run every test)".into(),
        );
    }
    if planted.iter().any(|c| c.passed) {
        return Verdict::Tampered(
            "the planted canary test, which must fail, is reported as passed".into(),
        );
    }
    if exit_code == Some(0) {
        return Verdict::Tampered(
            "the step exited 0 although its report shows the canary test failing".into(),
        );
    }
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
    fn the_canary_must_be_there_and_fail_and_then_the_rest_decide() {
        let c = Canary::random();
        let canary = format!("test_{}", c.token());
        let failing = (canary.as_str(), false);
        let v = judge(&cases(&[("a", true), failing, ("b", true)]), &c, Some(1));
        assert_eq!(
            v,
            Verdict::Judged {
                passed: 2,
                total: 2,
                ids: vec!["k::a".into(), "k::b".into()]
            }
        );
        let v = judge(&cases(&[("a", false), failing]), &c, Some(1));
        assert!(matches!(
            v,
            Verdict::Judged {
                passed: 0,
                total: 1,
                ..
            }
        ));
        // Missing, passing, or an exit 0 next to its failure: forged.
        for (spec, exit) in [
            (vec![("a", true)], Some(1)),
            (vec![("a", true), (canary.as_str(), true)], Some(1)),
            (vec![("a", true), failing], Some(0)),
        ] {
            assert!(
                matches!(judge(&cases(&spec), &c, exit), Verdict::Tampered(_)),
                "{spec:?} {exit:?}"
            );
        }
    }
}
