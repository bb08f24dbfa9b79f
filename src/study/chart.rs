//! The report as an SVG chart (drawn by plotters): each variant's wins by seat with
//! their 95 % intervals above, the distribution of its game lengths below. The size
//! depends only on the number of variants, and text is SVG text (plotters' estimate of
//! its width, not a font found on the machine), so the same report gives the same
//! picture everywhere.

use plotters::coord::Shift;
use plotters::data::Quartiles;
use plotters::prelude::*;

use super::report::Report;

/// The colours of seats 1, 2, ... (then round again), and of draws.
const SEATS: [RGBColor; 6] = [
    RGBColor(31, 119, 180),
    RGBColor(214, 39, 40),
    RGBColor(44, 160, 44),
    RGBColor(148, 103, 189),
    RGBColor(255, 127, 14),
    RGBColor(140, 86, 75),
];
const DRAWS: RGBColor = RGBColor(127, 127, 127);
const UNFINISHED: RGBColor = RGBColor(40, 40, 40);

/// The top of the upper panel: above 100 %, the legend.
const TOP: f64 = 1.12;
/// The line of the fair share, and of the cut-off.
const FAIR: RGBColor = RGBColor(150, 150, 150);
const CUT: RGBColor = RGBColor(150, 150, 150);

/// How a legend shows a series.
#[derive(Clone, Copy)]
enum Key {
    /// A line across the chart.
    Line,
    /// Marks with intervals.
    Dot,
}

/// A legend in one row, from `at` (the left end of its middle line) rightwards.
fn legend(root: &Area, at: (i32, i32), keys: &[(String, RGBColor, Key)]) -> Result<(), String> {
    let font = TextStyle::from(("sans-serif", 12).into_font());
    let (mut x, y) = (at.0 + 10, at.1);
    for (text, colour, key) in keys {
        match key {
            Key::Line => root.draw(&PathElement::new([(x, y), (x + 16, y)], colour.stroke_width(2))),
            Key::Dot => root.draw(&Circle::new((x + 8, y), 4, colour.filled())),
        }
        .map_err(failed)?;
        root.draw(&Text::new(text.clone(), (x + 22, y - 6), font.clone())).map_err(failed)?;
        let (w, _) = root.estimate_text_size(text, &font).map_err(failed)?;
        x += 22 + w as i32 + 24;
    }
    Ok(())
}

/// What a mark of the upper panel shows.
#[derive(Clone, Copy)]
enum Mark {
    /// The wins of a seat (0: seat 1).
    Seat(usize),
    Draws,
    Unfinished,
}

/// The height of each panel, and of the variants' labels under it.
const PANEL: u32 = 330;
const LABELS: u32 = 50;

type Area<'a> = DrawingArea<SVGBackend<'a>, Shift>;

fn failed(e: impl std::fmt::Display) -> String {
    format!("cannot draw the chart: {e}")
}

/// The chart as an SVG document.
pub fn chart(r: &Report) -> Result<String, String> {
    let n = r.variants.len().max(1);
    let width = (160 + 150 * n as u32).clamp(640, 6000);
    let height = 40 + 2 * (PANEL + LABELS);
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (width, height)).into_drawing_area();
        root.fill(&WHITE).map_err(failed)?;
        let title = format!("{}: {} games per variant", r.about.game, r.about.games_per_variant);
        centred(&root, &title, (width as i32 / 2, 10), 20)?;
        let body = root.margin(40, 0, 0, 0);
        let (top, bottom) = body.split_vertically(PANEL + LABELS);
        wins(&root, &top.margin(0, LABELS, 0, 0), r)?;
        lengths(&root, &bottom.margin(0, LABELS, 0, 0), r)?;
        root.present().map_err(failed)?;
    }
    Ok(svg)
}

/// Writes `text` with its top centre at `at`, `size` pixels high (its width as
/// plotters estimates it, so the same everywhere).
fn centred(root: &Area, text: &str, at: (i32, i32), size: u32) -> Result<(), String> {
    let font = TextStyle::from(("sans-serif", size).into_font());
    let (w, _) = root.estimate_text_size(text, &font).map_err(failed)?;
    root.draw(&Text::new(text.to_string(), (at.0 - w as i32 / 2, at.1), font)).map_err(failed)
}

/// Each variant's label under its place on the x axis (`x` = variant + 0.5), a word a
/// line; `at` maps a chart coordinate to the picture's.
fn labels(root: &Area, r: &Report, at: impl Fn(f64) -> (i32, i32)) -> Result<(), String> {
    for (i, v) in r.variants.iter().enumerate() {
        let (x, y) = at(i as f64 + 0.5);
        for (j, word) in v.variant.split(' ').enumerate() {
            centred(root, word, (x, y + 6 + 14 * j as i32), 12)?;
        }
    }
    Ok(())
}

/// Wins by seat (and draws and unfinished games, if any), each a point with its interval.
fn wins(root: &Area, area: &Area, r: &Report) -> Result<(), String> {
    let n = r.variants.len().max(1) as f64;
    let seats = r.variants.iter().map(|v| v.wins_by_seat.len()).max().unwrap_or(0);
    // The marks of each variant: a seat's wins, then its draws and its unfinished
    // games when some variant has any.
    let mut marks: Vec<Mark> = (0..seats).map(Mark::Seat).collect();
    if r.variants.iter().any(|v| v.draws.count > 0) {
        marks.push(Mark::Draws);
    }
    if r.variants.iter().any(|v| v.unfinished.count > 0) {
        marks.push(Mark::Unfinished);
    }
    let m = marks.len();
    let mut chart = ChartBuilder::on(area)
        .caption("Results (share of games, 95 % Wilson interval)", ("sans-serif", 16))
        .margin(10)
        .x_label_area_size(0)
        .y_label_area_size(50)
        .build_cartesian_2d(0f64..n, 0f64..TOP)
        .map_err(failed)?;
    chart
        .configure_mesh()
        .disable_x_mesh()
        .max_light_lines(0)
        .x_labels(0)
        .y_labels(12)
        // Above 100 % is room for the legend.
        .y_label_formatter(&|y| if *y > 1.0001 { String::new() } else { format!("{:.0} %", y * 100.0) })
        .draw()
        .map_err(failed)?;
    let fair = 1.0 / seats.max(1) as f64;
    chart.draw_series(LineSeries::new([(0.0, fair), (n, fair)], FAIR)).map_err(failed)?;
    let mut keys = vec![(format!("fair share ({:.0} %)", 100.0 * fair), FAIR, Key::Line)];
    let offset = |k: usize| (k as f64 - (m as f64 - 1.0) / 2.0) * 0.6 / m.max(1) as f64;
    for (k, mark) in marks.into_iter().enumerate() {
        let colour = match mark {
            Mark::Seat(j) => SEATS[j % SEATS.len()],
            Mark::Draws => DRAWS,
            Mark::Unfinished => UNFINISHED,
        };
        let points: Vec<(f64, f64, f64, f64)> = r
            .variants
            .iter()
            .enumerate()
            .filter_map(|(i, v)| {
                let s = match mark {
                    Mark::Seat(j) => &v.wins_by_seat.get(j)?.wins,
                    Mark::Draws => &v.draws,
                    Mark::Unfinished => &v.unfinished,
                };
                Some((i as f64 + 0.5 + offset(k), s.low, s.rate, s.high))
            })
            .collect();
        let name = match mark {
            Mark::Seat(j) => format!("seat {} wins", j + 1),
            Mark::Draws => "draws".to_string(),
            Mark::Unfinished => "unfinished".to_string(),
        };
        chart
            .draw_series(
                points
                    .iter()
                    .map(|(x, lo, p, hi)| ErrorBar::new_vertical(*x, *lo, *p, *hi, colour.stroke_width(2), 10)),
            )
            .map_err(failed)?;
        keys.push((name, colour, Key::Dot));
        chart
            .draw_series(points.iter().map(|(x, _, p, _)| Circle::new((*x, *p), 4, colour.filled())))
            .map_err(failed)?;
    }
    legend(root, chart.backend_coord(&(0.0, (1.0 + TOP) / 2.0)), &keys)?;
    labels(root, r, |x| chart.backend_coord(&(x, 0.0)))
}

/// Game lengths: a box from the lower to the upper quartile with the median, whiskers
/// to the shortest and the longest game, and the mean as a dot.
fn lengths(root: &Area, area: &Area, r: &Report) -> Result<(), String> {
    let n = r.variants.len().max(1) as f64;
    let longest = r.variants.iter().map(|v| v.length.max).fold(0.0, f64::max).max(1.0);
    let mut chart = ChartBuilder::on(area)
        .caption("Game length in turns (quartiles, shortest to longest; dot: mean)", ("sans-serif", 16))
        .margin(10)
        .x_label_area_size(0)
        .y_label_area_size(50)
        .build_cartesian_2d(0f64..n, 0f64..longest * TOP)
        .map_err(failed)?;
    chart
        .configure_mesh()
        .disable_x_mesh()
        .max_light_lines(0)
        .x_labels(0)
        .y_labels(8)
        .y_label_formatter(&|y| format!("{y:.0}"))
        .draw()
        .map_err(failed)?;
    let cut = f64::from(r.about.max_plies);
    if cut <= longest {
        chart.draw_series(LineSeries::new([(0.0, cut), (n, cut)], CUT)).map_err(failed)?;
        let key = [(format!("cut-off ({} turns): unfinished", r.about.max_plies), CUT, Key::Line)];
        legend(root, chart.backend_coord(&(0.0, longest * (1.0 + TOP) / 2.0)), &key)?;
    }
    let ink = SEATS[0];
    for (i, v) in r.variants.iter().enumerate() {
        if v.lengths.is_empty() {
            continue;
        }
        let [_, q1, median, q3, _] = Quartiles::new(&v.lengths).values().map(f64::from);
        let x = i as f64 + 0.5;
        let (l, rt) = (x - 0.18, x + 0.18);
        let whisker = |a: f64, b: f64| PathElement::new([(x, a), (x, b)], ink.stroke_width(1));
        chart.draw_series([whisker(v.length.min, q1), whisker(q3, v.length.max)]).map_err(failed)?;
        let cap = |y: f64| PathElement::new([(x - 0.06, y), (x + 0.06, y)], ink.stroke_width(1));
        chart.draw_series([cap(v.length.min), cap(v.length.max)]).map_err(failed)?;
        chart.draw_series([Rectangle::new([(l, q1), (rt, q3)], ink.mix(0.25).filled())]).map_err(failed)?;
        chart.draw_series([Rectangle::new([(l, q1), (rt, q3)], ink.stroke_width(1))]).map_err(failed)?;
        chart.draw_series([PathElement::new([(l, median), (rt, median)], ink.stroke_width(3))]).map_err(failed)?;
        chart.draw_series([Circle::new((x, v.length.mean), 4, BLACK.filled())]).map_err(failed)?;
    }
    labels(root, r, |x| chart.backend_coord(&(x, 0.0)))
}
