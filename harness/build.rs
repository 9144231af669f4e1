//! Rebuilds the crate when the embedded selftest corpus changes (harness/selftest/, and the
//! shipped tasks under tasks/ it copies): `include_dir!` alone does not tell cargo on
//! stable Rust.

fn main() {
    println!("cargo:rerun-if-changed=selftest");
    println!("cargo:rerun-if-changed=../tasks");
}
