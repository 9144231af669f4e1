use crate::commands::{Arity, Command, Ctx};
use crate::error::{Error, Result};
use crate::protocol::Reply;
use crate::store::Value;

/// `HGETALL key`: field, value, field, value, ... in field order.
pub struct HGetAll;

impl Command for HGetAll {
    fn name(&self) -> &'static str {
        "HGETALL"
    }
    fn arity(&self) -> Arity {
        Arity::Exactly(2)
    }
    fn is_write(&self) -> bool {
        false
    }
    fn run(&self, ctx: &mut Ctx<'_>, args: &[String]) -> Result<Reply> {
        match ctx.db.get(&args[1], ctx.now) {
            None => Ok(Reply::Array(vec![])),
            Some(Value::Hash(h)) => Ok(Reply::strings(
                h.iter().flat_map(|(f, v)| vec![f.clone(), v.clone()]),
            )),
            Some(_) => Err(Error::WrongType),
        }
    }
}
