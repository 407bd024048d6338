//! Probabilities for exact odds: a float always, and an exact fraction
//! while the numbers fit in 128 bits.

/// A probability: always as a float, and as an exact fraction while the
/// numbers fit in 128 bits.
///
/// The fraction is kept as it comes, not in lowest terms: every branch of
/// every path multiplies one in and every outcome adds one up, and
/// reducing each time (a GCD of 128-bit numbers) cost more than all the
/// rest of `odds`. Products of dice weights share denominators (powers
/// of the sides), so most sums need no GCD either. It is reduced when
/// read ([`Prob::exact`]) or when the numbers would overflow.
#[derive(Debug, Clone, Copy)]
pub struct Prob {
    pub p: f64,
    pub(crate) exact: Option<(u128, u128)>,
}

impl PartialEq for Prob {
    fn eq(&self, other: &Prob) -> bool {
        self.p == other.p && self.exact() == other.exact()
    }
}

impl Prob {
    pub(crate) const ONE: Prob = Prob {
        p: 1.0,
        exact: Some((1, 1)),
    };

    pub(crate) fn ratio(num: u128, den: u128) -> Prob {
        Prob {
            p: num as f64 / den as f64,
            exact: Some((num, den.max(1))),
        }
    }

    /// Only the float: the exact fraction no longer fits.
    pub(crate) fn float(p: f64) -> Prob {
        Prob { p, exact: None }
    }

    /// The exact fraction in lowest terms, while it fits.
    pub fn exact(&self) -> Option<(u128, u128)> {
        self.exact.map(|(n, d)| reduce(n, d))
    }

    pub(crate) fn times(self, other: Prob) -> Prob {
        let exact = match (self.exact, other.exact) {
            (Some((a, b)), Some((c, d))) => match (a.checked_mul(c), b.checked_mul(d)) {
                (Some(n), Some(m)) => Some((n, m)),
                _ => {
                    let ((a, b), (c, d)) = (reduce(a, b), reduce(c, d));
                    let ((a, d), (c, b)) = (reduce(a, d), reduce(c, b));
                    a.checked_mul(c).zip(b.checked_mul(d))
                }
            },
            _ => None,
        };
        Prob {
            p: self.p * other.p,
            exact,
        }
    }

    pub(crate) fn plus(self, other: Prob) -> Prob {
        let exact = match (self.exact, other.exact) {
            (Some(x), Some(y)) => add_fractions(x, y),
            _ => None,
        };
        Prob {
            p: self.p + other.p,
            exact,
        }
    }

    /// "7/12", when short enough to read.
    pub(crate) fn fraction(&self) -> Option<String> {
        self.exact().map(|(n, d)| format!("{n}/{d}"))
    }
}

/// a/b + c/d: over the larger denominator when one divides the other (the
/// usual case), else over their least common multiple.
fn add_fractions((a, b): (u128, u128), (c, d): (u128, u128)) -> Option<(u128, u128)> {
    let over = |x: u128, scale: u128, y: u128, den: u128| {
        x.checked_mul(scale)?.checked_add(y).map(|n| (n, den))
    };
    let quick = if b == d {
        a.checked_add(c).map(|n| (n, b))
    } else if d % b == 0 {
        over(a, d / b, c, d)
    } else if b % d == 0 {
        over(c, b / d, a, b)
    } else {
        None
    };
    quick.or_else(|| {
        let ((a, b), (c, d)) = (reduce(a, b), reduce(c, d));
        let g = gcd(b, d);
        let l = (b / g).checked_mul(d)?;
        let x = a.checked_mul(l / b)?;
        let y = c.checked_mul(l / d)?;
        Some(reduce(x.checked_add(y)?, l))
    })
}

/// Binary GCD: 128-bit division is slow, and every branch of every path
/// reduces a fraction. Never zero, so that it can always divide.
pub(crate) fn gcd(mut a: u128, mut b: u128) -> u128 {
    if a == 0 || b == 0 {
        return (a | b).max(1);
    }
    let shift = (a | b).trailing_zeros();
    a >>= a.trailing_zeros();
    loop {
        b >>= b.trailing_zeros();
        if a > b {
            std::mem::swap(&mut a, &mut b);
        }
        b -= a;
        if b == 0 {
            return a << shift;
        }
    }
}

pub(crate) fn reduce(n: u128, d: u128) -> (u128, u128) {
    let g = gcd(n, d);
    (n / g, d / g)
}
