//! The `railnote` binary: see [`railnote::cli`].

use std::process::ExitCode;

// A replay makes and drops many small vectors per action (legal-move checks, route walks);
// mimalloc serves them markedly faster than the system allocator and does not hand memory
// back to the kernel after every game of a batch `check`.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> ExitCode {
    railnote::cli::main()
}
