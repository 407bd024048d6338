//! In-process timings: one resolution with JSON output, and exact odds for
//! the procedures with the most dice. Run with `cargo bench -p drumhead-bench`.

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use drumhead::format::{self as render, json::write_json};
use drumhead::session::{Output, Session};

fn session() -> Session {
    Session::new(
        drumhead::systems::embedded().expect("tables"),
        drumhead::drums::DRUMS,
        1,
    )
}

fn resolve_and_render(c: &mut Criterion) {
    let mut s = session();
    let mut buf = Vec::with_capacity(1024);
    c.bench_function("resolve+json: resilience shooting +determined +hit", |b| {
        b.iter(|| {
            buf.clear();
            if let Ok(Some(Output::Resolution(res))) =
                s.run_line(black_box("resilience shooting +determined +hit"))
            {
                let source = render::Source {
                    line: 1,
                    input: "resilience shooting +determined +hit",
                };
                write_json(&res, source, &mut buf);
            }
            black_box(&buf);
        })
    });
}

fn odds(c: &mut Criterion) {
    let mut s = session();
    for line in drumhead_bench_lines() {
        c.bench_function(line, |b| {
            b.iter(|| black_box(s.run_line(black_box(line)).is_ok()))
        });
    }
}

/// The heaviest shipped distributions, shared with examples/odds_latency.rs.
fn drumhead_bench_lines() -> &'static [&'static str] {
    &[
        "odds resilience melee lost-round general",
        "odds roll 60d6>=4",
        "odds initiative generals=6 exceptional=2 supply vs generals=7",
    ]
}

criterion_group!(benches, resolve_and_render, odds);
criterion_main!(benches);
