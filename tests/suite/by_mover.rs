//! Lowering: a region or a direction set indexed by `mover` becomes a table by
//! player (`SetN::ByMover`, `DirsN::ByMover`) in a game without colours.

use rulesi::with_game;

/// A direction set or a region indexed by `mover` (an `if` chain over the players,
/// as the compiler writes it) is lowered to a table by player in a game without
/// colours, holding for each player what the chain reads; with colours (a player's
/// colour known only at play time) it stays a chain.
#[test]
fn sets_and_directions_indexed_by_the_mover_are_tables_by_player() {
    use rulesi::check::hir::ContextVar;
    use rulesi::engine::compile::program::{E, Op};
    use rulesi::engine::exec::closure::dirs_f;
    use rulesi::engine::exec::code::Lower;
    use rulesi::engine::exec::ir::{DirsN, SetN};
    /// What the chain reads for player `p`.
    fn arm(e: &E, p: u8) -> &E {
        match e {
            E::If(c, a, b) => match &**c {
                E::Bin(Op::Eq, _, k) if **k == E::Side(p) => a,
                _ => arm(b, p),
            },
            x => x,
        }
    }
    let game = |colours: &str| {
        let text = format!(
            "game \"Ahead\"\nplayers north, south\n{colours}board square 5 by 5\npiece pawn \"P\"\n\
             directions ahead[north] = {{ n, ne }}\ndirections ahead[south] = {{ s }}\n\
             setup {{ place north pawn at a1 }}\nphase play {{ step own along ahead[mover] to empty }}\n"
        );
        let model = rulesi::check_source(&text).model.expect("the game checks");
        let values = rulesi::engine::compile::options::resolve(&model, None, &[]).expect("options");
        rulesi::engine::build(&model, &values).expect("the game builds")
    };
    for (colours, tables) in [("", true), ("colours white, black\n", false)] {
        let any = game(colours);
        with_game!(&any, g => {
            assert!(g.sets.len() >= 2, "two constant sets to choose from");
            let along = g.prog.rules[0].along.clone().expect("the step has directions");
            let mover = || Box::new(E::Ctx(ContextVar::Mover));
            let region =
                E::If(Box::new(E::Bin(Op::Eq, mover(), Box::new(E::Side(1)))), Box::new(E::Set(0)), Box::new(E::Set(1)));
            let mut lw = Lower::new(g, 0);
            let (dirs, set) = (lw.dirs(&along), lw.set(&region));
            let set = lw.ir[set].clone();
            assert_eq!(matches!(lw.ir[dirs], DirsN::ByMover(_)), tables, "{colours:?}: {:?}", lw.ir[dirs]);
            assert_eq!(matches!(set, SetN::ByMover(_)), tables, "{colours:?}: {set:?}");
            if !tables {
                continue;
            }
            let (fd, mut s) = (dirs_f(&lw.ir, dirs), g.start());
            for p in 0..2u8 {
                g.set_mover(&mut s, p);
                let want = match arm(&along, p) {
                    E::Dirs(m) => *m,
                    E::Dir(d) => 1 << d,
                    x => panic!("a constant direction set: {x:?}"),
                };
                assert_ne!(want, 0);
                assert_eq!((fd.0)(g, &s, &mut rulesi::engine::exec::context::Ctx::new(None)), want, "the directions of player {p}");
                let (SetN::ByMover(id), E::Set(k)) = (&set, arm(&region, p)) else { unreachable!() };
                let at = *id as usize + p as usize;
                let table = g.sets.get(at).or_else(|| lw.new_sets.get(at - g.sets.len())).expect("the set");
                assert_eq!(*table, g.sets[*k as usize], "the region of player {p}");
            }
        });
    }
}
