//! The candidates of a masked rule (see [`Mask`]) as random play by plan and by sets
//! draw them: the destination set and the pieces of the rule, computed once per draw,
//! and one candidate checked against the conditions the mask leaves. Shared by the
//! draw by plan ([`ByPlan`](crate::engine::sample::plan::ByPlan)) and the draw by sets
//! ([`BySets`](crate::engine::sample::sets::BySets)), which uses no other part of the
//! plan's.

use crate::engine::bits::Bits;
use crate::engine::compile::program::NONE;
use crate::engine::exec::closure::set_lit_bits;
use crate::engine::exec::context::Ctx;
use crate::engine::exec::game::{CRule, Game, Mask};
use crate::engine::exec::moves::Part;
use crate::engine::exec::state::State;

/// The destinations of a masked rule drawn by plan (its `to` set and the
/// conditions that are sets of destinations not reading `from`) and its pieces on
/// the board. One-literal sets (the most common subjects and destinations) are read
/// inline.
#[inline(always)]
pub(crate) fn plan_sets<const W: usize>(
    g: &Game<W>,
    s: &State<W>,
    cx: &mut Ctx<W>,
    cr: &CRule<W>,
    m: &Mask<W>,
) -> Option<(Bits<W>, Bits<W>)> {
    let mut dest = match cr.to_lit {
        Some(l) => set_lit_bits(g, s, l),
        None => (cr.to.as_ref()?.0)(g, s, cx),
    };
    for c in &m.per_gen {
        dest &= (c.0)(g, s, cx);
    }
    let pieces = match cr.subject_lit {
        Some(l) => set_lit_bits(g, s, l),
        None => (cr.subject.as_ref()?.0)(g, s, cx),
    } & s.occupied();
    Some((dest, pieces))
}

/// A candidate of a masked rule whose static conditions hold: the part, when the
/// conditions that read `from` and the residual hold too. `cx` is a context of
/// random play, whose move variables beyond `from`, `to`, `middle` and `rule` are
/// still the defaults (no part was played in it).
#[inline(always)]
#[allow(clippy::too_many_arguments)]
pub(crate) fn masked_candidate<const W: usize>(
    g: &Game<W>,
    s: &State<W>,
    cx: &mut Ctx<W>,
    m: &Mask<W>,
    rid: u32,
    from: u16,
    to: u16,
    middle: u16,
) -> Option<Part> {
    // The other move variables stay those of the fresh context the draw made:
    // conditions write none of them (only playing a part does).
    cx.mv.from = from;
    cx.mv.to = NONE;
    cx.mv.middle = NONE;
    cx.mv.rule = rid;
    if !m.from_floor.has(to) && !m.per_from_member.iter().all(|c| (c.0)(g, s, cx, to)) {
        return None;
    }
    cx.mv.to = to;
    cx.mv.middle = middle;
    m.residual.as_ref().is_none_or(|c| (c.0)(g, s, cx)).then(|| Part::new(rid, from, to, middle, 0))
}
