//! Guards between the model and the machine: where a path may point ([`path`]), which
//! commands may run ([`policy`]) and what a child process may see ([`env`]).

pub mod env;
pub mod path;
pub mod policy;

pub use path::{PathError, PathGuard};
pub use policy::{CommandPolicy, PolicyVerdict, Rule};
