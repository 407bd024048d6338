fn main() -> std::process::ExitCode {
    drumhead::cli::main()
}
