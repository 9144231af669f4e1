//! The probe of loc-rs-series-identity's hidden tests: a program built with the agent's
//! crate (by /nab/probes/build.sh, as the sandbox user) that drives `tidemark`'s API for the
//! tests and answers with what it saw. It holds no assertion and no expected value: the
//! tests (pytest, run as the verifier user) decide.
//!
//! One request per line on stdin, a JSON array of strings: the operation, then its
//! arguments. One answer per line, a JSON object, on the descriptor that was standard
//! output when the probe started; standard output itself is pointed at standard error
//! first, so nothing the code under test prints can pass for an answer.
//!
//!   new DB SHARDS CHUNK                 Db::new(Config { shards, chunk_samples })  -> {}
//!   append DB NAME TS VALUE [K V]...    Labels::from_pairs, Db::append  -> {"ok": true} | {"err": Display, "out_of_order": bool}
//!   ingest DB TEXT                      Db::ingest_text  -> {"accepted": n, "replaced": n, "out_of_order": [line...]} | {"err": ...}
//!   count DB                            -> {"count": series_count()}
//!   series DB                           Db::series()  -> {"series": [[key, samples], ...]}
//!   select DB SELECTOR START END        query::select  -> {"series": [[key, [[ts, value], ...]], ...]}
//!   rollup DB SELECTOR AGG ACROSS BY STEP START END
//!                                       rollup::run  -> {"rows": [[start, group, value, series], ...]}
//!   stats DB                            -> {"appended": n, "replaced": n, "out_of_order": n, "created": n}
//!   fingerprint [K V]...                Labels::fingerprint -> {"fp": "decimal"}
//!   export DB                           export::export -> {"text": ...}
//!
//! Values go back as Rust's `{:?}` of the f64 (round-trips exactly), times as decimal
//! strings. A panic of the code under test is answered with {"panic": message}; a request
//! the probe does not understand with {"probe_error": why}.

use std::collections::HashMap;
use std::fs::File;
use std::io::{self, BufRead, Write};
use std::os::unix::io::FromRawFd;
use std::panic::{self, AssertUnwindSafe};
use tidemark::model::Labels;
use tidemark::query::{select, Selector, TimeRange};
use tidemark::rollup::{run, Across, Agg, RollupSpec};
use tidemark::{Config, Db, Error};

extern "C" {
    fn dup(fd: i32) -> i32;
    fn dup2(old: i32, new: i32) -> i32;
}

struct World {
    dbs: HashMap<String, Db>,
}

fn main() {
    let fd = unsafe { dup(1) };
    if fd < 0 || unsafe { dup2(2, 1) } < 0 {
        eprintln!("nab probe: cannot set standard output aside");
        std::process::exit(2);
    }
    let mut out = unsafe { File::from_raw_fd(fd) };
    let mut world = World { dbs: HashMap::new() };
    let stdin = io::stdin();
    for line in stdin.lock().lines() {
        let line = match line {
            Ok(l) => l,
            Err(_) => break,
        };
        let answer = match parse(&line) {
            Err(why) => format!("{{\"probe_error\":{}}}", js(&why)),
            Ok(args) => match panic::catch_unwind(AssertUnwindSafe(|| handle(&mut world, &args))) {
                Ok(Ok(obj)) => obj,
                Ok(Err(why)) => format!("{{\"probe_error\":{}}}", js(&why)),
                Err(payload) => {
                    let msg = payload
                        .downcast_ref::<String>()
                        .cloned()
                        .or_else(|| payload.downcast_ref::<&str>().map(|s| s.to_string()))
                        .unwrap_or_else(|| "a panic".to_string());
                    format!("{{\"panic\":{}}}", js(&msg))
                }
            },
        };
        if writeln!(out, "{}", answer).and_then(|_| out.flush()).is_err() {
            break;
        }
    }
}

fn arg<'a>(args: &'a [String], i: usize) -> Result<&'a str, String> {
    args.get(i)
        .map(|s| s.as_str())
        .ok_or_else(|| format!("{} needs argument {}", args[0], i))
}

fn int(args: &[String], i: usize) -> Result<i64, String> {
    arg(args, i)?.parse::<i64>().map_err(|_| format!("argument {} is not an integer", i))
}

fn db<'a>(w: &'a mut World, name: &str) -> Result<&'a mut Db, String> {
    w.dbs.get_mut(name).ok_or_else(|| format!("no db {}", name))
}

fn labels(args: &[String], from: usize) -> Result<Labels, String> {
    let rest = args.get(from..).unwrap_or(&[]);
    if rest.len() % 2 != 0 {
        return Err("labels come in pairs".into());
    }
    let pairs: Vec<(String, String)> = rest.chunks(2).map(|c| (c[0].clone(), c[1].clone())).collect();
    Labels::from_pairs(pairs).map_err(|e| format!("labels refused: {}", e))
}

fn f(v: f64) -> String {
    js(&format!("{:?}", v))
}

fn handle(w: &mut World, args: &[String]) -> Result<String, String> {
    match args[0].as_str() {
        "new" => {
            let shards = int(args, 2)? as usize;
            let chunk = int(args, 3)? as usize;
            w.dbs.insert(
                arg(args, 1)?.to_string(),
                Db::new(Config { shards, chunk_samples: chunk }),
            );
            Ok("{}".into())
        }
        "append" => {
            let l = labels(args, 5)?;
            let ts = int(args, 3)?;
            let value: f64 = arg(args, 4)?.parse().map_err(|_| "bad value".to_string())?;
            let name = arg(args, 2)?.to_string();
            let d = db(w, arg(args, 1)?)?;
            Ok(match d.append(&name, &l, ts, value) {
                Ok(()) => "{\"ok\":true}".into(),
                Err(e) => format!(
                    "{{\"err\":{},\"out_of_order\":{}}}",
                    js(&e.to_string()),
                    matches!(e, Error::OutOfOrder { .. })
                ),
            })
        }
        "ingest" => {
            let text = arg(args, 2)?.to_string();
            let d = db(w, arg(args, 1)?)?;
            Ok(match d.ingest_text(&text) {
                Ok(r) => format!(
                    "{{\"accepted\":{},\"replaced\":{},\"out_of_order\":[{}]}}",
                    r.accepted,
                    r.replaced,
                    r.out_of_order.iter().map(|n| n.to_string()).collect::<Vec<_>>().join(",")
                ),
                Err(e) => format!("{{\"err\":{}}}", js(&e.to_string())),
            })
        }
        "count" => {
            let d = db(w, arg(args, 1)?)?;
            Ok(format!("{{\"count\":{}}}", d.series_count()))
        }
        "series" => {
            let d = db(w, arg(args, 1)?)?;
            let items: Vec<String> = d
                .series()
                .iter()
                .map(|s| format!("[{},{}]", js(&s.key), s.samples))
                .collect();
            Ok(format!("{{\"series\":[{}]}}", items.join(",")))
        }
        "select" => {
            let sel = Selector::parse(arg(args, 2)?).map_err(|e| e.to_string())?;
            let range = TimeRange::new(int(args, 3)?, int(args, 4)?);
            let d = db(w, arg(args, 1)?)?;
            let got = select(d, &sel, range).map_err(|e| e.to_string())?;
            let items: Vec<String> = got
                .iter()
                .map(|s| {
                    let samples: Vec<String> = s
                        .samples
                        .iter()
                        .map(|x| format!("[{},{}]", js(&x.ts.to_string()), f(x.value)))
                        .collect();
                    format!("[{},[{}]]", js(&s.key.to_string()), samples.join(","))
                })
                .collect();
            Ok(format!("{{\"series\":[{}]}}", items.join(",")))
        }
        "rollup" => {
            let by: Vec<String> = arg(args, 5)?
                .split(',')
                .filter(|s| !s.is_empty())
                .map(|s| s.to_string())
                .collect();
            let spec = RollupSpec {
                selector: Selector::parse(arg(args, 2)?).map_err(|e| e.to_string())?,
                agg: Agg::parse(arg(args, 3)?).map_err(|e| e.to_string())?,
                across: Across::parse(arg(args, 4)?).map_err(|e| e.to_string())?,
                by,
                step: int(args, 6)?,
                range: TimeRange::new(int(args, 7)?, int(args, 8)?),
            };
            let d = db(w, arg(args, 1)?)?;
            let rows = run(d, &spec).map_err(|e| e.to_string())?;
            let items: Vec<String> = rows
                .iter()
                .map(|r| {
                    format!(
                        "[{},{},{},{}]",
                        js(&r.start.to_string()),
                        js(&r.group.to_string()),
                        f(r.value),
                        r.series
                    )
                })
                .collect();
            Ok(format!("{{\"rows\":[{}]}}", items.join(",")))
        }
        "stats" => {
            let d = db(w, arg(args, 1)?)?;
            let s = d.stats();
            Ok(format!(
                "{{\"appended\":{},\"replaced\":{},\"out_of_order\":{},\"created\":{}}}",
                s.samples_appended, s.samples_replaced, s.samples_out_of_order, s.series_created
            ))
        }
        "fingerprint" => {
            let l = labels(args, 1)?;
            Ok(format!("{{\"fp\":{}}}", js(&l.fingerprint().to_string())))
        }
        "export" => {
            let d = db(w, arg(args, 1)?)?;
            let text = tidemark::export::export(d).map_err(|e| e.to_string())?;
            Ok(format!("{{\"text\":{}}}", js(&text)))
        }
        other => Err(format!("unknown operation {}", other)),
    }
}

/// A JSON string.
fn js(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if (c as u32) < 0x20 => out.push_str(&format!("\\u{:04x}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// A JSON array of strings (the only request the probe takes).
fn parse(line: &str) -> Result<Vec<String>, String> {
    let chars: Vec<char> = line.chars().collect();
    let mut i = 0;
    let skip = |i: &mut usize| {
        while *i < chars.len() && chars[*i].is_whitespace() {
            *i += 1;
        }
    };
    skip(&mut i);
    if chars.get(i) != Some(&'[') {
        return Err("a request is a JSON array of strings".into());
    }
    i += 1;
    let mut out = Vec::new();
    skip(&mut i);
    if chars.get(i) == Some(&']') {
        i += 1;
    } else {
        loop {
            skip(&mut i);
            if chars.get(i) != Some(&'"') {
                return Err("a request is a JSON array of strings".into());
            }
            i += 1;
            let mut s = String::new();
            loop {
                match chars.get(i) {
                    None => return Err("unterminated string".into()),
                    Some('"') => {
                        i += 1;
                        break;
                    }
                    Some('\\') => {
                        i += 1;
                        match chars.get(i) {
                            Some('"') => s.push('"'),
                            Some('\\') => s.push('\\'),
                            Some('/') => s.push('/'),
                            Some('b') => s.push('\u{8}'),
                            Some('f') => s.push('\u{c}'),
                            Some('n') => s.push('\n'),
                            Some('r') => s.push('\r'),
                            Some('t') => s.push('\t'),
                            Some('u') => {
                                let hex = |at: usize| -> Result<u32, String> {
                                    let h: String = chars.get(at..at + 4).ok_or("short \\u escape")?.iter().collect();
                                    u32::from_str_radix(&h, 16).map_err(|_| "bad \\u escape".to_string())
                                };
                                let mut code = hex(i + 1)?;
                                i += 4;
                                if (0xd800..0xdc00).contains(&code)
                                    && chars.get(i + 1) == Some(&'\\')
                                    && chars.get(i + 2) == Some(&'u')
                                {
                                    let low = hex(i + 3)?;
                                    if (0xdc00..0xe000).contains(&low) {
                                        code = 0x10000 + ((code - 0xd800) << 10) + (low - 0xdc00);
                                        i += 6;
                                    }
                                }
                                s.push(char::from_u32(code).ok_or("bad \\u escape")?);
                            }
                            _ => return Err("bad escape".into()),
                        }
                        i += 1;
                    }
                    Some(&c) => {
                        s.push(c);
                        i += 1;
                    }
                }
            }
            out.push(s);
            skip(&mut i);
            match chars.get(i) {
                Some(',') => i += 1,
                Some(']') => {
                    i += 1;
                    break;
                }
                _ => return Err("a request is a JSON array of strings".into()),
            }
        }
    }
    skip(&mut i);
    if i != chars.len() {
        return Err("text after the request".into());
    }
    if out.is_empty() {
        return Err("an empty request".into());
    }
    Ok(out)
}
