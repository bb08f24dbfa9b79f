//! `rulesi match FILE --games N`: games between the computer and random players.
//!
//! Each player is the computer or a random player (`--player NAME=computer`; random
//! when not given). With `--swap`, the players' roles rotate from one game to the
//! next, so that each plays every seat. A game that reaches `--max-plies` turns stops
//! unfinished (the program's limit, not a rule) and is counted apart. Prints a line per
//! game (with the pieces each side has on the board at its end), then wins, losses,
//! draws and unfinished games per player and per kind of player, and the average
//! length.

use std::io::Write;
use std::process::ExitCode;
use std::time::Instant;

use clap::Args as ClapArgs;

use rulesi::engine::search::mcts::{self, Budget};
use rulesi::engine::{EngineError, Game, Outcome, State};
use rulesi::with_game;

use super::load::{GameArgs, load};
use super::play::{Who, parse_players};
use crate::study::game::play_game;

/// Arguments of `match`.
#[derive(Debug, ClapArgs)]
pub struct Args {
    #[command(flatten)]
    game: GameArgs,
    /// How many games.
    #[arg(long, default_value_t = 10, value_parser = super::shared::games(), allow_negative_numbers = true)]
    games: u32,
    /// Who plays a side: `--player white=computer` (computer or random; repeatable).
    /// Players not named play at random.
    #[arg(long = "player", value_name = "NAME=WHO")]
    players: Vec<String>,
    /// How long the computer thinks per move: a time (`1s`, `200ms`) or a number of
    /// iterations (`2000`, deterministic with --seed).
    #[arg(long, default_value = "1000", value_parser = Budget::parse, allow_negative_numbers = true)]
    think: Budget,
    /// The longest random playout of the computer's search, in turns (an unfinished
    /// playout is scored by the pieces, or scores, each player has; with a time budget
    /// slow games get shorter playouts).
    #[arg(long, default_value_t = 400, value_parser = super::shared::plies(), allow_negative_numbers = true)]
    playout_plies: u32,
    /// The random seed of the first game (game i uses seed + i).
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// The longest game, in turns: a game that reaches it is unfinished.
    #[arg(long, default_value_t = 1000, value_parser = super::shared::plies(), allow_negative_numbers = true)]
    max_plies: u32,
    /// Rotate who plays which seat from one game to the next.
    #[arg(long)]
    swap: bool,
}

#[derive(Clone, Copy, Default)]
struct Tally {
    wins: u32,
    losses: u32,
    draws: u32,
    unfinished: u32,
}

impl Tally {
    fn add(&mut self, result: Option<Outcome>, me: u8) {
        match result {
            Some(Outcome::Win(p)) if p == me => self.wins += 1,
            Some(Outcome::Win(_)) => self.losses += 1,
            Some(_) => self.draws += 1,
            None => self.unfinished += 1,
        }
    }

    fn line(&self) -> String {
        format!("{} wins, {} losses, {} draws, {} unfinished", self.wins, self.losses, self.draws, self.unfinished)
    }
}

/// The pieces each owner side has on the board: `white 12, black 9`.
fn piece_counts<const W: usize>(g: &Game<W>, s: &State<W>) -> String {
    let counts = g.pieces_by_side(s);
    g.sides.owner_sides().map(|o| format!("{} {}", g.prog.sides[o], counts[o])).collect::<Vec<_>>().join(", ")
}

/// Plays one game (see [`play_game`]); returns its result (`None`: unfinished), its
/// length in turns and the pieces on the board at the end.
fn play_one<const W: usize>(
    g: &Game<W>,
    who: &[Who],
    cfg: &mcts::Config,
    seed: u64,
    max: u32,
) -> Result<(Option<Outcome>, u32, String), EngineError> {
    let played = play_game(g, who, cfg, seed, max, None, &mut ())?;
    Ok((played.outcome(), played.plies, piece_counts(g, &played.last)))
}

/// Runs `match`.
pub fn run(args: Args) -> ExitCode {
    let loaded = match load(&args.game) {
        Ok(loaded) => loaded,
        Err(code) => return code,
    };
    with_game!(&loaded.game, g => {
        let prog = &g.prog;
        let who = match parse_players(prog, &args.players, Who::Random, &[Who::Computer, Who::Random]) {
            Ok(w) => w,
            Err(e) => {
                eprintln!("error: {e}");
                return ExitCode::from(2);
            }
        };
        let n = prog.players;
        let cfg = mcts::Config { budget: args.think, playout_plies: args.playout_plies, ..mcts::Config::default() };
        let mut by_seat = vec![Tally::default(); n];
        let mut by_kind: Vec<(Who, Tally)> = Vec::new();
        let (mut total_plies, mut finished, mut finished_plies) = (0u64, 0u32, 0u64);
        let started = Instant::now();
        say!(
            "{}: {} games, the computer thinking {} per move, games cut at {} turns",
            prog.title, args.games, args.think, args.max_plies
        );
        for i in 0..args.games {
            let shift = if args.swap { i as usize % n } else { 0 };
            let seats: Vec<Who> = (0..n).map(|p| who[(p + n - shift) % n]).collect();
            let (result, plies, pieces) = match play_one(g, &seats, &cfg, args.seed.wrapping_add(i as u64), args.max_plies)
            {
                Ok(r) => r,
                Err(e) => {
                    eprintln!("error: in game {}: {e}", i + 1);
                    return ExitCode::FAILURE;
                }
            };
            total_plies += plies as u64;
            if result.is_some() {
                finished += 1;
                finished_plies += plies as u64;
            }
            let names: Vec<String> = (0..n).map(|p| format!("{} {}", prog.sides[p], seats[p].word())).collect();
            let how = match result {
                Some(Outcome::Win(p)) => format!("{} ({}) wins", prog.sides[p as usize], seats[p as usize].word()),
                Some(_) => "draw".to_string(),
                None => "unfinished".to_string(),
            };
            say!("game {}: {}: {how} after {plies} turns (pieces: {pieces})", i + 1, names.join(", "));
            let _ = std::io::stdout().flush();
            for p in 0..n {
                by_seat[p].add(result, p as u8);
                let k = match by_kind.iter().position(|(w, _)| *w == seats[p]) {
                    Some(k) => k,
                    None => {
                        by_kind.push((seats[p], Tally::default()));
                        by_kind.len() - 1
                    }
                };
                by_kind[k].1.add(result, p as u8);
            }
        }
        say!("results after {} games ({:.1} s):", args.games, started.elapsed().as_secs_f64());
        for (p, t) in by_seat.iter().enumerate() {
            say!("  {}: {}", prog.sides[p], t.line());
        }
        if args.swap || by_kind.len() > 1 {
            for (w, t) in &by_kind {
                say!("  {}: {}", w.word(), t.line());
            }
        }
        let avg = |plies: u64, games: u32| if games == 0 { 0.0 } else { plies as f64 / games as f64 };
        say!(
            "average length: {:.1} turns ({:.1} over the {finished} finished games)",
            avg(total_plies, args.games),
            avg(finished_plies, finished)
        );
        ExitCode::SUCCESS
    })
}
