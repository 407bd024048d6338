//! `odds` for the Musket Mayhem procedures of issue 15, against odds worked
//! out by hand from shared/rules/musket-mayhem.txt and against 100,000
//! seeded rolls of the same line: the enumerator and the dice must tell
//! the same story.

use crate::common::agreement;

use drumhead::answer::Odds;
use drumhead::session::Session;

fn session(seed: u64) -> Session {
    agreement::session(drumhead::mayhem::MAYHEM, seed)
}

fn odds(line: &str) -> Odds {
    agreement::odds(drumhead::mayhem::MAYHEM, line)
}

/// The exact chance of an outcome, by its text (0 when it cannot happen).
fn exact(odds: &Odds, text: &str) -> (u128, u128) {
    odds.outcomes
        .iter()
        .find(|o| o.text == text)
        .map_or(Some((0, 1)), |o| o.prob.exact())
        .unwrap_or_else(|| panic!("{text}: not an exact fraction"))
}

/// `odds` against 100,000 rolls seeded from 20_261_124.
fn assert_agrees(line: &str) {
    agreement::assert_agrees(&odds(line), &mut session(20_261_124), line);
}

#[test]
fn new_procedures_agree_with_seeded_rolls() {
    for line in [
        "initiative first-turn",
        "initiative previous-b-first second",
        "activation 4",
        "move individual 12\" rerolls=1",
        "move delayed mounted hero",
        "move delayed open mounted",
        "move group woods mounted 9\" rerolls=2",
        "fire canister at 10\" at 30\" soft figures=2",
        "fire roundshot rerolls=1 at 20\" at 50\" hard figures=2 at 80\"",
        "climb rerolls=1",
        "search value=5 difficulty=4 rerolls=1",
        "skill 5 rerolls=2",
        "ignite rerolls=1",
        "courage 5 saves=1 group=3,3 cause=casualty",
        "courage group=4,3,2 rerolls=1 cause=charged",
        "reload crew=2 leaders=2",
    ] {
        assert_agrees(line);
    }
}

#[test]
fn initiative_ties_by_hand() {
    // "If there is a tie, repeat the previous turn's sequence": a tie (1/6)
    // goes to the side that went first, so side b goes first 5/12 + 1/6.
    let o = odds("initiative previous-b-first");
    let tie = "tie: if there is a tie, repeat the previous turn's sequence — side b goes first, as last turn";
    assert_eq!(exact(&o, tie), (1, 6));
    assert_eq!(
        exact(&o, "side b wins: it chooses to go first or second"),
        (5, 12)
    );
    // The first turn has nothing to repeat: the tie is diced again, each
    // side winning half of it.
    let o = odds("initiative first-turn");
    assert_eq!(
        exact(
            &o,
            "tie on the first turn, with no previous sequence to repeat: diced again — side a wins: it chooses to go first or second"
        ),
        (1, 12)
    );
}

#[test]
fn activation_orders_are_equally_likely() {
    // "by card draw from a deck with one card per player": each of the 3!
    // orders 1/6, each of the 4! orders 1/24.
    let o = odds("activation 3");
    assert_eq!(o.outcomes.len(), 6);
    assert_eq!(
        exact(&o, "order of play: side c, then side a, then side b"),
        (1, 6)
    );
    let o = odds("activation 4");
    assert_eq!(o.outcomes.len(), 24);
    assert_eq!(
        exact(
            &o,
            "order of play: side d, then side a, then side c, then side b"
        ),
        (1, 24)
    );
}

#[test]
fn reroll_tokens_by_hand() {
    // One die, 5+ (1/3): a reroll token gives 1/3 + 2/3 · 1/3 = 5/9. The
    // reroll stands, so a second token is not spent on the same die.
    assert_eq!(
        exact(&odds("skill 5 rerolls=1"), "the skill is used successfully"),
        (5, 9)
    );
    assert_eq!(
        exact(&odds("skill 5 rerolls=2"), "the skill is used successfully"),
        (5, 9)
    );
    // "On a 6 the figure is placed on the other side": 1/6 + 5/6 · 1/6.
    let climb = odds("climb rerolls=1");
    assert_eq!(climb.outcomes.len(), 2);
    let success = climb
        .outcomes
        .iter()
        .find(|o| o.text.starts_with("the figure is placed"))
        .expect("success");
    assert_eq!(success.prob.exact(), Some((11, 36)));
    // A move of 3d6 reaches 12" on 81 of 216 (3/8); rerolled once when it
    // falls short: 3/8 + 5/8 · 3/8 = 39/64.
    assert_eq!(
        exact(&odds("move individual 12\" rerolls=1"), "reaches 12\""),
        (39, 64)
    );
}

#[test]
fn mounted_only_in_the_open_by_hand() {
    // "+2d6" if mounted in the open": a delayed move (woods) is 1d6 alone,
    // six outcomes; in the open it is 1d6 + 2d6, 3" to 18".
    let o = odds("move delayed mounted");
    assert_eq!(o.outcomes.len(), 6);
    assert_eq!(exact(&o, "move up to 6\""), (1, 6));
    let o = odds("move delayed open mounted");
    assert_eq!(o.outcomes.len(), 16);
    assert_eq!(exact(&o, "move up to 18\""), (1, 216));
}

#[test]
fn a_line_of_fire_by_hand() {
    // One figure at 10" in the open hits on 4+ (1/2); two at 30" in soft
    // cover need 5 with -1 over half range: a 6 (1/6 each). All three miss
    // 1/2 · 5/6 · 5/6 = 25/72.
    let o = odds("fire canister at 10\" at 30\" soft figures=2");
    assert_eq!(
        exact(&o, "3 figures: 0 killed, 0 take a courage check, 3 missed"),
        (25, 72)
    );
    // Beyond range no die is thrown: roundshot at 20" (4+, 1/2) and a figure
    // at 80" (72" range): the near one is missed half the time.
    let o = odds("fire roundshot at 20\" at 80\"");
    assert_eq!(
        exact(
            &o,
            "2 figures: 0 killed, 0 take a courage check, 1 missed, 1 out of range"
        ),
        (1, 2)
    );
}

#[test]
fn a_heros_save_in_a_group_by_hand() {
    // Courage 5, 3, 3: the group die passes on 1-5 (5/6). On a 6 the hero's
    // save holds him; each 3 runs off on 4-6 (1/2): none runs 1/6 · 1/4.
    let o = odds("courage 5 saves=1 group=3,3 cause=casualty");
    assert_eq!(exact(&o, "passes: 5 or less"), (5, 6));
    assert_eq!(
        exact(
            &o,
            "courage failed: 0 run off the board (removed), 2 retreat, 1 hold (save token)"
        ),
        (1, 24)
    );
}
