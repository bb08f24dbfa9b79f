//! "Did you mean ...?": the closest of a set of names to a misspelt one.

/// The longest name (in characters) for which a suggestion is looked for: no declared
/// or built-in name is near it, and the edit distance costs the product of the lengths.
pub const MAX_SUGGESTED_LEN: usize = 64;

/// The edit distance between two strings (insertions, deletions, substitutions and
/// swaps of neighbouring characters each cost one), case-insensitive.
pub fn edit_distance(a: &str, b: &str) -> usize {
    let a: Vec<char> = a.chars().flat_map(char::to_lowercase).collect();
    let b: Vec<char> = b.chars().flat_map(char::to_lowercase).collect();
    let (n, m) = (a.len(), b.len());
    // Three rows are enough for the optimal string alignment distance.
    let mut prev2 = vec![0usize; m + 1];
    let mut prev: Vec<usize> = (0..=m).collect();
    let mut cur = vec![0usize; m + 1];
    for i in 1..=n {
        cur[0] = i;
        for j in 1..=m {
            let cost = usize::from(a[i - 1] != b[j - 1]);
            let mut best = (prev[j] + 1).min(cur[j - 1] + 1).min(prev[j - 1] + cost);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                best = best.min(prev2[j - 2] + 1);
            }
            cur[j] = best;
        }
        std::mem::swap(&mut prev2, &mut prev);
        std::mem::swap(&mut prev, &mut cur);
    }
    prev[m]
}

/// The candidate closest to `name`, if it is close enough to be a likely typo.
///
/// Close enough means at most a third of the name's length in edits (at least one),
/// or the same letters in another case. A name longer than [`MAX_SUGGESTED_LEN`] gets
/// no suggestion, and candidates whose length alone puts them too far are skipped, so
/// the work is bounded whatever the lengths.
pub fn did_you_mean<'a, I>(name: &str, candidates: I) -> Option<&'a str>
where
    I: IntoIterator<Item = &'a str>,
{
    if name.len() > MAX_SUGGESTED_LEN * 4 {
        return None;
    }
    let len = name.chars().count();
    if len > MAX_SUGGESTED_LEN {
        return None;
    }
    let limit = (len / 3).max(1);
    let mut best: Option<(usize, &'a str)> = None;
    for c in candidates {
        if c == name {
            continue;
        }
        // The distance is at least the difference in length (lower case may change a
        // character count a little, hence the margin).
        if c.len() > (len + limit) * 4 + 4 || c.chars().count().abs_diff(len) > limit + 2 {
            continue;
        }
        let d = edit_distance(name, c);
        if d <= limit && best.is_none_or(|(bd, bc)| d < bd || (d == bd && c < bc)) {
            best = Some((d, c));
        }
    }
    best.map(|(_, c)| c)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn distances() {
        assert_eq!(edit_distance("marker", "marker"), 0);
        assert_eq!(edit_distance("makrer", "marker"), 1);
        assert_eq!(edit_distance("maker", "marker"), 1);
        assert_eq!(edit_distance("", "abc"), 3);
        assert_eq!(edit_distance("Stone", "stone"), 0);
    }

    #[test]
    fn suggestions() {
        let names = ["marker", "stone", "tower"];
        assert_eq!(did_you_mean("makrer", names), Some("marker"));
        assert_eq!(did_you_mean("stoen", names), Some("stone"));
        assert_eq!(did_you_mean("xyz", names), None);
        assert_eq!(did_you_mean("towr", names), Some("tower"));
        let long = "x".repeat(MAX_SUGGESTED_LEN + 1);
        assert_eq!(did_you_mean(&long, [long.as_str(), &long[1..]]), None);
    }
}
