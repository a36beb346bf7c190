//! The `railnote` binary: see [`railnote::cli`].

use std::process::ExitCode;

fn main() -> ExitCode {
    railnote::cli::main()
}
