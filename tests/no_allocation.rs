//! Playing allocates nothing per turn once the scratch space has grown: for every game
//! of `games/` and `games/classic/` (found by reading the folders:
//! `common::every_game`), seeded random games are played, first a warm-up of whole
//! games (so that the sampler, the listed turns, the per-thread evaluation scratch and
//! the position's arrays reach their size), then further turns during which every
//! allocation of this thread is counted: `legal_moves` into a reused `MoveList`,
//! `random_move` with a reused `Sampler`, and `play` on a position reused from game to
//! game (`clone_from` the start keeps its memory). The count must be zero.
//!
//! Where an allocation is counted, `NO_ALLOCATION_TRACE` set prints where each was
//! made (`NO_ALLOCATION_TRACE_EVERY=N`: every Nth), and `NO_ALLOCATION_ONLY=FILE`
//! (a file name, as `go.game`) plays that game alone.
//!
//! The list of turns the test reuses is given room for [`LIST_ROOM`] turns up front:
//! it is the caller's buffer, and a position with more turns than any in the warm-up
//! would grow it once (amortised, like the history below).
//!
//! The one allocation the engine makes by design is the history of positions (what
//! `repetitions` reads): it grows with the game, so a game longer than any before it
//! may grow it (amortised: a doubling). Every game is therefore cut at `CUT` turns,
//! and the warm-up plays until a game has reached the cut, so that the history holds
//! as many positions as any counted game can.

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

use rulesi::engine::exec::moves::MoveList;
use rulesi::engine::search::Rng;
use rulesi::engine::{Game, Sampler, build, compile::options};
use rulesi::with_game;

mod common;

/// The system allocator, counting the allocations (and reallocations) made by a thread
/// while its flag is on.
struct Counting;

static ALLOCATIONS: AtomicU64 = AtomicU64::new(0);
/// Every how many allocations counted one is traced (`NO_ALLOCATION_TRACE_EVERY`, 1 by
/// default: a game that allocates much is traced by samples).
static EVERY: AtomicU64 = AtomicU64::new(1);

/// Whether each allocation counted prints where it was made (`NO_ALLOCATION_TRACE`
/// set: read once, before counting, since reading it allocates).
static TRACE: AtomicBool = AtomicBool::new(false);

thread_local! {
    static COUNTING: Cell<bool> = const { Cell::new(false) };
}

fn note() {
    if COUNTING.with(|c| c.get()) {
        let k = ALLOCATIONS.fetch_add(1, Ordering::Relaxed);
        if TRACE.load(Ordering::Relaxed) && k.is_multiple_of(EVERY.load(Ordering::Relaxed)) {
            COUNTING.with(|c| c.set(false));
            eprintln!("allocation at:\n{}", std::backtrace::Backtrace::force_capture());
            COUNTING.with(|c| c.set(true));
        }
    }
}

// SAFETY: every call is passed on unchanged to `System`; the counting touches no memory
// the allocator hands out.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        note();
        // SAFETY: the caller's contract, passed on.
        unsafe { System.alloc(layout) }
    }
    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        note();
        // SAFETY: the caller's contract, passed on.
        unsafe { System.alloc_zeroed(layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        note();
        // SAFETY: the caller's contract, passed on.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: the caller's contract, passed on.
        unsafe { System.dealloc(ptr, layout) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

/// The turns the reused list has room for (see the module).
const LIST_ROOM: usize = 1024;

/// Turns after which a game is cut (and the next one starts).
const CUT: u32 = 200;
/// Whole games of warm-up (at least: the warm-up goes on until a game reaches `CUT`,
/// or `MAX_WARM_UP` turns have been played).
const WARM_UP_GAMES: u32 = 20;
const MAX_WARM_UP: u32 = 20000;
/// Turns counted.
const COUNTED: u32 = 400;

/// Allocations made by this thread while running `f`.
fn allocations<T>(f: impl FnOnce() -> T) -> (T, u64) {
    let before = ALLOCATIONS.load(Ordering::Relaxed);
    COUNTING.with(|c| c.set(true));
    let out = f();
    COUNTING.with(|c| c.set(false));
    (out, ALLOCATIONS.load(Ordering::Relaxed) - before)
}

/// Plays seeded random games of `g`: the warm-up, then `COUNTED` turns. Returns the
/// allocations counted during those turns and how many were played.
fn count_turns<const W: usize>(g: &Game<W>, seed: u64) -> (u64, u32) {
    let mut rng = Rng::new(seed);
    let mut sampler = Sampler::new();
    let mut list = MoveList::with_room(LIST_ROOM);
    let start = g.start();
    let mut s = start.clone();
    // Plays one turn: whether the game goes on.
    let mut turn = |s: &mut rulesi::engine::State<W>, rng: &mut Rng, sampler: &mut Sampler<W>| -> bool {
        g.legal_moves(s, &mut list).expect("the turns list");
        let Some(parts) = g.random_move(s, rng, sampler).expect("a random move") else { return false };
        g.play(s, parts).expect("it plays");
        true
    };
    let (mut games, mut warm, mut ply, mut reached_cut) = (0, 0, 0, false);
    while (games < WARM_UP_GAMES || !reached_cut) && warm < MAX_WARM_UP {
        warm += 1;
        ply += 1;
        if !turn(&mut s, &mut rng, &mut sampler) || ply == CUT {
            reached_cut |= ply == CUT;
            games += 1;
            ply = 0;
            s.clone_from(&start);
        }
    }
    let mut counted = 0;
    let mut total = 0;
    while counted < COUNTED {
        counted += 1;
        ply += 1;
        let (goes_on, n) = allocations(|| turn(&mut s, &mut rng, &mut sampler));
        total += n;
        if !goes_on || ply == CUT {
            ply = 0;
            s.clone_from(&start);
        }
    }
    (total, counted)
}

#[test]
fn random_play_allocates_nothing_per_turn() {
    TRACE.store(std::env::var_os("NO_ALLOCATION_TRACE").is_some(), Ordering::Relaxed);
    let every = std::env::var("NO_ALLOCATION_TRACE_EVERY").ok().and_then(|v| v.parse().ok()).filter(|n| *n > 0);
    EVERY.store(every.unwrap_or(1), Ordering::Relaxed);
    let only = std::env::var("NO_ALLOCATION_ONLY").ok();
    let files = common::every_game();
    assert!(files.len() >= 8, "the games were found: {files:?}");
    let mut failures = Vec::new();
    let mut checked = 0;
    for (k, path) in files.iter().enumerate() {
        let name = path.file_name().and_then(|n| n.to_str()).unwrap_or_default();
        if only.as_ref().is_some_and(|o| o != name) {
            continue;
        }
        let text = std::fs::read_to_string(path).expect("readable");
        let model = rulesi::check_source(&text).model.expect("the game checks");
        let values = options::resolve(&model, None, &[]).expect("options resolve");
        let any = build(&model, &values).expect("the game builds");
        let (n, turns) = with_game!(&any, g => count_turns(g, 7 + k as u64));
        assert!(turns > 0, "{}: no turn played", path.display());
        checked += 1;
        if n > 0 {
            failures.push(format!("{}: {n} allocations in {turns} turns", path.display()));
        }
    }
    assert!(failures.is_empty(), "allocations during play:\n{}", failures.join("\n"));
    assert!(checked > 0, "some game was checked");
}
