//! Splits a line of the text format into its parts.

#[derive(Debug, Clone, PartialEq)]
pub enum Token<'a> {
    Ident(&'a str),
    /// A quoted string, still escaped, without its quotes.
    Quoted(&'a str),
    LBrace,
    RBrace,
    Comma,
    Eq,
    /// A run of non-space characters outside braces (a value or a time).
    Word(&'a str),
}

pub struct Lexer<'a> {
    src: &'a str,
    pos: usize,
    in_braces: bool,
}

impl<'a> Lexer<'a> {
    pub fn new(src: &'a str) -> Lexer<'a> {
        Lexer {
            src,
            pos: 0,
            in_braces: false,
        }
    }

    fn rest(&self) -> &'a str {
        &self.src[self.pos..]
    }

    fn skip_spaces(&mut self) {
        let r = self.rest();
        self.pos += r.len() - r.trim_start_matches(|c| c == ' ' || c == '\t').len();
    }

    pub fn next_token(&mut self) -> Result<Option<Token<'a>>, String> {
        self.skip_spaces();
        let r = self.rest();
        let c = match r.chars().next() {
            None => return Ok(None),
            Some(c) => c,
        };
        let single = |t| Ok(Some(t));
        match c {
            '{' => {
                self.pos += 1;
                self.in_braces = true;
                single(Token::LBrace)
            }
            '}' => {
                self.pos += 1;
                self.in_braces = false;
                single(Token::RBrace)
            }
            ',' if self.in_braces => {
                self.pos += 1;
                single(Token::Comma)
            }
            '=' if self.in_braces => {
                self.pos += 1;
                single(Token::Eq)
            }
            '"' if self.in_braces => {
                let body = &r[1..];
                let mut escaped = false;
                for (i, ch) in body.char_indices() {
                    if escaped {
                        escaped = false;
                    } else if ch == '\\' {
                        escaped = true;
                    } else if ch == '"' {
                        self.pos += i + 2;
                        return Ok(Some(Token::Quoted(&body[..i])));
                    }
                }
                Err("unterminated label value".to_string())
            }
            _ if self.in_braces => {
                let end = r
                    .find(|ch: char| !(ch.is_ascii_alphanumeric() || ch == '_'))
                    .unwrap_or(r.len());
                if end == 0 {
                    return Err(format!("unexpected {:?}", c));
                }
                self.pos += end;
                Ok(Some(Token::Ident(&r[..end])))
            }
            _ => {
                let end = r
                    .find(|ch: char| ch == ' ' || ch == '\t' || ch == '{')
                    .unwrap_or(r.len());
                self.pos += end;
                Ok(Some(Token::Word(&r[..end])))
            }
        }
    }
}
