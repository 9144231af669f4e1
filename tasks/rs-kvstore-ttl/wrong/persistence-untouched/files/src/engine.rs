//! The engine: runs command lines against its keyspace, keeps the append-only log, and
//! writes and loads snapshots.

use crate::clock::Clock;
use crate::commands::registry::Registry;
use crate::commands::Ctx;
use crate::config::Config;
use crate::error::{Error, Result};
use crate::persist::{aof, snapshot};
use crate::protocol::{tokenize, Reply};
use crate::store::{expiry, Db};

pub struct Engine {
    db: Db,
    clock: Box<dyn Clock>,
    config: Config,
    registry: Registry,
    /// The log of writes, when enabled.
    aof: Option<Vec<String>>,
}

impl Engine {
    /// An empty engine with the default configuration.
    pub fn new<C: Clock + 'static>(clock: C) -> Engine {
        Engine::with_config(clock, Config::default())
    }

    pub fn with_config<C: Clock + 'static>(clock: C, config: Config) -> Engine {
        Engine {
            db: Db::new(),
            clock: Box::new(clock),
            config,
            registry: Registry::standard(),
            aof: None,
        }
    }

    /// The engine's time, milliseconds since the Unix epoch.
    pub fn now_ms(&self) -> u64 {
        self.clock.now_ms()
    }

    /// Runs one command line, e.g. `SET greeting "hello world"`.
    pub fn execute(&mut self, line: &str) -> Reply {
        match tokenize(line) {
            Ok(args) => self.execute_args(&args),
            Err(e) => e.into(),
        }
    }

    /// Runs one command given as arguments (`args[0]` is the command's name).
    pub fn execute_args(&mut self, args: &[String]) -> Reply {
        self.db.stats_mut().commands += 1;
        match self.dispatch(args) {
            Ok(reply) => reply,
            Err(e) => e.into(),
        }
    }

    fn dispatch(&mut self, args: &[String]) -> Result<Reply> {
        let first = match args.first() {
            Some(a) => a,
            None => return Err(Error::Protocol("empty command".into())),
        };
        let name = if self.config.case_insensitive_commands {
            first.to_ascii_uppercase()
        } else {
            first.clone()
        };
        let command = self
            .registry
            .get(&name)
            .ok_or_else(|| Error::UnknownCommand(first.clone()))?;
        if !command.arity().accepts(args.len()) {
            return Err(Error::WrongArity(first.to_ascii_lowercase()));
        }
        if args.len() > 1 && args[1].len() > self.config.max_key_len {
            return Err(Error::Protocol("key too long".into()));
        }
        let now = self.clock.now_ms();
        self.db.set_now(now);
        let mut ctx = Ctx {
            db: &mut self.db,
            now,
            config: &self.config,
        };
        let reply = command.run(&mut ctx, args)?;
        if command.is_write() {
            if let Some(log) = self.aof.as_mut() {
                log.push(aof::encode(args));
            }
        }
        Ok(reply)
    }

    /// Reclaims memory of expired keys nobody reads (a server calls this periodically).
    pub fn tick(&mut self) -> usize {
        let now = self.clock.now_ms();
        self.db.set_now(now);
        expiry::sweep(&mut self.db, now, self.config.sweep_budget)
    }

    /// Starts logging every write command this engine runs from now on.
    pub fn enable_aof(&mut self) {
        if self.aof.is_none() {
            self.aof = Some(Vec::new());
        }
    }

    /// The lines of the append-only log (empty when it is not enabled).
    pub fn aof(&self) -> &[String] {
        match &self.aof {
            Some(lines) => lines,
            None => &[],
        }
    }

    /// A new engine that has run every command of the log `lines` (as written by
    /// [`Engine::aof`], possibly by an earlier version), with its log enabled and holding
    /// those lines.
    pub fn replay<C: Clock + 'static>(lines: &[String], clock: C) -> Result<Engine> {
        let mut engine = Engine::new(clock);
        for (i, line) in lines.iter().enumerate() {
            let args = match aof::decode(line) {
                None => continue,
                Some(Ok(args)) => args,
                Some(Err(e)) => {
                    return Err(Error::Aof {
                        line: i + 1,
                        message: e.to_string(),
                    })
                }
            };
            if let Reply::Error(message) = engine.execute_args(&args) {
                return Err(Error::Aof {
                    line: i + 1,
                    message,
                });
            }
        }
        engine.aof = Some(lines.to_vec());
        Ok(engine)
    }

    /// A snapshot of the keyspace (see [`crate::persist::snapshot`]).
    pub fn snapshot(&mut self) -> String {
        snapshot::write(&self.db)
    }

    /// A new engine whose keyspace is the one the snapshot `text` holds.
    pub fn from_snapshot<C: Clock + 'static>(text: &str, clock: C) -> Result<Engine> {
        let db = snapshot::read(text)?;
        let mut engine = Engine::new(clock);
        engine.db = db;
        Ok(engine)
    }

    /// The names of every command, sorted.
    pub fn command_names(&self) -> Vec<&'static str> {
        self.registry.names()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::clock::ManualClock;

    fn run(e: &mut Engine, line: &str) -> String {
        e.execute(line).to_string()
    }

    #[test]
    fn strings_lists_hashes_and_sets() {
        let mut e = Engine::new(ManualClock::new(0));
        assert_eq!(run(&mut e, "SET greeting \"hello world\""), "OK");
        assert_eq!(run(&mut e, "get greeting"), "\"hello world\"");
        assert_eq!(run(&mut e, "APPEND greeting !"), "(integer) 12");
        assert_eq!(run(&mut e, "INCR n"), "(integer) 1");
        assert_eq!(run(&mut e, "INCRBY n 41"), "(integer) 42");
        assert_eq!(run(&mut e, "RPUSH l a b c"), "(integer) 3");
        assert_eq!(run(&mut e, "LRANGE l 0 -1"), "1) \"a\"\n2) \"b\"\n3) \"c\"");
        assert_eq!(run(&mut e, "HSET h f 1 g 2"), "(integer) 2");
        assert_eq!(run(&mut e, "HGET h g"), "\"2\"");
        assert_eq!(run(&mut e, "SADD s x y x"), "(integer) 2");
        assert_eq!(
            run(&mut e, "KEYS *"),
            "1) \"greeting\"\n2) \"h\"\n3) \"l\"\n4) \"n\"\n5) \"s\""
        );
        assert_eq!(run(&mut e, "TYPE l"), "list");
        assert_eq!(run(&mut e, "DEL l h nope"), "(integer) 2");
        assert_eq!(run(&mut e, "DBSIZE"), "(integer) 3");
    }

    #[test]
    fn errors_are_replies() {
        let mut e = Engine::new(ManualClock::new(0));
        assert_eq!(run(&mut e, "NOPE"), "(error) ERR unknown command 'NOPE'");
        assert_eq!(
            run(&mut e, "GET"),
            "(error) ERR wrong number of arguments for 'get' command"
        );
        run(&mut e, "RPUSH l a");
        assert!(run(&mut e, "GET l").starts_with("(error) WRONGTYPE"));
        assert_eq!(run(&mut e, "SET k v NX XX"), "(error) ERR syntax error");
    }

    #[test]
    fn a_key_with_a_deadline_is_gone_after_it() {
        let clock = ManualClock::new(1_000_000);
        let mut e = Engine::new(clock.clone());
        run(&mut e, "SET session abc");
        assert_eq!(run(&mut e, "EXPIRE session 10"), "(integer) 1");
        assert_eq!(run(&mut e, "TTL session"), "(integer) 10");
        clock.advance(10_000);
        assert_eq!(run(&mut e, "GET session"), "(nil)");
        assert_eq!(run(&mut e, "TTL session"), "(integer) -2");
        assert_eq!(run(&mut e, "EXPIRE session 10"), "(integer) 0");
    }

    #[test]
    fn the_log_replays_into_the_same_keyspace() {
        let mut e = Engine::new(ManualClock::new(0));
        e.enable_aof();
        run(&mut e, "SET a \"x y\"");
        run(&mut e, "GET a");
        run(&mut e, "RPUSH l 1 2");
        run(&mut e, "DEL nope");
        assert_eq!(e.aof(), ["SET a \"x y\"", "RPUSH l 1 2", "DEL nope"]);
        let mut r = Engine::replay(e.aof(), ManualClock::new(0)).unwrap();
        assert_eq!(run(&mut r, "GET a"), "\"x y\"");
        assert_eq!(run(&mut r, "LLEN l"), "(integer) 2");
        assert_eq!(r.aof().len(), 3);
    }

    #[test]
    fn snapshots_load_back() {
        let mut e = Engine::new(ManualClock::new(0));
        run(&mut e, "SET a 1");
        run(&mut e, "SADD s m");
        let text = e.snapshot();
        let mut back = Engine::from_snapshot(&text, ManualClock::new(0)).unwrap();
        assert_eq!(run(&mut back, "GET a"), "\"1\"");
        assert_eq!(run(&mut back, "SMEMBERS s"), "1) \"m\"");
    }
}
