//! Engine benchmarks, for every game in `games/` and `games/classic/` (found by reading
//! the folders), with its default options:
//!
//! - `<game>/legal_moves/start`: generating the legal moves of the start position;
//! - `<game>/legal_moves/ply20`: the same from the position 20 seeded random plies in;
//! - `<game>/playout`: one seeded random game from the start (the same game every run),
//!   to its end or to [`PLAYOUT_PLIES`] turns (an engine limit, not a rule).
//!
//! Each bench is short (10 samples, a brief measurement), so `cargo bench` finishes in
//! a few minutes; `cargo bench -- agon` runs one game's. The playout is capped because a
//! full random game of some games is thousands of turns, some of them slow (a random
//! turn in one game's play phase took ~0.4 s when this was written); the
//! `rulesi bench` command measures whole playouts.

use std::path::PathBuf;
use std::time::Duration;

use criterion::{BatchSize, Criterion, SamplingMode, criterion_group, criterion_main};
use std::hint::black_box;

use rulesi::engine::search::{Rng, random_game};
use rulesi::engine::{AnyGame, Game, MoveList, Outcome, Sampler, State, build, compile::options};
use rulesi::with_game;

/// The longest playout, in turns.
const PLAYOUT_PLIES: u32 = 80;
/// The seed of the playout: every run plays the same game.
const PLAYOUT_SEED: u64 = 1;

fn games() -> Vec<(String, AnyGame)> {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let mut files: Vec<PathBuf> = [root.join("games"), root.join("games/classic")]
        .iter()
        .flat_map(|dir| {
            std::fs::read_dir(dir)
                .unwrap_or_else(|e| panic!("cannot read {}: {e}", dir.display()))
                .filter_map(|e| e.ok().map(|e| e.path()))
        })
        .filter(|p| p.extension().is_some_and(|x| x == "game"))
        .collect();
    files.sort();
    files
        .into_iter()
        .map(|path| {
            let name = path.file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_default();
            let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
            let model =
                rulesi::check_source(&text).model.unwrap_or_else(|| panic!("{} does not check", path.display()));
            let values = options::resolve(&model, None, &[]).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
            let game = build(&model, &values).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
            (name, game)
        })
        .collect()
}

/// The position `plies` seeded random turns from the start (or where the game ended).
fn position_after<const W: usize>(g: &Game<W>, plies: u32, seed: u64) -> State<W> {
    let mut rng = Rng::new(seed);
    let mut s = g.start();
    let mut list = MoveList::new();
    for _ in 0..plies {
        g.legal_moves(&s, &mut list).expect("legal moves");
        if list.is_empty() || s.outcome() != Outcome::Ongoing {
            break;
        }
        let i = rng.below(list.len());
        g.play(&mut s, list.get(i)).expect("play");
    }
    s
}

fn bench_game<const W: usize>(c: &mut Criterion, name: &str, g: &Game<W>) {
    let mut group = c.benchmark_group(name);
    group.sample_size(10).warm_up_time(Duration::from_millis(300)).measurement_time(Duration::from_secs(1));
    let start = g.start();
    let mut list = MoveList::new();
    group.bench_function("legal_moves/start", |b| {
        b.iter(|| {
            g.legal_moves(black_box(&start), &mut list).expect("legal moves");
            list.len()
        })
    });
    let middle = position_after(g, 20, 20);
    group.bench_function("legal_moves/ply20", |b| {
        b.iter(|| {
            g.legal_moves(black_box(&middle), &mut list).expect("legal moves");
            list.len()
        })
    });
    // A playout can take long (each sample then runs it once): flat sampling keeps the
    // number of runs at the sample size.
    group.sampling_mode(SamplingMode::Flat);
    let mut sampler = Sampler::new();
    group.bench_function("playout", |b| {
        b.iter_batched_ref(
            || (start.clone(), Rng::new(PLAYOUT_SEED)),
            |(s, rng)| random_game(g, s, rng, PLAYOUT_PLIES, &mut sampler).expect("playout"),
            BatchSize::SmallInput,
        )
    });
    group.finish();
}

fn engine(c: &mut Criterion) {
    for (name, any) in games() {
        with_game!(&any, g => bench_game(c, &name, g));
    }
}

criterion_group!(benches, engine);
criterion_main!(benches);
