//! `rulesi explain`: the compiled program of every game as a snapshot, every ruleset of
//! every game printed (and different from the default where its options are), the
//! names, folded options and inlined definitions of a small game, and the command's
//! errors.

use crate::common;

use rulesi::engine::build;
use rulesi::engine::compile::options;
use rulesi::engine::text::explain::explain;

use common::{TempDir, every_game, game_label, rulesi, snapshot};

/// The program without its header's `options:` lines (the rules alone).
fn rules_only(text: &str) -> String {
    let mut out = String::new();
    let mut in_options = false;
    for line in text.lines() {
        in_options = line.starts_with("options:") || (in_options && line.starts_with(' '));
        if !in_options {
            out.push_str(line);
            out.push('\n');
        }
    }
    out
}

/// Every game with its default options, as `rulesi explain` prints it.
#[test]
fn every_game_explained() {
    for path in every_game() {
        let name = path.file_stem().and_then(|s| s.to_str()).expect("a name").to_string();
        let (code, out, err) = rulesi(&["explain", &game_label(&path)]);
        assert_eq!(code, 0, "{name}: {err}");
        assert!(err.is_empty(), "{name}: {err}");
        snapshot(&format!("explain-{name}"), &out);
    }
}

/// No line is wider than 100 columns, no id shows through where a name exists, and
/// printing twice gives the same text.
#[test]
fn explanations_are_narrow_named_and_deterministic() {
    for path in every_game() {
        let bytes = std::fs::read(&path).expect("read the game");
        let model = rulesi::check_bytes(&bytes).model.expect("the game checks");
        let values = options::resolve(&model, None, &[]).expect("default options");
        let game = build(&model, &values).expect("the game builds");
        let text = explain(game.program());
        assert_eq!(text, explain(build(&model, &values).expect("builds").program()), "{}", path.display());
        for line in text.lines() {
            assert!(line.chars().count() <= 100, "{}: too wide: {line}", path.display());
            for id in ["#", "kind#", "set#", "table#", "phase#", "counter#", "direction#", "symmetry#"] {
                assert!(!line.contains(id), "{}: an id shows: {line}", path.display());
            }
        }
    }
}

/// Every ruleset of every game prints, and its rules differ from the default's when it
/// chooses other option values (the options of the games in `games/` are all read by
/// their rules: an option nothing reads is an `unused-option` warning).
#[test]
fn every_ruleset_prints_and_differs_where_its_options_do() {
    let mut compared = 0;
    for path in every_game() {
        let bytes = std::fs::read(&path).expect("read the game");
        let model = rulesi::check_bytes(&bytes).model.expect("the game checks");
        let defaults = options::resolve(&model, None, &[]).expect("default options");
        let default_text = explain(build(&model, &defaults).expect("builds").program());
        for ruleset in &model.rulesets {
            let values = options::resolve(&model, Some(&ruleset.name), &[]).expect("the ruleset's options");
            let text = explain(build(&model, &values).expect("the ruleset builds").program());
            let what = format!("{} --ruleset {}", path.display(), ruleset.name);
            assert!(text.starts_with("game "), "{what}: {text}");
            if values == defaults {
                assert_eq!(text, default_text, "{what}: the same options print the same program");
            } else {
                assert_ne!(rules_only(&text), rules_only(&default_text), "{what}: other options, same rules");
                compared += 1;
            }
        }
    }
    assert!(compared > 0, "no ruleset chooses other values than the defaults");
}

const SMALL: &str = r#"game "Small"
players white, black
board square 3 by 3
piece stone "o"

option first = white | black
option reach = near | far

region middle_row = { c in board: rank(c) == 2 }
region corners = { a1, c1, a3, c3 }

define next_to_own(c: cell) = any(neighbours(c) and own)

phase play starting first {
  if reach == far {
    place stone at empty and not corners
  } else {
    place stone at empty where next_to_own(to) or not any(own)
  }
  place stone at { a1, b2 } where count(own) > 2
}

end {
  if count(middle_row and own) == 3 { win(mover) }
}

no moves { draw }
"#;

/// The names of a small game's regions, its options folded, a definition inlined.
#[test]
fn a_small_game_shows_names_folded_options_and_inlined_definitions() {
    let dir = TempDir::new("explain");
    let file = dir.write("small.game", SMALL.as_bytes());
    let file = file.to_str().expect("a UTF-8 path");
    let (code, out, err) = rulesi(&["explain", file]);
    assert_eq!(code, 0, "{err}");
    for line in [
        "game \"Small\"",
        "options: first=white, reach=near",
        "phase play starting white {",
        "  place stone at empty",
        "    where any(neighbours(to) and own) or not any(own)",
        "  place stone at { a1, b2 }",
        "  if count(middle_row and own) == 3 {",
        "    win(mover)",
        "no moves {",
        "  draw",
    ] {
        assert!(out.lines().any(|l| l == line), "no line `{line}` in:\n{out}");
    }
    assert!(!out.contains("next_to_own"), "the definition is inlined:\n{out}");
    assert!(!out.contains("not corners"), "the other option's branch is folded away:\n{out}");

    let (code, out, err) = rulesi(&["explain", file, "--option", "reach=far", "--option", "first=black"]);
    assert_eq!(code, 0, "{err}");
    for line in [
        "options: first=black, reach=far",
        "phase play starting black {",
        "  rule 0: place stone at empty and not corners",
    ] {
        assert!(out.lines().any(|l| l == line), "no line `{line}` in:\n{out}");
    }
    assert!(!out.contains("neighbours(to)"), "the near branch is folded away:\n{out}");
}

/// An option or ruleset the game does not have is a usage error (2); a file that does
/// not check, or cannot be read, exit status 1; no panic in any case.
#[test]
fn errors_exit_as_the_other_commands_do() {
    let (code, _, err) = rulesi(&["explain", "games/stax.game", "--option", "rejump=never"]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("rejump"), "{err}");
    let (code, _, err) = rulesi(&["explain", "games/stax.game", "--ruleset", "nope"]);
    assert_eq!(code, 2, "{err}");
    let (code, _, err) = rulesi(&["explain", "games/stax.game", "--option", "junk"]);
    assert_eq!(code, 2, "{err}");
    let (code, _, err) = rulesi(&["explain", "no/such.game"]);
    assert_eq!(code, 1, "{err}");
    let dir = TempDir::new("explain-bad");
    let bad =
        dir.write("bad.game", b"game \"Bad\"\nplayers a, b\nboard square 3 by 3\nphase p { place nothing at empty }\n");
    let (code, out, err) = rulesi(&["explain", bad.to_str().expect("UTF-8")]);
    assert_eq!(code, 1, "{err}");
    assert!(out.is_empty(), "{out}");
    assert!(!err.contains("panicked"), "{err}");
}

/// A constant direction turned a constant number of steps is folded to the direction:
/// no configuration of any game is left with `rotate` of constants to work out in play.
#[test]
fn rotations_of_constant_directions_are_folded() {
    let (code, out, err) = rulesi(&["explain", "games/agon.game", "--ruleset", "globe_joueur_advanced"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("rule "), "{out}");
    assert!(!out.contains("rotate("), "a rotation was left unfolded:\n{out}");
}

/// A graph board whose lines name no direction (a wheel: a rim and four spokes), and
/// one whose lines name some: what the simplifier unrolled over `lines` is folded back
/// into the loop the game wrote (`any(d in lines: ...)`, `for d in lines { ... }`), a
/// lone direction of a line without a name is written from a named one (`rotate(e,
/// 1)`), or, when the board names none, by its line as the game lists it
/// (`(a1 - e1 - e5 - a5 - a1)`, and `-(...)` the other way); never by a made-up name
/// such as `line 1` that no rule can write.
#[test]
fn directions_of_lines_without_a_name_are_written_as_the_game_wrote_them() {
    let dir = TempDir::new("explain-unnamed");
    let wheel = dir.write(
        "wheel.game",
        br#"game "Wheel"
players white, black
board graph {
  points h1 at (2, 2), a1 at (0, 0), e1 at (4, 0), e5 at (4, 4), a5 at (0, 4)
  lines a1 - e1 - e5 - a5 - a1
  lines h1 - a1, h1 - e1, h1 - e5, h1 - a5
}
piece man "o"
flag hot
setup {
  place white man at a1
  place black man at e5
}
phase play {
  step own along lines to empty then {
    for d in lines {
      if to + d in enemy { flag(hot, to + d) }
    }
  }
}
end {
  if any(c in own: any(d in lines: c + d in own)) { win(mover) }
  if any(c in own: any(d in lines: c + d in own and c - d in own)) { win(mover) }
}
no moves { lose(mover) }
"#,
    );
    let mixed = dir.write(
        "mixed.game",
        br#"game "Mixed"
players white, black
board graph {
  points a1 at (0, 0), b1 at (1, 0), c1 at (2, 0), a2 at (0, 1), b2 at (1, 1)
  lines along e and w: a1 - b1 - c1
  lines a1 - a2 - b2
}
piece man "o"
phase play {
  place man at empty
}
end {
  if any(c in own: c + rotate(e, 1) in own and c - rotate(e, 1) in own) { win(mover) }
}
"#,
    );
    let mut text = String::new();
    for file in [&wheel, &mixed] {
        let file = file.to_string_lossy().to_string();
        let (code, out, err) = rulesi(&["explain", &file]);
        assert_eq!(code, 0, "{err}");
        assert!(!out.contains("line 1") && !out.contains(" back"), "a made-up direction name shows:\n{out}");
        text.push_str(&out);
        text.push('\n');
    }
    for folded in [
        "for d in lines {",
        "if to + d in enemy {",
        "flag(hot, { to + d })",
        "if any(c in own: any(d in lines: c + d in own)) {",
        "c + (a1 - e1 - e5 - a5 - a1) in own and c + -(a1 - e1 - e5 - a5 - a1) in own",
        "c + (h1 - a1) in own",
        "if any(c in own: c + rotate(e, 1) in own and c + rotate(e, 3) in own) {",
    ] {
        assert!(text.contains(folded), "no `{folded}` in:\n{text}");
    }
    snapshot("explain-graph-without-direction-names", &text);
}

/// How the engine plays a game follows the program: the small game's condition that
/// reads the destination's neighbours is one set for all the pieces, its count is
/// checked move by move where no set can say it, and the phase's rules are drawn
/// as sets; Connect Four's four in a row through the disc is read as windows from a
/// table (four axes, four windows each); Sackson's AGON draws its turns of two moves by
/// slots, and has no row test; with the fast paths
/// off, the section says every turn is listed. Every line of it is at most 100
/// columns wide, for every game.
#[test]
fn how_the_engine_plays_each_rule_is_shown() {
    let dir = TempDir::new("explain-how");
    let file = dir.write("small.game", SMALL.as_bytes());
    let file = file.to_str().expect("a UTF-8 path");
    let (code, out, err) = rulesi(&["explain", file]);
    assert_eq!(code, 0, "{err}");
    let how = out.split_once("How the engine plays it:\n").map(|(_, h)| h).unwrap_or_else(|| panic!("{out}"));
    for line in [
        "  phase play: random play draws",
        "  rule 0: place stone at empty",
        "    moves generated as sets of destinations",
        "    one set for all the pieces: where any(neighbours(to) and own) or not any(own)",
        "  rule 1: place stone at { a1, b2 }",
    ] {
        assert!(how.lines().any(|l| l == line), "no line `{line}` in:\n{how}");
    }

    let (code, out, err) = rulesi(&["explain", "games/classic/connect-four.game"]);
    assert_eq!(code, 0, "{err}");
    let row = "  a row test through `to`: 16 windows of cells, read from a table made when the game was built\n";
    assert!(out.ends_with(row), "{out}");

    let (code, out, err) = rulesi(&["explain", "games/sackson-agon.game"]);
    assert_eq!(code, 0, "{err}");
    assert!(!out.contains("a row test"), "{out}");
    assert!(out.contains("    turns that go on with rule 1 drawn by slots, without listing them\n"), "{out}");
    let (code, out, err) = rulesi(&["explain", "games/sackson-agon.game", "--no-fast-paths"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.ends_with("How the engine plays it:\n  with the fast paths off: every turn listed part by part, random play picking from the list\n"), "{out}");
    assert!(!out.contains("drawn by slots"), "{out}");

    for path in every_game() {
        let (code, out, err) = rulesi(&["explain", &game_label(&path)]);
        assert_eq!(code, 0, "{err}");
        let how = out.split_once("How the engine plays it:\n").map(|(_, h)| h).unwrap_or_else(|| panic!("{out}"));
        assert!(how.contains("random play draws"), "{}: {how}", path.display());
        for line in how.lines() {
            assert!(line.chars().count() <= 100, "{}: too wide: {line}", path.display());
        }
    }
}
