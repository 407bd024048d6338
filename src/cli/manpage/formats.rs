//! drumhead(1)'s SWEEPS and OUTPUT FORMATS: a word swept over a range
//! or a list, and the answers as CSV, TSV or an SVG chart.

use roff::Roff;

use super::roff_text::{example_block, para, tagged};

/// Sweeps: a word as a range or a list.
pub(super) fn sweep_section(roff: &mut Roff) {
    roff.control("SH", ["SWEEPS"]);
    para(
        roff,
        &format!(
            "In an odds line, a word given as a range or a list stands for each of its values in turn, \
             and the answer is a table with a row for each combination: each outcome's probability and \
             each expected value. A range is two whole numbers with .. between them, both included: \
             bases=2..8, 2..8BW, 2BW..8BW. A list is the values with commas between them and no spaces: \
             2BW,6BW or formed,open or bases=2,bases=4 (but group=4,3,3, a value that is itself a list, \
             is the word's own value and no sweep). At most {} words of a line may be swept (a table of \
             one, a heat map of two), in at most {} combinations; a sweep outside odds, with compare, or \
             a range that runs backwards or holds one value is refused. In JSON the answer is of type \
             sweep: swept (each word, its name and values), outcomes (every outcome of any row), \
             expected (the expected values' keys), and rows (each combination's values, heading, \
             outcomes and expected values). A sweep whose table would have more than {} cells \
             (combinations times outcomes) is written a combination at a time, each as soon as it is \
             counted, so that the first rows come at once and memory does not grow with the answer \
             (on the command line, at the REPL's prompt and on the odds page of drumhead serve): \
             in text each combination's values on a line, then its distribution as odds shows one; \
             under csv and tsv one table, the odds table of each combination after the swept words' \
             values; in JSON the same object with rows before outcomes and expected, each row having \
             the expected values of the names seen by then.",
            crate::limits::MAX_SWEPT_WORDS,
            crate::limits::MAX_SWEEP_LINES,
            crate::answer::sweep::WIDE_CELLS
        ),
    );
    example_block(
        roff,
        ["drumhead 'odds shoot musket 2BW,6BW formed bases=2..8'"],
    );
}

/// `--format csv|tsv` and `--svg`.
pub(super) fn formats_section(roff: &mut Roff) {
    roff.control("SH", ["OUTPUT FORMATS"]);
    para(
        roff,
        "--format text (the default), json (the same as --json), csv or tsv. Under csv and tsv \
         each answer of odds, odds … compare, a sweep or simulate is one table with a header row, \
         tables separated by a blank line; any other line is refused with an error naming it, and \
         the exit status is 2. Probabilities and expected values are decimals to 12 significant \
         digits, past any float's noise (a certainty is 1), and 0 where they are 0 (the exact \
         fractions are in the JSON: a spreadsheet would read 1/4 as a date).",
    );
    tagged(
        roff,
        "odds",
        "kind,id,outcome,text,value,probability,at_least: a row of kind outcome for each outcome, \
         id unique to the row and outcome the kind a resolution gives, shared by its rows; \
         where the outcomes are the values of a count or a total (hits, a pool's successes, a 2d6 \
         total) value holds it and at_least the chance of at least that value, else both are empty. \
         Then a row of kind expected for each expected value, the value in value.",
    );
    tagged(
        roff,
        "compare",
        "kind,outcome,text,value,without,with,without_at_least,with_at_least: the same, a column \
         for each side; expected rows hold the expected values under without and with.",
    );
    tagged(
        roff,
        "simulate",
        "kind,outcome,text,value,observed,p_observed,probability,at_least: the rolls counted, \
         their share, and the exact probability (empty where odds cannot list the line's outcomes).",
    );
    tagged(
        roff,
        "sweep",
        "A column for each swept word, then one for each outcome (its probability) and each \
         expected value; a row for each combination.",
    );
    para(
        roff,
        "--svg FILE draws the answer of the one odds line given on the command line as an SVG \
         chart, besides printing it: bars with their percentages (and a curve of the chance of at \
         least each value, for a count or a total), paired bars for compare, lines over the swept \
         values for a sweep of one word (each outcome's probability above, each expected value \
         below), a heat map of the first expected value for a sweep of two. FILE must not exist \
         unless --force is given, and is written whole or not at all (see OUTPUT FILES); a line \
         that is not odds is refused.",
    );
}
