//! Temporary: print refusal reasons for positions (not committed).
use rulesi::engine::notation::find_move;
use rulesi::engine::{MoveList, build, options, position};
use rulesi::with_game;

#[test]
fn explore() {
    let Ok(spec) = std::env::var("EXPLORE") else { return };
    let text = std::fs::read_to_string(spec).unwrap();
    // first line: game path; second: options (space separated); then position up to "end"; then moves
    let mut lines = text.lines();
    let game = lines.next().unwrap();
    let opts: Vec<(String, String)> = lines
        .next()
        .unwrap()
        .split_whitespace()
        .map(|o| options::parse_setting(o).unwrap())
        .collect();
    let mut pos = String::new();
    for l in lines.by_ref() {
        if l.trim() == "end" {
            break;
        }
        pos.push_str(l);
        pos.push('\n');
    }
    let model = rulesi::check_bytes(&std::fs::read(game).unwrap()).model.unwrap();
    let values = options::resolve(&model, None, &opts).unwrap();
    let any = build(&model, &values).unwrap();
    with_game!(&any, g => {
        let s = if pos.trim().is_empty() { g.start() } else { position::read(g, &pos).unwrap() };
        let mut list = MoveList::new();
        g.legal_moves(&s, &mut list);
        println!("{} legal", list.len());
        for m in lines {
            let t = std::time::Instant::now();
            match find_move(g, &s, &list, m) {
                Ok(i) => println!("{m}: LEGAL {i}"),
                Err(e) => println!("{m}: {e}   [{:?}]", t.elapsed()),
            }
        }
    });
}
