//! Compiled code in a workspace, recognised by name or magic number.

use super::Node;

/// What kind of compiled code a file is, by its name or its magic number: Python byte code,
/// JVM class files and archives, shared objects and native executables, object files,
/// WebAssembly. `None` for anything else (scripts, data, text).
pub(crate) fn compiled_kind(path: &[u8], node: &Node) -> Option<&'static str> {
    let Node::File { head, size, .. } = node else {
        return None;
    };
    let name = path.rsplit(|&b| b == b'/').next().unwrap_or(path);
    let ends = |suffix: &[u8]| name.ends_with(suffix);
    if ends(b".pyc") || ends(b".pyo") {
        return Some("Python byte code");
    }
    if ends(b".class") || ends(b".jar") || ends(b".war") {
        return Some("JVM byte code");
    }
    if ends(b".so") || name.windows(4).any(|w| w == b".so.") || ends(b".dylib") || ends(b".dll") {
        return Some("shared object");
    }
    if ends(b".o") || ends(b".a") || ends(b".node") || ends(b".wasm") {
        return Some("compiled object");
    }
    if *size < 4 {
        return None;
    }
    match head {
        [0x7f, b'E', b'L', b'F'] => Some("ELF executable or object"),
        [0xca, 0xfe, 0xba, 0xbe] => Some("JVM class or Mach-O binary"),
        [0xfe, 0xed, 0xfa, 0xce | 0xcf] | [0xce | 0xcf, 0xfa, 0xed, 0xfe] => Some("Mach-O binary"),
        [0x00, b'a', b's', b'm'] => Some("WebAssembly"),
        _ => None,
    }
}
