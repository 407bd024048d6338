//! Golden CLI tests: every `tests/cmd/**/*.md` file is a transcript of a
//! user's session (`$ drumhead …` and what it printed), and every
//! `tests/cmd/**/*.toml` a batch run with a `.stdin` script beside it.
//! Regenerate after an intended change with `TRYCMD=overwrite cargo test --test suite cli::`
//! and read the diff before committing it.

#[test]
fn golden_transcripts() {
    trycmd::TestCases::new()
        .case("tests/cmd/**/*.md")
        .case("tests/cmd/**/*.toml");
}
