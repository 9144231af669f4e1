use crate::commands::{Arity, Command, Ctx};
use crate::error::{Error, Result};
use crate::protocol::Reply;
use crate::store::Value;

/// `SET key value [NX|XX]`
pub struct Set;

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
        for opt in &args[3..] {
            match opt.to_ascii_uppercase().as_str() {
                "NX" => nx = true,
                "XX" => xx = true,
                _ => return Err(Error::Syntax),
            }
        }
        if nx && xx {
            return Err(Error::Syntax);
        }
        let exists = ctx.db.contains(key);
        if (nx && exists) || (xx && !exists) {
            return Ok(Reply::Nil);
        }
        ctx.db.insert(key.clone(), Value::Str(value.clone()));
        Ok(Reply::Ok)
    }
}
