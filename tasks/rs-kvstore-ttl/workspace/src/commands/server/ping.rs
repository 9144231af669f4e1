use crate::commands::{Arity, Command, Ctx};
use crate::error::{Error, Result};
use crate::protocol::Reply;

/// `PING [message]`
pub struct Ping;

impl Command for Ping {
    fn name(&self) -> &'static str {
        "PING"
    }
    fn arity(&self) -> Arity {
        Arity::AtLeast(1)
    }
    fn is_write(&self) -> bool {
        false
    }
    fn run(&self, _ctx: &mut Ctx<'_>, args: &[String]) -> Result<Reply> {
        match args.len() {
            1 => Ok(Reply::Status("PONG".into())),
            2 => Ok(Reply::bulk(args[1].clone())),
            _ => Err(Error::WrongArity("ping".into())),
        }
    }
}
