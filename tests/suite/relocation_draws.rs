//! Random play draws `relocate` rules by plan (`ByPlan::relocate`): on positions
//! where a relocation is due, every legal relocation is drawn about equally often, with
//! one and with two captured pieces of the mover, under Agon's default options and the
//! options that keep the destinations independent of the piece (`anywhere`,
//! `opponent_chooses`, `relocation_captures`), and under `guard_relocation=next_ring`,
//! whose destinations depend on the piece (drawn by the general path). A small game
//! whose destination set holds the pieces themselves checks that a piece is never
//! "relocated" to its own cell and that candidates failing a condition are redrawn.

use std::path::PathBuf;

use rulesi::check::hir::Action;
use rulesi::engine::exec::game::Plan;
use rulesi::engine::search;
use rulesi::engine::{AnyGame, Game, State, build, compile::options, text::position};
use rulesi::with_game;

/// Checks that random play is uniform on a position (`search::check_uniform`).
fn check_uniform<const W: usize>(g: &Game<W>, s: &State<W>, per: usize, seed: u64, label: &str) -> usize {
    search::check_uniform(g, s, per, seed).unwrap_or_else(|e| panic!("{label}: {e}"))
}

/// Option settings, `key=value`.
type Settings<'a> = &'a [(&'a str, &'a str)];

/// A configuration: its label, its settings, its positions with their counts.
type Case<'a> = (&'a str, Settings<'a>, Vec<(String, usize)>);

/// A game built from its text with `key=value` settings.
fn game(text: &str, settings: &[(&str, &str)]) -> AnyGame {
    let model = rulesi::check_source(text).model.expect("the game checks");
    let settings: Vec<(String, String)> = settings.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect();
    let values = options::resolve(&model, None, &settings).expect("options resolve");
    build(&model, &values).expect("the game builds")
}

fn agon(settings: &[(&str, &str)]) -> AnyGame {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("games/agon.game");
    game(&std::fs::read_to_string(path).expect("readable"), settings)
}

/// The number of `relocate` rules the plans of the game's phases draw from.
fn planned_relocations<const W: usize>(g: &Game<W>) -> usize {
    fn go<const W: usize>(g: &Game<W>, p: &Plan<W>) -> usize {
        match p {
            Plan::Rule(r) => usize::from(g.prog.rules[*r as usize].action == Action::Relocate),
            Plan::Sets(_) | Plan::General => 0,
            Plan::First(_, last) => go(g, last),
            Plan::IfElse(_, a, b) => go(g, a) + go(g, b),
        }
    }
    g.code.plans.iter().flatten().map(|p| go(g, p)).sum()
}

/// Agon's start position (rules/agon.md: every piece on the outer ring, whose 30 cells
/// leave 16 vacant) with white to move, and `extra` lines.
fn start_with(extra: &str) -> String {
    let mut text = String::from("turn white\nphase play\ncell F11 black queen\n");
    for c in ["D1", "A2", "H3", "B7", "K7", "J11"] {
        text += &format!("cell {c} black guard\n");
    }
    text + extra
}

/// Checks each position (its text, its number of legal moves counted by hand).
fn check_positions(any: &AnyGame, label: &str, positions: &[(String, usize)]) {
    with_game!(any, g => {
        for (k, (text, want)) in positions.iter().enumerate() {
            let s = position::read(g, text).unwrap_or_else(|e| panic!("{label}, position {k}: {e}"));
            let n = check_uniform(g, &s, 60, 900 + k as u64, &format!("{label}, position {k}"));
            assert_eq!(n, *want, "{label}, position {k}: legal relocations");
        }
    });
}

/// White guards B1, J5, D9, K10, H11 on their start cells.
const GUARDS: &str = "cell B1 white guard\ncell J5 white guard\ncell D9 white guard\n\
                      cell K10 white guard\ncell H11 white guard\n";

#[test]
fn agon_relocations_are_drawn_uniformly() {
    // One captured guard (A5), to a vacant outer-ring cell: 16.
    let one_guard = start_with(&format!("cell F1 white queen\ncell A5 white guard captured\n{GUARDS}"));
    // Two captured guards (A5, B1): each to any of the 16 vacant outer-ring cells.
    let two_guards = start_with(
        "cell F1 white queen\ncell A5 white guard captured\ncell B1 white guard captured\n\
         cell J5 white guard\ncell D9 white guard\ncell K10 white guard\ncell H11 white guard\n",
    );
    // The queen (F1) and a guard (A5) captured: the queen first, to any of the
    // 91 - 14 = 77 vacant cells but the throne.
    let queen_and_guard = start_with(&format!("cell F1 white queen captured\ncell A5 white guard captured\n{GUARDS}"));
    // tests/scenarios/agon-relocation.scenario's position R: 82 relocations of the
    // queen (83 with the throne).
    let r = "turn white\nphase play\ncell K6 white queen captured\ncell D3 white guard captured\n\
             cell E7 white guard\ncell A5 white guard\ncell F5 black guard\ncell D5 black guard\n\
             cell E6 black guard\ncell F11 black queen\n"
        .to_string();
    // Black to move, with a black guard (H3) captured: 16.
    let black = format!(
        "turn black\nphase play\ncell F1 white queen\ncell A5 white guard\n{GUARDS}cell F11 black queen\n\
         cell D1 black guard\ncell A2 black guard\ncell H3 black guard captured\ncell B7 black guard\n\
         cell K7 black guard\ncell J11 black guard\n"
    );
    let cases: [Case; 4] = [
        (
            "defaults",
            &[],
            vec![
                (one_guard, 16),
                (two_guards.clone(), 32),
                (queen_and_guard.clone(), 76),
                (r.clone(), 82),
                (black, 16),
            ],
        ),
        (
            "queen_relocation=anywhere",
            &[("queen_relocation", "anywhere")],
            vec![(queen_and_guard.clone(), 77), (r, 83)],
        ),
        ("queen_relocation=opponent_chooses", &[("queen_relocation", "opponent_chooses")], vec![(queen_and_guard, 76)]),
        ("relocation_captures=yes", &[("relocation_captures", "yes")], vec![(two_guards, 32)]),
    ];
    for (label, settings, positions) in &cases {
        let any = agon(settings);
        with_game!(&any, g => {
            assert_eq!(planned_relocations(g), 2, "{label}: both relocations are drawn by plan");
        });
        check_positions(&any, label, positions);
    }
}

#[test]
fn relocations_whose_destinations_depend_on_the_piece_stay_uniform() {
    // next_ring: a guard on ring 1 (E5) goes to the 12 cells of ring 2, all vacant.
    let any = agon(&[("guard_relocation", "next_ring")]);
    with_game!(&any, g => {
        assert_eq!(planned_relocations(g), 1, "the guard's relocation reads `from`: the general path");
    });
    let text = start_with(&format!("cell F1 white queen\ncell E5 white guard captured\n{GUARDS}"));
    check_positions(&any, "guard_relocation=next_ring", &[(text, 12)]);
}

#[test]
fn a_piece_is_not_relocated_to_its_own_cell() {
    // The destination set holds the mover's pieces; the condition reads `from`, so
    // most candidates fail it and are redrawn.
    let text = "game \"Relocation onto the mover's cells\"\nplayers white, black\nboard square 4 by 4\n\
                piece man \"M\"\nphase play {\n  relocate own to not enemy where distance(from, to) <= 2\n}\n";
    let any = game(text, &[]);
    with_game!(&any, g => {
        assert_eq!(planned_relocations(g), 1, "drawn by plan");
    });
    // Orthogonal distance at most 2, not the piece's own cell, not the enemy on d4:
    // a1 reaches 5 cells, b2 10, c3 9 (d4 is the enemy's).
    let three = "turn white\nphase play\ncell a1 white man\ncell b2 white man\ncell c3 white man\n\
                 cell d4 black man\n"
        .to_string();
    // Nine white pieces in the destination set: more than random play by plan takes
    // (the general path draws). a1: 5, a2: 7, a3: 7, b1: 7, b2: 10, b3: 10, c1: 7,
    // c2: 10, c3: 9 (d4 is the enemy's).
    let mut nine = String::from("turn white\nphase play\ncell d4 black man\n");
    for c in ["a1", "a2", "a3", "b1", "b2", "b3", "c1", "c2", "c3"] {
        nine += &format!("cell {c} white man\n");
    }
    check_positions(&any, "own cells", &[(three, 24), (nine, 72)]);
}
