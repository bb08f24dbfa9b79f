//! `rulesi draw FILE`: the board as an SVG picture, on standard output.
//!
//! The start position, or the position of `--position FILE`; regions the game names
//! shaded with `--region NAME` (every side's cells of a per-player region, each in its
//! side's colour, or one side's with `NAME[side]`); cells outlined with `--mark CELL`.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::Args as ClapArgs;

use rulesi::board::Geometry;
use rulesi::check::eval::Env;
use rulesi::check::model::{Model, Value};
use rulesi::draw::{Scene, Shade, svg};
use rulesi::suggest::did_you_mean;
use rulesi::with_game;

use super::load::{GameArgs, load, start_position};

/// Arguments of `draw`.
#[derive(Debug, ClapArgs)]
pub struct Args {
    #[command(flatten)]
    game: GameArgs,
    /// Draw the position in this file instead of the start (the positions text format).
    #[arg(long, value_name = "FILE")]
    position: Option<PathBuf>,
    /// Shade a region the game declares (repeatable): `NAME`, or `NAME[side]` for one
    /// side's cells of a per-player region.
    #[arg(long = "region", value_name = "NAME")]
    regions: Vec<String>,
    /// Outline a cell (repeatable), by its label: `--mark e4`.
    #[arg(long = "mark", value_name = "CELL")]
    marks: Vec<String>,
}

/// Runs `draw`.
pub fn run(args: Args) -> ExitCode {
    let loaded = match load(&args.game) {
        Ok(loaded) => loaded,
        Err(code) => return code,
    };
    let prog = loaded.game.program();
    let mut shades = Vec::new();
    for name in &args.regions {
        match region_shades(&loaded.model, &loaded.values, &prog.geometry, name) {
            Ok(mut s) => shades.append(&mut s),
            Err(e) => {
                eprintln!("error: --region {name}: {e}");
                return ExitCode::from(2);
            }
        }
    }
    let mut marked = Vec::new();
    for label in &args.marks {
        match prog.geometry.parse_label(label) {
            Some(c) => marked.push(c),
            None => {
                eprintln!("error: --mark {label}: no cell of this board has that label");
                return ExitCode::from(2);
            }
        }
    }
    let picture = with_game!(&loaded.game, g => {
        let Ok(start) = start_position(g, args.position.as_deref()) else { return ExitCode::FAILURE };
        let mut scene = Scene::of(g, &start);
        scene.marked = marked;
        scene.shades = shades;
        svg(&g.prog, &scene)
    });
    say_raw!("{picture}");
    ExitCode::SUCCESS
}

/// The shades `--region` asks for: `NAME` (each side's cells of a per-player region)
/// or `NAME[side]`.
fn region_shades(model: &Model, values: &[Value], geometry: &Geometry, spec: &str) -> Result<Vec<Shade>, String> {
    let (name, side) = match spec.split_once('[') {
        Some((name, rest)) => {
            let side = rest.strip_suffix(']').ok_or("a side is written in brackets: NAME[side]")?;
            (name, Some(side))
        }
        None => (spec, None),
    };
    let Some(region) = model.regions.iter().find(|r| r.name == name) else {
        let names: Vec<&str> = model.regions.iter().map(|r| r.name.as_str()).collect();
        let hint =
            did_you_mean(name, names.iter().copied()).map(|n| format!("; did you mean `{n}`?")).unwrap_or_default();
        let known = if names.is_empty() {
            "the game declares no region".to_string()
        } else {
            format!("its regions are {}", names.join(", "))
        };
        return Err(format!("the game declares no region `{name}`{hint} ({known})"));
    };
    let per_side = region.values.iter().any(|(s, _)| s.is_some());
    let wanted = match side {
        None => None,
        Some(_) if !per_side => return Err(format!("`{name}` is one region for every side: write `{name}`")),
        Some(side) => Some(
            model
                .sides
                .iter()
                .position(|s| s == side)
                .ok_or_else(|| format!("`{side}` is not a player or colour of this game"))? as u8,
        ),
    };
    let mut env = Env::new(model, values, Some(geometry));
    let mut shades = Vec::new();
    for (s, expr) in &region.values {
        if wanted.is_some() && *s != wanted {
            continue;
        }
        let cells = env.cells(expr).map_err(|e| format!("its cells cannot be known before play: {e}"))?;
        let shown = match s {
            Some(x) => format!("{name}[{}]", model.sides[*x as usize]),
            None => name.to_string(),
        };
        shades.push(Shade { name: shown, cells, side: *s });
    }
    Ok(shades)
}
