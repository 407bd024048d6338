//! `odds` against hand-computed tables, and against 100,000 seeded rolls of
//! the same command: the enumerator and the dice must tell the same story.

use crate::common::agreement;

use drumhead::answer::Odds;
use drumhead::session::Session;

fn session(seed: u64) -> Session {
    agreement::session(drumhead::drums::DRUMS, seed)
}

fn odds(line: &str) -> Odds {
    agreement::odds(drumhead::drums::DRUMS, line)
}

fn exact(odds: &Odds, text: &str) -> Option<(u128, u128)> {
    odds.outcomes
        .iter()
        .find(|o| o.text == text)
        .map_or(Some((0, 1)), |o| o.prob.exact())
}

#[test]
fn resilience_melee_two_dice_plus_nothing() {
    // 2D6 + 0, melee column: 2–4 forced retire/2 hits (6 ways), 5 forced
    // retire/1 hit (4), 6 stand/1 hit (5), 7+ carry on (21), never a break.
    let o = odds("resilience melee");
    assert_eq!(exact(&o, "break"), Some((0, 1)));
    assert_eq!(exact(&o, "forced retire, take 2 hits"), Some((1, 6)));
    assert_eq!(exact(&o, "forced retire, take 1 hit"), Some((1, 9)));
    assert_eq!(exact(&o, "stand, take 1 hit"), Some((5, 36)));
    assert_eq!(exact(&o, "carry on"), Some((7, 12)));
    let expected_hits = o
        .expected
        .iter()
        .find(|(n, _)| n == "expected_hits")
        .unwrap()
        .1;
    assert!((expected_hits - (6.0 * 2.0 + 4.0 + 5.0) / 36.0).abs() < 1e-12);
}

#[test]
fn hold_test_odds() {
    // 7+ on 2D6 is 21/36; with +2 (determined) 5+ is 30/36.
    assert_eq!(
        exact(&odds("hold"), "must charge (7 or more)"),
        Some((7, 12))
    );
    assert_eq!(
        exact(&odds("hold determined"), "must charge (7 or more)"),
        Some((5, 6))
    );
    // 1D12: 7–12 is one half.
    assert_eq!(
        exact(&odds("hold d12"), "must charge (7 or more)"),
        Some((1, 2))
    );
}

#[test]
fn probabilities_sum_to_one() {
    for line in [
        "resilience shooting determined hit",
        "charge cavalry open",
        "move cavalry column-of-march road",
        "initiative generals=3 supply vs generals=4",
        "risk broke",
        "roll 60d6>=4",
        "roll 3d6+2",
    ] {
        let o = odds(line);
        let total: f64 = o.outcomes.iter().map(|x| x.prob.p).sum();
        assert!((total - 1.0).abs() < 1e-9, "{line}: {total}");
    }
}

/// `odds` against 100,000 rolls seeded from 20_261_123.
fn assert_agrees(line: &str) {
    agreement::assert_agrees(&odds(line), &mut session(20_261_123), line);
}

#[test]
fn odds_agree_with_seeded_rolls_resilience() {
    assert_agrees("resilience melee lost-round general");
    assert_agrees("resilience shooting d12 hit");
}

#[test]
fn odds_agree_with_seeded_rolls_hold_charge_move() {
    assert_agrees("hold weak");
    assert_agrees("charge cavalry open");
    assert_agrees("move foot column-of-march road");
}

#[test]
fn odds_agree_with_seeded_rolls_initiative_risk_roll() {
    assert_agrees("initiative generals=2 vs generals=2 supply");
    assert_agrees("risk broke");
    assert_agrees("roll 8d6>=5");
}

#[test]
fn odds_agree_with_seeded_rolls_dice_pools() {
    assert_agrees("shoot musket 2BW formed bases=6 at moved");
    assert_agrees("shoot field-artillery 10BW bases=3 first-shot");
    assert_agrees("melee cavalry bases=4 vs foot bases=4");
    assert_agrees("melee foot bases=3 supply");
    assert_agrees("shoot field-artillery 10BW bases=3 bounce");
}

#[test]
fn odds_agree_with_seeded_rolls_mayhem() {
    assert_agrees("mayhem fire musket 15\" soft");
    assert_agrees("mayhem courage group=4,3,3 cause=casualty");
    assert_agrees("mayhem fight leader vs shock");
    assert_agrees("mayhem move group mounted");
    assert_agrees("mayhem search value=4 difficulty=5");
    assert_agrees("mayhem post-battle 2");
}

#[test]
fn odds_agree_with_seeded_rolls_mayhem_compact_draws() {
    // Procedures whose dice odds reads by band or by count: opposed skill
    // dice, a results die against the armament, every figure's courage die
    // in one draw, a volley of skill dice then impact dice.
    assert_agrees("mayhem fight rear vs specialist impact=1");
    assert_agrees("mayhem fight leader rerolls=1 vs armed rerolls=1");
    assert_agrees("mayhem fight shock rerolls=2 vs leader saves=1");
    assert_agrees("mayhem fight leader saves=1 vs armed vs shock vs specialist");
    // Several opponents are carried combat by combat as a distribution of
    // A's tally and tokens: tokens on both sides, eight combats.
    assert_agrees(
        "mayhem fight leader saves=2 rerolls=2 vs armed rerolls=1 vs armed vs armed saves=1 vs shock vs armed vs unarmed vs armed vs superior",
    );
    assert_agrees("mayhem courage group=5,4,3,3,2,6,3 cause=leader-killed");
    assert_agrees("mayhem courage 3 rerolls=1 saves=1");
    assert_agrees("mayhem courage group=4,2,3 cause=fire");
    assert_agrees("mayhem fire canister 30\" figures=8");
    assert_agrees("mayhem fire roundshot 20\" soft figures=3 rerolls=1");
    assert_agrees("mayhem fire musket 20\" rerolls=1 at hero saves=1");
}

#[test]
fn odds_agree_with_seeded_rolls_mayhem_misc() {
    assert_agrees("mayhem reload crew=3 leader");
    assert_agrees("mayhem climb");
    assert_agrees("mayhem ignite");
    assert_agrees("mayhem skill 5");
    assert_agrees("mayhem initiative");
}

fn expected(odds: &Odds, name: &str) -> Option<f64> {
    odds.expected
        .iter()
        .find(|(n, _)| n == name)
        .map(|(_, v)| *v)
}

#[test]
fn melee_odds_by_hand() {
    // 3 dice against 4, each hitting on 4+ (one half): the round is drawn
    // in Σ C(3,k)·C(4,k) = 35 of 128 ways, a wins in Σ_{j>k} C(3,j)·C(4,k)
    // = 29. Side b's dice are read only against a's hits, by bands, and
    // its expected hits must still be the whole pool's.
    let o = odds("melee foot bases=3 vs foot bases=4");
    assert_eq!(exact(&o, "the round is drawn"), Some((35, 128)));
    assert_eq!(exact(&o, "side a (Foot) wins the round"), Some((29, 128)));
    assert_eq!(exact(&o, "side b (Foot) wins the round"), Some((1, 2)));
    for (name, want) in [("expected_hits_a", 1.5), ("expected_hits_b", 2.0)] {
        let got = expected(&o, name).unwrap_or(f64::NAN);
        assert!((got - want).abs() < 1e-12, "{name}: {got}, not {want}");
    }
}

#[test]
fn long_sums_to_the_last_total_and_no_further() {
    let o = odds("roll 100d6");
    assert_eq!(o.outcomes.len(), 501);
    let p = |text: &str| o.outcomes.iter().find(|x| x.text == text).map(|x| x.prob.p);
    // One way in 6^100 to throw all ones; 100 ways to throw one two. Past
    // 6^49 the counts outgrow 128 bits and the floats come from the
    // recurrence.
    let all_ones = (1.0f64 / 6.0).powi(100);
    for (text, want) in [("total 100", all_ones), ("total 101", 100.0 * all_ones)] {
        let got = p(text).unwrap_or(0.0);
        assert!((got / want - 1.0).abs() < 1e-9, "{text}: {got}, not {want}");
    }
    let total = expected(&o, "expected_total").unwrap_or(f64::NAN);
    assert!((total - 350.0).abs() < 1e-9, "expected total {total}");

    let line = "roll 101d6";
    let command = session(1).parse(line).unwrap().unwrap();
    let err = session(1)
        .odds(drumhead::drums::DRUMS, &command, line)
        .err();
    let text = err.map(|e| e.to_string()).unwrap_or_default();
    assert!(text.contains("101d6 has 506 possible totals"), "{text}");
}

#[test]
fn fight_odds_by_hand() {
    // Leader (+1) against an armed figure: A higher in 21 of 36 pairs,
    // equal in 5, lower in 10. The results die kills on 5+ (armament 5).
    let o = odds("mayhem fight leader vs armed");
    assert_eq!(exact(&o, "A hits: B is killed"), Some((7, 36)));
    assert_eq!(exact(&o, "A hits: B checks courage"), Some((7, 18)));
    assert_eq!(
        exact(&o, "A vs B: tie, neither figure is affected"),
        Some((5, 36))
    );
    assert_eq!(exact(&o, "B hits: A is killed"), Some((5, 54)));
    assert_eq!(exact(&o, "B hits: A checks courage"), Some((5, 27)));

    // Two like opponents, no tokens: the combats are independent. A scores
    // higher in 15 of 36 pairs and kills on 5–6: 5/36 a combat.
    let o = odds("mayhem fight vs armed vs armed");
    assert_eq!(
        exact(
            &o,
            "A survives untouched; of 2 opponents 2 killed, 0 check courage"
        ),
        Some((25, 1296))
    );
    // Killed by the first (5/36: the second combat is never fought), or
    // after a first combat that took no opponent: a tie (6/36) or A hit
    // and checking courage (15/36 · 4/6 = 10/36), then 5/36.
    assert_eq!(
        exact(&o, "A is killed; of 2 opponents 0 killed, 0 check courage"),
        // (5·36 + 16·5) / 1296 = 260/1296
        Some((65, 324))
    );
}

#[test]
fn fight_with_reroll_tokens_by_brute_force() {
    // Both sides hold a reroll token: the loser rerolls, and then the other
    // may reroll against the new face. Walk every sequence of five dice
    // (a, b, a reroll, another reroll, the results die); unused dice only
    // multiply every case alike.
    let mut ways = std::collections::HashMap::<&str, u64>::new();
    for n in 0..6u32.pow(5) {
        let die = |i: u32| i64::from(n / 6u32.pow(i) % 6 + 1);
        let mut score = [die(0) + 1, die(1)];
        let mut rerolled = [false; 2];
        let mut next = 2;
        while score[0] != score[1] {
            let loser = usize::from(score[1] < score[0]);
            if rerolled[loser] {
                break;
            }
            rerolled[loser] = true;
            score[loser] = die(next) + if loser == 0 { 1 } else { 0 };
            next += 1;
        }
        let results = die(4);
        let key = match (score[0].cmp(&score[1]), results >= 5) {
            (std::cmp::Ordering::Equal, _) => "A vs B: tie, neither figure is affected",
            (std::cmp::Ordering::Greater, true) => "A hits: B is killed",
            (std::cmp::Ordering::Greater, false) => "A hits: B checks courage",
            (std::cmp::Ordering::Less, true) => "B hits: A is killed",
            (std::cmp::Ordering::Less, false) => "B hits: A checks courage",
        };
        *ways.entry(key).or_default() += 1;
    }
    let o = odds("mayhem fight leader rerolls=1 vs armed rerolls=1");
    for (key, n) in ways {
        let (num, den) = exact(&o, key).unwrap();
        assert_eq!(
            u128::from(n) * den,
            num * 7776,
            "{key}: {n}/7776 by brute force, {num}/{den} by odds"
        );
    }
}

#[test]
fn courage_and_volley_odds_by_hand() {
    // Group 4,3: the group die fails on 5–6 (1/3); then the 4 runs off on
    // 5–6 (1/3) and the 3 on 4–6 (1/2): none 1/3, one 1/2, both 1/6.
    let o = odds("mayhem courage group=4,3 cause=casualty");
    assert_eq!(exact(&o, "passes: 4 or less"), Some((2, 3)));
    let fail = |ran: u32, retreat: u32| {
        exact(
            &o,
            &format!("courage failed: {ran} run off the board (removed), {retreat} retreat"),
        )
    };
    assert_eq!(fail(0, 2), Some((1, 9)));
    assert_eq!(fail(1, 1), Some((1, 6)));
    assert_eq!(fail(2, 0), Some((1, 18)));
    // Canister at 30" (over half range, −1): a figure is hit on 5–6 (1/3)
    // and killed on 4–6 with the +2 (1/2). Two figures both killed: 1/36.
    let o = odds("mayhem fire canister 30\" figures=2");
    assert_eq!(
        exact(&o, "2 figures: 2 killed, 0 take a courage check, 0 missed"),
        Some((1, 36))
    );
    assert_eq!(
        exact(&o, "2 figures: 0 killed, 0 take a courage check, 2 missed"),
        Some((4, 9))
    );
}

#[test]
fn odds_agree_with_seeded_rolls_saber() {
    assert_agrees("saber morale 4 disrupted");
    assert_agrees("saber attack 5 mr=4 vs 3 mr=3");
    assert_agrees("saber bombard 3 vs cavalry mr=3");
    assert_agrees("saber ma 4 disrupted");
    assert_agrees("saber-quickplay attack 6 mr=4 cavalry-charge vs 3 mr=3");
    assert_agrees("saber leader-casualty participating");
    assert_agrees("saber capture 4");
    assert_agrees("saber fow move-enemy");
    assert_agrees("saber-quickplay ma 8 disrupted");
}
