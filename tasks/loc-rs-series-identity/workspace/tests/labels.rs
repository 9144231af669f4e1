use tidemark::model::Labels;
use tidemark::query::{Matcher, Op};

fn l(pairs: &[(&str, &str)]) -> Labels {
    Labels::from_pairs(pairs.iter().copied()).unwrap()
}

#[test]
fn order_does_not_matter() {
    assert_eq!(l(&[("job", "api"), ("instance", "web-1")]), l(&[("instance", "web-1"), ("job", "api")]));
}

#[test]
fn an_empty_label_is_no_label() {
    let a = l(&[("job", "api"), ("env", "")]);
    let b = l(&[("job", "api")]);
    assert_eq!(a, b);
    assert_eq!(a.to_string(), "{job=\"api\"}");
    assert_eq!(a.get("env"), None);
    assert_ne!(l(&[("job", "api"), ("env", "prod")]), b);
}

#[test]
fn matchers_see_absent_labels_as_empty() {
    let a = l(&[("job", "api")]);
    assert!(Matcher::new("env", Op::Eq, "").matches(&a));
    assert!(Matcher::new("instance", Op::Glob, "*").matches(&a));
    assert!(!Matcher::new("job", Op::Ne, "api").matches(&a));
}

#[test]
fn names_are_checked() {
    assert!(Labels::from_pairs(vec![("__name__", "x")]).is_err());
    assert!(Labels::from_pairs(vec![("job", "a"), ("job", "b")]).is_err());
}
