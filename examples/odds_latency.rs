//! Mean in-process latency of `odds` for the given commands, for
//! bench/run.sh to print beside icepool's figures.
//! Usage: cargo run --release --example odds_latency -- 'odds roll 60d6>=4' …

use std::time::Instant;

use drumhead::session::Session;

fn main() {
    let tables = match drumhead::systems::embedded() {
        Ok(t) => t,
        Err(e) => {
            eprintln!("error: {e}");
            std::process::exit(2);
        }
    };
    let mut session = Session::new(tables, drumhead::drums::DRUMS, 1);
    // As `drumhead odds …` answers in text or JSON: only a CSV table or a
    // chart keeps each outcome's measures.
    session.count_outcome_values(false);
    for line in std::env::args().skip(1) {
        if let Err(e) = session.run_line(&line) {
            eprintln!("error: {line}: {e}");
            std::process::exit(1);
        }
        // Enough repetitions for a steady mean, bounded to about a second.
        let start = Instant::now();
        let mut n = 0u32;
        while n < 100_000 && start.elapsed().as_secs_f64() < 1.0 {
            let _ = session.run_line(&line);
            n += 1;
        }
        let micros = start.elapsed().as_secs_f64() * 1e6 / f64::from(n);
        println!("{micros:.1}\t{line}");
    }
}
