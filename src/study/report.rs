//! A study's report: per variant, the shares of wins with their intervals, the game
//! lengths and what was played. It is what `--format json` prints (its fields are the
//! schema documented in `docs/study.md`), and what the table, the CSV and the chart
//! are made from.

use std::collections::BTreeMap;

use serde::Serialize;

use super::run::Studied;
use super::stats::{Share, Spread};

/// What a study was asked to do.
#[derive(Clone, Debug, Serialize)]
pub struct About {
    /// The game's title.
    pub game: String,
    /// The game file, as given.
    pub file: String,
    /// Who played: `computer` or `random`.
    pub player: String,
    /// The computer's budget per move (`--think`), as given.
    pub think: String,
    /// Games asked for per variant.
    pub games_per_variant: u32,
    /// The study's seed.
    pub seed: u64,
    /// The longest game, in turns: a game that reaches it is unfinished.
    pub max_plies: u32,
}

/// The whole study.
#[derive(Clone, Debug, Serialize)]
pub struct Report {
    /// What it was asked to do.
    #[serde(flatten)]
    pub about: About,
    /// Whether the study was interrupted (Ctrl-C): the variants report the games
    /// finished, and the variants with none are left out.
    pub interrupted: bool,
    /// The variants played.
    pub variants: Vec<VariantReport>,
    /// The variants that could not be played, and why.
    pub skipped: Vec<Skipped>,
}

/// A variant that could not be played.
#[derive(Clone, Debug, Serialize)]
pub struct Skipped {
    /// Its label.
    pub variant: String,
    /// Why.
    pub error: String,
}

/// The wins of one seat or one side.
#[derive(Clone, Debug, Serialize)]
pub struct Wins {
    /// The seat (1: the first to move), for wins by seat.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub seat: Option<usize>,
    /// The player in the seat, or the side.
    pub name: String,
    /// Its wins as a share of all the games, with their interval.
    pub wins: Share,
}

/// How often one kind of turn was played.
#[derive(Clone, Debug, Serialize)]
pub struct Kind {
    /// The move verbs of the turn (`step`, `jump`, `step+place`), or `no moves`.
    pub kind: String,
    /// How many times, in all the games.
    pub count: u64,
    /// Its share of all the turns.
    pub share: f64,
}

/// One variant's numbers.
#[derive(Clone, Debug, Serialize)]
pub struct VariantReport {
    /// Its label: the ruleset and the options varied (`defaults` for neither).
    pub variant: String,
    /// The ruleset, if any.
    pub ruleset: Option<String>,
    /// The options varied, with their values here.
    pub options: BTreeMap<String, String>,
    /// Games played.
    pub games: u32,
    /// Wins by seat, seat 1 first.
    pub wins_by_seat: Vec<Wins>,
    /// Wins by side (the colours in a game with colours, otherwise the players).
    pub wins_by_side: Vec<Wins>,
    /// Draws.
    pub draws: Share,
    /// Games cut at `max_plies`, unfinished.
    pub unfinished: Share,
    /// Games won by someone before the cut: how decisive the game is.
    pub decisive: Share,
    /// Seat 1's share of the games won by someone.
    pub first_mover_share_of_decided: Share,
    /// Whether `first_mover_share_of_decided`'s interval leaves out the fair share,
    /// 1 / players (0.5 with two): a first mover's advantage (or disadvantage) that
    /// the games show at the 95 % level.
    pub first_mover_advantage_significant: bool,
    /// Game length in turns.
    pub length: Spread,
    /// Legal turns per position where a turn was chosen, the mean.
    pub branching: f64,
    /// Turns that captured (at least one piece) per game.
    pub capturing_turns: Spread,
    /// Captures per game (what the effects in `capture` blocks took).
    pub captures: Spread,
    /// How often each kind of turn was played, most played first.
    pub move_kinds: Vec<Kind>,
    /// Each game's length in turns, in game order.
    pub lengths: Vec<u32>,
}

impl Report {
    /// The report of the variants studied.
    pub fn new(about: About, interrupted: bool, studied: &[Studied]) -> Report {
        let mut variants = Vec::new();
        let mut skipped = Vec::new();
        for s in studied {
            match &s.result {
                Ok((cast, tally)) => variants.push(VariantReport::new(s, cast, tally)),
                Err(e) => skipped.push(Skipped { variant: s.variant.label(), error: e.clone() }),
            }
        }
        Report { about, interrupted, variants, skipped }
    }

    /// How many variants show a significant first mover's advantage.
    pub fn significant(&self) -> usize {
        self.variants.iter().filter(|v| v.first_mover_advantage_significant).count()
    }
}

impl VariantReport {
    fn new(s: &Studied, cast: &super::run::Cast, t: &super::tally::Tally) -> VariantReport {
        let n = t.games;
        let wins_by_seat = cast
            .seats
            .iter()
            .enumerate()
            .map(|(k, name)| Wins {
                seat: Some(k + 1),
                name: name.clone(),
                wins: Share::new(t.seat_wins.get(k).copied().unwrap_or(0), n),
            })
            .collect();
        let wins_by_side = cast
            .sides
            .iter()
            .map(|(i, name)| Wins {
                seat: None,
                name: name.clone(),
                wins: Share::new(t.side_wins.get(*i).copied().unwrap_or(0), n),
            })
            .collect();
        let decided = t.decided();
        let first = Share::new(t.seat_wins.first().copied().unwrap_or(0), decided);
        let fair = 1.0 / cast.seats.len().max(1) as f64;
        let turns: u64 = t.kinds.values().sum();
        let mut move_kinds: Vec<Kind> = t
            .kinds
            .iter()
            .map(|(k, c)| Kind {
                kind: k.clone(),
                count: *c,
                share: if turns == 0 { 0.0 } else { *c as f64 / turns as f64 },
            })
            .collect();
        move_kinds.sort_by(|a, b| b.count.cmp(&a.count).then_with(|| a.kind.cmp(&b.kind)));
        let floats = |xs: &[u32]| xs.iter().map(|x| f64::from(*x)).collect::<Vec<f64>>();
        VariantReport {
            variant: s.variant.label(),
            ruleset: s.variant.ruleset.clone(),
            options: s.variant.settings.iter().cloned().collect(),
            games: n,
            wins_by_seat,
            wins_by_side,
            draws: Share::new(t.draws, n),
            unfinished: Share::new(t.unfinished, n),
            decisive: Share::new(decided, n),
            first_mover_share_of_decided: first,
            first_mover_advantage_significant: first.excludes(fair),
            length: Spread::of(&floats(&t.lengths)),
            branching: if t.positions == 0 { 0.0 } else { t.legal_turns as f64 / t.positions as f64 },
            capturing_turns: Spread::of(&floats(&t.capturing_turns)),
            captures: Spread::of(&floats(&t.captures)),
            move_kinds,
            lengths: t.lengths.clone(),
        }
    }
}
