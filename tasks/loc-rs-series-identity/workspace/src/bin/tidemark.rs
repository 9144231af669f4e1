fn main() {
    let argv: Vec<String> = std::env::args().skip(1).collect();
    match tidemark::cli::run(&argv) {
        Ok(out) => print!("{}", out),
        Err(e) => {
            eprintln!("tidemark: {}", e);
            std::process::exit(2);
        }
    }
}
