use super::position;
use crate::commands::{Arity, Command, Ctx};
use crate::error::{Error, Result};
use crate::protocol::{parse_i64, Reply};
use crate::store::Value;

/// `LINDEX key index`
pub struct LIndex;

impl Command for LIndex {
    fn name(&self) -> &'static str {
        "LINDEX"
    }
    fn arity(&self) -> Arity {
        Arity::Exactly(3)
    }
    fn is_write(&self) -> bool {
        false
    }
    fn run(&self, ctx: &mut Ctx<'_>, args: &[String]) -> Result<Reply> {
        let index = parse_i64(&args[2])?;
        match ctx.db.get(&args[1], ctx.now) {
            None => Ok(Reply::Nil),
            Some(Value::List(l)) => {
                Ok(position(index, l.len()).map_or(Reply::Nil, |i| Reply::bulk(l[i].clone())))
            }
            Some(_) => Err(Error::WrongType),
        }
    }
}
