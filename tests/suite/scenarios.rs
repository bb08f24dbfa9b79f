//! Scenario tests: a position, a move, the expected result.
//!
//! Every `*.scenario` file under `tests/scenarios/` is read (found by walking the
//! folder, not from a list) and every scenario in it is run. A scenario file is line
//! based; `#` starts a comment to the end of a line (except inside a `position` block,
//! where the positions format has the same comments).
//!
//! ```text
//! game agon                      the game: games/agon.game (or a path ending in .game)
//! option capture=straight_or_120 an option (repeatable); lines before the first
//! ruleset ludii                  `scenario` are defaults for every scenario in the file
//!
//! scenario a queen may not step away from the centre
//! option movement=free           more options for this scenario only
//! position                       the position, in the positions format, up to `end`
//!   turn white
//!   cell F1 white queen
//! end
//! start                          (instead of `position`: the game's start position)
//! moves 4                        the number of legal turns
//! moves-exactly e1-e2 | f1-f2    exactly these legal turns (in any order)
//! legal f1-f2                    this typed move is legal
//! illegal f1-f5                  this typed move is refused ...
//! illegal f1-f5 : not be reached ... with a reason containing this text
//! move-number 4                  the number of the next move (turns of `unnumbered`
//!                                phases get none)
//! chooser black                  the player who chooses among the legal turns (the
//!                                player to move unless a `by` clause names another)
//! play f1-f2                     play it (it must be legal); a player left without a
//!                                legal turn then gets the game's `no moves` outcome
//! expect cell F2 white queen     a line the position now has, in the positions
//! expect turn black              format (`cell` lines give the whole stack)
//! expect empty F1                no piece on F1
//! expect result win white        `result draw`, `result ongoing`
//! expect-not counter used 1      a line the position does not have
//! expect-none score black        no line starts with these words (followed by a space,
//!                                `[` or the end of the line): here black's score is 0
//!                                (counters and scores at 0, as the setup leaves them, are not written)
//! perft 2 = 713                  the number of move sequences of that depth
//! ```
//!
//! A failure names the file, the line and the scenario, and prints the position.

use std::path::{Path, PathBuf};

use rulesi::engine::search::perft;
use rulesi::engine::text::notation::{find_move, move_text};
use rulesi::engine::{AnyGame, Game, MoveList, Outcome, State, build, compile::options, text::position};
use rulesi::with_game;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn scenario_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    for e in entries.flatten() {
        let p = e.path();
        if p.is_dir() {
            scenario_files(&p, out);
        } else if p.extension().is_some_and(|x| x == "scenario") {
            out.push(p);
        }
    }
}

/// One line of a scenario, with its line number.
struct Step {
    line: usize,
    text: String,
}

struct Scenario {
    name: String,
    line: usize,
    game: String,
    options: Vec<(String, String)>,
    ruleset: Option<String>,
    /// `None` for the start position.
    position: Option<String>,
    steps: Vec<Step>,
}

fn strip_comment(line: &str) -> &str {
    line.split_once('#').map_or(line, |(a, _)| a).trim()
}

fn parse_file(path: &Path) -> Result<Vec<Scenario>, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("cannot read: {e}"))?;
    let mut game = String::new();
    let mut defaults: Vec<(String, String)> = Vec::new();
    let mut ruleset = None;
    let mut out: Vec<Scenario> = Vec::new();
    let mut lines = text.lines().enumerate();
    while let Some((i, raw)) = lines.next() {
        let n = i + 1;
        let line = strip_comment(raw);
        if line.is_empty() {
            continue;
        }
        let (word, rest) = line.split_once(char::is_whitespace).map_or((line, ""), |(a, b)| (a, b.trim()));
        let current = out.last_mut();
        match (word, current) {
            ("scenario", _) => out.push(Scenario {
                name: rest.to_string(),
                line: n,
                game: game.clone(),
                options: defaults.clone(),
                ruleset: ruleset.clone(),
                position: None,
                steps: Vec::new(),
            }),
            ("game", None) => game = rest.to_string(),
            ("game", Some(s)) => s.game = rest.to_string(),
            ("option", cur) => {
                let (k, v) = rest.split_once('=').ok_or(format!("line {n}: expected `option KEY=VALUE`"))?;
                let kv = (k.trim().to_string(), v.trim().to_string());
                let list = match cur {
                    Some(s) => &mut s.options,
                    None => &mut defaults,
                };
                list.retain(|(key, _)| *key != kv.0);
                list.push(kv);
            }
            ("ruleset", None) => ruleset = Some(rest.to_string()),
            ("ruleset", Some(s)) => s.ruleset = Some(rest.to_string()),
            ("position", Some(s)) => {
                let mut body = String::new();
                loop {
                    let Some((_, l)) = lines.next() else {
                        return Err(format!("line {n}: `position` without `end`"));
                    };
                    if l.trim() == "end" {
                        break;
                    }
                    body.push_str(l.trim());
                    body.push('\n');
                }
                s.position = Some(body);
            }
            ("start", Some(s)) => s.position = None,
            (_, Some(s)) => s.steps.push(Step { line: n, text: line.to_string() }),
            (_, None) => return Err(format!("line {n}: `{word}` before the first `scenario`")),
        }
    }
    Ok(out)
}

fn load(sc: &Scenario) -> Result<AnyGame, String> {
    let path = if sc.game.ends_with(".game") {
        root().join(&sc.game)
    } else {
        root().join("games").join(format!("{}.game", sc.game))
    };
    let text = std::fs::read_to_string(&path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    let checked = rulesi::check_source(&text);
    let model = checked.model.ok_or(format!("{} does not check", path.display()))?;
    let values = options::resolve(&model, sc.ruleset.as_deref(), &sc.options)?;
    build(&model, &values).map_err(|e| e.to_string())
}

fn legal_notes<const W: usize>(g: &Game<W>, s: &State<W>) -> Vec<String> {
    let mut list = MoveList::new();
    g.legal_moves(s, &mut list).expect("legal moves");
    list.iter().map(|m| move_text(g, s, m)).collect()
}

fn norm(line: &str) -> String {
    line.split_whitespace().collect::<Vec<_>>().join(" ").to_lowercase()
}

/// Runs one step; `Err` says what went wrong.
fn step<const W: usize>(g: &Game<W>, s: &mut State<W>, text: &str) -> Result<(), String> {
    let (word, rest) = text.split_once(char::is_whitespace).map_or((text, ""), |(a, b)| (a, b.trim()));
    let mut list = MoveList::new();
    g.legal_moves(s, &mut list).expect("legal moves");
    match word {
        "moves" => {
            let want: usize = rest.parse().map_err(|_| "expected `moves N`".to_string())?;
            if list.len() != want {
                return Err(format!("{} legal turns, expected {want}: {}", list.len(), legal_notes(g, s).join(", ")));
            }
        }
        "moves-exactly" => {
            let mut want: Vec<String> = rest.split('|').map(norm).filter(|m| !m.is_empty()).collect();
            let mut have: Vec<String> = legal_notes(g, s).iter().map(|m| norm(m)).collect();
            want.sort();
            have.sort();
            if want != have {
                return Err(format!("the legal turns are {have:?}, expected {want:?}"));
            }
        }
        "move-number" => {
            let want: u32 = rest.parse().map_err(|_| "expected `move-number N`".to_string())?;
            let have = g.move_number(s);
            if have != want {
                return Err(format!("the next move is number {have}, expected {want}"));
            }
        }
        "legal" => {
            find_move(g, s, &list, rest).map_err(|e| format!("`{rest}` is refused: {e}"))?;
        }
        "illegal" => {
            let (mv, reason) = rest.split_once(" : ").map_or((rest, None), |(a, b)| (a.trim(), Some(b.trim())));
            match find_move(g, s, &list, mv) {
                Ok(i) => {
                    let m = move_text(g, s, list.get(i));
                    return Err(format!("`{mv}` is legal (as `{m}`)"));
                }
                Err(e) => {
                    if let Some(r) = reason
                        && !e.contains(r)
                    {
                        return Err(format!("`{mv}` is refused with \"{e}\", expected a reason containing \"{r}\""));
                    }
                }
            }
        }
        "chooser" => {
            let p = g.chooser(s, &list);
            let name = g.prog.sides.get(p as usize).map_or("?", |n| n.as_str());
            if !name.eq_ignore_ascii_case(rest) {
                return Err(format!("{name} chooses, expected {rest}"));
            }
        }
        "play" => {
            let i = find_move(g, s, &list, rest).map_err(|e| format!("`{rest}` is refused: {e}"))?;
            let parts = list.get(i).to_vec();
            g.play(s, &parts).expect("play");
            if s.outcome() == Outcome::Ongoing {
                let mut next = MoveList::new();
                g.legal_moves(s, &mut next).expect("legal moves");
                if next.is_empty() {
                    g.settle(s);
                }
            }
        }
        "expect-none" => {
            let written = position::write(g, s);
            let want = norm(rest);
            if want.is_empty() {
                return Err("expected `expect-none WORDS`".to_string());
            }
            let starts = |l: &str| {
                l.strip_prefix(want.as_str()).is_some_and(|r| r.is_empty() || r.starts_with(' ') || r.starts_with('['))
            };
            if let Some(l) = written.lines().filter(|l| !l.starts_with('#')).map(norm).find(|l| starts(l)) {
                return Err(format!("the position has `{l}`"));
            }
        }
        "expect" | "expect-not" => {
            let written = position::write(g, s);
            let lines: Vec<String> = written.lines().filter(|l| !l.starts_with('#')).map(norm).collect();
            let want = norm(rest);
            let found = if let Some(cell) = want.strip_prefix("empty ") {
                !lines.iter().any(|l| l.strip_prefix("cell ").is_some_and(|c| c.split(' ').next() == Some(cell)))
            } else if want == "result ongoing" {
                !lines.iter().any(|l| l.starts_with("result "))
            } else {
                lines.contains(&want)
            };
            if found != (word == "expect") {
                let what = if word == "expect" { "does not have" } else { "has" };
                return Err(format!("the position {what} `{rest}`"));
            }
        }
        "perft" => {
            let (d, n) = rest.split_once('=').ok_or("expected `perft DEPTH = COUNT`")?;
            let d: u32 = d.trim().parse().map_err(|_| "bad depth")?;
            let n: u64 = n.trim().parse().map_err(|_| "bad count")?;
            let got = perft(g, s, d).map_err(|e| e.to_string())?;
            if got != n {
                return Err(format!("perft({d}) = {got}, expected {n}"));
            }
        }
        _ => return Err(format!("unknown step `{word}`")),
    }
    Ok(())
}

fn run(sc: &Scenario) -> Result<(), String> {
    let any = load(sc)?;
    with_game!(&any, g => {
        let mut s = match &sc.position {
            None => g.start(),
            Some(text) => position::read(g, text).map_err(|e| format!("the position: {e}"))?,
        };
        for st in &sc.steps {
            step(g, &mut s, &st.text).map_err(|e| {
                format!("line {}: `{}`: {e}\nthe position:\n{}", st.line, st.text, position::write(g, &s))
            })?;
        }
        if sc.steps.is_empty() {
            return Err("a scenario with no step checks nothing".to_string());
        }
        Ok(())
    })
}

#[test]
fn scenarios() {
    let mut files = Vec::new();
    scenario_files(&root().join("tests").join("scenarios"), &mut files);
    files.sort();
    assert!(!files.is_empty(), "no scenario files in tests/scenarios");
    let mut failures = Vec::new();
    let mut count = 0;
    for f in &files {
        let rel = f.strip_prefix(root()).unwrap_or(f).display().to_string();
        match parse_file(f) {
            Err(e) => failures.push(format!("{rel}: {e}")),
            Ok(list) => {
                assert!(!list.is_empty(), "{rel} has no scenario");
                for sc in &list {
                    count += 1;
                    if let Err(e) = run(sc) {
                        failures.push(format!("{rel}:{} scenario `{}`: {e}", sc.line, sc.name));
                    }
                }
            }
        }
    }
    println!("{count} scenarios in {} files", files.len());
    assert!(failures.is_empty(), "{} of {count} scenarios failed:\n\n{}", failures.len(), failures.join("\n\n"));
}
