//! `arbor`: check and run tree files from the command line (see docs/cli.md).

fn main() -> std::process::ExitCode {
    arbor_runtime::cli::main(std::env::args_os())
}
