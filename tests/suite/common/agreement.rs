//! `odds` against seeded rolls: the one chi-square check every rule
//! system's odds tests share (included with `#[path]` by each).

use drumhead::answer::Odds;
use drumhead::command::System;
use drumhead::session::{Output, Session};

/// A session on the embedded tables, reading lines under `rules`.
pub fn session(rules: System, seed: u64) -> Session {
    Session::new(
        drumhead::systems::embedded().expect("embedded tables load"),
        rules,
        seed,
    )
}

/// The exact odds of `line`, read under `rules` unless it names another
/// system (`saber odds …`).
pub fn odds(rules: System, line: &str) -> Odds {
    let s = session(rules, 1);
    let command = s.parse(line).expect(line).expect(line);
    let system = command.system.map_or(rules, |(s, _)| s);
    s.odds(system, &command, line).expect(line)
}

/// Observed frequencies of `n` rolls from `session`, by outcome group.
fn simulate(session: &mut Session, line: &str, n: usize) -> Vec<(String, usize)> {
    let mut counts: Vec<(String, usize)> = Vec::new();
    for _ in 0..n {
        let Ok(Some(Output::Resolution(res))) = session.run_line(line) else {
            panic!("{line} did not resolve");
        };
        let group = res.odds_group.as_deref().unwrap_or(&res.outcome_text);
        match counts.iter_mut().find(|(t, _)| t == group) {
            Some((_, c)) => *c += 1,
            None => counts.push((group.to_string(), 1)),
        }
    }
    counts
}

/// Chi-square goodness of fit of 100,000 rolls from `session` against the
/// exact odds, cells expected under 5 pooled, at the 99.9th percentile. A
/// wrong table (one row moved by a point) fails this by a wide margin.
pub fn assert_agrees(exact: &Odds, session: &mut Session, line: &str) {
    const N: usize = 100_000;
    let observed = simulate(session, line, N);
    for (text, _) in &observed {
        assert!(
            exact.outcomes.iter().any(|x| &x.text == text),
            "{line}: rolled {text}, which odds says cannot happen"
        );
    }
    let (mut chi2, mut cells) = (0.0, 0);
    let (mut pooled_e, mut pooled_o) = (0.0, 0.0);
    for outcome in &exact.outcomes {
        let e = outcome.prob.p * N as f64;
        let obs = observed
            .iter()
            .find(|(t, _)| *t == outcome.text)
            .map_or(0, |(_, c)| *c) as f64;
        if e < 5.0 {
            pooled_e += e;
            pooled_o += obs;
        } else {
            chi2 += (obs - e).powi(2) / e;
            cells += 1;
        }
    }
    if pooled_e > 0.0 {
        chi2 += (pooled_o - pooled_e).powi(2) / pooled_e.max(1.0);
        cells += 1;
    }
    // 99.9th percentile of chi-square with k−1 degrees of freedom, by the
    // Wilson–Hilferty approximation.
    let k = (cells as f64 - 1.0).max(1.0);
    let z = 3.09;
    let limit = k * (1.0 - 2.0 / (9.0 * k) + z * (2.0 / (9.0 * k)).sqrt()).powi(3);
    assert!(
        chi2 < limit,
        "{line}: chi-square {chi2:.1} over {limit:.1} with {k} degrees of freedom"
    );
}
