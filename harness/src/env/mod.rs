//! Where a trial runs: the Docker sandbox behind a backend trait (`sandbox`: containers,
//! engines, disk quotas, host permissions), the images it runs (`image`: the base image
//! and the task images on it), the workspace archives that go in and out of it and their
//! diff (`workspace`), and reading what the agent left on the host (`untrusted`: no
//! links, no blocking, capped).

pub mod image;
pub mod sandbox;
pub(crate) mod untrusted;
pub(crate) mod workspace;
