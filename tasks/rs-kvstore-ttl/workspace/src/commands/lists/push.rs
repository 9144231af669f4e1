use crate::commands::{Arity, Command, Ctx};
use crate::error::{Error, Result};
use crate::protocol::Reply;
use crate::store::Value;
use std::collections::VecDeque;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum End {
    Left,
    Right,
}

/// `LPUSH key element [element ...]` and `RPUSH`: the list's length afterwards.
pub struct Push(pub End);

impl Command for Push {
    fn name(&self) -> &'static str {
        match self.0 {
            End::Left => "LPUSH",
            End::Right => "RPUSH",
        }
    }
    fn arity(&self) -> Arity {
        Arity::AtLeast(3)
    }
    fn is_write(&self) -> bool {
        true
    }
    fn run(&self, ctx: &mut Ctx<'_>, args: &[String]) -> Result<Reply> {
        let key = &args[1];
        if ctx.db.get_mut(key).is_none() {
            ctx.db.insert(key.clone(), Value::List(VecDeque::new()));
        }
        match ctx.db.get_mut(key) {
            Some(Value::List(list)) => {
                for item in &args[2..] {
                    match self.0 {
                        End::Left => list.push_front(item.clone()),
                        End::Right => list.push_back(item.clone()),
                    }
                }
                Ok(Reply::Int(list.len() as i64))
            }
            _ => Err(Error::WrongType),
        }
    }
}
