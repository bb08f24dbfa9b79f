//! The statistics of a study: Wilson score intervals for shares, and the summary of a
//! sample of numbers (game lengths).

use serde::Serialize;

/// The normal quantile of a two-sided 95 % interval.
pub const Z95: f64 = 1.959_963_984_540_054;

/// A share of games with its 95 % Wilson score interval.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Share {
    /// How many games count.
    pub count: u32,
    /// Out of how many.
    pub of: u32,
    /// `count / of` (0 when `of` is 0).
    pub rate: f64,
    /// The interval's lower bound.
    pub low: f64,
    /// The interval's upper bound.
    pub high: f64,
}

impl Share {
    /// `count` out of `of`, with its interval.
    pub fn new(count: u32, of: u32) -> Share {
        let (low, high) = wilson(count, of, Z95);
        let rate = if of == 0 { 0.0 } else { f64::from(count) / f64::from(of) };
        Share { count, of, rate, low, high }
    }

    /// Whether the interval leaves `x` out.
    pub fn excludes(&self, x: f64) -> bool {
        self.of > 0 && (x < self.low || x > self.high)
    }
}

/// The Wilson score interval of `k` successes in `n` trials at the normal quantile
/// `z`: `(p + z²/2n ± z·√(p(1−p)/n + z²/4n²)) / (1 + z²/n)`, with `p = k/n`. With no
/// trials nothing is known: `(0, 1)`. The lower bound of 0 successes is 0 and the upper
/// bound of `n` is 1.
pub fn wilson(k: u32, n: u32, z: f64) -> (f64, f64) {
    if n == 0 {
        return (0.0, 1.0);
    }
    let n = f64::from(n);
    let p = f64::from(k) / n;
    let z2 = z * z;
    let centre = p + z2 / (2.0 * n);
    let half = z * (p * (1.0 - p) / n + z2 / (4.0 * n * n)).sqrt();
    let scale = 1.0 + z2 / n;
    // At 0 and at n the bounds are exactly 0 and 1 (rounding would leave a trace).
    let low = if k == 0 { 0.0 } else { ((centre - half) / scale).max(0.0) };
    let high = if k as f64 == n { 1.0 } else { ((centre + half) / scale).min(1.0) };
    (low, high)
}

/// A sample of numbers summed up.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize)]
pub struct Spread {
    /// The mean (0 for no numbers).
    pub mean: f64,
    /// The median (the mean of the two middle numbers of an even count).
    pub median: f64,
    /// The standard deviation (of the sample: divided by n − 1; 0 for fewer than two).
    pub sd: f64,
    /// The smallest.
    pub min: f64,
    /// The largest.
    pub max: f64,
}

impl Spread {
    /// The summary of `xs` (in any order).
    pub fn of(xs: &[f64]) -> Spread {
        if xs.is_empty() {
            return Spread::default();
        }
        let mut sorted = xs.to_vec();
        sorted.sort_by(f64::total_cmp);
        let n = sorted.len();
        let mean = sorted.iter().sum::<f64>() / n as f64;
        let median = if n % 2 == 1 { sorted[n / 2] } else { (sorted[n / 2 - 1] + sorted[n / 2]) / 2.0 };
        let sd = if n < 2 {
            0.0
        } else {
            (sorted.iter().map(|x| (x - mean) * (x - mean)).sum::<f64>() / (n - 1) as f64).sqrt()
        };
        Spread { mean, median, sd, min: sorted[0], max: sorted[n - 1] }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wilson_matches_known_values() {
        // 0 of 10: (0, 0.2775); 10 of 10: (0.7225, 1); 5 of 10: (0.2366, 0.7634).
        let (l, h) = wilson(0, 10, Z95);
        assert!(l == 0.0 && (h - 0.277_532).abs() < 1e-5, "{l} {h}");
        let (l, h) = wilson(10, 10, Z95);
        assert!((l - 0.722_468).abs() < 1e-5 && h == 1.0, "{l} {h}");
        let (l, h) = wilson(5, 10, Z95);
        assert!((l - 0.236_593).abs() < 1e-5 && (h - 0.763_407).abs() < 1e-5, "{l} {h}");
        assert_eq!(wilson(0, 0, Z95), (0.0, 1.0));
    }

    #[test]
    fn share_excludes() {
        assert!(Share::new(10, 10).excludes(0.5));
        assert!(!Share::new(5, 10).excludes(0.5));
        assert!(!Share::new(0, 0).excludes(0.5));
    }

    #[test]
    fn spread_of_a_sample() {
        let s = Spread::of(&[4.0, 1.0, 3.0, 2.0]);
        assert_eq!((s.mean, s.median, s.min, s.max), (2.5, 2.5, 1.0, 4.0));
        assert!((s.sd - 1.290_994).abs() < 1e-5);
        assert_eq!(Spread::of(&[7.0]).median, 7.0);
        assert_eq!(Spread::of(&[]), Spread::default());
    }
}
