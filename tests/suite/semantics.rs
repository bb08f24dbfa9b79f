//! Rules whose meaning the language reference states and that no game of `games/`
//! exercises: seats and colours standing for each other as indexes and in comparisons,
//! and loops in the setup. Each game is written here, small enough to follow by hand.

use rulesi::engine::compile::options;
use rulesi::engine::search::perft;
use rulesi::engine::{AnyGame, MoveList, Outcome, Sampler, build, build_with_fast_paths};
use rulesi::with_game;

fn game(text: &str, fast: bool) -> AnyGame {
    let checked = rulesi::check_source(text);
    let Some(model) = checked.model else { panic!("the game does not check: {:?}", checked.diagnostics) };
    let values = options::resolve(&model, None, &[]).expect("options");
    if fast {
        build(&model, &values).expect("build")
    } else {
        build_with_fast_paths(&model, &values, false).expect("build")
    }
}

/// `score[mover]` and a counter over colours indexed by a seat mean the colour the seat
/// plays; a counter over seats indexed by a colour means the seat that plays it.
const COLOUR_INDEXES: &str = r#"
game "Colour indexes"
players seat1, seat2
colours red, blue
board square 3 by 1
piece stone "o"
counter lost[colours]
counter moved[players]
setup { place red stone at a1 }
phase play by seat1 {
  step own along { e } to empty then {
    add 1 to score[mover]
    add 1 to lost[mover]
    add 1 to moved[red]
  }
}
end {
  if score[red] == 1 and lost[red] == 1 and moved[seat1] == 1 and score[mover] == 1 { win(seat2) }
  draw
}
"#;

#[test]
fn a_seat_indexes_what_its_colour_counts_and_a_colour_what_its_seat_counts() {
    for fast in [true, false] {
        let any = game(COLOUR_INDEXES, fast);
        with_game!(&any, g => {
            let mut s = g.start();
            let mut list = MoveList::new();
            g.legal_moves(&s, &mut list).expect("moves");
            assert_eq!(list.len(), 1, "one step from a1");
            let turn = list.get(0).to_vec();
            g.play(&mut s, &turn).expect("play");
            assert_eq!(s.outcome(), Outcome::Win(1), "fast paths {fast}: the counts went to the colour red and the seat seat1");
            assert_eq!(s.score(g.prog.players), 1, "red's score");
        });
    }
}

/// A `place` in a `for` loop of the setup places a piece at every cell of the loop,
/// whether it runs over a set of cells or a list.
#[test]
fn the_setup_places_in_loops() {
    for source in ["{ a1, b1 }", "[a1, b1]"] {
        let text = format!(
            "game \"Setup loops\"\nplayers white, black\nboard square 3 by 3\npiece stone \"o\"\n\
             setup {{\n  for c in {source} {{ place white stone at c }}\n}}\nphase play {{ place stone at empty }}\n"
        );
        for fast in [true, false] {
            let any = game(&text, fast);
            with_game!(&any, g => {
                assert_eq!(perft(g, &g.start(), 1).expect("perft"), 7, "for c in {source}: a1 and b1 are taken");
            });
        }
    }
}

/// A seat and the colour it plays are equal, both ways round.
const SEAT_EQUALS_COLOUR: &str = r#"
game "Seat equals colour"
players seat1, seat2
colours red, blue
board square 3 by 1
piece stone "o"
setup { place red stone at a1 }
phase play by seat1 { step own along { e } to empty }
end {
  if mover == red and owner(b1) == mover and red == previous.player and not (mover == blue) { win(seat2) }
  draw
}
"#;

#[test]
fn a_seat_equals_the_colour_it_plays() {
    for fast in [true, false] {
        let any = game(SEAT_EQUALS_COLOUR, fast);
        with_game!(&any, g => {
            let mut s = g.start();
            let mut list = MoveList::new();
            g.legal_moves(&s, &mut list).expect("moves");
            let turn = list.get(0).to_vec();
            g.play(&mut s, &turn).expect("play");
            assert_eq!(s.outcome(), Outcome::Win(1), "fast paths {fast}: seat1 plays red");
        });
    }
}

/// An outcome declared by `end` after a part that would go on ends the game there: the
/// turn is that part alone, and playing it ends the game as listing it did.
const OUTCOME_AFTER_A_PART: &str = r#"
game "Outcome after a part"
players white, black
board square 6 by 1
piece stone "o"
setup { place white stone at a1 }
phase play by white {
  step own along { e } to empty then {
    let here = to
    step here along { e } to empty
  }
}
end {
  if previous.action != step { win(black) }
}
"#;

#[test]
fn an_outcome_after_a_part_that_would_go_on_ends_the_game() {
    for fast in [true, false] {
        let any = game(OUTCOME_AFTER_A_PART, fast);
        with_game!(&any, g => {
            let start = g.start();
            assert_eq!(perft(g, &start, 1).expect("perft"), 1, "fast paths {fast}: one turn, a1-b1");
            assert_eq!(perft(g, &start, 2).expect("perft"), 0, "fast paths {fast}: the game is over after it");
            let mut list = MoveList::new();
            g.legal_moves(&start, &mut list).expect("moves");
            assert_eq!(list.get(0).len(), 1, "the turn stops after its first part");
            let mut s = start.clone();
            let turn = list.get(0).to_vec();
            g.play(&mut s, &turn).expect("play");
            assert_eq!(s.outcome(), Outcome::Win(1), "fast paths {fast}: black wins");
        });
    }
}

/// The words for lines, known before play (in a destination set) and read at play
/// time (a run of enemy stones ended by one of the mover's).
#[test]
fn the_words_for_lines_walk_the_board() {
    let before_play = "game \"Lines before play\"\nplayers white, black\nboard square 8 by 8\npiece stone \"o\"\n\
        phase play { place stone at line(d4, n) or run(a1, e, { b1, c1, e1 }) or { next(h8, sw, { c3, f6 }) } }\n";
    let at_play = "game \"Lines at play\"\nplayers white, black\nboard square 8 by 8\npiece stone \"o\"\n\
        setup { place black stone at b2, c3\n place white stone at d4 }\n\
        phase play { place stone at empty where any(run(to, ne, enemy)) and next(to, ne, not enemy) in own }\n";
    // d1..d8, then b1 and c1 (the run stops before d1), then f6 (met before c3).
    // At play: only a1 brackets b2 and c3 against d4.
    for (text, want) in [(before_play, 11), (at_play, 1)] {
        for fast in [true, false] {
            let any = game(text, fast);
            with_game!(&any, g => {
                assert_eq!(perft(g, &g.start(), 1).expect("perft"), want, "{text}");
            });
        }
    }
}

/// `c + k * d`: `k` steps along `d` (back along it for `-` or a negative `k`), no cell
/// off the board; known before play and read at play time.
#[test]
fn steps_along_a_direction_count_cells() {
    let before_play = "game \"Steps before play\"\nplayers white, black\nboard square 8 by 8\npiece stone \"o\"\n\
        phase play { place stone at { d4 + 3 * n, d4 - 2 * e, d4 + -3 * ne, d4 + 0 * w, d4 + 5 * n, a1 - 1 * s } }\n";
    let at_play = "game \"Steps at play\"\nplayers white, black\nboard square 8 by 8\npiece stone \"o\"\n\
        setup { place white stone at c3 }\n\
        phase play { place stone at empty where any(d in orthogonal or diagonal: to == c3 + 2 * d or to == c3 - 3 * d) }\n";
    // Before play: d7, b4, a1, d4 and a2 (one step back from south); d9 is off the board.
    // At play: two steps every way from c3 (8 cells), three steps back every way that
    // stays on the board (f3, c6, f6, and back along the other five: off the board).
    for (text, want) in [(before_play, 5), (at_play, 11)] {
        for fast in [true, false] {
            let any = game(text, fast);
            with_game!(&any, g => {
                assert_eq!(perft(g, &g.start(), 1).expect("perft"), want, "{text}");
            });
        }
    }
}

/// Without stacks, a piece that moves onto a piece takes it: a capture, counted, and
/// `taken` / `taken_owner` in the `then` block name what it took.
#[test]
fn moving_onto_a_piece_takes_it() {
    let text = "game \"Takes\"\nplayers white, black\nboard square 3 by 1\npiece king \"K\"\npiece rook \"R\"\n\
        counter took[players]\n\
        setup { place white rook at a1\n place black king at c1 }\n\
        phase play { slide own along { e } to empty or enemy then {\n\
          if taken_owner == opponent { add 1 to took[mover] }\n\
          if taken == king { win(mover) } } }\n";
    for fast in [true, false] {
        let any = game(text, fast);
        with_game!(&any, g => {
            assert_eq!(perft(g, &g.start(), 1).expect("perft"), 2, "to b1, or onto the king on c1");
            let mut list = MoveList::new();
            let s0 = g.start();
            g.legal_moves(&s0, &mut list).expect("legal moves");
            let mut outcomes = Vec::new();
            for i in 0..list.len() {
                let mut s = s0.clone();
                let mut captures = 0;
                g.play_counting(&mut s, list.get(i), &mut captures).expect("play");
                outcomes.push((captures, s.outcome(), s.turns_without_capture(), (0..g.counter_slots).map(|i| s.counter(i)).sum::<i64>()));
            }
            outcomes.sort_by_key(|o| o.0);
            assert_eq!(outcomes[0], (0, Outcome::Ongoing, 1, 0), "a1-b1 takes nothing");
            assert_eq!(outcomes[1], (1, Outcome::Win(0), 0, 1), "a1-c1 takes the king: a capture, and white wins");
        });
    }
}

/// A region and a direction set declared per colour, read with a seat (`home[mover]`),
/// mean the colour that seat plays, before and after `assign` changes it.
const REGION_BY_SEAT: &str = r#"
game "Region by seat"
players seat1, seat2
colours red, blue
board square 3 by 3
piece stone "o"
region home[red] = { a1, a2 }
region home[blue] = { b1 }
directions ahead[red] = { n }
directions ahead[blue] = { e }
phase choice turns 1, by seat1 {
  choose [red, blue] then { assign(chosen, mover) }
}
phase play {
  place stone at home[mover] and empty where any(d in ahead[mover]: to + d in board)
}
"#;

#[test]
fn a_region_per_colour_read_with_a_seat_is_the_colour_it_plays() {
    for fast in [true, false] {
        let any = game(REGION_BY_SEAT, fast);
        with_game!(&any, g => {
            let start = g.start();
            // seat1 takes red: seat2 (blue) has b1, then seat1 (red) a1 or a2.
            // seat1 takes blue: seat2 (red) has a1 or a2, then seat1 (blue) b1.
            let counts: Vec<u64> = (1..=3).map(|d| perft(g, &start, d).expect("perft")).collect();
            assert_eq!(counts, vec![2, 3, 4], "fast paths {fast}: the regions of the colours the seats play");
        });
    }
}

/// The reference's "Hex with the pie rule" pattern: a region per colour read with
/// `edge_a[mover]` in `end`. Hex cannot end in a draw, so every random game is won.
#[test]
fn the_pie_rule_pattern_of_the_reference_ends_in_wins() {
    let reference =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/docs/language.md")).expect("the reference");
    let start = reference.find("// Hex with the pie rule.").expect("the pattern's first line");
    let text = &reference[start..];
    let text = &text[..text.find("```").expect("the end of the block")];
    for fast in [true, false] {
        let any = game(text, fast);
        with_game!(&any, g => {
            let mut rng = rulesi::engine::search::Rng::new(7);
            let mut sampler = Sampler::new();
            let mut wins = [0u32; 2];
            for _ in 0..20 {
                let mut s = g.start();
                let (ending, _) = rulesi::engine::search::random_game(g, &mut s, &mut rng, 1000, &mut sampler).expect("a random game");
                match ending {
                    rulesi::engine::search::Ending::Finished(Outcome::Win(p)) => wins[p as usize] += 1,
                    other => panic!("fast paths {fast}: a game of Hex ended {other:?}"),
                }
            }
            assert!(wins[0] > 0 && wins[1] > 0, "fast paths {fast}: both seats win some games: {wins:?}");
        });
    }
}

/// A `kind` parameter of a definition is the kind given at the use, not the first kind
/// declared: a promotion through a definition, and through a loop variable, makes the
/// third kind.
const KIND_PARAMETER: &str = r#"
game "Kind parameter"
players white, black
board square 3 by 3
piece plain "p"
piece second "s"
piece last "l"
define promoted(c: cell, k: kind) { promote(c, k) }
setup { place white plain at a1, b1 }
phase play by white {
  step own and plain along { n } to empty then {
    if to == a2 { promoted(to, last) }
    for k in [last] { if to == b2 { promote(to, k) } }
  }
}
end {
  if count(last) == 2 and count(plain) == 0 and count(second) == 0 { win(white) }
}
"#;

#[test]
fn a_kind_parameter_is_the_kind_given() {
    for fast in [true, false] {
        let any = game(KIND_PARAMETER, fast);
        with_game!(&any, g => {
            let mut s = g.start();
            let mut list = MoveList::new();
            for left in [2, 1] {
                g.legal_moves(&s, &mut list).expect("moves");
                assert_eq!(list.len(), left, "each plain piece steps north");
                let turn = list.get(0).to_vec();
                g.play(&mut s, &turn).expect("play");
            }
            assert_eq!(s.outcome(), Outcome::Win(0), "fast paths {fast}: both pieces became `last`");
        });
    }
}

/// The remainder operator `%`: Euclidean (never negative), `x % 0` is `x`, as tight as
/// `*` and `/` and read from the left; the same before play (a region) and in play.
const REMAINDERS: &str = r#"
game "Remainders"
players white, black
board square 5 by 1
piece stone "o"
// Worked out before play: x(c) - 7 is a multiple of 3 at x = 1 and x = 4; the second
// test reads 1 + ((7 % 3) * 2) % 0 - 3, which is 0.
region thirds = { c in board: (x(c) - 7) % 3 == 0 and x(c) != 1 + 7 % 3 * 2 % 0 - 3 }
// Worked out in play, from count(empty): 5 at the start, 4 after a stone.
define remainders_hold =
  (count(empty) - 12) % 3 == 2 and count(empty) % (0 - 3) == 2 and count(empty) % 0 == 5
  and count(empty) * 2 % 4 == 2
phase play {
  place stone at empty where remainders_hold and (x(to) % 2 == 0 or to in thirds)
}
"#;

#[test]
fn the_remainder_is_euclidean_and_by_zero_is_the_number() {
    for fast in [true, false] {
        let any = game(REMAINDERS, fast);
        with_game!(&any, g => {
            let start = g.start();
            // x = 0, 2, 4 (even) and 1 (thirds).
            assert_eq!(perft(g, &start, 1).expect("perft"), 4, "fast paths {fast}");
            // With 4 empty cells, (4 - 12) % 3 is 1: no move.
            assert_eq!(perft(g, &start, 2).expect("perft"), 0, "fast paths {fast}");
        });
    }
    let (code, out, err) = {
        let dir = std::env::temp_dir().join(format!("rulesi-remainders-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("a temporary folder");
        let path = dir.join("remainders.game");
        std::fs::write(&path, REMAINDERS).expect("write the game");
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_rulesi"))
            .args(["explain", &path.to_string_lossy()])
            .output()
            .expect("run rulesi");
        let _ = std::fs::remove_dir_all(&dir);
        (
            out.status.code(),
            String::from_utf8_lossy(&out.stdout).into_owned(),
            String::from_utf8_lossy(&out.stderr).into_owned(),
        )
    };
    assert_eq!(code, Some(0), "{err}");
    assert!(out.contains("count(empty) * 2 % 4 == 2") && out.contains("x(to) % 2 == 0"), "explain writes `%`:\n{out}");
}

/// The smallest number divided by −1 saturates and its remainder is 0, before play and
/// in play: no overflow panic.
const EXTREMES: &str = r#"
game "Extremes"
players white, black
board square 5 by 1
piece stone "o"
define big = 1000000000 * 1000000000 * 1000000000
region all_cells = { c in board: (0 - big - 1) % (0 - 1) == 0 and (0 - big - 1) / (0 - 1) > 0 }
phase play {
  place stone at all_cells and empty
    where (count(empty) - big - 6) % (0 - 1) == 0 and (count(empty) - big - 6) / (0 - 1) > 0
}
"#;

#[test]
fn the_smallest_number_divided_by_minus_one_does_not_overflow() {
    for fast in [true, false] {
        let any = game(EXTREMES, fast);
        with_game!(&any, g => {
            assert_eq!(perft(g, &g.start(), 1).expect("perft"), 5, "fast paths {fast}");
        });
    }
}

/// `illegal if` reads the position a whole turn leads to: a turn may pass over the
/// cell it forbids, not end on it.
const PASSING_THROUGH: &str = r#"
game "Passing through"
players white, black
board square 5 by 1
piece stone "o"
setup {
  place white stone at a1
  place black stone at e1
}
phase play {
  step own along { e, w } to empty then {
    let here = to
    optional { step here along { e, w } to empty }
  }
}
// No turn may end with a stone of its player on b1; passing over it is allowed.
illegal if any(own and { b1 }) "not on b1"
no moves { lose(mover) }
"#;

#[test]
fn illegal_if_reads_the_position_a_whole_turn_leads_to() {
    for fast in [true, false] {
        let any = game(PASSING_THROUGH, fast);
        with_game!(&any, g => {
            let start = g.start();
            let mut list = MoveList::new();
            g.legal_moves(&start, &mut list).expect("moves");
            // a1-b1 ends on b1; a1-b1-a1 comes back to the start: a1-b1-c1 alone.
            let turns: Vec<Vec<String>> = list
                .iter()
                .map(|t| t.iter().map(|p| format!("{}-{}", g.label(p.from), g.label(p.to))).collect())
                .collect();
            assert_eq!(turns, vec![vec!["a1-b1".to_string(), "b1-c1".to_string()]], "fast paths {fast}");
            let mut rng = rulesi::engine::search::Rng::new(3);
            let mut sampler = Sampler::new();
            for _ in 0..20 {
                let drawn = g.random_move(&start, &mut rng, &mut sampler).expect("a move").map(|t| t.to_vec());
                assert_eq!(drawn.as_deref(), Some(list.get(0)), "fast paths {fast}: random play draws it");
            }
        });
    }
}
