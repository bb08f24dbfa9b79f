//! Rules whose meaning the language reference states and that no game of `games/`
//! exercises: seats and colours standing for each other as indexes and in comparisons,
//! and loops in the setup. Each game is written here, small enough to follow by hand.

use rulesi::engine::compile::options;
use rulesi::engine::search::perft;
use rulesi::engine::{AnyGame, MoveList, Outcome, build, build_with_fast_paths};
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
            assert_eq!(s.outcome, Outcome::Win(1), "fast paths {fast}: the counts went to the colour red and the seat seat1");
            assert_eq!(s.scores[g.prog.players], 1, "red's score");
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
            assert_eq!(s.outcome, Outcome::Win(1), "fast paths {fast}: seat1 plays red");
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
            assert_eq!(s.outcome, Outcome::Win(1), "fast paths {fast}: black wins");
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
                outcomes.push((captures, s.outcome, s.turns_without_capture, s.counters.iter().sum::<i64>()));
            }
            outcomes.sort_by_key(|o| o.0);
            assert_eq!(outcomes[0], (0, Outcome::Ongoing, 1, 0), "a1-b1 takes nothing");
            assert_eq!(outcomes[1], (1, Outcome::Win(0), 0, 1), "a1-c1 takes the king: a capture, and white wins");
        });
    }
}
