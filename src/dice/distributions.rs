//! The exact distributions the enumerator branches on: sums of dice,
//! pools counted against one score or several, bands and opposed rolls.
//! Each is worked out once per shape of throw and cached by the
//! enumerator; exact fractions while the counts fit, floats beyond.

use crate::answer::prob::{Prob, reduce};

/// Distributions of sums, cached by (count, sides).
pub(super) type SumTable = Vec<(i64, Prob)>;

/// Each band of a pool's count: its lowest count, its mean count, and the
/// weights.
pub(super) type PoolBandTable = (Vec<(u32, f64)>, Vec<Prob>);

/// The distribution of the total of `n` dice of `sides` faces: exact
/// counts of ways while `sides^n` fits in 128 bits, else floats from the
/// recurrence below.
pub(super) fn sum_distribution(n: u32, sides: u32) -> SumTable {
    let first = i64::from(n);
    let probs: Vec<Prob> = match u128::from(sides).checked_pow(n) {
        Some(total) => sum_counts(n, sides)
            .into_iter()
            .map(|ways| Prob::ratio(ways, total))
            .collect(),
        None => sum_floats(n, sides).into_iter().map(Prob::float).collect(),
    };
    probs
        .into_iter()
        .enumerate()
        .map(|(i, p)| (first + i as i64, p))
        .collect()
}

/// Ways to throw each total of `n` dice (lowest total first), by adding
/// one die at a time; only called while every count fits.
fn sum_counts(n: u32, sides: u32) -> Vec<u128> {
    let mut ways = vec![1u128];
    for _ in 0..n {
        let mut next = vec![0u128; ways.len() + sides as usize - 1];
        for (i, w) in ways.iter().enumerate() {
            for slot in &mut next[i..i + sides as usize] {
                *slot += w;
            }
        }
        ways = next;
    }
    ways
}

/// The probability of each total of `n` dice, lowest first, in time linear
/// in the number of totals: adding dice one at a time would be quadratic,
/// and 1000d6 would take tens of milliseconds.
///
/// The counts `c_k` of `(1 + x + … + x^(s-1))^n` obey (from P'Q = nQ'P)
/// `k c_k = Σ_{j=1}^{s-1} ((n+1) j - k) c_(k-j)`. The distribution is
/// symmetric, so only the lower half is computed — where the counts rise
/// and the recurrence keeps its precision — and mirrored. The counts
/// outgrow a float, so the window the recurrence reads is scaled down as
/// it goes and each count remembers how often.
fn sum_floats(n: u32, sides: u32) -> Vec<f64> {
    const SCALE: f64 = 1e-200;
    let last = n as usize * (sides as usize - 1);
    let half = last / 2;
    let reach = sides as usize - 1;
    let mut counts: Vec<f64> = Vec::with_capacity(half + 1);
    // How many times SCALE was applied to each count.
    let mut scaled: Vec<i32> = Vec::with_capacity(half + 1);
    counts.push(1.0);
    scaled.push(0);
    let n1 = f64::from(n) + 1.0;
    for k in 1..=half {
        let kf = k as f64;
        let c: f64 = (1..=reach.min(k))
            .map(|j| (n1 * j as f64 - kf) * counts[k - j])
            .sum::<f64>()
            / kf;
        counts.push(c);
        scaled.push(scaled[k - 1]);
        if c > 1e200 {
            let from = k.saturating_sub(reach - 1);
            for x in &mut counts[from..=k] {
                *x *= SCALE;
            }
            for s in &mut scaled[from..=k] {
                *s += 1;
            }
        }
    }
    // Relative to the largest count, which is the middle one.
    let top = scaled[half];
    let mut probs: Vec<f64> = (0..=last)
        .map(|k| {
            let i = k.min(last - k);
            counts[i] * SCALE.powi(top - scaled[i])
        })
        .collect();
    let total: f64 = probs.iter().sum();
    for p in &mut probs {
        *p /= total;
    }
    probs
}

/// The joint distribution of (dice at `low` or more, dice at `high` or
/// more) among `n`: a trinomial over misses, low-only and high faces,
/// built from rows of Pascal's triangle rather than factorials.
pub(super) fn pool2_distribution(
    n: u32,
    sides: u32,
    low: u32,
    high: u32,
) -> (Vec<(u32, u32)>, Vec<Prob>) {
    let faces =
        |from: u32, to: u32| u128::from(to.min(sides + 1).saturating_sub(from.clamp(1, sides + 1)));
    let (miss, mid, top) = (faces(1, low), faces(low, high), faces(high, sides + 1));
    let s = f64::from(sides);
    let powers =
        |faces: u128| -> Vec<f64> { (0..=n as i32).map(|e| (faces as f64 / s).powi(e)).collect() };
    let (pm, pmid, ptop) = (powers(miss), powers(mid), powers(top));
    let total = u128::from(sides).checked_pow(n);
    let pascal = pascal_rows(n);
    let mut choices = Vec::new();
    let mut weights = Vec::new();
    for j in 0..=n {
        for k in 0..=j {
            let (m, md, t) = (n - j, j - k, k);
            let (ju, ku) = (j as usize, k as usize);
            let coef = pascal[n as usize][ju].1 * pascal[ju][ku].1;
            let p = coef * pm[m as usize] * pmid[md as usize] * ptop[t as usize];
            let exact = (|| {
                let ways = pascal[n as usize][ju]
                    .0?
                    .checked_mul(pascal[ju][ku].0?)?
                    .checked_mul(miss.checked_pow(m)?)?
                    .checked_mul(mid.checked_pow(md)?)?
                    .checked_mul(top.checked_pow(t)?)?;
                Some((ways, total?))
            })();
            choices.push((j, k));
            weights.push(Prob { p, exact });
        }
    }
    (choices, weights)
}

/// Rows 0..=n of Pascal's triangle: each binomial coefficient as a whole
/// number while it fits, and as a float.
fn pascal_rows(n: u32) -> Vec<Vec<(Option<u128>, f64)>> {
    let mut rows: Vec<Vec<(Option<u128>, f64)>> = vec![vec![(Some(1), 1.0)]];
    for i in 1..=n as usize {
        let above = &rows[i - 1];
        let row = (0..=i)
            .map(|k| {
                let left = if k > 0 { above[k - 1] } else { (Some(0), 0.0) };
                let right = above.get(k).copied().unwrap_or((Some(0), 0.0));
                let whole = left.0.zip(right.0).and_then(|(a, b)| a.checked_add(b));
                (whole, left.1 + right.1)
            })
            .collect();
        rows.push(row);
    }
    rows
}

/// The three outcomes of comparing two sums: a higher, b higher, equal.
pub(super) fn contest_weights(
    ta: &SumTable,
    tb: &SumTable,
    a: u32,
    b: u32,
    sides: u32,
) -> [Prob; 3] {
    // Floats by cumulative sums of b below, at and above each total of a.
    let (mut greater, mut less, mut equal) = (0.0, 0.0, 0.0);
    // Totals run one apart from the lowest, so a total's place is arithmetic.
    let place = |t: i64| {
        usize::try_from(t - tb.first().map_or(0, |(s, _)| *s))
            .ok()
            .filter(|&i| i < tb.len())
    };
    let b_at = |t: i64| place(t).map_or(0.0, |i| tb[i].1.p);
    let mut below = 0.0;
    let mut next = tb.iter().peekable();
    for (t, pa) in ta {
        while let Some((s, pb)) = next.peek() {
            if *s >= *t {
                break;
            }
            below += pb.p;
            next.next();
        }
        let at = b_at(*t);
        greater += pa.p * below;
        equal += pa.p * at;
        less += pa.p * (1.0 - below - at);
    }
    // Exact fractions from whole counts of ways, while they fit.
    let exact = (|| {
        let ways = |table: &SumTable, n: u32| -> Option<Vec<u128>> {
            let total = u128::from(sides).checked_pow(n)?;
            table
                .iter()
                .map(|(_, p)| {
                    p.exact()
                        .and_then(|(num, den)| num.checked_mul(total / den))
                })
                .collect()
        };
        let (wa, wb) = (ways(ta, a)?, ways(tb, b)?);
        let den = u128::from(sides).checked_pow(a.checked_add(b)?)?;
        let (mut g, mut e, mut below_ways) = (0u128, 0u128, 0u128);
        let mut j = 0;
        for (i, (t, _)) in ta.iter().enumerate() {
            while j < tb.len() && tb[j].0 < *t {
                below_ways += wb[j];
                j += 1;
            }
            let at = place(*t).map_or(0, |k| wb[k]);
            g = g.checked_add(wa[i].checked_mul(below_ways)?)?;
            e = e.checked_add(wa[i].checked_mul(at)?)?;
        }
        let l = den.checked_sub(g)?.checked_sub(e)?;
        Some([reduce(g, den), reduce(l, den), reduce(e, den)])
    })();
    let prob = |p: f64, i: usize| Prob {
        p,
        exact: exact.map(|e| e[i]),
    };
    [prob(greater, 0), prob(less, 1), prob(equal, 2)]
}

/// The bands `cuts` split the numbers `first..=last` into: (lowest
/// number, how many numbers). A cut starts a band.
pub(super) fn bands(first: u32, last: u32, cuts: &[u32]) -> Vec<(u32, u32)> {
    let mut cuts: Vec<u32> = cuts
        .iter()
        .copied()
        .filter(|c| (first + 1..=last).contains(c))
        .chain([first, last + 1])
        .collect();
    cuts.sort_unstable();
    cuts.dedup();
    cuts.windows(2).map(|w| (w[0], w[1] - w[0])).collect()
}

/// A pool's counts of successes (`counts[k]` for k successes) gathered
/// into the bands `cuts` make.
pub(super) fn pool_band_table(counts: &[Prob], cuts: &[u32]) -> PoolBandTable {
    let last = counts.len().saturating_sub(1) as u32;
    let mut choices = Vec::new();
    let mut weights = Vec::new();
    for (low, width) in bands(0, last, cuts) {
        let band = &counts[low as usize..(low + width) as usize];
        let weight = band.iter().fold(Prob::ratio(0, 1), |w, p| w.plus(*p));
        let mass: f64 = band.iter().map(|p| p.p).sum();
        let moment: f64 = (low..).zip(band).map(|(k, p)| f64::from(k) * p.p).sum();
        let mean = if mass > 0.0 {
            moment / mass
        } else {
            f64::from(low)
        };
        choices.push((low, mean));
        weights.push(weight);
    }
    (choices, weights)
}

/// The orders an opposed roll can end in (first side higher, lower,
/// equal), each with one pair of faces that gives it and how many pairs do.
pub(super) fn opposed_orders(sides: u32, edge: i64) -> Vec<(std::cmp::Ordering, [u32; 2], u128)> {
    use std::cmp::Ordering::{Equal, Greater, Less};
    let mut orders: Vec<(std::cmp::Ordering, [u32; 2], u128)> = Vec::with_capacity(3);
    for order in [Greater, Less, Equal] {
        for a in 1..=sides {
            for b in 1..=sides {
                if (i64::from(a) + edge).cmp(&i64::from(b)) != order {
                    continue;
                }
                match orders.last_mut() {
                    Some((o, _, ways)) if *o == order => *ways += 1,
                    _ => orders.push((order, [a, b], 1)),
                }
            }
        }
    }
    orders
}

/// The distribution of successes when each die has its own score (a
/// Poisson binomial), by adding one die at a time.
pub(super) fn pool_each_distribution(sides: u32, scores: &[u32]) -> Vec<Prob> {
    let mut ways: Option<Vec<u128>> = Some(vec![1]);
    let mut probs: Vec<f64> = vec![1.0];
    for &score in scores {
        let hits = (sides + 1).saturating_sub(score.max(1)).min(sides);
        let p = f64::from(hits) / f64::from(sides);
        let mut next = vec![0.0; probs.len() + 1];
        for (k, q) in probs.iter().enumerate() {
            next[k] += q * (1.0 - p);
            next[k + 1] += q * p;
        }
        probs = next;
        ways = ways.and_then(|w| {
            let mut next = vec![0u128; w.len() + 1];
            for (k, n) in w.iter().enumerate() {
                next[k] = next[k].checked_add(n.checked_mul(u128::from(sides - hits))?)?;
                next[k + 1] = next[k + 1].checked_add(n.checked_mul(u128::from(hits))?)?;
            }
            Some(next)
        });
    }
    let total = u128::from(sides).checked_pow(scores.len() as u32);
    probs
        .iter()
        .enumerate()
        .map(|(k, &p)| Prob {
            p,
            exact: ways.as_ref().zip(total).map(|(w, t)| reduce(w[k], t)),
        })
        .collect()
}

/// The distribution of successes among `n` dice needing `at_least`.
pub(super) fn pool_distribution(n: u32, sides: u32, at_least: u32) -> Vec<Prob> {
    let hits = u128::from((sides + 1).saturating_sub(at_least.max(1)).min(sides));
    let misses = u128::from(sides) - hits;
    let p = hits as f64 / f64::from(sides);
    let total = u128::from(sides).checked_pow(n);
    let mut out = Vec::with_capacity(n as usize + 1);
    let mut choose: Option<u128> = Some(1);
    let mut choose_f = 1.0f64;
    for j in 0..=n {
        let pf = choose_f * p.powi(j as i32) * (1.0 - p).powi((n - j) as i32);
        let exact = (|| {
            let ways = choose?
                .checked_mul(hits.checked_pow(j)?)?
                .checked_mul(misses.checked_pow(n - j)?)?;
            Some(reduce(ways, total?))
        })();
        out.push(Prob { p: pf, exact });
        // C(n, j+1) = C(n, j) * (n - j) / (j + 1)
        choose = choose.and_then(|c| {
            c.checked_mul(u128::from(n - j))
                .map(|x| x / u128::from(j + 1))
        });
        choose_f = choose_f * f64::from(n - j) / f64::from(j + 1);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::answer::prob::gcd;

    #[test]
    fn sums_of_two_dice() {
        let t = sum_distribution(2, 6);
        assert_eq!(t.len(), 11);
        assert_eq!(t[0], (2, Prob::ratio(1, 36)));
        assert_eq!(t[5].0, 7);
        assert_eq!(t[5].1.exact(), Some((1, 6)));
    }

    /// Adding one die at a time in floats: slow, but every step adds
    /// positive numbers, so each total keeps its relative precision.
    fn sum_by_adding(n: u32, sides: u32) -> Vec<f64> {
        let mut probs = vec![1.0];
        for _ in 0..n {
            let mut next = vec![0.0; probs.len() + sides as usize - 1];
            for (i, p) in probs.iter().enumerate() {
                for slot in &mut next[i..i + sides as usize] {
                    *slot += p / f64::from(sides);
                }
            }
            probs = next;
        }
        probs
    }

    #[test]
    fn large_sums_keep_their_precision() {
        for (n, sides) in [
            (1, 6),
            (2, 2),
            (7, 3),
            (40, 6),
            (60, 6),
            (300, 6),
            (1000, 6),
            (50, 20),
            (3, 1000),
            (200, 12),
        ] {
            let fast = sum_floats(n, sides);
            let slow = sum_by_adding(n, sides);
            assert_eq!(fast.len(), slow.len());
            for (k, (f, s)) in fast.iter().zip(&slow).enumerate() {
                // Far in the tails both underflow; elsewhere they agree to
                // a few parts in 10^12.
                let tolerance = 1e-12 * s.max(1e-290);
                assert!(
                    (f - s).abs() <= tolerance,
                    "{n}d{sides} total {k}: {f} vs {s}"
                );
            }
        }
    }

    #[test]
    fn pools_are_binomial() {
        let t = pool_distribution(3, 6, 4);
        let exact: Vec<_> = t.iter().map(|p| p.exact().unwrap()).collect();
        assert_eq!(exact, vec![(1, 8), (3, 8), (3, 8), (1, 8)]);
        let big = pool_distribution(60, 6, 4);
        let total: f64 = big.iter().map(|p| p.p).sum();
        assert!((total - 1.0).abs() < 1e-12);
    }

    #[test]
    fn bands_between_scores() {
        assert_eq!(bands(1, 6, &[5]), vec![(1, 4), (5, 2)]);
        assert_eq!(bands(1, 6, &[1, 7]), vec![(1, 6)]);
        assert_eq!(bands(1, 6, &[3, 5, 3]), vec![(1, 2), (3, 2), (5, 2)]);
        // Counts of successes start at none.
        assert_eq!(bands(0, 4, &[2, 3]), vec![(0, 2), (2, 1), (3, 2)]);
        assert_eq!(bands(0, 4, &[0, 1]), vec![(0, 1), (1, 4)]);
    }

    #[test]
    fn opposed_rolls_count_pairs() {
        use std::cmp::Ordering::{Equal, Greater, Less};
        let ways = |edge| {
            opposed_orders(6, edge)
                .iter()
                .map(|&(o, _, w)| (o, w))
                .collect::<Vec<_>>()
        };
        assert_eq!(ways(0), vec![(Greater, 15), (Less, 15), (Equal, 6)]);
        assert_eq!(ways(1), vec![(Greater, 21), (Less, 10), (Equal, 5)]);
        // Out of reach: an order no pair gives is not a branch.
        assert_eq!(ways(6), vec![(Greater, 36)]);
        for (o, [a, b], _) in opposed_orders(6, -2) {
            assert_eq!((i64::from(a) - 2).cmp(&i64::from(b)), o);
        }
    }

    #[test]
    fn each_die_its_own_score() {
        // Needing 5 (1/3) and 4 (1/2): none 1/3, one 1/2, both 1/6.
        let t = pool_each_distribution(6, &[5, 4]);
        let exact: Vec<_> = t.iter().map(|p| p.exact().unwrap()).collect();
        assert_eq!(exact, vec![(1, 3), (1, 2), (1, 6)]);
        // The same score throughout is the binomial.
        assert_eq!(
            pool_each_distribution(6, &[4; 5]),
            pool_distribution(5, 6, 4)
        );
    }

    #[test]
    fn greatest_common_divisors() {
        for (a, b, g) in [
            (12, 18, 6),
            (0, 5, 5),
            (5, 0, 5),
            (0, 0, 1),
            (1, 1, 1),
            (6u128.pow(40), 4u128.pow(50), 2u128.pow(40)),
            (35, 64, 1),
        ] {
            assert_eq!(gcd(a, b), g, "gcd({a}, {b})");
        }
    }

    #[test]
    fn fractions_add_and_multiply() {
        let a = Prob::ratio(1, 6).plus(Prob::ratio(1, 3));
        assert_eq!(a.exact(), Some((1, 2)));
        assert_eq!(a.times(Prob::ratio(2, 3)).exact(), Some((1, 3)));
        // Kept unreduced, reduced when read or when it would overflow.
        let half = Prob::ratio(1 << 60, 1 << 61);
        assert_eq!(half.times(half).times(half).exact(), Some((1, 8)));
        assert_eq!(Prob::ratio(2, 4), Prob::ratio(1, 2));
        // Neither denominator divides the other.
        assert_eq!(
            Prob::ratio(1, 4).plus(Prob::ratio(1, 6)).exact(),
            Some((5, 12))
        );
    }
}
