//! The computer player (`engine::search::mcts`) against a random player at Sackson's AGON
//! (`games/sackson-agon.game`), the game whose random games are longest (thousands of
//! turns) and whose turns are most numerous (two-part turns): from a small position,
//! with a fixed budget of iterations and a fixed seed, so that it takes seconds. The
//! search there relies on its general parts for long, wide games: progressive
//! widening, moves drawn instead of listed below a wide root, and the evaluation of cut
//! playouts by the pieces each player owns. (Matches from the start, with a time
//! budget, are in the README.)

use std::path::PathBuf;

use rulesi::engine::search::Rng;
use rulesi::engine::search::mcts::{self, Budget, Config};
use rulesi::engine::{AnyGame, Game, Outcome, Sampler, State, build, compile::options, text::position};
use rulesi::with_game;

fn sackson() -> AnyGame {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("games/sackson-agon.game");
    let text = std::fs::read_to_string(&path).expect("readable");
    let model = rulesi::check_source(&text).model.expect("the game checks");
    let values = options::resolve(&model, None, &[]).expect("options resolve");
    build(&model, &values).expect("the game builds")
}

/// Two figures of six pieces, each the half-turn image of the other, three empty ranks
/// apart; white to move.
const FACING: &str = "turn white\nphase play\n\
    cell h9 white man\ncell i9 white man\ncell j9 white man\ncell k9 white man\ncell l9 white man\ncell i8 white man\n\
    cell n13 red man\ncell m13 red man\ncell l13 red man\ncell k13 red man\ncell j13 red man\ncell m14 red man\n";

/// Plays from `start` with `computer` (a player, or none) searching and the other
/// player(s) moving at random, for at most `max` turns. Returns the result (`None`:
/// unfinished).
fn play<const W: usize>(g: &Game<W>, start: &State<W>, computer: Option<u8>, seed: u64, max: u32) -> Option<Outcome> {
    let mut s = start.clone();
    let mut rng = Rng::new(seed);
    let mut sampler = Sampler::new();
    for _ in 0..max {
        if s.outcome() != Outcome::Ongoing {
            return Some(s.outcome());
        }
        let parts = if Some(s.mover()) == computer {
            let cfg =
                Config { budget: Budget::Iterations(200), playout_plies: 4, seed: rng.next_u64(), ..Config::default() };
            mcts::search(g, &s, &cfg, None).expect("search").best_move().map(|m| m.to_vec())
        } else {
            g.random_move(&s, &mut rng, &mut sampler).expect("random move").map(|turn| turn.to_vec())
        };
        match parts {
            Some(p) => g.play(&mut s, &p).expect("play"),
            None => {
                g.settle(&mut s);
            }
        }
    }
    if s.outcome() != Outcome::Ongoing { Some(s.outcome()) } else { None }
}

#[test]
fn the_computer_beats_random_at_sacksons_agon() {
    let any = sackson();
    with_game!(&any, g => {
        let start = position::read(g, FACING).expect("the position reads");
        let (games, max) = (6u64, 300);
        let (mut wins, mut control) = (0, 0);
        let mut report = Vec::new();
        for k in 0..games {
            let seat = (k % 2) as u8;
            let result = play(g, &start, Some(seat), 100 + k, max);
            if result == Some(Outcome::Win(seat)) {
                wins += 1;
            }
            // The control: a random player in the same seat, the same seed.
            let random = play(g, &start, None, 100 + k, max);
            if random == Some(Outcome::Win(seat)) {
                control += 1;
            }
            report.push(format!(
                "game {k}: {} computer: {result:?}; {} random: {random:?}",
                g.prog.sides[seat as usize], g.prog.sides[seat as usize]
            ));
        }
        let report = report.join("\n");
        println!("{report}");
        assert!(wins >= 5, "the computer won only {wins} of {games} games:\n{report}");
        assert!(control < wins, "a random player did as well ({control} wins):\n{report}");
    });
}
