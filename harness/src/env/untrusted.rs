//! Reading a file the agent left for the harness. The agent chose what is at the path:
//! a symlink to a host file, a FIFO with no writer (a blocking `open` would hang the
//! run), a device, a sparse file of any apparent size. So the file is opened without
//! following a link and without blocking, checked with `fstat` to be a regular file, and
//! read with a size cap. A file that breaks a rule is refused, and the refusal is the
//! agent's failure, never an infrastructure error.

use std::io::Read;
use std::os::unix::fs::{FileTypeExt, OpenOptionsExt};
use std::path::Path;

/// Why a file from the sandbox was not read. The text says what the agent left there.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub(crate) enum Refused {
    #[error("is a symlink, not a file; not followed")]
    Symlink,
    #[error("is a {0}, not a regular file")]
    NotRegular(&'static str),
    #[error("is {size} bytes, more than the {cap}-byte cap")]
    TooLarge { size: u64, cap: u64 },
    #[error("could not be read: {0}")]
    Unreadable(String),
}

fn kind_of(ft: std::fs::FileType) -> &'static str {
    if ft.is_dir() {
        "directory"
    } else if ft.is_fifo() {
        "FIFO"
    } else if ft.is_socket() {
        "socket"
    } else if ft.is_block_device() {
        "block device"
    } else if ft.is_char_device() {
        "character device"
    } else {
        "special file"
    }
}

/// The bytes of `path`, or `Ok(None)` when nothing is there. Never blocks on a FIFO,
/// never follows a symlink, never holds more than `cap` bytes.
pub(crate) fn read_capped(path: &Path, cap: u64) -> Result<Option<Vec<u8>>, Refused> {
    let file = match std::fs::OpenOptions::new()
        .read(true)
        // O_NONBLOCK: opening a FIFO for reading returns at once instead of waiting for
        // a writer; the fstat below then refuses it.
        .custom_flags(libc::O_NOFOLLOW | libc::O_NONBLOCK | libc::O_CLOEXEC)
        .open(path)
    {
        Ok(f) => f,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) if e.raw_os_error() == Some(libc::ELOOP) => return Err(Refused::Symlink),
        // ENXIO: a socket; anything else the agent arranged is equally its own doing.
        Err(e) => return Err(Refused::Unreadable(e.to_string())),
    };
    let meta = file
        .metadata()
        .map_err(|e| Refused::Unreadable(e.to_string()))?;
    if !meta.file_type().is_file() {
        return Err(Refused::NotRegular(kind_of(meta.file_type())));
    }
    // A sparse file's apparent size counts: reading it would produce every zero.
    if meta.len() > cap {
        return Err(Refused::TooLarge {
            size: meta.len(),
            cap,
        });
    }
    let mut bytes = Vec::with_capacity(meta.len() as usize);
    // The file may grow after fstat (a process outside the sandbox cannot, but be exact).
    file.take(cap + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| Refused::Unreadable(e.to_string()))?;
    if bytes.len() as u64 > cap {
        return Err(Refused::TooLarge {
            size: bytes.len() as u64,
            cap,
        });
    }
    Ok(Some(bytes))
}

/// How deeply `json` nests arrays and objects, counting brackets outside strings. A
/// cheap check before a parser recurses into what an agent wrote.
pub(crate) fn json_depth(json: &str) -> usize {
    let (mut depth, mut max, mut in_string, mut escaped) = (0usize, 0usize, false, false);
    for b in json.bytes() {
        if in_string {
            match b {
                _ if escaped => escaped = false,
                b'\\' => escaped = true,
                b'"' => in_string = false,
                _ => {}
            }
            continue;
        }
        match b {
            b'"' => in_string = true,
            b'[' | b'{' => {
                depth += 1;
                max = max.max(depth);
            }
            b']' | b'}' => depth = depth.saturating_sub(1),
            _ => {}
        }
    }
    max
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_regular_file_is_read_and_everything_else_is_refused_without_blocking() {
        let dir = tempfile::tempdir().unwrap();
        let p = |n: &str| dir.path().join(n);
        std::fs::write(p("ok"), b"hello").unwrap();
        assert_eq!(read_capped(&p("ok"), 5).unwrap().unwrap(), b"hello");
        assert_eq!(read_capped(&p("missing"), 5).unwrap(), None);
        assert_eq!(
            read_capped(&p("ok"), 4),
            Err(Refused::TooLarge { size: 5, cap: 4 })
        );
        std::os::unix::fs::symlink("/etc/hostname", p("link")).unwrap();
        assert_eq!(read_capped(&p("link"), 1 << 20), Err(Refused::Symlink));
        // A FIFO with no writer: a blocking open would never return.
        nix::unistd::mkfifo(&p("fifo"), nix::sys::stat::Mode::from_bits_truncate(0o644)).unwrap();
        assert_eq!(
            read_capped(&p("fifo"), 10),
            Err(Refused::NotRegular("FIFO"))
        );
        std::fs::create_dir(p("dir")).unwrap();
        assert_eq!(
            read_capped(&p("dir"), 10),
            Err(Refused::NotRegular("directory"))
        );
        // A sparse file is refused by its apparent size, before a byte is read.
        let f = std::fs::File::create(p("sparse")).unwrap();
        f.set_len(1 << 40).unwrap();
        assert_eq!(
            read_capped(&p("sparse"), 1 << 20),
            Err(Refused::TooLarge {
                size: 1 << 40,
                cap: 1 << 20
            })
        );
    }

    #[test]
    fn depth_counts_brackets_but_not_inside_strings() {
        assert_eq!(json_depth(r#"{"a":1}"#), 1);
        assert_eq!(json_depth(r#"{"a":[{"b":[]}]}"#), 4);
        assert_eq!(json_depth(r#"{"a":"[[[[{{{\"[["}"#), 1);
        assert_eq!(json_depth(&"[".repeat(10_000)), 10_000);
    }
}
