//! Commands about the engine itself.

mod echo;
mod info;
mod ping;

use super::registry::Registry;

pub fn register(r: &mut Registry) {
    r.add(Box::new(ping::Ping));
    r.add(Box::new(echo::Echo));
    r.add(Box::new(info::Info));
}
