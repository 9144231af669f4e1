use crate::model::name::check_metric_name;
use crate::parse::escape::unescape;
use crate::parse::lexer::{Lexer, Token};
use crate::parse::number::{parse_timestamp, parse_value};

/// One line of the text format, as written: label pairs in their order, values unescaped,
/// empty values kept.
#[derive(Debug, Clone, PartialEq)]
pub struct ParsedSample {
    pub name: String,
    pub labels: Vec<(String, String)>,
    pub value: f64,
    pub ts: i64,
}

pub fn parse_line(line: &str) -> Result<ParsedSample, String> {
    let mut lx = Lexer::new(line);
    let name = match lx.next_token()? {
        Some(Token::Word(w)) => w.to_string(),
        other => return Err(format!("expected a metric name, found {:?}", other)),
    };
    check_metric_name(&name).map_err(|e| e.to_string())?;
    let mut labels = Vec::new();
    let mut tok = lx.next_token()?;
    if tok == Some(Token::LBrace) {
        loop {
            match lx.next_token()? {
                Some(Token::RBrace) => break,
                Some(Token::Ident(k)) => {
                    if lx.next_token()? != Some(Token::Eq) {
                        return Err(format!("expected = after {}", k));
                    }
                    let v = match lx.next_token()? {
                        Some(Token::Quoted(q)) => unescape(q)?,
                        other => return Err(format!("expected a quoted value, found {:?}", other)),
                    };
                    labels.push((k.to_string(), v));
                    match lx.next_token()? {
                        Some(Token::Comma) => {}
                        Some(Token::RBrace) => break,
                        other => return Err(format!("expected , or }}, found {:?}", other)),
                    }
                }
                other => return Err(format!("expected a label name, found {:?}", other)),
            }
        }
        tok = lx.next_token()?;
    }
    let value = match tok {
        Some(Token::Word(w)) => parse_value(w)?,
        other => return Err(format!("expected a value, found {:?}", other)),
    };
    let ts = match lx.next_token()? {
        Some(Token::Word(w)) => parse_timestamp(w)?,
        other => return Err(format!("expected a timestamp, found {:?}", other)),
    };
    if let Some(extra) = lx.next_token()? {
        return Err(format!("unexpected {:?} after the timestamp", extra));
    }
    Ok(ParsedSample {
        name,
        labels,
        value,
        ts,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn full_line() {
        let s = parse_line(r#"mem_bytes{job="api",instance="web-1"} 1.5e9 1772445600000"#).unwrap();
        assert_eq!(s.name, "mem_bytes");
        assert_eq!(
            s.labels,
            vec![("job".to_string(), "api".to_string()), ("instance".to_string(), "web-1".to_string())]
        );
        assert_eq!(s.value, 1.5e9);
        assert_eq!(s.ts, 1_772_445_600_000);
    }

    #[test]
    fn no_labels_and_empty_values() {
        let s = parse_line("up 1 5").unwrap();
        assert!(s.labels.is_empty());
        let s = parse_line(r#"up{env=""} 1 5"#).unwrap();
        assert_eq!(s.labels, vec![("env".to_string(), String::new())]);
    }

    #[test]
    fn errors() {
        assert!(parse_line("up").is_err());
        assert!(parse_line("up{a=\"1\" 1 5").is_err());
        assert!(parse_line("up 1 5 6").is_err());
        assert!(parse_line("up{a=1} 1 5").is_err());
    }
}
