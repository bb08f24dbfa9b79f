//! Random play draws uniformly among the legal turns when candidates must be played out
//! to know whether they are legal (a `then` block that may refuse, royal pieces): it
//! lists the candidates unplayed and plays out only those it draws (see
//! `Game::random_move`). Checked on chess positions with pins, checks and promotions
//! (`games/classic/chess.game`, where most candidates of a king in check are refused)
//! and on Go positions with suicide points and a ko (`games/classic/go.game`).

use std::path::PathBuf;

use rulesi::engine::exec::moves::MoveList;
use rulesi::engine::search;
use rulesi::engine::{AnyGame, Game, State, build, compile::options, text::notation, text::position};
use rulesi::with_game;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// A game of `games/classic/` built with `key=value` settings.
fn classic(name: &str, settings: &[(&str, &str)]) -> AnyGame {
    let text = std::fs::read_to_string(root().join("games/classic").join(name)).expect("readable");
    let model = rulesi::check_source(&text).model.expect("the game checks");
    let settings: Vec<(String, String)> = settings.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect();
    let values = options::resolve(&model, None, &settings).expect("options resolve");
    build(&model, &values).expect("the game builds")
}

/// Checks that random play is uniform on a position (`search::check_uniform`); the
/// number of legal turns.
fn check_uniform<const W: usize>(g: &Game<W>, s: &State<W>, seed: u64, label: &str) -> usize {
    search::check_uniform(g, s, 40, seed).unwrap_or_else(|e| panic!("{label}: {e}"))
}

/// Plays the moves typed in `moves` from `s`.
fn play_typed<const W: usize>(g: &Game<W>, s: &mut State<W>, moves: &[&str]) {
    let mut list = MoveList::new();
    for m in moves {
        g.legal_moves(s, &mut list).expect("the moves list");
        let i = notation::find_move(g, s, &list, m).unwrap_or_else(|e| panic!("{m}: {e}"));
        let turn = list.get(i).to_vec();
        g.play(s, &turn).expect("a legal move plays");
    }
}

#[test]
fn random_play_is_uniform_where_a_king_may_not_be_left_attacked() {
    let any = classic("chess.game", &[]);
    // The published numbers of legal moves of the four positions.
    let cases = [("kiwipete", 48), ("position-3", 14), ("position-4", 6), ("position-5", 44)];
    with_game!(&any, g => {
        assert!(!g.prog.royal.is_empty(), "chess declares a royal piece");
        for (k, (name, want)) in cases.iter().enumerate() {
            let path = root().join(format!("tests/perft/positions/chess-{name}.position"));
            let text = std::fs::read_to_string(&path).expect("readable");
            let s = position::read(g, &text).unwrap_or_else(|e| panic!("{name}: {e}"));
            assert_eq!(check_uniform(g, &s, 700 + k as u64, name), *want, "{name}: legal moves");
        }
    });
}

#[test]
fn random_play_is_uniform_where_placements_may_be_refused() {
    // White to move: a1 is suicide; black's b1 stone has one liberty left.
    let suicide = "turn white\ncell a2 black stone\ncell b1 black stone\n";
    // Black takes the ko at e7; white may not take back at d7 at once.
    let ko = "turn black\ncell d8 black stone\ncell c7 black stone\ncell d6 black stone\n\
              cell e8 white stone\ncell d7 white stone\ncell f7 white stone\ncell e6 white stone\n";
    for setting in ["superko", "simple"] {
        let any = classic("go.game", &[("size", "9"), ("ko", setting)]);
        with_game!(&any, g => {
            let s = position::read(g, suicide).expect("the position reads");
            // 81 points, two taken, a1 refused, and the pass.
            assert_eq!(check_uniform(g, &s, 800, "suicide"), 79, "{setting}: legal moves with a suicide point");
            let mut s = position::read(g, ko).expect("the position reads");
            play_typed(g, &mut s, &["e7"]);
            // 81 points, seven taken, d7 refused, and the pass.
            assert_eq!(check_uniform(g, &s, 801, "ko"), 74, "{setting}: legal moves after the ko is taken");
        });
    }
}
