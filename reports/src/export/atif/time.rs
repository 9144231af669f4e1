//! Step times as the format's readers parse them.

/// `ts` as an RFC 3339 UTC time with milliseconds, when it is one; a line may say
/// anything, and a step without a time is better than a document that does not validate.
pub fn timestamp(ts: &str) -> Option<String> {
    chrono::DateTime::parse_from_rfc3339(ts).ok().map(|t| {
        t.with_timezone(&chrono::Utc)
            .to_rfc3339_opts(chrono::SecondsFormat::Millis, true)
    })
}
