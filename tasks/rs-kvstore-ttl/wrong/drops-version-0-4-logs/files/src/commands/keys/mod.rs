//! Commands on keys, whatever their values.

mod dbsize;
mod del;
mod exists;
mod expire;
mod flushdb;
mod keys;
mod persist;
mod rename;
mod ttl;
mod type_cmd;

use super::registry::Registry;

pub fn register(r: &mut Registry) {
    r.add(Box::new(del::Del));
    r.add(Box::new(exists::Exists));
    r.add(Box::new(keys::Keys));
    r.add(Box::new(dbsize::DbSize));
    r.add(Box::new(flushdb::FlushDb));
    r.add(Box::new(rename::Rename));
    r.add(Box::new(type_cmd::Type));
    for kind in expire::Kind::ALL {
        r.add(Box::new(expire::Expire(kind)));
    }
    r.add(Box::new(ttl::Ttl { millis: false }));
    r.add(Box::new(ttl::Ttl { millis: true }));
    r.add(Box::new(persist::Persist));
}
