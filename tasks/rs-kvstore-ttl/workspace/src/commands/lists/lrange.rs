use crate::commands::{Arity, Command, Ctx};
use crate::error::{Error, Result};
use crate::protocol::{parse_i64, Reply};
use crate::store::Value;

/// `LRANGE key start stop`: both ends included, negative indexes from the end.
pub struct LRange;

impl Command for LRange {
    fn name(&self) -> &'static str {
        "LRANGE"
    }
    fn arity(&self) -> Arity {
        Arity::Exactly(4)
    }
    fn is_write(&self) -> bool {
        false
    }
    fn run(&self, ctx: &mut Ctx<'_>, args: &[String]) -> Result<Reply> {
        let (start, stop) = (parse_i64(&args[2])?, parse_i64(&args[3])?);
        let list = match ctx.db.get(&args[1], ctx.now) {
            None => return Ok(Reply::Array(vec![])),
            Some(Value::List(l)) => l,
            Some(_) => return Err(Error::WrongType),
        };
        let len = list.len() as i64;
        let from = if start < 0 {
            (len + start).max(0)
        } else {
            start
        };
        let to = if stop < 0 {
            len + stop
        } else {
            stop.min(len - 1)
        };
        if from > to || from >= len {
            return Ok(Reply::Array(vec![]));
        }
        Ok(Reply::strings(
            list.iter()
                .skip(from as usize)
                .take((to - from + 1) as usize)
                .cloned(),
        ))
    }
}
