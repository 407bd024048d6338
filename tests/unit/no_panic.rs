//! Whatever is typed, drumhead answers with a result or an error, never a
//! panic. Lines are built from a seeded generator out of the words the
//! catalog knows, fragments of notation, and arbitrary characters.

use crate::session::Session;
use rand::{RngExt, SeedableRng};
use rand_pcg::Pcg64;

const FRAGMENTS: &[&str] = &[
    "rolled",
    "at",
    "vs",
    "odds",
    "help",
    "#",
    "=",
    "+",
    "2BW",
    "2.5bw",
    "12\"",
    "12in",
    "0",
    "-1",
    "7",
    "99999999999999999999",
    "3d6",
    "2d6+1",
    "10d6>=4",
    "1000000000d6",
    "d0",
    ",",
    ",,",
    "=x",
    "bases=4",
    "general=2",
    "+general=",
    "é",
    "\u{0}",
    "\t",
    "BW",
    "in",
    "drums",
    "mayhem",
    "saber",
    "saber-quickplay",
    ".5",
    "..",
    "(5)",
    "5hh",
];

fn random_line(rng: &mut Pcg64, words: &[String]) -> String {
    let n = rng.random_range(0..12);
    let mut parts: Vec<String> = Vec::new();
    for _ in 0..n {
        let pick = rng.random_range(0..10);
        let part = match pick {
            0..=4 => words[rng.random_range(0..words.len())].clone(),
            5..=7 => FRAGMENTS[rng.random_range(0..FRAGMENTS.len())].to_string(),
            8 => rng.random_range(0..20u32).to_string(),
            _ => (0..rng.random_range(1..6))
                .map(|_| char::from_u32(rng.random_range(1..0x2FF)).unwrap_or('?'))
                .collect(),
        };
        parts.push(part);
    }
    let sep = if rng.random_range(0..4) == 0 { "" } else { " " };
    parts.join(sep)
}

#[test]
fn no_line_makes_drumhead_panic() {
    let mut session = Session::new(crate::systems::embedded().unwrap(), crate::drums::DRUMS, 9);
    let mut words: Vec<String> = Vec::new();
    for doc in session.catalog.verbs() {
        words.push(doc.name.to_string());
        for entry in doc
            .vocab
            .entries
            .iter()
            .chain(doc.clauses.iter().flat_map(|(_, v)| v.entries.iter()))
        {
            words.push(entry.name.clone());
        }
    }
    let mut rng = Pcg64::seed_from_u64(20_261_123);
    for _ in 0..30_000 {
        let line = random_line(&mut rng, &words);
        // Either outcome is fine; a panic fails the test.
        let _ = session.run_line(&line);
        let _ = session.run_line(&format!("odds {line}"));
    }
}
