use crate::commands::{deadline_after, Arity, Command, Ctx};
use crate::error::{Error, Result};
use crate::protocol::{parse_i64, Reply};
use crate::store::Value;

/// `SET key value [NX|XX] [EX seconds|PX milliseconds|KEEPTTL]`: without `KEEPTTL` the
/// key has no deadline afterwards unless `EX`/`PX` gives one.
pub struct Set;

enum Ttl {
    Clear,
    Keep,
    At(u64),
}

impl Command for Set {
    fn name(&self) -> &'static str {
        "SET"
    }
    fn arity(&self) -> Arity {
        Arity::AtLeast(3)
    }
    fn is_write(&self) -> bool {
        true
    }
    fn run(&self, ctx: &mut Ctx<'_>, args: &[String]) -> Result<Reply> {
        let (key, value) = (&args[1], &args[2]);
        let mut nx = false;
        let mut xx = false;
        let mut ttl: Option<Ttl> = None;
        let mut i = 3;
        while i < args.len() {
            let opt = args[i].to_ascii_uppercase();
            match opt.as_str() {
                "NX" if !nx && !xx => nx = true,
                "XX" if !nx && !xx => xx = true,
                "KEEPTTL" if ttl.is_none() => ttl = Some(Ttl::Keep),
                "EX" | "PX" if ttl.is_none() => {
                    let amount = args.get(i + 1).ok_or(Error::Syntax)?;
                    let n = parse_i64(amount)?;
                    if n <= 0 {
                        return Err(Error::InvalidExpireTime("set".into()));
                    }
                    let unit = if opt == "EX" { 1000 } else { 1 };
                    let at = deadline_after(ctx.now, n, unit)
                        .ok_or_else(|| Error::InvalidExpireTime("set".into()))?;
                    ttl = Some(Ttl::At(at));
                    i += 1;
                }
                _ => return Err(Error::Syntax),
            }
            i += 1;
        }
        let exists = ctx.db.contains(key);
        if (nx && exists) || (xx && !exists) {
            return Ok(Reply::Nil);
        }
        let kept = ctx.db.expiry(key);
        ctx.db.insert(key.clone(), Value::Str(value.clone()));
        match ttl.unwrap_or(Ttl::Clear) {
            Ttl::Clear => {}
            Ttl::Keep => {
                if let Some(at) = kept {
                    ctx.db.set_expiry(key, at);
                }
            }
            Ttl::At(at) => {
                ctx.db.set_expiry(key, at);
            }
        }
        Ok(Reply::Ok)
    }
}
