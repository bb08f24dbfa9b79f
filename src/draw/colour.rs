//! The colours of a picture: one per side that owns pieces, the board's, marks'.
//!
//! A side named after a colour (`red`, `white`, ...) gets that colour; the others take
//! colours from a palette in order, skipping those already taken, so that no two sides
//! look alike.

/// A fill colour and the colour of text written on it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Paint {
    /// The fill, as SVG colour text.
    pub fill: &'static str,
    /// Text and marks on the fill.
    pub ink: &'static str,
}

/// Colour words a side may be named with, and their paint.
const NAMED: [(&str, Paint); 12] = [
    ("red", Paint { fill: "#c8102e", ink: "#ffffff" }),
    ("blue", Paint { fill: "#1f5fbf", ink: "#ffffff" }),
    ("green", Paint { fill: "#2e8b3e", ink: "#ffffff" }),
    ("yellow", Paint { fill: "#f2c21b", ink: "#1a1a1a" }),
    ("white", Paint { fill: "#fafafa", ink: "#1a1a1a" }),
    ("black", Paint { fill: "#1e1e1e", ink: "#fafafa" }),
    ("orange", Paint { fill: "#e8731a", ink: "#1a1a1a" }),
    ("purple", Paint { fill: "#7a3fa0", ink: "#ffffff" }),
    ("magenta", Paint { fill: "#c2187a", ink: "#ffffff" }),
    ("cyan", Paint { fill: "#1aa6b7", ink: "#1a1a1a" }),
    ("brown", Paint { fill: "#7b4a22", ink: "#ffffff" }),
    ("grey", Paint { fill: "#8a8a8a", ink: "#1a1a1a" }),
];

/// Colours for sides not named after one, in order.
const PALETTE: [Paint; 6] = [
    Paint { fill: "#fafafa", ink: "#1a1a1a" },
    Paint { fill: "#1e1e1e", ink: "#fafafa" },
    Paint { fill: "#c8102e", ink: "#ffffff" },
    Paint { fill: "#1f5fbf", ink: "#ffffff" },
    Paint { fill: "#2e8b3e", ink: "#ffffff" },
    Paint { fill: "#f2c21b", ink: "#1a1a1a" },
];

/// Colours marking flagged pieces, one per flag in order of declaration.
pub const FLAG_COLOURS: [&str; 4] = ["#ff8c00", "#9b30ff", "#00a86b", "#e0115f"];

/// The colour of the cells a picture highlights.
pub const HIGHLIGHT: &str = "#0096ff";

/// The paint of each side whose name is given, in order.
pub fn side_paints(names: &[&str]) -> Vec<Paint> {
    let named: Vec<Option<Paint>> = names
        .iter()
        .map(|n| {
            let n = n.to_ascii_lowercase();
            let n = if n == "gray" { "grey".to_string() } else { n };
            NAMED.iter().find(|(word, _)| *word == n).map(|(_, p)| *p)
        })
        .collect();
    let mut taken: Vec<Paint> = named.iter().flatten().copied().collect();
    named
        .into_iter()
        .map(|p| {
            p.unwrap_or_else(|| {
                let free = PALETTE.iter().find(|q| !taken.contains(q)).copied().unwrap_or(PALETTE[0]);
                taken.push(free);
                free
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn named_sides_keep_their_colour() {
        let p = side_paints(&["Red", "blue"]);
        assert_eq!(p[0].fill, "#c8102e");
        assert_eq!(p[1].fill, "#1f5fbf");
    }

    #[test]
    fn other_sides_differ_from_the_named_ones() {
        let p = side_paints(&["white", "north", "south"]);
        assert_eq!(p[0].fill, "#fafafa");
        assert_ne!(p[1], p[0]);
        assert_ne!(p[2], p[0]);
        assert_ne!(p[2], p[1]);
    }
}
