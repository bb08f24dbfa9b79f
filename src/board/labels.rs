//! Cell labels: by default a column written in letters (bijective base 26: A..Z, AA,
//! AB, ...) followed by a 1-based row number without leading zeros; or the labels a
//! game declares for its files and ranks ([`GridLabels`]). Formatting takes the case
//! the board uses; parsing is case-insensitive.

/// Writes the letters for 0-based column `x`: 0 -> "a", 25 -> "z", 26 -> "aa".
pub(super) fn column_letters(x: u32, upper: bool) -> String {
    let base = if upper { b'A' } else { b'a' };
    let mut out = Vec::new();
    let mut n = x + 1;
    while n > 0 {
        n -= 1;
        out.push(base + (n % 26) as u8);
        n /= 26;
    }
    out.reverse();
    String::from_utf8(out).expect("ASCII letters")
}

/// Splits a label into its letter prefix and digit suffix when it has the shape
/// "one or more ASCII letters, then one or more ASCII digits".
pub(super) fn split_label(s: &str) -> Option<(&str, &str)> {
    let split = s.find(|ch: char| !ch.is_ascii_alphabetic())?;
    let (letters, digits) = s.split_at(split);
    if letters.is_empty() || digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    Some((letters, digits))
}

/// Parses a label into 0-based `(x, y)`, case-insensitively. Rejects leading zeros
/// in the number, row 0 and values too large to be any cell.
pub(super) fn parse_label(s: &str) -> Option<(i32, i32)> {
    let (letters, digits) = split_label(s)?;
    if letters.len() > 4 || digits.len() > 6 || digits.starts_with('0') {
        return None;
    }
    let mut col: i32 = 0;
    for b in letters.bytes() {
        col = col * 26 + i32::from(b.to_ascii_lowercase() - b'a') + 1;
    }
    let row: i32 = digits.parse().ok()?;
    Some((col - 1, row - 1))
}

/// How one axis of a grid (its files or its ranks) is labelled, as a game declares it
/// (`files a b c d e f g h j`, `ranks 1 2 3 from the top`).
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct AxisLabels {
    /// The labels written, from the side the axis starts at; empty for the default
    /// ones (letters for files, numbers from 1 for ranks). A list longer than the
    /// axis is cut to its first labels.
    pub labels: Vec<String>,
    /// Whether the first label is at the far side: the right-hand file, the top rank.
    pub from_far_side: bool,
}

impl AxisLabels {
    /// Whether these are the default labels from the usual side.
    pub fn is_default(&self) -> bool {
        self.labels.is_empty() && !self.from_far_side
    }
}

/// How a grid's files and ranks are labelled; a cell's label is its file's label
/// followed by its rank's (`e4`, `7g`).
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct GridLabels {
    pub files: AxisLabels,
    pub ranks: AxisLabels,
}

impl GridLabels {
    /// Whether both axes keep the default labels.
    pub fn is_default(&self) -> bool {
        self.files.is_default() && self.ranks.is_default()
    }
}

/// The first label of `list` that is written twice (case-insensitively), if any.
pub fn duplicate(list: &[String]) -> Option<&str> {
    let mut seen: Vec<String> = Vec::with_capacity(list.len());
    for l in list {
        let key = l.to_ascii_lowercase();
        if seen.contains(&key) {
            return Some(l);
        }
        seen.push(key);
    }
    None
}

/// The labels of the `n` places of one axis, from 0 up: the declared ones cut to `n`,
/// or `default(i)`, turned round when they count from the far side. `Err(given)` when
/// fewer than `n` are declared.
pub(super) fn axis(spec: &AxisLabels, n: u32, default: impl Fn(u32) -> String) -> Result<Vec<String>, usize> {
    let mut out: Vec<String> = if spec.labels.is_empty() {
        (0..n).map(default).collect()
    } else if spec.labels.len() < n as usize {
        return Err(spec.labels.len());
    } else {
        spec.labels[..n as usize].to_vec()
    };
    if spec.from_far_side {
        out.reverse();
    }
    Ok(out)
}
