//! Temporary: shortest finished games with a stable policy (not committed).
use rulesi::engine::{MoveList, Outcome, build, moves::notation, options};
use rulesi::with_game;

#[test]
fn short() {
    let Ok(spec) = std::env::var("SHORT") else { return };
    let mut it = spec.split_whitespace();
    let game = it.next().unwrap();
    let seeds: u64 = it.next().unwrap().parse().unwrap();
    let cap: u32 = it.next().unwrap().parse().unwrap();
    let opts: Vec<(String, String)> = it.map(|o| options::parse_setting(o).unwrap()).collect();
    let model = rulesi::check_bytes(&std::fs::read(game).unwrap()).model.unwrap();
    let values = options::resolve(&model, None, &opts).unwrap();
    let any = build(&model, &values).unwrap();
    let t = std::time::Instant::now();
    with_game!(&any, g => {
        let mut best: Option<(u32, u64, String)> = None;
        let mut lens = Vec::new();
        for seed in 0..seeds {
            let mut x = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            let mut s = g.start();
            let mut list = MoveList::new();
            let mut plies = 0;
            while s.outcome == Outcome::Ongoing && plies < cap {
                g.legal_moves(&s, &mut list);
                if list.is_empty() { g.settle(&mut s); continue; }
                let mut notes: Vec<(String, usize)> = (0..list.len()).map(|i| (notation(&g.prog, list.get(i), &|p| g.chosen_name(&s, p)), i)).collect();
                notes.sort();
                x = x.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
                let k = ((x >> 33) as usize) % notes.len();
                let parts = list.get(notes[k].1).to_vec();
                g.play(&mut s, &parts);
                plies += 1;
            }
            if s.outcome != Outcome::Ongoing {
                lens.push(plies);
                if best.as_ref().is_none_or(|b| plies < b.0) { best = Some((plies, seed, format!("{:?}", s.outcome))); }
            }
        }
        lens.sort();
        println!("{game}: finished {}/{seeds}, best {:?}, median {:?} in {:?}", lens.len(), best, lens.get(lens.len()/2), t.elapsed());
    });
}
