//! The reference player's effects: each one worked out from the values of its
//! arguments, as the reference describes it (the engine runs the typed, lowered
//! effects of `exec/`; the two are held to each other by the differential test).

use crate::check::hir::Effect;
use crate::engine::compile::program::{E, NONE};
use crate::engine::exec::context::Ctx;
use crate::engine::exec::game::Flow;
use crate::engine::exec::state::{Outcome, State, flags_of, kind_of, piece, side_of};
use crate::engine::exec::value::Val;

use super::Oracle;

/// Runs an effect on its arguments (`capture`: what it removes or changes counts as
/// captures).
pub fn effect<const W: usize>(
    o: &Oracle<'_, W>,
    s: &mut State<W>,
    cx: &mut Ctx<W>,
    e: Effect,
    args: &[E],
    capture: bool,
) -> Flow {
    let g = o.game;
    let mut vals: [Val<W>; 3] = [Val::Bool(false), Val::Bool(false), Val::Bool(false)];
    for (slot, a) in vals.iter_mut().zip(args) {
        *slot = o.eval(s, cx, a);
    }
    let mut counted = 0u32;
    match e {
        Effect::Flag | Effect::Unflag => {
            let Val::Flag(f) = vals[0] else { return Flow::GO };
            for c in g.set_of(vals[1].clone()).iter() {
                if let Some(p) = g.top(s, c) {
                    let np = if e == Effect::Flag { p | 1 << f } else { p & !(1 << f) };
                    if np != p {
                        g.set_top(s, c, np);
                        counted += 1;
                    }
                }
            }
        }
        Effect::Remove => {
            for c in g.set_of(vals[0].clone()).iter() {
                if s.height(c) > 0 {
                    g.clear(s, c);
                    counted += 1;
                }
            }
        }
        Effect::Convert => {
            let side = vals[1].side();
            let side = g.sides.colour_of(s, side);
            for c in g.set_of(vals[0].clone()).iter() {
                if let Some(p) = g.top(s, c) {
                    g.set_top(s, c, piece(side, kind_of(p), flags_of(p)));
                    counted += 1;
                }
            }
        }
        Effect::Promote => {
            let Val::Kind(k) = vals[1] else { return Flow::GO };
            for c in g.set_of(vals[0].clone()).iter() {
                if let Some(p) = g.top(s, c) {
                    g.set_top(s, c, piece(side_of(p), k, flags_of(p)));
                }
            }
        }
        Effect::Tuck => {
            let (a, b) = (vals[0].cell(), vals[1].cell());
            if a != NONE
                && b != NONE
                && let Some(p) = g.take(s, a)
            {
                g.put_bottom(s, b, p);
                counted += 1;
            }
        }
        Effect::Move => {
            let (a, b) = (vals[0].cell(), vals[1].cell());
            if a != NONE && b != NONE && a != b && s.height(a) > 0 {
                let taken = !g.prog.stacks && s.height(b) > 0;
                g.move_stack(s, a, b);
                if taken {
                    cx.mv.captures += 1;
                    s.count_captures(1);
                }
            }
        }
        Effect::Put => {
            let Val::Kind(k) = vals[1] else { return Flow::GO };
            let side = g.sides.colour_of(s, vals[2].side());
            for c in g.set_of(vals[0].clone()).iter() {
                if s.height(c) == 0 {
                    g.put(s, c, piece(side, k, 0));
                }
            }
        }
        Effect::Assign => {
            let (colour, player) = (vals[0].side(), vals[1].side() as usize);
            if player < g.prog.players {
                g.set_colour(s, player, colour);
                if g.prog.players == 2 {
                    let other = g.sides.opponent_of(colour);
                    g.set_colour(s, 1 - player, other);
                }
            }
        }
        Effect::Win | Effect::Lose => {
            if s.outcome() == Outcome::Ongoing {
                let side = vals[0].side();
                let player = g.sides.player_of(s, side);
                s.set_outcome(if e == Effect::Win {
                    Outcome::Win(player)
                } else {
                    Outcome::Win(g.sides.opponent_of(player))
                });
            }
        }
        Effect::Draw => {
            if s.outcome() == Outcome::Ongoing {
                s.set_outcome(Outcome::Draw);
            }
        }
        Effect::Finish => {
            if s.outcome() == Outcome::Ongoing {
                s.set_outcome(g.sides.by_score(s, None));
            }
        }
        Effect::FinishTiesTo => {
            if s.outcome() == Outcome::Ongoing {
                // A tie among the best scores goes to the side named, if it is one of them.
                let side = g.sides.score_index(s, vals[0].side());
                let best = g.sides.owner_sides().map(|x| s.score(x)).max().unwrap_or(0);
                let tied = g.sides.owner_sides().filter(|&x| s.score(x) == best).count() > 1;
                let won = tied && side < g.prog.sides.len() && s.score(side) == best;
                s.set_outcome(if won {
                    Outcome::Win(g.sides.player_of(s, side as u8))
                } else {
                    g.sides.by_score(s, None)
                });
            }
        }
        Effect::ResetClock => s.reset_clock(),
        Effect::Stop => return Flow { refused: false, stopped: true },
        Effect::Refuse => return Flow { refused: true, stopped: false },
        Effect::Again => {}
    }
    if capture {
        cx.mv.captures += counted;
        s.count_captures(counted);
    }
    Flow::GO
}
