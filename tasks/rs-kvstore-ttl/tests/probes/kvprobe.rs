//! The probe of rs-kvstore-ttl's hidden tests: a program built with the agent's crate (by
//! /nab/probes/build.sh, as the sandbox user) that drives `emberkv`'s API for the tests and
//! answers with what it saw. It holds no assertion and no expected value: the tests (pytest,
//! run as the verifier user) decide.
//!
//! One request per line on stdin, a JSON array of strings: the operation, then its
//! arguments. One answer per line, a JSON object, on the descriptor that was standard
//! output when the probe started; standard output itself is pointed at standard error
//! first, so nothing the code under test prints can pass for an answer.
//!
//!   clock NAME START_MS                 a ManualClock at START_MS           -> {}
//!   advance NAME MS                     the clock moves on MS               -> {}
//!   new ENGINE CLOCK                    Engine::new(clock)                  -> {}
//!   enable_aof ENGINE                                                       -> {}
//!   exec ENGINE LINE                    execute(LINE)   -> {"reply": to_string(), "error": is_error()}
//!   script ENGINE LINE...               each LINE in turn -> {"replies": [[to_string(), is_error()], ...]}
//!   snapshot ENGINE                                                         -> {"text": ...}
//!   from_snapshot ENGINE CLOCK TEXT     Engine::from_snapshot     -> {"ok": true} | {"err": Display}
//!   replay ENGINE CLOCK SOURCE          Engine::replay(SOURCE's aof()) -> {"ok": true} | {"err": ...}
//!   replay_lines ENGINE CLOCK LINE...   Engine::replay(LINEs)     -> {"ok": true} | {"err": ...}
//!   aof ENGINE                                                              -> {"lines": [...]}
//!
//! A panic of the code under test is answered with {"panic": message}; a request the probe
//! does not understand with {"probe_error": why}.

use emberkv::{Engine, ManualClock};
use std::collections::HashMap;
use std::fs::File;
use std::io::{self, BufRead, Write};
use std::os::unix::io::FromRawFd;
use std::panic::{self, AssertUnwindSafe};

extern "C" {
    fn dup(fd: i32) -> i32;
    fn dup2(old: i32, new: i32) -> i32;
}

struct World {
    clocks: HashMap<String, ManualClock>,
    engines: HashMap<String, Engine>,
}

fn main() {
    let fd = unsafe { dup(1) };
    if fd < 0 || unsafe { dup2(2, 1) } < 0 {
        eprintln!("nab probe: cannot set standard output aside");
        std::process::exit(2);
    }
    let mut out = unsafe { File::from_raw_fd(fd) };
    let mut world = World {
        clocks: HashMap::new(),
        engines: HashMap::new(),
    };
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
        .ok_or_else(|| format!("{}: argument {} missing", args[0], i))
}

fn number(args: &[String], i: usize) -> Result<u64, String> {
    let s = arg(args, i)?;
    s.parse::<u64>()
        .map_err(|_| format!("{}: {:?} is not a number", args[0], s))
}

fn clock(w: &World, name: &str) -> Result<ManualClock, String> {
    w.clocks
        .get(name)
        .cloned()
        .ok_or_else(|| format!("no clock {:?}", name))
}

fn engine<'a>(w: &'a mut World, name: &str) -> Result<&'a mut Engine, String> {
    w.engines
        .get_mut(name)
        .ok_or_else(|| format!("no engine {:?}", name))
}

fn loaded(w: &mut World, name: &str, result: emberkv::Result<Engine>) -> String {
    match result {
        Ok(e) => {
            w.engines.insert(name.to_string(), e);
            "{\"ok\":true}".to_string()
        }
        Err(e) => format!("{{\"err\":{}}}", js(&e.to_string())),
    }
}

fn handle(w: &mut World, args: &[String]) -> Result<String, String> {
    let op = arg(args, 0)?;
    match op {
        "clock" => {
            let start = number(args, 2)?;
            w.clocks
                .insert(arg(args, 1)?.to_string(), ManualClock::new(start));
            Ok("{}".into())
        }
        "advance" => {
            let ms = number(args, 2)?;
            clock(w, arg(args, 1)?)?.advance(ms);
            Ok("{}".into())
        }
        "new" => {
            let c = clock(w, arg(args, 2)?)?;
            w.engines.insert(arg(args, 1)?.to_string(), Engine::new(c));
            Ok("{}".into())
        }
        "enable_aof" => {
            engine(w, arg(args, 1)?)?.enable_aof();
            Ok("{}".into())
        }
        "exec" => {
            let line = arg(args, 2)?;
            let reply = engine(w, arg(args, 1)?)?.execute(line);
            Ok(format!(
                "{{\"reply\":{},\"error\":{}}}",
                js(&reply.to_string()),
                reply.is_error()
            ))
        }
        "script" => {
            let e = engine(w, arg(args, 1)?)?;
            let mut parts = Vec::new();
            for line in &args[2..] {
                let reply = e.execute(line);
                parts.push(format!("[{},{}]", js(&reply.to_string()), reply.is_error()));
            }
            Ok(format!("{{\"replies\":[{}]}}", parts.join(",")))
        }
        "snapshot" => {
            let text = engine(w, arg(args, 1)?)?.snapshot();
            Ok(format!("{{\"text\":{}}}", js(&text)))
        }
        "from_snapshot" => {
            let c = clock(w, arg(args, 2)?)?;
            let result = Engine::from_snapshot(arg(args, 3)?, c);
            Ok(loaded(w, arg(args, 1)?, result))
        }
        "replay" => {
            let c = clock(w, arg(args, 2)?)?;
            let lines: Vec<String> = engine(w, arg(args, 3)?)?.aof().to_vec();
            let result = Engine::replay(&lines, c);
            Ok(loaded(w, arg(args, 1)?, result))
        }
        "replay_lines" => {
            let c = clock(w, arg(args, 2)?)?;
            let lines: Vec<String> = args[3..].to_vec();
            let result = Engine::replay(&lines, c);
            Ok(loaded(w, arg(args, 1)?, result))
        }
        "aof" => {
            let lines: Vec<String> = engine(w, arg(args, 1)?)?.aof().to_vec();
            let parts: Vec<String> = lines.iter().map(|l| js(l)).collect();
            Ok(format!("{{\"lines\":[{}]}}", parts.join(",")))
        }
        other => Err(format!("unknown operation {:?}", other)),
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
