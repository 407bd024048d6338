fn main() -> std::process::ExitCode {
    drumhead::cli::main()
}

// Batch resolution allocates many small strings; mimalloc serves them
// markedly faster than the system allocator (see bench/run.sh).
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;
