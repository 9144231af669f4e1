//! The table of commands by name.

use super::{hashes, keys, lists, server, sets, strings, Command};
use std::collections::HashMap;

pub struct Registry {
    commands: HashMap<&'static str, Box<dyn Command>>,
}

impl Registry {
    /// Every command emberkv knows.
    pub fn standard() -> Registry {
        let mut r = Registry {
            commands: HashMap::new(),
        };
        strings::register(&mut r);
        keys::register(&mut r);
        lists::register(&mut r);
        hashes::register(&mut r);
        sets::register(&mut r);
        server::register(&mut r);
        r
    }

    pub fn add(&mut self, command: Box<dyn Command>) {
        self.commands.insert(command.name(), command);
    }

    /// The command called `name` (upper case).
    pub fn get(&self, name: &str) -> Option<&dyn Command> {
        self.commands.get(name).map(|c| c.as_ref())
    }

    /// Every name, sorted.
    pub fn names(&self) -> Vec<&'static str> {
        let mut v: Vec<&'static str> = self.commands.keys().copied().collect();
        v.sort_unstable();
        v
    }
}
