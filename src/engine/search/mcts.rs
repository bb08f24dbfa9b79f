//! The computer player: Monte Carlo tree search (UCT) over uniformly random playouts.
//!
//! Knows no game: it reads only the legal moves ([`Game::legal_moves`]), random moves
//! ([`Game::random_move`]), outcomes, and two general measures of a position (pieces
//! and scores). Each node of the tree is a position; its
//! statistics are kept from the point of view of the player who chose the move into
//! it ([`Game::chooser_of`]: the player to move, or the one a `by` clause names), so
//! at every node the player who chooses picks the child best for itself. Rewards are
//! 1 for a win, 0 for a loss and 0.5 for a draw, for any number of players.
//!
//! **Playouts.** A playout is a uniformly random game from a new leaf, cut at
//! [`Config::playout_plies`] turns. With a time budget the cut also adapts to the
//! game's speed: the search measures the time per random turn and cuts playouts so
//! that about [`Config::target_playouts`] of them fit in the time (a game whose random
//! turns are slow gets short playouts; fast games keep the full cut).
//!
//! **The evaluation of a cut playout** (a general heuristic of the computer player,
//! not a rule of any game; [`evaluate`]): an unfinished playout is not a flat draw but
//! is scored by a material count. With `a` the player's measure and `b` the best
//! measure among the other players, the reward is `0.5 + 0.5 (a - b) / (|a| + |b|)`
//! (0.5 when both are 0): for two players, the player's share. The measure is the
//! score when the game keeps scores and they differ, otherwise the number of pieces
//! the player owns on the board (every level of a stack; a colour counts for the
//! player who plays it). Equal material is worth a draw, as before.
//!
//! **Progressive widening.** A node with more than [`Config::widen_above`] legal moves
//! is *wide*: with `n` visits it may have at most
//! `widening * (n + 1)^widening_exponent` children, so the search looks deeper at a
//! few moves instead of trying each once. A wide root, whose moves are listed anyway,
//! tries them best first impression first: each move (up to
//! [`Config::ordered_moves`] of them) is played and the position evaluated as above
//! (a finished game by its result). Below a wide node, positions do not list their
//! moves (listing many whole turns is costly): they draw turns with
//! [`Game::random_move`] (uniform over the legal turns) as they may grow; a turn drawn
//! again leads to its existing child. Nodes with few moves list them all and try each,
//! as plain UCT.
//!
//! The tree keeps only moves and statistics, not positions: each iteration replays
//! the moves from the root (copy-make). With a budget in iterations the cut does not
//! adapt and the search is deterministic for a given seed.

use std::time::{Duration, Instant};

use crate::engine::error::EngineError;
use crate::engine::exec::game::Game;
use crate::engine::exec::moves::{MoveList, Part};
use crate::engine::exec::state::{Outcome, State};
use crate::engine::sample::Sampler;
use crate::engine::search::{Ending, Rng, random_game};

/// How long to think.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Budget {
    /// A number of iterations (playouts): deterministic for a seed.
    Iterations(u64),
    /// Wall-clock time.
    Time(Duration),
}

impl Budget {
    /// The longest time budget accepted, in seconds (an hour).
    pub const MAX_SECONDS: f64 = 3600.0;
    /// The most iterations accepted.
    pub const MAX_ITERATIONS: u64 = 1_000_000_000;

    /// Parses `2s`, `500ms`, `1.5s` (time, from 1 ms to [`Budget::MAX_SECONDS`]) or
    /// `5000` (iterations, from 1 to [`Budget::MAX_ITERATIONS`]).
    pub fn parse(text: &str) -> Result<Budget, String> {
        let t = text.trim();
        let bad = || {
            format!(
                "`{text}` is not a thinking budget: give a time from 1ms to {}s (an hour), such as `2s`, \
                 `500ms` or `1m`, or a number of iterations from 1 to {}, such as `5000`",
                Self::MAX_SECONDS,
                Self::MAX_ITERATIONS
            )
        };
        let units = [("ms", 0.001), ("s", 1.0), ("m", 60.0)];
        let Some((number, scale)) = units.iter().find_map(|(unit, scale)| t.strip_suffix(unit).map(|n| (n, *scale)))
        else {
            return match t.parse::<u64>() {
                Ok(n) if (1..=Self::MAX_ITERATIONS).contains(&n) => Ok(Budget::Iterations(n)),
                _ => Err(bad()),
            };
        };
        let seconds = number.trim().parse::<f64>().map_err(|_| bad())? * scale;
        // NaN is in no range; a tenth of a microsecond of rounding is allowed.
        if !(0.000_999_9..=Self::MAX_SECONDS).contains(&seconds) {
            return Err(bad());
        }
        Ok(Budget::Time(Duration::from_secs_f64(seconds)))
    }
}

impl std::fmt::Display for Budget {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Budget::Iterations(n) => write!(f, "{n} iterations"),
            Budget::Time(d) => write!(f, "{:.1} s", d.as_secs_f64()),
        }
    }
}

/// The search's settings.
#[derive(Clone, Debug)]
pub struct Config {
    /// How long to think.
    pub budget: Budget,
    /// The longest playout, in turns; a playout cut there is scored by [`evaluate`]
    /// (the program's limit, not a rule of the game).
    pub playout_plies: u32,
    /// The UCT exploration constant.
    pub exploration: f64,
    /// The random seed.
    pub seed: u64,
    /// The most nodes the tree may hold; past it leaves are no longer expanded.
    pub max_nodes: usize,
    /// The most move parts the tree's move lists may hold (memory for games with
    /// very many moves); past it leaves are no longer expanded.
    pub max_parts: usize,
    /// A node with more legal moves than this is *wide*: its children are added
    /// progressively, and its descendants draw their moves instead of listing them.
    pub widen_above: usize,
    /// A wide node with `n` visits may have `widening * (n + 1)^widening_exponent`
    /// children.
    pub widening: f64,
    /// See [`Config::widening`].
    pub widening_exponent: f64,
    /// The most root moves ordered by their first impression in a wide root.
    pub ordered_moves: usize,
    /// With a time budget, the playouts wanted in it: when random turns are so slow
    /// that playouts of [`Config::playout_plies`] turns would not fit, playouts are
    /// cut shorter (measured as the search goes).
    pub target_playouts: u32,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            budget: Budget::Iterations(1000),
            playout_plies: 400,
            exploration: 1.0,
            seed: 1,
            max_nodes: 2_000_000,
            max_parts: 20_000_000,
            widen_above: 256,
            widening: 2.0,
            widening_exponent: 0.5,
            ordered_moves: 20_000,
            target_playouts: 500,
        }
    }
}

/// What the search has found so far, for a progress display.
#[derive(Clone, Debug)]
pub struct Progress {
    /// Iterations done.
    pub iterations: u64,
    /// Time spent.
    pub elapsed: Duration,
    /// The best root move so far (index into [`Analysis::moves`]).
    pub best: Option<usize>,
    /// Its mean reward for the player to move, 0 to 1.
    pub value: f64,
}

/// The result of a search.
#[derive(Clone, Debug)]
pub struct Analysis {
    /// The root's legal moves.
    pub moves: MoveList,
    /// The chosen move (index into `moves`): the most visited; `None` when there is
    /// no legal move.
    pub best: Option<usize>,
    /// Per root move: visits and mean reward for the player to move.
    pub stats: Vec<(u32, f64)>,
    /// Iterations done.
    pub iterations: u64,
    /// Time spent.
    pub elapsed: Duration,
}

impl Analysis {
    /// The chosen move's parts.
    pub fn best_move(&self) -> Option<&[Part]> {
        self.best.map(|i| self.moves.get(i))
    }

    /// The chosen move's mean reward for the player to move (0.5 when unknown).
    pub fn value(&self) -> f64 {
        self.best.and_then(|i| self.stats.get(i)).map_or(0.5, |s| s.1)
    }
}

const NO_CHILD: u32 = u32::MAX;

/// How a node finds its moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Listing {
    /// Not yet looked at.
    Unexpanded,
    /// Every legal move listed ([`Game::legal_moves`]).
    Listed,
    /// Moves drawn one at a time ([`Game::random_move`]) as the node may grow.
    Sampled,
}

struct Node {
    /// The legal moves (listed), or the moves drawn so far (sampled).
    moves: MoveList,
    /// The child reached by each move, or [`NO_CHILD`].
    children: Vec<u32>,
    /// Listed moves with no child yet (the next is taken from the end when the
    /// node is wide, at random otherwise).
    untried: Vec<u32>,
    /// How the moves are found.
    listing: Listing,
    /// Whether the node's children are added progressively (a wide node).
    wide: bool,
    /// Whether the node, when first looked at, draws its moves instead of listing them
    /// (its parent was wide).
    sample: bool,
    /// Children made so far.
    made: u32,
    /// How the game ended here, if it did.
    terminal: Option<Outcome>,
    /// The player who moved into this node (whose point of view `total` takes).
    by: u8,
    visits: u32,
    total: f64,
}

impl Node {
    fn new(by: u8, terminal: Option<Outcome>, sample: bool) -> Node {
        Node {
            moves: MoveList::new(),
            children: Vec::new(),
            untried: Vec::new(),
            listing: Listing::Unexpanded,
            wide: false,
            sample,
            made: 0,
            terminal,
            by,
            visits: 0,
            total: 0.0,
        }
    }
}

/// The reward of an outcome for a player: 1 for a win, 0 for a loss, 0.5 otherwise.
fn reward(outcome: Option<Outcome>, player: u8) -> f64 {
    match outcome {
        Some(Outcome::Win(p)) if p == player => 1.0,
        Some(Outcome::Win(_)) => 0.0,
        _ => 0.5,
    }
}

fn terminal_of<const W: usize>(s: &State<W>) -> Option<Outcome> {
    if s.outcome() == Outcome::Ongoing { None } else { Some(s.outcome()) }
}

/// The general evaluation of an unfinished position, per player, 0 to 1 (see the
/// module's header): with `a` the player's measure and `b` the best of the other
/// players' measures, `0.5 + 0.5 (a - b) / (|a| + |b|)` (0.5 when both are 0). The
/// measure is the score when the game keeps scores and they differ, otherwise the
/// number of pieces the player owns on the board (every level of a stack).
pub fn evaluate<const W: usize>(g: &Game<W>, s: &State<W>, out: &mut Vec<f64>) {
    let prog = &g.prog;
    let n = prog.players;
    let mut measure = vec![0i64; n];
    let score = |x: usize| s.score(x);
    let first = g.sides.owner_sides().start;
    let scored = prog.uses.scores && g.sides.owner_sides().any(|x| score(x) != score(first));
    let by_side: Vec<i64> = if scored {
        (0..prog.sides.len()).map(|x| if g.sides.owner_sides().contains(&x) { score(x) } else { 0 }).collect()
    } else {
        g.pieces_by_side(s).into_iter().map(|k| k as i64).collect()
    };
    for (x, &k) in by_side.iter().enumerate() {
        if k != 0 {
            let p = g.sides.player_of(s, x as u8) as usize;
            if p < n {
                measure[p] += k;
            }
        }
    }
    out.clear();
    for p in 0..n {
        let a = measure[p];
        let b = (0..n).filter(|&q| q != p).map(|q| measure[q]).max().unwrap_or(a);
        let d = (a.abs() + b.abs()) as f64;
        out.push(if d == 0.0 { 0.5 } else { 0.5 + 0.5 * (a - b) as f64 / d });
    }
}

/// How many children a wide node with `visits` visits may have.
fn allowed(cfg: &Config, visits: u32) -> u32 {
    (cfg.widening * ((visits + 1) as f64).powf(cfg.widening_exponent)).ceil().max(1.0) as u32
}

/// Orders a wide root's untried moves so that the best first impression is tried
/// first: each move is played and the position evaluated ([`evaluate`], a finished
/// game counting its result) for the player who chooses it. At most
/// [`Config::ordered_moves`] moves (a random subset) are ordered; the rest follow at random.
fn order_by_impression<const W: usize>(
    g: &Game<W>,
    root: &State<W>,
    node: &mut Node,
    cfg: &Config,
    rng: &mut Rng,
) -> Result<(), EngineError> {
    // A random order first: ties and the unordered rest stay random.
    let u = &mut node.untried;
    for i in (1..u.len()).rev() {
        let j = rng.below(i + 1);
        u.swap(i, j);
    }
    let k = u.len().min(cfg.ordered_moves);
    let mut scored: Vec<(f64, u32)> = Vec::with_capacity(k);
    let mut s = root.clone();
    let mut values = Vec::new();
    for &i in &u[u.len() - k..] {
        let parts = node.moves.get(i as usize);
        let by = g.chooser_of(root, parts);
        s.clone_from(root);
        g.play(&mut s, parts)?;
        let v = match terminal_of(&s) {
            Some(o) => reward(Some(o), by),
            None => {
                evaluate(g, &s, &mut values);
                values.get(by as usize).copied().unwrap_or(0.5)
            }
        };
        scored.push((v, i));
    }
    // Stable: equal impressions keep their random order; the best ends up last.
    scored.sort_by(|a, b| a.0.total_cmp(&b.0));
    let rest = u.len() - k;
    for (slot, (_, i)) in u[rest..].iter_mut().zip(scored) {
        *slot = i;
    }
    Ok(())
}

/// Searches from `root` for the move of the player to move. `progress`, when given,
/// is called about once a second. An error met on the way (see [`EngineError`]) ends
/// the search.
pub fn search<const W: usize>(
    g: &Game<W>,
    root: &State<W>,
    cfg: &Config,
    mut progress: Option<&mut dyn FnMut(&Progress)>,
) -> Result<Analysis, EngineError> {
    let start = Instant::now();
    let mut rng = Rng::new(cfg.seed);
    let mut nodes = vec![Node::new(root.mover(), terminal_of(root), false)];
    let mut root_moves = MoveList::new();
    g.legal_moves(root, &mut root_moves)?;
    let mut done =
        Analysis { moves: root_moves, best: None, stats: Vec::new(), iterations: 0, elapsed: Duration::ZERO };
    if done.moves.is_empty() || nodes[0].terminal.is_some() {
        return Ok(done);
    }
    if done.moves.len() == 1 {
        done.best = Some(0);
        done.stats = vec![(0, 0.5)];
        return Ok(done);
    }
    {
        // The root's moves are listed already.
        let node = &mut nodes[0];
        node.moves = done.moves.clone();
        node.listing = Listing::Listed;
        let n = node.moves.len();
        node.children = vec![NO_CHILD; n];
        node.untried = (0..n as u32).rev().collect();
        node.wide = n > cfg.widen_above;
        if node.wide {
            order_by_impression(g, root, node, cfg, &mut rng)?;
        }
    }
    let mut state = root.clone();
    let mut sampler = Sampler::new();
    let mut path: Vec<u32> = Vec::new();
    let mut values: Vec<f64> = Vec::new();
    let mut iterations = 0u64;
    let mut parts = 0usize;
    let mut next_report = Duration::from_secs(1);
    let mut cut = cfg.playout_plies;
    let (mut playout_time, mut playout_turns) = (Duration::ZERO, 0u64);
    loop {
        match cfg.budget {
            Budget::Iterations(n) if iterations >= n => break,
            Budget::Time(t) if start.elapsed() >= t => break,
            _ => {}
        }
        state.clone_from(root);
        path.clear();
        path.push(0);
        let mut at = 0usize;
        // Selection and expansion.
        loop {
            if nodes[at].terminal.is_some() {
                break;
            }
            if nodes[at].listing == Listing::Unexpanded {
                if parts > cfg.max_parts {
                    break;
                }
                let node = &mut nodes[at];
                if node.sample {
                    node.listing = Listing::Sampled;
                    node.wide = true;
                } else {
                    g.legal_moves(&state, &mut node.moves)?;
                    node.listing = Listing::Listed;
                    parts += node.moves.iter().map(|m| m.len()).sum::<usize>();
                    if node.moves.is_empty() {
                        g.settle(&mut state);
                        node.terminal = Some(state.outcome());
                        break;
                    }
                    let n = node.moves.len();
                    node.children = vec![NO_CHILD; n];
                    node.untried = (0..n as u32).rev().collect();
                    node.wide = n > cfg.widen_above;
                }
            }
            let grow = {
                let node = &nodes[at];
                nodes.len() < cfg.max_nodes
                    && (!node.wide || node.made < allowed(cfg, node.visits))
                    && (node.listing == Listing::Sampled || !node.untried.is_empty())
            };
            if grow {
                let wide = nodes[at].wide;
                let i = if nodes[at].listing == Listing::Sampled {
                    // Draw a turn; a turn drawn before leads to its child.
                    let Some(drawn) = g.random_move(&state, &mut rng, &mut sampler)? else {
                        if nodes[at].made == 0 {
                            g.settle(&mut state);
                            nodes[at].terminal = Some(state.outcome());
                        }
                        break;
                    };
                    let node = &mut nodes[at];
                    let seen = node.moves.iter().position(|m| m == drawn);
                    match seen {
                        Some(j) => {
                            let c = node.children[j];
                            g.play(&mut state, drawn)?;
                            at = c as usize;
                            path.push(c);
                            continue;
                        }
                        None => {
                            let Some((last, prefix)) = drawn.split_last() else { break };
                            parts += drawn.len();
                            node.moves.push(prefix, *last);
                            node.children.push(NO_CHILD);
                            node.moves.len() - 1
                        }
                    }
                } else {
                    let node = &mut nodes[at];
                    let k = if wide && at == 0 { node.untried.len() - 1 } else { rng.below(node.untried.len()) };
                    node.untried.swap_remove(k) as usize
                };
                let node = &nodes[at];
                let by = g.chooser_of(&state, node.moves.get(i));
                g.play(&mut state, nodes[at].moves.get(i))?;
                let child = nodes.len() as u32;
                nodes[at].children[i] = child;
                nodes[at].made += 1;
                nodes.push(Node::new(by, terminal_of(&state), wide));
                path.push(child);
                break;
            }
            // Every move allowed tried: descend to the best child by UCT.
            let node = &nodes[at];
            let ln = (node.visits.max(1) as f64).ln();
            let mut best = usize::MAX;
            let mut best_score = f64::NEG_INFINITY;
            for (i, &c) in node.children.iter().enumerate() {
                if c == NO_CHILD {
                    continue;
                }
                let ch = &nodes[c as usize];
                let n = ch.visits.max(1) as f64;
                let score = ch.total / n + cfg.exploration * (ln / n).sqrt();
                if score > best_score {
                    best_score = score;
                    best = i;
                }
            }
            if best == usize::MAX {
                break;
            }
            g.play(&mut state, nodes[at].moves.get(best))?;
            at = nodes[at].children[best] as usize;
            path.push(at as u32);
        }
        // Playout.
        let leaf = *path.last().expect("the path holds the root");
        let outcome = match nodes[leaf as usize].terminal {
            Some(o) => Some(o),
            None => {
                let began = Instant::now();
                let (ending, plies) = random_game(g, &mut state, &mut rng, cut, &mut sampler)?;
                if let Budget::Time(t) = cfg.budget {
                    // Adapt the cut to the measured time per random turn.
                    playout_time += began.elapsed();
                    playout_turns += plies as u64;
                    if playout_turns > 0 {
                        let per_turn = playout_time.as_secs_f64() / playout_turns as f64;
                        let fits = t.as_secs_f64() / (cfg.target_playouts.max(1) as f64 * per_turn);
                        cut = fits.clamp(1.0, cfg.playout_plies.max(1) as f64) as u32;
                    }
                }
                match ending {
                    Ending::Finished(o) => Some(o),
                    Ending::Unfinished => None,
                }
            }
        };
        if outcome.is_none() {
            evaluate(g, &state, &mut values);
        }
        // Backpropagation.
        for &n in &path {
            let node = &mut nodes[n as usize];
            node.visits += 1;
            node.total += match outcome {
                Some(_) => reward(outcome, node.by),
                None => values.get(node.by as usize).copied().unwrap_or(0.5),
            };
        }
        iterations += 1;
        if let Some(report) = progress.as_mut()
            && start.elapsed() >= next_report
        {
            next_report += Duration::from_secs(1);
            let (best, value) = best_child(&nodes);
            report(&Progress { iterations, elapsed: start.elapsed(), best, value });
        }
    }
    let (best, _) = best_child(&nodes);
    let root = &nodes[0];
    done.stats = root
        .children
        .iter()
        .map(|&c| {
            if c == NO_CHILD {
                (0, 0.5)
            } else {
                let ch = &nodes[c as usize];
                (ch.visits, if ch.visits == 0 { 0.5 } else { ch.total / ch.visits as f64 })
            }
        })
        .collect();
    done.stats.resize(done.moves.len(), (0, 0.5));
    done.best = best.or(Some(0));
    done.iterations = iterations;
    done.elapsed = start.elapsed();
    Ok(done)
}

/// The root's most visited child (ties: the better mean, then the first), and its mean.
fn best_child(nodes: &[Node]) -> (Option<usize>, f64) {
    let root = &nodes[0];
    let mut best: Option<(usize, u32, f64)> = None;
    for (i, &c) in root.children.iter().enumerate() {
        if c == NO_CHILD {
            continue;
        }
        let ch = &nodes[c as usize];
        let mean = if ch.visits == 0 { 0.5 } else { ch.total / ch.visits as f64 };
        let better = match best {
            None => true,
            Some((_, v, m)) => ch.visits > v || (ch.visits == v && mean > m),
        };
        if better {
            best = Some((i, ch.visits, mean));
        }
    }
    match best {
        Some((i, _, m)) => (Some(i), m),
        None => (None, 0.5),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::{AnyGame, build, compile::options, exec::moves::notation};
    use crate::with_game;

    /// Three in a row on a 3×3 board, placing in turn; a full board is a draw.
    const TICTACTOE: &str = r#"game "Lines"
players cross, nought
board square 3 by 3, neighbours orthogonal or diagonal
piece stone "x"

define three(c: cell, d: direction) = c in own and c + d in own and c + d + d in own

phase play {
  place stone at empty
}

end {
  if any(c in board: any(d in [n, e, ne, se]: three(c, d))) { win(mover) }
}

no moves { draw }
"#;

    fn game(text: &str) -> AnyGame {
        let checked = crate::check_source(text);
        let model = checked.model.unwrap_or_else(|| panic!("the test game checks: {:?}", checked.diagnostics));
        let values = options::resolve(&model, None, &[]).expect("default options");
        build(&model, &values).expect("the test game compiles")
    }

    fn play_line<const W: usize>(g: &Game<W>, moves: &[&str]) -> State<W> {
        let mut s = g.start();
        let mut list = MoveList::new();
        for m in moves {
            g.legal_moves(&s, &mut list).expect("legal moves");
            let i = (0..list.len())
                .find(|&i| notation(&g.prog, list.get(i), &|p| g.chosen_name(&s, p)) == *m)
                .unwrap_or_else(|| panic!("{m} is legal"));
            let parts = list.get(i).to_vec();
            g.play(&mut s, &parts).expect("play");
        }
        s
    }

    fn best_text<const W: usize>(g: &Game<W>, s: &State<W>, a: &Analysis) -> String {
        notation(&g.prog, a.best_move().expect("a move"), &|p| g.chosen_name(s, p))
    }

    #[test]
    fn budget_parsing() {
        assert_eq!(Budget::parse("2s"), Ok(Budget::Time(Duration::from_secs(2))));
        assert_eq!(Budget::parse("500ms"), Ok(Budget::Time(Duration::from_millis(500))));
        assert_eq!(Budget::parse("5000"), Ok(Budget::Iterations(5000)));
        assert!(Budget::parse("0").is_err());
        assert!(Budget::parse("fast").is_err());
        assert!(Budget::parse("-1s").is_err());
        for bad in ["1e300ms", "inf s", "nans", "3601s", "0.5ms", "1000000001", "3600001ms"] {
            assert!(Budget::parse(bad).is_err(), "{bad}");
        }
        assert_eq!(Budget::parse("3600s"), Ok(Budget::Time(Duration::from_secs(3600))));
        assert_eq!(Budget::parse("1ms"), Ok(Budget::Time(Duration::from_millis(1))));
        assert_eq!(Budget::parse("1m"), Ok(Budget::Time(Duration::from_secs(60))));
        assert_eq!(Budget::parse("60m"), Ok(Budget::Time(Duration::from_secs(3600))));
        assert!(Budget::parse("61m").is_err());
        assert_eq!(Budget::parse("1000000000"), Ok(Budget::Iterations(1_000_000_000)));
    }

    #[test]
    fn finds_the_immediate_win() {
        let any = game(TICTACTOE);
        with_game!(&any, g => {
            // cross: a1, b2; nought: c1, a3 — cross wins at c3 (a1, b2, c3).
            let s = play_line(g, &["a1", "c1", "b2", "a3"]);
            let cfg = Config { budget: Budget::Iterations(2000), seed: 7, ..Config::default() };
            let a = search(g, &s, &cfg, None).expect("search");
            assert_eq!(best_text(g, &s, &a), "c3");
            assert!(a.value() > 0.9, "a won position: {}", a.value());
        });
    }

    #[test]
    fn blocks_the_opponents_win() {
        let any = game(TICTACTOE);
        with_game!(&any, g => {
            // cross threatens a1-b1-c1; nought must take c1.
            let s = play_line(g, &["a1", "b2", "b1"]);
            let cfg = Config { budget: Budget::Iterations(5000), seed: 3, ..Config::default() };
            let a = search(g, &s, &cfg, None).expect("search");
            assert_eq!(best_text(g, &s, &a), "c1");
        });
    }

    #[test]
    fn deterministic_for_a_seed() {
        let any = game(TICTACTOE);
        with_game!(&any, g => {
            let s = g.start();
            let cfg = Config { budget: Budget::Iterations(700), seed: 11, ..Config::default() };
            let a = search(g, &s, &cfg, None).expect("search");
            let b = search(g, &s, &cfg, None).expect("search");
            assert_eq!(a.best, b.best);
            assert_eq!(a.stats, b.stats);
            assert_eq!(a.iterations, 700);
        });
    }

    #[test]
    fn no_move_and_finished_games() {
        let any = game(TICTACTOE);
        with_game!(&any, g => {
            let s = play_line(g, &["a1", "c1", "b2", "a3", "c3"]);
            assert!(matches!(s.outcome(), Outcome::Win(0)));
            let a = search(g, &s, &Config::default(), None).expect("search");
            assert!(a.best.is_none());
        });
    }

    #[test]
    fn evaluation_by_material() {
        let any = game(TICTACTOE);
        with_game!(&any, g => {
            // cross: a1, b2; nought: c1 — cross owns 2 of the 3 pieces.
            let s = play_line(g, &["a1", "c1", "b2"]);
            let mut v = Vec::new();
            evaluate(g, &s, &mut v);
            assert_eq!(v.len(), 2);
            assert!((v[0] - 2.0 / 3.0).abs() < 1e-9, "cross: {}", v[0]);
            assert!((v[1] - 1.0 / 3.0).abs() < 1e-9, "nought: {}", v[1]);
            // The empty board: nothing to tell the players apart.
            evaluate(g, &g.start(), &mut v);
            assert_eq!(v, vec![0.5, 0.5]);
        });
    }

    /// Every node wide (more than 2 moves): the root's children added progressively
    /// in order of first impression, the nodes below drawing their moves at random.
    fn wide(budget: u64, seed: u64) -> Config {
        Config { budget: Budget::Iterations(budget), seed, widen_above: 2, ..Config::default() }
    }

    #[test]
    fn widening_finds_the_win_and_the_block() {
        let any = game(TICTACTOE);
        with_game!(&any, g => {
            let s = play_line(g, &["a1", "c1", "b2", "a3"]);
            let a = search(g, &s, &wide(2000, 7), None).expect("search");
            assert_eq!(best_text(g, &s, &a), "c3");
            assert!(a.value() > 0.9, "a won position: {}", a.value());
            let s = play_line(g, &["a1", "b2", "b1"]);
            let a = search(g, &s, &wide(5000, 3), None).expect("search");
            assert_eq!(best_text(g, &s, &a), "c1");
        });
    }

    #[test]
    fn widening_limits_the_root_and_is_deterministic() {
        let any = game(TICTACTOE);
        with_game!(&any, g => {
            let s = g.start();
            let a = search(g, &s, &wide(48, 11), None).expect("search");
            let b = search(g, &s, &wide(48, 11), None).expect("search");
            assert_eq!(a.stats, b.stats);
            assert_eq!(a.best, b.best);
            // 48 visits allow ceil(2 * 49^0.5) = 14 children: all 9 moves. The 4th
            // iteration finds 3 visits, which allow ceil(2 * 4^0.5) = 4 children (the
            // 1st to 3rd allowed 2, 3, 4): each iteration adds one.
            assert_eq!(a.stats.iter().filter(|s| s.0 > 0).count(), 9);
            let c = search(g, &s, &wide(4, 11), None).expect("search");
            assert_eq!(c.stats.iter().filter(|s| s.0 > 0).count(), 4);
        });
    }

    #[test]
    fn time_budget_reports_progress() {
        let any = game(TICTACTOE);
        with_game!(&any, g => {
            let s = g.start();
            let cfg = Config { budget: Budget::Time(Duration::from_millis(1100)), ..Config::default() };
            let mut reports = 0;
            let mut on_progress = |_: &Progress| reports += 1;
            let a = search(g, &s, &cfg, Some(&mut on_progress)).expect("search");
            assert!(a.best.is_some());
            assert!(a.iterations > 0);
            assert!(reports >= 1);
        });
    }
}
