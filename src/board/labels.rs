//! Cell labels: a column written in letters (bijective base 26: A..Z, AA, AB, ...)
//! followed by a 1-based row number without leading zeros. Formatting takes the
//! case the board uses; parsing is case-insensitive.

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

/// The label of the cell at 0-based column `x` and row `y`.
pub(super) fn format_label(x: u32, y: u32, upper: bool) -> String {
    let mut s = column_letters(x, upper);
    s.push_str(&(y + 1).to_string());
    s
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
