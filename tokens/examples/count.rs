//! Prints the o200k_base token count of each file given (a folder counts every file under
//! it), then the total: how task authors measure a long-context task's material.
//!
//! `cargo run -p nab-tokens --example count -- tasks/lc-log-incident/workspace`

use std::path::Path;

fn count_path(path: &Path, total: &mut usize) -> std::io::Result<()> {
    if path.is_dir() {
        let mut entries: Vec<_> = std::fs::read_dir(path)?
            .collect::<Result<Vec<_>, _>>()?
            .into_iter()
            .map(|e| e.path())
            .collect();
        entries.sort();
        for entry in entries {
            count_path(&entry, total)?;
        }
        return Ok(());
    }
    let bytes = std::fs::read(path)?;
    let text = String::from_utf8_lossy(&bytes);
    let n = nab_tokens::count(&text);
    *total += n;
    println!("{n:>10}  {}", path.display());
    Ok(())
}

fn main() {
    let mut total = 0;
    for arg in std::env::args_os().skip(1) {
        let path = Path::new(&arg);
        if let Err(e) = count_path(path, &mut total) {
            eprintln!("count: {}: {e}", path.display());
            std::process::exit(1);
        }
    }
    println!("{total:>10}  total");
}
