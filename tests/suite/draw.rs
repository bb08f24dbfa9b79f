//! Pictures of boards (`rulesi draw`): the SVG of every game's start position as a
//! snapshot, what a picture must hold (a well-formed document, one disc per piece, a
//! layer per piece of a stack, a label for every row and column), and the command's
//! errors.

use crate::common;

use std::path::Path;

use rulesi::draw::{PieceView, Scene, Shade, svg};
use rulesi::engine::{AnyGame, build, compile::options};
use rulesi::with_game;

use common::{every_game, game_label, games, rulesi, snapshot};

fn load(path: &Path) -> AnyGame {
    let bytes = std::fs::read(path).expect("read the game");
    let model = rulesi::check_bytes(&bytes).model.unwrap_or_else(|| panic!("{} checks", path.display()));
    let values = options::resolve(&model, None, &[]).expect("default options");
    build(&model, &values).expect("the game compiles")
}

/// The elements of a document with this tag name and attribute value.
fn count(doc: &roxmltree::Document, tag: &str, attr: &str, value: &str) -> usize {
    doc.descendants().filter(|n| n.has_tag_name(tag) && n.attribute(attr) == Some(value)).count()
}

/// The start position of every game, as `rulesi draw` writes it.
#[test]
fn start_positions() {
    for path in every_game() {
        let name = path.file_stem().and_then(|s| s.to_str()).expect("a name").to_string();
        let file = game_label(&path);
        let (code, out, err) = rulesi(&["draw", &file]);
        assert_eq!(code, 0, "{name}: {err}");
        snapshot(&format!("draw-{name}"), &out);
    }
}

/// Every picture is a well-formed SVG document with a disc per piece of the start
/// position (every stack there has one piece), each with its kind's letter, and an
/// edge label for every row number and column letter of the board.
#[test]
fn start_pictures_hold_every_piece_and_label() {
    for path in every_game() {
        let game = load(&path);
        with_game!(&game, g => {
            let start = g.start();
            let scene = Scene::of(g, &start);
            let text = svg(&g.prog, &scene);
            let doc = roxmltree::Document::parse(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
            assert!(doc.root_element().has_tag_name("svg"));
            let pieces: usize = scene.stacks.iter().map(Vec::len).sum();
            let discs = doc
                .descendants()
                .filter(|n| n.has_tag_name("circle") && n.attribute("stroke") == Some("#222222") && n.attribute("r") != Some("9"))
                .count();
            assert_eq!(discs, pieces, "{}", path.display());
            let texts: Vec<String> = doc.descendants().filter(|n| n.has_tag_name("text")).filter_map(|n| n.text().map(str::to_string)).collect();
            let geo = &g.prog.geometry;
            for c in geo.cells() {
                let label = geo.label(c);
                let split = label.find(|ch: char| ch.is_ascii_digit()).expect("a row number");
                let (letters, number) = label.split_at(split);
                assert!(texts.iter().any(|t| t == letters), "{}: no column label {letters}", path.display());
                assert!(texts.iter().any(|t| t == number), "{}: no row label {number}", path.display());
            }
            for (k, kind) in g.prog.kinds.iter().enumerate() {
                let owner = if g.prog.has_colours { g.prog.players as u8 } else { 0 };
                let entry = format!("{} {kind}", g.prog.letter(owner, k));
                assert!(texts.iter().any(|t| t.contains(&entry)), "{}: the legend has no {entry}", path.display());
            }
        });
    }
}

/// A stack is drawn as one layer per piece, from the bottom up in the owners'
/// colours, with its height; shaded cells and marked cells are drawn once each.
#[test]
fn stacks_shades_and_marks() {
    let path = games().into_iter().find(|p| {
        let game = load(p);
        game.program().stacks
    });
    let path = path.expect("a game of games/ has stacks");
    let game = load(&path);
    with_game!(&game, g => {
        let start = g.start();
        let mut scene = Scene::of(g, &start);
        let geo = &g.prog.geometry;
        let cells: Vec<_> = geo.cells().collect();
        let (a, b) = (cells[0], cells[cells.len() - 1]);
        let stack: Vec<PieceView> = (0..5).map(|i| PieceView { owner: (i % 2) as u8, kind: 0, flags: 0 }).collect();
        scene.stacks[a.0 as usize] = stack;
        scene.marked = vec![a, b];
        let mut shaded = rulesi::board::CellSet::empty();
        shaded.insert(a);
        shaded.insert(b);
        scene.shades = vec![Shade { name: "corners".into(), cells: shaded, side: None }];
        let text = svg(&g.prog, &scene);
        let doc = roxmltree::Document::parse(&text).expect("well-formed");
        let layers = doc.descendants().filter(|n| n.has_tag_name("rect") && n.attribute("rx").is_some_and(|r| r != "8")).count();
        assert_eq!(layers, 5);
        let texts: Vec<&str> = doc.descendants().filter(|n| n.has_tag_name("text")).filter_map(|n| n.text()).collect();
        assert!(texts.contains(&"5"), "the stack's height");
        assert!(texts.contains(&"corners"), "the shaded region in the legend");
        let highlight = rulesi::draw::colour::HIGHLIGHT;
        assert_eq!(count(&doc, "polygon", "stroke", highlight) + count(&doc, "circle", "stroke", highlight), 2);
        assert_eq!(count(&doc, "polygon", "fill-opacity", "0.45") + count(&doc, "circle", "fill-opacity", "0.45"), 2);
    });
}

/// A per-player region is shaded for every side with `--region NAME`, or for one
/// with `NAME[side]`; unknown regions, sides and cells are usage errors.
#[test]
fn regions_and_marks_from_the_command_line() {
    let game = "games/stax.game";
    let (code, all, err) = rulesi(&["draw", game, "--region", "last_row"]);
    assert_eq!(code, 0, "{err}");
    let (code, one, err) = rulesi(&["draw", game, "--region", "last_row[red]", "--mark", "c3"]);
    assert_eq!(code, 0, "{err}");
    let shaded = |text: &str| text.matches(r#"fill-opacity="0.45""#).count();
    // Four cells of each last row, and a swatch per region in the legend.
    assert_eq!(shaded(&all), 2 * 4 + 2);
    assert_eq!(shaded(&one), 4 + 1);
    assert!(one.contains("last_row[red]"));

    let (code, _, err) = rulesi(&["draw", game, "--region", "last_rwo"]);
    assert_eq!(code, 2);
    assert!(err.contains("did you mean `last_row`"), "{err}");
    let (code, _, err) = rulesi(&["draw", game, "--region", "last_row[green]"]);
    assert_eq!(code, 2);
    assert!(err.contains("`green` is not a player"), "{err}");
    let (code, _, err) = rulesi(&["draw", game, "--mark", "z9"]);
    assert_eq!(code, 2);
    assert!(err.contains("no cell"), "{err}");
}

/// The pictures of the rules pages (`docs/rules/img/`) are what `rulesi draw` makes
/// today: each game's start position, and every picture `pictures.txt` lists with the
/// arguments that make it.
#[test]
fn rules_pictures_are_current() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let img = root.join("docs/rules/img");
    let mut pictures: Vec<(String, Vec<String>)> = games()
        .iter()
        .map(|p| {
            let name = p.file_stem().and_then(|s| s.to_str()).expect("a name");
            (format!("{name}.svg"), vec![format!("games/{name}.game")])
        })
        .collect();
    let list = std::fs::read_to_string(img.join("pictures.txt")).expect("docs/rules/img/pictures.txt");
    for line in list.lines().filter(|l| !l.trim().is_empty()) {
        let mut words = line.split_whitespace().map(str::to_string);
        let file = words.next().expect("a file name");
        pictures.push((file, words.collect()));
    }
    for (file, args) in pictures {
        let mut argv = vec!["draw"];
        argv.extend(args.iter().map(String::as_str));
        let (code, out, err) = rulesi(&argv);
        assert_eq!(code, 0, "{file}: {err}");
        let saved = std::fs::read_to_string(img.join(&file)).unwrap_or_else(|e| panic!("{file}: {e}"));
        assert!(
            saved == out,
            "docs/rules/img/{file} is not what `rulesi {}` draws today: make it again",
            argv.join(" ")
        );
    }
}

/// A rhombus is drawn as hexagons: one outline per cell (and the shaded and marked
/// ones), a row number at both ends of each row and a file letter at both ends of
/// each file; the picture of a small position is a snapshot.
#[test]
fn rhombus_of_hexagons() {
    let dir = common::TempDir::new("draw-rhombus");
    let position = dir.write("position.txt", b"turn blue\ncell b2 red stone\ncell c1 blue stone\n");
    let position = position.to_string_lossy().to_string();
    let game = "tests/oracle/rhombus.game";
    let (code, out, err) = rulesi(&["draw", game, "--position", &position, "--mark", "b2", "--region", "edge_a"]);
    assert_eq!(code, 0, "{err}");
    let doc = roxmltree::Document::parse(&out).expect("well-formed");
    let outlines =
        doc.descendants().filter(|n| n.has_tag_name("polygon") && n.attribute("stroke") == Some("#5a4630")).count();
    assert_eq!(outlines, 16, "a hexagon per cell of the 4 by 4 rhombus");
    let texts: Vec<&str> = doc.descendants().filter(|n| n.has_tag_name("text")).filter_map(|n| n.text()).collect();
    for label in ["a", "b", "c", "d", "1", "2", "3", "4"] {
        assert_eq!(texts.iter().filter(|t| **t == label).count(), 2, "{label} at both ends");
    }
    snapshot("draw-rhombus", &out);
}

/// A game with reserves (`tests/oracle/drops.game`) is drawn with each side's hand
/// to the right of the board: its name, then a piece and the number held of each kind
/// it holds (`none` for an empty hand), from the start or from a position.
#[test]
fn hands_are_drawn_beside_the_board() {
    let (code, out, err) = rulesi(&["draw", "tests/oracle/drops.game"]);
    assert_eq!(code, 0, "{err}");
    snapshot("draw-drops", &out);
    let doc = roxmltree::Document::parse(&out).expect("well-formed");
    let hands: Vec<&str> = doc
        .descendants()
        .filter(|n| n.attribute("class") == Some("hand"))
        .filter_map(|n| n.attribute("data-side"))
        .collect();
    assert_eq!(hands, ["white", "black"]);
    let texts: Vec<&str> = doc.descendants().filter(|n| n.has_tag_name("text")).filter_map(|n| n.text()).collect();
    assert_eq!(texts.iter().filter(|t| **t == "2 soldier").count(), 2, "{texts:?}");
    assert_eq!(texts.iter().filter(|t| **t == "1 guard").count(), 2, "{texts:?}");
    // The panel stands to the right of the board: the picture is wider than without it.
    let (_, plain, _) = rulesi(&["draw", "tests/oracle/rhombus.game"]);
    assert!(!plain.contains("in hand"), "a game without reserves has no panel");

    let dir = common::TempDir::new("draw-hands");
    let position = dir.write(
        "hands.position",
        b"turn black\ncell a1 white king\ncell d4 black king\nreserve white soldier 0\nreserve white guard 0\n\
          reserve black soldier 3\nreserve black guard 1\n",
    );
    let (code, out, err) = rulesi(&["draw", "tests/oracle/drops.game", "--position", &position.to_string_lossy()]);
    assert_eq!(code, 0, "{err}");
    let doc = roxmltree::Document::parse(&out).expect("well-formed");
    let texts: Vec<&str> = doc.descendants().filter(|n| n.has_tag_name("text")).filter_map(|n| n.text()).collect();
    for want in ["in hand", "white", "none", "black", "3 soldier", "1 guard"] {
        assert!(texts.contains(&want), "no `{want}` in {texts:?}");
    }
    assert!(!texts.contains(&"2 soldier"), "{texts:?}");
}
