//! Musket Mayhem, the fourth audit: each rule as its own case, quoting its
//! line (shared/rules/musket-mayhem.txt).

use super::{PIMPERNEL, RAID, kept, refused, resolve, said, with_lists};
use crate::mayhem::MAYHEM;

fn raid() -> crate::session::Session {
    with_lists(MAYHEM, RAID)
}

/// What a line that is not a resolution answers, as text.
fn report(s: &mut crate::session::Session, line: &str) -> String {
    format!("{:?}", s.run_line(line).expect(line))
}

// "Courage checks are required in the following situations: 1. A figure in
// a group is killed (only once per turn)." warrior-1 of the warriors is
// killed (4 hits at half range; 5 + 1 for the musket kills): the answer asks
// the rest of his group to check.
#[test]
fn a_figure_killed_in_a_group_prompts_its_group_to_check() {
    let res = resolve(&mut raid(), "fire settler-1 10\" at warrior-1 rolled 4 5");
    let all = said(&res);
    assert!(
        all.contains("A figure in a group is killed (only once per turn)")
            && all.contains("courage war-chief warrior-2 warrior-3 warrior-4 cause=casualty"),
        "{all}"
    );
}

// The same in a game kept in a file: `end-turn` lists the group's check,
// and a second death in the group the same turn asks for it once.
#[test]
fn end_turn_lists_a_groups_casualty_check_once() {
    let mut s = kept(MAYHEM, RAID, "mayhem-casualty");
    resolve(&mut s, "fire settler-1 10\" at warrior-1 rolled 4 5");
    let res = resolve(&mut s, "fire settler-2 10\" at warrior-2 rolled 4 5");
    assert!(said(&res).contains("it checks once"), "{}", said(&res));
    let end = report(&mut s, "end-turn");
    assert_eq!(
        end.matches("Group warriors had a figure killed this turn")
            .count(),
        1,
        "{end}"
    );
    assert!(
        end.contains("courage war-chief warrior-3 warrior-4 cause=casualty"),
        "{end}"
    );
}

// "Heroes: Depending on the scenario, heroes could be represented by some
// combination of save tokens ..., reroll tokens, or bonuses to skill or
// impact dice with specific weapons. (Hawkeye, for example, ...)" The
// target word `hero` fits Hawkeye, who has save tokens and Killdeer's
// bonus; the move's "+1d6 bonus for specially designated heroes" is still
// read from the list's `move_bonus`.
#[test]
fn hawkeye_is_a_hero_as_a_target() {
    let res = resolve(&mut raid(), "fire langy 10\" at hawkeye hero rolled 4 5");
    assert!(said(&res).contains("save token"), "{}", said(&res));
    let e = refused(&mut raid(), "fire langy 10\" at warrior-1 hero rolled 4 5");
    assert!(e.contains("hero"), "{e}");
}

// "After the battle, downed figures can be diced for, and are wounded on a
// d6 roll of 1-4 and dead on a roll of 5-6": a figure is diced for once; a
// dead figure does not become wounded by a second throw.
#[test]
fn a_downed_figure_is_diced_for_once() {
    let mut s = kept(MAYHEM, RAID, "mayhem-post-battle");
    resolve(&mut s, "fire settler-1 10\" at war-chief rolled 4 5");
    let res = resolve(&mut s, "post-battle war-chief rolled 5");
    assert!(res.outcome_text.contains("1 dead"), "{}", said(&res));
    let e = refused(&mut s, "post-battle war-chief rolled 2");
    assert!(e.contains("diced for after the battle already"), "{e}");
}

// "+1 for troops armed with bayonets against opponents with shorter
// weapons such as tomahawks": a guard with a bayonet against a marine with
// one has no shorter weapon before him; against a warrior he does.
#[test]
fn bayonet_against_bayonet_gives_neither_side_the_plus_one() {
    let files = [PIMPERNEL[1], RAID[0]];
    let mut s = with_lists(MAYHEM, &files);
    let res = resolve(&mut s, "fight guard-1 vs marine-1 rolled 4 4");
    assert!(!said(&res).contains("bayonets against"), "{}", said(&res));
    let res = resolve(&mut s, "fight guard-1 vs warrior-1 rolled 4 4");
    let all = said(&res);
    assert_eq!(all.matches("bayonets against").count(), 1, "{all}");
}

// `rolled FACES… [roll-rest]`: "`rolled 4 roll-rest` rolls the dice after
// the entered ones" (help). A face after `roll-rest` would be a die it
// claims to roll: refused, not dropped; and `_` is `-` in every keyword.
#[test]
fn roll_rest_stands_last_and_may_be_spelt_with_an_underscore() {
    let mut s = super::bare(MAYHEM);
    let e = refused(&mut s, "mayhem fire musket 10\" rolled 4 roll-rest 5");
    assert!(
        e.contains("`roll-rest` comes after every entered face"),
        "{e}"
    );
    let res = resolve(&mut s, "mayhem fire musket 10\" rolled 4 roll_rest");
    assert_eq!(res.dice.first().map(|d| d.face), Some(4), "{}", said(&res));
}

// "Hawkeye, for example, could be given a +2 to hit and a +1 to impact
// while using Killdeer": a typed `skill+1` stands in place of his +2, and
// the stack says what it was typed over.
#[test]
fn a_bonus_typed_over_a_heros_own_is_shown() {
    let res = resolve(&mut raid(), "fire hawkeye 10\" skill+1 rolled 3 3");
    let over = res
        .fields
        .get("override")
        .map(ToString::to_string)
        .unwrap_or_default();
    assert!(
        over.contains("`skill=1` typed in place of `rifle-skill=2`"),
        "{}",
        said(&res)
    );
    assert!(said(&res).contains("override"), "{}", said(&res));
}

// "+1d6 bonus for specially designated heroes, etc. (Optional)": Sir
// Percy is the Pimpernel's designated hero, and `show` says so among his
// bonuses.
#[test]
fn show_gives_a_designated_heros_move_bonus() {
    let mut s = with_lists(MAYHEM, PIMPERNEL);
    let shown = report(&mut s, "show percy");
    assert!(shown.contains("moves: +1D6"), "{shown}");
}

// "Heroes: ... save tokens (canceling a death or morale failure), reroll
// tokens": a skill check reads the reroll tokens only, and says nothing
// of saves (Percy has 2) it does not read.
#[test]
fn a_skill_check_reports_no_saves_it_does_not_read() {
    let mut s = with_lists(MAYHEM, PIMPERNEL);
    let res = resolve(&mut s, "skill percy 5 rolled 6");
    let tokens = res.fields.get("tokens").expect("tokens").to_string();
    assert!(tokens.contains("\"rerolls\":1"), "{tokens}");
    assert!(!tokens.contains("saves"), "{tokens}");
}

// "If the group was ordered to charge then they stand still instead": after
// a failed charge order the group does not move at all this turn, a charge
// or another move.
#[test]
fn a_group_that_failed_its_charge_order_stands_still() {
    let mut s = kept(MAYHEM, RAID, "mayhem-stand-still");
    resolve(
        &mut s,
        "courage warrior-2 warrior-3 cause=charge-ordered rolled 6",
    );
    let e = refused(&mut s, "move warrior-2 individual");
    assert!(e.contains("stands still"), "{e}");
    s.run_line("next-turn").expect("a new turn");
    resolve(&mut s, "move warrior-2 individual rolled 3 3 3");
}

// "Players (sides) dice for initiative each turn. ... If there is a tie,
// repeat the previous turn's sequence." Once a turn; and a previous
// sequence said on the line may not contradict the one the game records.
#[test]
fn initiative_is_diced_once_a_turn_and_repeats_the_recorded_sequence() {
    let mut s = kept(MAYHEM, RAID, "mayhem-initiative");
    resolve(&mut s, "initiative rolled 2 5");
    let e = refused(&mut s, "initiative rolled 5 2");
    assert!(e.contains("diced already this turn"), "{e}");
    s.run_line("next-turn").expect("a new turn");
    let e = refused(&mut s, "initiative previous-a-first rolled 3 3");
    assert!(
        e.contains("contradicts the game") && e.contains("Great Britain went first"),
        "{e}"
    );
    let res = resolve(&mut s, "initiative previous-b-first rolled 3 3");
    assert!(
        res.outcome_text.contains("Great Britain goes first"),
        "{}",
        said(&res)
    );
}

// "In the other four possible tests, roll again against each individual's
// courage. If they roll higher than their courage, they run off the board
// and are removed. Otherwise they retreat 2d6"": the printed sheet gives
// the whole check, in the text's order.
#[test]
fn the_sheet_gives_each_figures_own_courage_roll_and_running_off() {
    let registry = crate::systems::all();
    let book = crate::print::book_named(&registry, "mayhem").expect("a shipped book");
    let sheet = crate::print::sheet(&registry, book, &crate::tables::TableSource::embedded())
        .expect("the sheet is made");
    let notes: Vec<String> = sheet
        .sections
        .iter()
        .flat_map(|s| s.notes.iter().map(|n| n.text.clone()))
        .collect();
    let check = notes
        .iter()
        .find(|n| n.starts_with("Roll one die vs. the highest courage value"))
        .expect("the check's note");
    let at = |text: &str| {
        check
            .find(text)
            .unwrap_or_else(|| panic!("{text}: {check}"))
    };
    assert!(at("stand still instead") < at("roll again against each individual's courage"));
    assert!(at("run off the board and are removed") < at("Otherwise they retreat"));
}
