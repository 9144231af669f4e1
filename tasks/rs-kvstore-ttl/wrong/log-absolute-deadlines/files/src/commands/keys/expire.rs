use crate::commands::{deadline_after, Arity, Command, Ctx};
use crate::error::{Error, Result};
use crate::protocol::{parse_i64, Reply};

/// How an expire command's argument gives the deadline.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// `EXPIRE key seconds`
    Seconds,
    /// `PEXPIRE key milliseconds`
    Millis,
    /// `EXPIREAT key unix-seconds`
    AtSeconds,
    /// `PEXPIREAT key unix-milliseconds`
    AtMillis,
}

impl Kind {
    pub const ALL: [Kind; 4] = [Kind::Seconds, Kind::Millis, Kind::AtSeconds, Kind::AtMillis];
}

/// 1 if the key now has that deadline (a deadline not after now removes the key), 0 if
/// there is no such key.
pub struct Expire(pub Kind);

impl Command for Expire {
    fn name(&self) -> &'static str {
        match self.0 {
            Kind::Seconds => "EXPIRE",
            Kind::Millis => "PEXPIRE",
            Kind::AtSeconds => "EXPIREAT",
            Kind::AtMillis => "PEXPIREAT",
        }
    }
    fn arity(&self) -> Arity {
        Arity::Exactly(3)
    }
    fn is_write(&self) -> bool {
        true
    }
    fn run(&self, ctx: &mut Ctx<'_>, args: &[String]) -> Result<Reply> {
        let key = &args[1];
        let n = parse_i64(&args[2])?;
        let at = match self.0 {
            Kind::Seconds => deadline_after(ctx.now, n, 1000),
            Kind::Millis => deadline_after(ctx.now, n, 1),
            Kind::AtSeconds => deadline_after(0, n, 1000),
            Kind::AtMillis => deadline_after(0, n, 1),
        }
        .ok_or_else(|| Error::InvalidExpireTime(self.name().to_ascii_lowercase()))?;
        if !ctx.db.contains(key) {
            return Ok(Reply::Int(0));
        }
        if at <= ctx.now {
            ctx.db.remove(key);
        } else {
            ctx.db.set_expiry(key, at);
        }
        Ok(Reply::Int(1))
    }
}
