//! The labels of a grid's files and ranks: `files a b c d e f g h j` and
//! `ranks 1 2 3 from the top` after a board's shape.
//!
//! A cell's label is its file's label followed by its rank's. Labels are letters and
//! digits; a list longer than the board is cut to its first labels (so one list serves
//! every size an option allows), a shorter one is an error for the sizes it does not
//! cover. A label written twice on one axis is an error, and so are labels that make
//! two cells share a name (`1` + `11` and `11` + `1`). A graph board names its points
//! and has neither.

use super::eval;
use super::model::Value;
use super::{Checker, Decl};
use crate::board::{AxisLabels, Geometry, GeometryError, GridLabels, duplicate_label};
use crate::diagnostic::{Code, Diagnostic};
use crate::syntax::ast;

impl Checker<'_> {
    /// The labels a grid declares, each list reported if it names a label twice.
    pub(crate) fn grid_labels(&mut self, b: &ast::BoardDecl) -> GridLabels {
        let axis = |c: &mut Self, decl: &Option<ast::AxisLabelsDecl>, what: &str| {
            let Some(d) = decl else { return AxisLabels::default() };
            let labels: Vec<String> = d.labels.iter().map(|n| n.text.clone()).collect();
            if let Some(twice) = duplicate_label(&labels) {
                let key = twice.to_ascii_lowercase();
                let mut same = d.labels.iter().filter(|n| n.text.to_ascii_lowercase() == key);
                let (first, again) = (same.next().map_or(d.span, |n| n.span), same.next().map_or(d.span, |n| n.span));
                c.error(
                    Diagnostic::error(Code::Duplicate, format!("{what} label `{twice}` is declared twice"))
                        .with_label(first, "declared here")
                        .with_label(again, "and again here")
                        .with_help(format!("give each {what} its own label, so that every cell has its own name")),
                );
            }
            AxisLabels { labels, from_far_side: d.from_far_side }
        };
        GridLabels { files: axis(self, &b.files, "file"), ranks: axis(self, &b.ranks, "rank") }
    }

    /// Reports an error about the board's labels, and whether it was one. A label
    /// declared twice is reported by [`Checker::grid_labels`] already.
    pub(crate) fn label_error(&mut self, e: &GeometryError, b: &ast::BoardDecl, with_defaults: &str) -> bool {
        let clause = |axis: &str| if axis == "file" { b.files.as_ref() } else { b.ranks.as_ref() };
        let d = match e {
            GeometryError::LabelTwice { .. } => return true,
            GeometryError::TooFewLabels { axis, given, needed } => {
                let Some(c) = clause(axis) else { return false };
                too_few(c.span, axis, *given, *needed, with_defaults)
            }
            GeometryError::SameName { label, file_a, rank_a, file_b, rank_b } => {
                let mut d = Diagnostic::error(Code::BadBoard, format!("two cells would both be called `{label}`"))
                    .with_help(
                        "choose labels that cannot run together, such as letters for files and numbers for ranks",
                    );
                let what = format!("file `{file_a}` then rank `{rank_a}`, and file `{file_b}` then rank `{rank_b}`");
                for c in [b.files.as_ref(), b.ranks.as_ref()].into_iter().flatten() {
                    d = d.with_label(c.span, what.clone());
                }
                d
            }
            _ => return false,
        };
        self.error(d);
        true
    }

    /// With the board built for the defaults, reports the first value of an option
    /// giving the board's size for which the labels declared are too few.
    pub(crate) fn check_labels_for_sizes(&mut self, b: &ast::BoardDecl, sizes: &[&ast::Expr]) {
        if b.files.is_none() && b.ranks.is_none() {
            return;
        }
        for e in sizes {
            let ast::ExprKind::Name(n) = &e.kind else { continue };
            let Some((Decl::Option(i), _)) = self.names.get(n) else { continue };
            let i = *i as usize;
            let Some(opt) = self.model.options.get(i) else { continue };
            let values: Vec<i64> = opt
                .values
                .iter()
                .filter_map(|v| match v {
                    super::model::OptionValue::Number(n) => Some(*n),
                    _ => None,
                })
                .collect();
            for v in values {
                let mut choices = self.defaults.clone();
                choices[i] = Value::Number(v);
                let Ok(Some(shape)) = eval::board_shape(&self.model, &choices) else { continue };
                let Err(GeometryError::TooFewLabels { axis, given, needed }) =
                    Geometry::grid(shape, &[], &[], &self.model.board.labels)
                else {
                    continue;
                };
                let Some(c) = (if axis == "file" { b.files.as_ref() } else { b.ranks.as_ref() }) else { continue };
                let d = too_few(c.span, axis, given, needed, &format!(" with {n}={v}"));
                self.error(d);
                return;
            }
        }
    }
}

/// The error for fewer labels than the board has files or ranks.
fn too_few(span: crate::syntax::Span, axis: &str, given: usize, needed: u32, with: &str) -> Diagnostic {
    Diagnostic::error(Code::BadBoard, format!("the board has {needed} {axis}s but only {given} {axis} labels"))
        .with_label(span, format!("{given} labels for {needed} {axis}s{with}"))
        .with_help(format!(
            "list a label for every {axis}: a longer list is cut to the board's size, so one list can serve every size"
        ))
}
