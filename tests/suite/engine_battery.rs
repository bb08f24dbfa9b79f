//! The engine battery: every game in `games/` and `games/classic/` (found by reading the
//! folders), with its
//! default options and with every ruleset it declares, played in seeded random games.
//! At every ply of every game it checks that
//!
//! - every generated move is legal: playing it leaves a consistent position (bitboards
//!   agree with the pieces, the incremental hash with [`Game::hash_from_scratch`], the
//!   per-turn fields are empty, the ply count moved on, the outcome is a legal one);
//! - every move's notation is unique among the legal moves and parses back (the move
//!   whose notation is that text is that move);
//! - play/undo by copy-make: copying the state, playing, then restoring the copy gives
//!   back the position and its hash;
//! - the position round-trips through `engine::text::position` (`write` then `read`), every
//!   field but the repetition history equal, and the position read back has the same
//!   legal moves;
//! - a game ends only with a legal outcome, and a finished game has no legal move.
//!
//! Plus one transcript per game, an insta snapshot in the top-level `snapshots/` folder:
//! the first plies of a seeded random game (ply, mover, number of legal moves, the move
//! played) and the final position in position format.
//!
//! The random games choose among the legal moves sorted by notation, so they do not
//! depend on the order the engine generates moves in. Release builds play more and
//! longer games than debug builds, and each configuration has a time budget (a game
//! whose moves are slow to generate is checked over fewer plies; run with
//! `--nocapture` to see how many).

use std::path::PathBuf;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use crate::common;

use rulesi::engine::exec::moves::notation;
use rulesi::engine::exec::state::{flags_of, kind_of, side_of};
use rulesi::engine::search::Rng;
use rulesi::engine::text::notation::{find_move as text_move, move_text};
use rulesi::engine::text::position;
use rulesi::engine::{AnyGame, Bits, Game, MoveList, Outcome, Part, State, build, compile::options};
use rulesi::with_game;

/// Random games per game and configuration.
const GAMES: u64 = if cfg!(debug_assertions) { 1 } else { 3 };
/// The ply cap of a random game (an engine limit, not a rule).
const MAX_PLIES: u32 = if cfg!(debug_assertions) { 60 } else { 1500 };
/// The time one configuration (a game with its options) may take: once it is spent, the
/// game being played stops after the ply being checked and no further game starts. The
/// plies checked are always a prefix of the same seeded games, so a failure is
/// reproducible; a faster engine checks more of them.
const BUDGET: Duration = Duration::from_secs(if cfg!(debug_assertions) { 4 } else { 8 });
/// Plies checked in every game however long they take.
const MIN_PLIES: u32 = 5;
/// Plies in a transcript.
const TRANSCRIPT_PLIES: u32 = 40;

fn stem(path: &std::path::Path) -> String {
    path.file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_default()
}

/// The game built for the default options (`None`) or a ruleset.
fn load(path: &std::path::Path, ruleset: Option<&str>) -> AnyGame {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    let checked = rulesi::check_source(&text);
    let Some(model) = checked.model else { panic!("{} does not check", path.display()) };
    let values = options::resolve(&model, ruleset, &[]).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    build(&model, &values).unwrap_or_else(|e| panic!("{} ({ruleset:?}): {e}", path.display()))
}

/// Every configuration of a game: the defaults, then each ruleset.
fn configurations(path: &std::path::Path) -> Vec<Option<String>> {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    let model = rulesi::check_source(&text).model.unwrap_or_else(|| panic!("{} does not check", path.display()));
    std::iter::once(None).chain(model.rulesets.iter().map(|r| Some(r.name.clone()))).collect()
}

fn seed_of(name: &str, config: &Option<String>, game: u64) -> u64 {
    // A fixed seed per game, configuration and game number (FNV-1a of the names).
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in name.bytes().chain(config.as_deref().unwrap_or("").bytes()) {
        h = (h ^ b as u64).wrapping_mul(0x0100_0000_01b3);
    }
    h ^ game.wrapping_mul(0x9E37_79B9_7F4A_7C15)
}

/// The legal moves with their notations, sorted by notation.
fn sorted_moves<const W: usize>(g: &Game<W>, s: &State<W>, list: &MoveList) -> Vec<(String, Vec<Part>)> {
    let mut moves: Vec<(String, Vec<Part>)> =
        list.iter().map(|m| (notation(&g.prog, m, &|p| g.chosen_name(s, p)), m.to_vec())).collect();
    moves.sort_by(|a, b| a.0.cmp(&b.0));
    moves
}

/// The legal move written `text`, if any: the notation parsed back.
fn find_move<'a>(moves: &'a [(String, Vec<Part>)], text: &str) -> Option<&'a [Part]> {
    let i = moves.binary_search_by(|(n, _)| n.as_str().cmp(text)).ok()?;
    Some(&moves[i].1)
}

/// What is wrong with a position's internal consistency, if anything.
fn inconsistency<const W: usize>(g: &Game<W>, s: &State<W>) -> Option<String> {
    if s.hash() != g.hash_from_scratch(s) {
        return Some(format!("incremental hash {:#x} != hash from scratch {:#x}", s.hash(), g.hash_from_scratch(s)));
    }
    let (sides, kinds, flags) = (g.prog.sides.len(), g.prog.kinds.len().max(1), g.prog.flags.len().max(1));
    let mut side_bits = vec![Bits::<W>::EMPTY; sides];
    let mut kind_bits = vec![Bits::<W>::EMPTY; kinds];
    let mut flag_bits = vec![Bits::<W>::EMPTY; flags];
    let mut occupied = Bits::<W>::EMPTY;
    for c in 0..g.board.n as u16 {
        let h = s.height(c) as usize;
        if h == 0 {
            continue;
        }
        if h > g.cap {
            return Some(format!("cell {c} is {h} high, over the capacity {}", g.cap));
        }
        let Some(top) = g.piece_at(s, c, h - 1) else {
            return Some(format!("cell {c} is {h} high, but holds no piece at level {}", h - 1));
        };
        occupied.insert(c);
        match side_bits.get_mut(side_of(top) as usize) {
            Some(b) => b.insert(c),
            None => return Some(format!("cell {c}: the top piece's side {} is no side", side_of(top))),
        }
        match kind_bits.get_mut(kind_of(top) as usize) {
            Some(b) => b.insert(c),
            None => return Some(format!("cell {c}: the top piece's kind {} is no kind", kind_of(top))),
        }
        let mut f = flags_of(top);
        while f != 0 {
            let i = f.trailing_zeros() as usize;
            match flag_bits.get_mut(i) {
                Some(b) => b.insert(c),
                None => return Some(format!("cell {c}: the top piece's flag {i} is no flag")),
            }
            f &= f - 1;
        }
    }
    if occupied != s.occupied() {
        return Some("the occupied bitboard does not match the pieces".into());
    }
    if side_bits != (0..sides).map(|i| s.side_cells(i)).collect::<Vec<_>>() {
        return Some("the side bitboards do not match the pieces".into());
    }
    if kind_bits != (0..kinds).map(|i| s.kind_cells(i)).collect::<Vec<_>>() {
        return Some("the kind bitboards do not match the pieces".into());
    }
    if flag_bits != (0..flags).map(|i| s.flag_cells(i)).collect::<Vec<_>>() {
        return Some("the flag bitboards do not match the pieces".into());
    }
    if !s.jumped().is_empty() || s.last_jumped() != u16::MAX || s.turn_captures() != 0 {
        return Some("a per-turn field (jumped, last_jumped, turn_captures) is not empty between turns".into());
    }
    if s.mover() as usize >= g.prog.players {
        return Some(format!("the mover {} is no player", s.mover()));
    }
    if let Outcome::Win(p) = s.outcome()
        && p as usize >= g.prog.players
    {
        return Some(format!("the winner {p} is no player"));
    }
    None
}

/// The fields in which two positions differ (all fields but the history; stack slots
/// above the height do not count).
fn differences<const W: usize>(g: &Game<W>, a: &State<W>, b: &State<W>) -> Vec<&'static str> {
    let (a, b) = (position::normalised(g, a), position::normalised(g, b));
    let mut d = Vec::new();
    let mut check = |same: bool, name: &'static str| {
        if !same {
            d.push(name);
        }
    };
    let cells = 0..g.board.n as u16;
    let stacks = |x: &State<W>| cells.clone().map(|c| g.stack(x, c).collect::<Vec<_>>()).collect::<Vec<_>>();
    let heights = |x: &State<W>| cells.clone().map(|c| x.height(c)).collect::<Vec<_>>();
    let by = |n: usize, f: &dyn Fn(usize) -> Bits<W>| (0..n).map(f).collect::<Vec<_>>();
    let (sides, kinds, flags) = (g.prog.sides.len(), g.prog.kinds.len().max(1), g.prog.flags.len().max(1));
    check(stacks(&a) == stacks(&b), "pieces");
    check(heights(&a) == heights(&b), "height");
    check(by(sides, &|i| a.side_cells(i)) == by(sides, &|i| b.side_cells(i)), "side_bits");
    check(by(kinds, &|i| a.kind_cells(i)) == by(kinds, &|i| b.kind_cells(i)), "kind_bits");
    check(by(flags, &|i| a.flag_cells(i)) == by(flags, &|i| b.flag_cells(i)), "flag_bits");
    check(a.occupied() == b.occupied(), "occupied");
    check((0..g.counter_slots).all(|i| a.counter(i) == b.counter(i)), "counters");
    check((0..sides).all(|i| a.score(i) == b.score(i)), "scores");
    check(a.mover() == b.mover(), "mover");
    check(a.phase() == b.phase(), "phase");
    check(a.turn_in_phase() == b.turn_in_phase(), "turn_in_phase");
    check(a.passes() == b.passes(), "passes");
    check(a.turns_without_capture() == b.turns_without_capture(), "turns_without_capture");
    check(a.ply() == b.ply(), "ply");
    check((0..g.prog.players as u8).all(|p| a.colour_of(p) == b.colour_of(p)), "colour_of");
    check(a.previous() == b.previous(), "previous");
    check(a.outcome() == b.outcome(), "outcome");
    check(a.hash() == b.hash(), "hash");
    check(a.jumped() == b.jumped(), "jumped");
    check(a.last_jumped() == b.last_jumped(), "last_jumped");
    check(a.turn_captures() == b.turn_captures(), "turn_captures");
    // A new field of State makes this fail until it is compared above and written by
    // the position format.
    check(a == b, "another field");
    d
}

/// Checks one position and every move from it. Returns the sorted legal moves.
fn check_ply<const W: usize>(
    g: &Game<W>,
    s: &State<W>,
    list: &mut MoveList,
    where_: &dyn Fn() -> String,
) -> Vec<(String, Vec<Part>)> {
    if let Some(e) = inconsistency(g, s) {
        panic!("{}: {e}", where_());
    }
    // The position round-trips through text.
    let text = position::write(g, s);
    let back = position::read(g, &text).unwrap_or_else(|e| panic!("{}: reading back: {e}\n{text}", where_()));
    let diff = differences(g, s, &back);
    assert!(diff.is_empty(), "{}: the position read back differs in {diff:?}\n{text}", where_());

    g.legal_moves(s, list).expect("legal moves");
    let moves = sorted_moves(g, s, list);
    if s.outcome() != Outcome::Ongoing {
        assert!(moves.is_empty(), "{}: a finished game has legal moves", where_());
    }
    // Notation: unique, and parses back.
    for pair in moves.windows(2) {
        assert!(pair[0].0 != pair[1].0, "{}: two legal moves are written `{}`", where_(), pair[0].0);
    }
    for (text, parts) in &moves {
        assert_eq!(find_move(&moves, text), Some(parts.as_slice()), "{}: `{text}` does not parse back", where_());
    }
    // The position read back has the same moves, unless they depend on the positions
    // of earlier turns (`repeats`), which the text does not hold: it starts a history
    // of its own, so its moves are a superset.
    let mut other = MoveList::new();
    g.legal_moves(&back, &mut other).expect("legal moves");
    let back_moves = sorted_moves(g, &back, &other);
    if g.prog.uses.repeats {
        assert!(
            moves.iter().all(|m| back_moves.contains(m)),
            "{}: a legal move is refused in the position read back\n{text}",
            where_()
        );
    } else {
        assert!(back_moves == moves, "{}: the position read back has other legal moves\n{text}", where_());
    }

    // Every move: legal to play, copy-make restores.
    let before = s.clone();
    let mut work = s.clone();
    for (text, parts) in &moves {
        let saved = work.clone();
        g.play(&mut work, parts).expect("play");
        let at = || format!("{} after `{text}`", where_());
        if let Some(e) = inconsistency(g, &work) {
            panic!("{}: {e}", at());
        }
        assert_eq!(work.ply(), s.ply() + 1, "{}: ply did not move on", at());
        work.clone_from(&saved);
        assert!(work == before && work.hash() == before.hash(), "{}: restoring the copy did not restore", at());
    }
    moves
}

/// Plays one seeded random game with every check, until it ends, reaches [`MAX_PLIES`] or
/// (after [`MIN_PLIES`]) the deadline. Returns the plies played.
fn battery_game<const W: usize>(g: &Game<W>, seed: u64, label: &str, deadline: Instant) -> u32 {
    let mut rng = Rng::new(seed);
    let mut s = g.start();
    let mut list = MoveList::new();
    let mut ply = 0;
    while s.outcome() == Outcome::Ongoing && ply < MAX_PLIES && (ply < MIN_PLIES || Instant::now() < deadline) {
        let where_ = || format!("{label}, seed {seed}, ply {ply}");
        let moves = check_ply(g, &s, &mut list, &where_);
        if moves.is_empty() {
            g.settle(&mut s);
            assert!(s.outcome() != Outcome::Ongoing, "{}: no legal move, yet the game goes on", where_());
            break;
        }
        let (_, parts) = &moves[rng.below(moves.len())];
        g.play(&mut s, parts).expect("play");
        ply += 1;
    }
    // The final position too (a finished game included).
    let where_ = || format!("{label}, seed {seed}, final position at ply {ply}");
    check_ply(g, &s, &mut list, &where_);
    ply
}

#[test]
fn battery_every_game_and_ruleset() {
    let mut jobs: Vec<(PathBuf, Option<String>)> = Vec::new();
    for path in common::every_game() {
        for config in configurations(&path) {
            jobs.push((path.clone(), config));
        }
    }
    let queue = Mutex::new(jobs.into_iter());
    let threads = std::thread::available_parallelism().map_or(2, |n| n.get()).min(8);
    std::thread::scope(|scope| {
        for _ in 0..threads {
            scope.spawn(|| {
                loop {
                    let Some((path, config)) = queue.lock().unwrap_or_else(|e| e.into_inner()).next() else { break };
                    let name = stem(&path);
                    let label = format!("{name} ({})", config.as_deref().unwrap_or("default options"));
                    let any = load(&path, config.as_deref());
                    let started = Instant::now();
                    let deadline = started + BUDGET;
                    let mut plies = Vec::new();
                    for n in 0..GAMES {
                        if n > 0 && Instant::now() >= deadline {
                            break;
                        }
                        let seed = seed_of(&name, &config, n);
                        plies.push(with_game!(&any, g => battery_game(g, seed, &label, deadline)));
                    }
                    let cut = if Instant::now() >= deadline { " (time budget spent)" } else { "" };
                    let line = format!("{label}: games of {plies:?} plies in {:.2?}{cut}", started.elapsed());
                    eprintln!("{line}");
                }
            });
        }
    });
}

/// The transcript of a seeded random game: its first plies, then the position reached.
fn transcript<const W: usize>(g: &Game<W>, seed: u64) -> String {
    let mut rng = Rng::new(seed);
    let mut s = g.start();
    let mut list = MoveList::new();
    let mut out = format!("seed {seed}\n");
    for ply in 1..=TRANSCRIPT_PLIES {
        if s.outcome() != Outcome::Ongoing {
            break;
        }
        g.legal_moves(&s, &mut list).expect("legal moves");
        let moves = sorted_moves(g, &s, &list);
        let mover = g.prog.sides.get(s.mover() as usize).cloned().unwrap_or_default();
        if moves.is_empty() {
            g.settle(&mut s);
            out.push_str(&format!("{ply:>3} {mover} 0 (no legal move: {:?})\n", s.outcome()));
            break;
        }
        // Drawn from the moves sorted by their notation without the position (so the
        // games do not change with how captures are marked), written as `play` writes it.
        let (_, parts) = &moves[rng.below(moves.len())];
        let text = move_text(g, &s, parts);
        let read = text_move(g, &s, &list, &text);
        assert_eq!(read.ok().map(|i| list.get(i).to_vec()).as_ref(), Some(parts), "{text} reads back as itself");
        out.push_str(&format!("{ply:>3} {mover} {} {text}\n", moves.len()));
        g.play(&mut s, parts).expect("play");
    }
    out.push('\n');
    out.push_str(&position::write(g, &s));
    out
}

#[test]
fn transcripts() {
    for path in common::every_game() {
        let name = stem(&path);
        let any = load(&path, None);
        let text = with_game!(&any, g => transcript(g, seed_of(&name, &None, 1000)));
        // A transcript is deterministic.
        let again = with_game!(&any, g => transcript(g, seed_of(&name, &None, 1000)));
        assert_eq!(text, again, "{name}: two runs with one seed differ");
        let mut settings = insta::Settings::clone_current();
        settings.set_snapshot_path("../../snapshots");
        settings.set_prepend_module_to_snapshot(false);
        settings.bind(|| insta::assert_snapshot!(format!("transcript-{name}"), text));
    }
}
