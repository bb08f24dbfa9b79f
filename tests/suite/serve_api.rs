//! `rulesi serve`: the JSON API, through a server started as a subprocess
//! (`rulesi serve FILE --port 0`, its address read from its first line) and a minimal
//! HTTP client over a `TcpStream`. A game played to the end by choosing from `legal`;
//! every refusal (illegal move, stale ply, unknown id, malformed or oversized body,
//! corrupt records) with its status and code; undo; loading records; the computer;
//! every game's start position, whose picture is `rulesi draw`'s plus the clickable
//! cells.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::Duration;

use serde_json::{Value, json};

/// A `rulesi serve` process, ended when dropped.
struct Served {
    child: Child,
    address: String,
}

impl Served {
    /// Starts `rulesi serve FILE --port 0 ARGS` and reads its address.
    fn start(game: &str, args: &[&str]) -> Served {
        let mut child = Command::new(env!("CARGO_BIN_EXE_rulesi"))
            .arg("serve")
            .arg(game_path(game))
            .args(["--port", "0"])
            .args(args)
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("start rulesi serve");
        let mut line = String::new();
        BufReader::new(child.stdout.take().expect("its stdout")).read_line(&mut line).expect("read the address");
        let address = line.trim().strip_prefix("http://").and_then(|a| a.strip_suffix('/')).map(str::to_string);
        let Some(address) = address else {
            let _ = child.kill();
            panic!("the first line is the address, not {line:?}");
        };
        Served { child, address }
    }

    /// Sends a request; returns the status and the body.
    fn raw(&self, method: &str, path: &str, body: &[u8]) -> (u16, String) {
        request(&self.address, method, path, body)
    }

    /// Sends a request with a JSON body (or none); returns the status and the JSON.
    fn call(&self, method: &str, path: &str, body: Option<Value>) -> (u16, Value) {
        let bytes = body.map(|b| b.to_string().into_bytes()).unwrap_or_default();
        let (status, text) = self.raw(method, path, &bytes);
        let json = serde_json::from_str(&text).unwrap_or_else(|e| panic!("{method} {path}: not JSON ({e}): {text}"));
        (status, json)
    }

    /// A request that must succeed.
    fn ok(&self, method: &str, path: &str, body: Option<Value>) -> Value {
        let (status, json) = self.call(method, path, body);
        assert_eq!(status, 200, "{method} {path}: {json}");
        json
    }

    /// A request that must be refused with this status and code.
    fn refused(&self, method: &str, path: &str, body: Option<Value>, status: u16, code: &str) -> Value {
        let (got, json) = self.call(method, path, body);
        assert_eq!((got, json["code"].as_str()), (status, Some(code)), "{method} {path}: {json}");
        assert!(json["message"].as_str().is_some_and(|m| !m.is_empty()), "a refusal says why: {json}");
        json
    }

    /// A new game with the server's defaults.
    fn new_game(&self) -> Value {
        self.ok("POST", "/api/games", Some(json!({})))
    }
}

impl Drop for Served {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Sends an HTTP request to `address` (a new connection, closed after the answer);
/// returns the status and the body.
fn request(address: &str, method: &str, path: &str, body: &[u8]) -> (u16, String) {
    let mut stream = TcpStream::connect(address).expect("connect to the server");
    stream.set_read_timeout(Some(Duration::from_secs(120))).expect("a timeout");
    let head = format!(
        "{method} {path} HTTP/1.1\r\nHost: {address}\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\
         Connection: close\r\n\r\n",
        body.len()
    );
    stream.write_all(head.as_bytes()).expect("send the request");
    // A body refused for its size may be cut short by the server: the answer still
    // comes.
    let _ = stream.write_all(body);
    let mut answer = Vec::new();
    let _ = stream.read_to_end(&mut answer);
    let text = String::from_utf8(answer).expect("the answer is UTF-8");
    let Some((head, body)) = text.split_once("\r\n\r\n") else { return (0, text) };
    let status = head.split(' ').nth(1).and_then(|s| s.parse().ok()).expect("a status");
    (status, body.to_string())
}

fn game_path(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("games").join(format!("{name}.game"))
}

/// The games of `games/` by name (`stax`), then those of `games/classic/` (`classic/hex`).
fn games() -> Vec<String> {
    let mut all = Vec::new();
    for folder in ["", "classic/"] {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("games").join(folder);
        let mut names: Vec<String> = std::fs::read_dir(dir)
            .expect("games/")
            .filter_map(|e| {
                let p = e.expect("an entry").path();
                (p.extension()? == "game").then(|| p.file_stem().expect("a name").to_string_lossy().into_owned())
            })
            .map(|name| format!("{folder}{name}"))
            .collect();
        names.sort();
        assert!(!names.is_empty());
        all.extend(names);
    }
    all
}

/// Runs `rulesi ARGS` with `input` on stdin: (status, stdout).
fn rulesi(args: &[&str], input: &str) -> (i32, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_rulesi"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("run rulesi");
    child.stdin.take().expect("stdin").write_all(input.as_bytes()).expect("write the input");
    let out = child.wait_with_output().expect("rulesi ends");
    (out.status.code().unwrap_or(-1), String::from_utf8_lossy(&out.stdout).into_owned())
}

fn notations(position: &Value) -> Vec<String> {
    position["legal"]
        .as_array()
        .expect("legal")
        .iter()
        .map(|t| t["notation"].as_str().expect("a notation").into())
        .collect()
}

fn path(id: &Value, rest: &str) -> String {
    format!("/api/games/{}{rest}", id.as_str().expect("an id"))
}

/// The served picture with the clickable shapes taken out.
fn without_clicks(svg: &str) -> String {
    svg.lines().filter(|l| !l.contains("data-cell=")).map(|l| format!("{l}\n")).collect()
}

#[test]
fn every_game_serves_its_start_position_and_the_picture_draw_makes() {
    for game in games() {
        let server = Served::start(&game, &[]);
        let info = server.ok("GET", "/api/game", None);
        let file = game.rsplit('/').next().expect("a name");
        assert_eq!(info["file"], format!("{file}.game"));
        let p = server.new_game();
        assert_eq!(p["ply"], 0, "{game}");
        assert!(p["outcome"].is_null() && p["to_move"].is_string(), "{game}: {}", p["status"]);
        assert!(!notations(&p).is_empty(), "{game}: the start has legal turns");
        assert_eq!(p["moves"], json!([]));
        assert!(p["record"].as_str().expect("a record").contains("rulesi record 1\n"), "{game}");
        let svg = p["svg"].as_str().expect("a picture");
        let (status, drawn) = rulesi(&["draw", &format!("games/{game}.game")], "");
        assert_eq!(status, 0, "{game}: rulesi draw");
        assert_eq!(without_clicks(svg), drawn, "{game}: the served picture is draw's plus the clickable cells");
        // Every cell a turn starts from can be clicked.
        for t in p["legal"].as_array().expect("legal") {
            for cell in t["cells"].as_array().expect("cells") {
                let attr = format!("data-cell=\"{}\"", cell.as_str().expect("a label"));
                assert!(svg.contains(&attr), "{game}: no clickable {attr}");
            }
        }
        let again = server.ok("GET", &path(&p["id"], ""), None);
        assert_eq!(again["svg"], p["svg"], "{game}: GET gives the same position");
    }
}

/// Picks legal turns with a fixed sequence until the game ends; the record it ends
/// with loads back to the same end.
#[test]
fn a_game_is_played_to_the_end_through_the_api() {
    let server = Served::start("stax", &[]);
    let mut p = server.new_game();
    let id = p["id"].clone();
    let mut seed: u64 = 7;
    let mut played = Vec::new();
    while p["outcome"].is_null() {
        let legal = notations(&p);
        assert!(!legal.is_empty(), "an unfinished game has legal turns: {}", p["status"]);
        seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        let turn = &legal[(seed >> 33) as usize % legal.len()];
        let ply = p["ply"].as_u64().expect("a ply");
        p = server.ok("POST", &path(&id, "/play"), Some(json!({"ply": ply, "turn": turn})));
        assert_eq!(p["ply"].as_u64(), Some(ply + 1));
        played.push(turn.clone());
        assert!(played.len() < 2000, "the game ends");
    }
    assert_eq!(p["moves"], json!(played), "the move list is the turns played");
    assert!(p["to_move"].is_null() && p["legal"] == json!([]), "nothing to play once the game is over");
    let result = p["outcome"]["result"].as_str().expect("a result");
    assert!(result == "draw" || result.ends_with(" wins"), "{result}");
    let ply = p["ply"].clone();
    let over = server.refused("POST", &path(&id, "/play"), Some(json!({"ply": ply, "turn": "a1"})), 422, "game-over");
    assert!(over["message"].as_str().unwrap_or_default().contains("over"));

    let record = p["record"].as_str().expect("a record").to_string();
    assert!(record.ends_with(&format!("moves\n{}\n", played.join("\n"))), "{record}");
    let loaded = server.ok("POST", "/api/games/load", Some(json!({"record": record})));
    assert_ne!(loaded["id"], id, "a loaded game is a new game");
    assert_eq!((&loaded["ply"], &loaded["moves"], &loaded["outcome"]), (&p["ply"], &p["moves"], &p["outcome"]));
    // The record is also what `play --load` reads.
    let dir = std::env::temp_dir().join(format!("rulesi-serve-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a temporary directory");
    let file = dir.join("game.record");
    std::fs::write(&file, &record).expect("write the record");
    let (status, out) = rulesi(&["play", "--load", file.to_str().expect("a path"), "--quiet"], "quit\n");
    let _ = std::fs::remove_dir_all(&dir);
    assert_eq!(status, 0, "{out}");
    assert!(out.contains(&format!("loaded {n} of the {n} moves", n = played.len())), "{out}");
}

#[test]
fn refusals_have_their_status_code_and_reason() {
    let server = Served::start("stax", &[]);
    let p = server.new_game();
    let id = p["id"].clone();
    let play = path(&id, "/play");

    // An illegal turn: refused with the words `play` gives.
    let bad = "a3-a4";
    let refusal = server.refused("POST", &play, Some(json!({"ply": 0, "turn": bad})), 422, "illegal-move");
    let (_, out) = rulesi(&["play", "games/stax.game"], &format!("{bad}\nquit\n"));
    let said = out.lines().find_map(|l| l.split("not played: ").nth(1)).expect("play refuses it too");
    assert_eq!(refusal["message"].as_str(), Some(said));
    server.refused("POST", &play, Some(json!({"ply": 0, "turn": "z99"})), 422, "illegal-move");
    server.refused("POST", &play, Some(json!({"ply": 0, "cells": ["a3"]})), 422, "illegal-move");
    server.refused("POST", &play, Some(json!({"ply": 0, "cells": ["no such cell"]})), 422, "illegal-move");
    server.refused("POST", &play, Some(json!({"ply": 0})), 400, "bad-request");
    server.refused("POST", &play, Some(json!({"ply": 0, "turn": "a3-b4", "cells": ["a3", "b4"]})), 400, "bad-request");

    // A stale ply: 409 with the game's ply.
    let stale = server.refused("POST", &play, Some(json!({"ply": 3, "turn": "a3-b4"})), 409, "stale-ply");
    assert_eq!(stale["ply"], 0);
    let moved = server.ok("POST", &play, Some(json!({"ply": 0, "cells": ["a3", "b4"]})));
    assert_eq!((&moved["ply"], &moved["moves"]), (&json!(1), &json!(["a3-b4"])), "played by its cells");
    assert_eq!(moved["last"], json!(["a3", "b4"]));
    let stale = server.refused("POST", &play, Some(json!({"ply": 0, "turn": "a3-b4"})), 409, "stale-ply");
    assert_eq!(stale["ply"], 1, "another tab's move: the page learns the ply");
    server.refused("POST", &path(&id, "/undo"), Some(json!({"ply": 0})), 409, "stale-ply");
    server.refused("POST", &path(&id, "/computer"), Some(json!({"ply": 0, "think_ms": 10})), 409, "stale-ply");

    // Unknown ids and paths.
    server.refused("GET", "/api/games/0123456789abcdef", None, 404, "no-such-game");
    server.refused("POST", "/api/games/nope/play", Some(json!({"ply": 0, "turn": "a3-b4"})), 404, "no-such-game");
    server.refused("POST", "/api/games/nope/undo", None, 404, "no-such-game");
    server.refused("GET", "/api/nothing", None, 404, "not-found");
    server.refused("GET", "/api/games/%FF", None, 400, "bad-request");
    server.refused("POST", "/api/games/%FF/undo", None, 400, "bad-request");
    server.refused("DELETE", "/api/game", None, 405, "method-not-allowed");

    // Malformed and oversized bodies.
    for body in ["{", "[]", "{\"ply\": \"one\", \"turn\": \"a3-b4\"}", "{\"ply\": 1, \"turn\": 5}", "\u{0}"] {
        let (status, text) = server.raw("POST", &play, body.as_bytes());
        let json: Value = serde_json::from_str(&text).expect("a JSON refusal");
        assert_eq!((status, json["code"].as_str()), (400, Some("bad-request")), "{body:?}: {text}");
    }
    server.refused("POST", "/api/games", Some(json!({"options": {"no_such_option": "x"}})), 422, "bad-option");
    server.refused("POST", "/api/games", Some(json!({"ruleset": "none_such"})), 422, "bad-option");
    server.refused("POST", "/api/games", Some(json!({"options": {"first": [1]}})), 400, "bad-request");
    server.refused("POST", "/api/games", Some(json!({"colour": "red"})), 400, "bad-request");
    let big = format!("{{\"record\": \"{}\"}}", "x".repeat(2 * 1024 * 1024));
    let (status, text) = server.raw("POST", "/api/games/load", big.as_bytes());
    assert_eq!(status, 413, "{text}");
    assert_eq!(serde_json::from_str::<Value>(&text).expect("a JSON refusal")["code"], "too-large");
    for think in [0, 60_001] {
        server.refused("POST", &path(&id, "/computer"), Some(json!({"ply": 1, "think_ms": think})), 400, "bad-request");
    }

    // The server is still up, the game as it was.
    assert_eq!(server.ok("GET", &path(&id, ""), None)["moves"], json!(["a3-b4"]));
}

#[test]
fn undo_takes_back_turns_until_the_start() {
    let server = Served::start("stax", &[]);
    let p = server.new_game();
    let id = p["id"].clone();
    let first = notations(&p)[0].clone();
    let one = server.ok("POST", &path(&id, "/play"), Some(json!({"ply": 0, "turn": first})));
    let second = notations(&one)[0].clone();
    let two = server.ok("POST", &path(&id, "/play"), Some(json!({"ply": 1, "turn": second})));
    assert_eq!(two["moves"], json!([first, second]));
    let back = server.ok("POST", &path(&id, "/undo"), Some(json!({"ply": 2})));
    assert_eq!((&back["ply"], &back["svg"], &back["legal"]), (&one["ply"], &one["svg"], &one["legal"]));
    let start = server.ok("POST", &path(&id, "/undo"), None);
    assert_eq!((&start["ply"], &start["svg"], &start["record"]), (&p["ply"], &p["svg"], &p["record"]));
    server.refused("POST", &path(&id, "/undo"), None, 422, "nothing-to-undo");
}

#[test]
fn records_are_loaded_and_corrupt_ones_refused() {
    let server = Served::start("stax", &[]);
    let record = |moves: &str| format!("rulesi record 1\ngame games/stax.game\noption first=blue\nmoves\n{moves}");
    let p = server.ok("POST", "/api/games/load", Some(json!({"record": record("b6-a5\na3-b4\n")})));
    assert_eq!(p["moves"], json!(["b6-a5", "a3-b4"]));
    assert_eq!(p["options"]["first"], "blue", "the record's options");
    assert!(p["record"].as_str().expect("a record").contains("option first=blue\n"));

    for (text, words) in [
        ("not a record at all", "cannot be read"),
        ("", "cannot be read"),
        ("rulesi record 1\ngame games/stax.game\n", "cannot be read"),
        (&record("b6-a5\nb6-a5\n"), "line 6"),
        ("rulesi record 1\ngame games/stax.game\noption first=green\nmoves\n", "green"),
        ("rulesi record 1\ngame games/other.game\nmoves\n", "other.game"),
    ] {
        let refusal = server.refused("POST", "/api/games/load", Some(json!({"record": text})), 422, "bad-record");
        let message = refusal["message"].as_str().unwrap_or_default();
        assert!(message.contains(words), "{text:?}: {message}");
    }
    server.refused("POST", "/api/games/load", Some(json!({})), 400, "bad-request");
    server.refused("POST", "/api/games/load", None, 400, "bad-request");
}

#[test]
fn the_computer_plays_a_turn() {
    let server = Served::start("agon", &[]);
    let p = server.new_game();
    let id = p["id"].clone();
    let moved = server.ok("POST", &path(&id, "/computer"), Some(json!({"ply": 0, "think_ms": 50})));
    assert_eq!(moved["ply"], 1);
    let turn = moved["moves"][0].as_str().expect("a turn").to_string();
    assert!(notations(&p).contains(&turn), "{turn} is one of the legal turns");
}

#[test]
fn new_games_take_options_rulesets_and_the_servers_defaults() {
    let server = Served::start("stax", &["--option", "first=blue"]);
    let info = server.ok("GET", "/api/game", None);
    assert_eq!(info["default_options"], json!({"first": "blue"}));
    assert!(info["options"].as_array().expect("options").iter().any(|o| o["name"] == "first"));
    assert_eq!(server.new_game()["options"]["first"], "blue", "the server's --option");
    let red = server.ok("POST", "/api/games", Some(json!({"options": {"first": "red"}})));
    assert_eq!((red["options"]["first"].as_str(), red["to_move"].as_str()), (Some("red"), Some("red")));

    let agon = Served::start("agon", &[]);
    let info = agon.ok("GET", "/api/game", None);
    let rulesets = info["rulesets"].as_array().expect("rulesets");
    for r in rulesets {
        let name = r["name"].as_str().expect("a name");
        assert!(!r["description"].as_str().unwrap_or_default().is_empty() || r["settings"] == json!({}));
        let p = agon.ok("POST", "/api/games", Some(json!({"ruleset": name})));
        assert_eq!(p["ruleset"], name);
        for (k, v) in r["settings"].as_object().expect("settings") {
            assert_eq!(&p["options"][k], v, "ruleset {name}: {k}");
        }
    }
}

#[test]
fn bad_command_lines_stop_before_serving() {
    let (status, _) = rulesi(&["serve", "games/none.game", "--port", "0"], "");
    assert_eq!(status, 1, "a missing file");
    let (status, _) = rulesi(&["serve", "games/stax.game", "--port", "70000"], "");
    assert_eq!(status, 2, "a port out of range");
    let (status, _) = rulesi(&["serve", "games/stax.game", "--option", "first=green", "--port", "0"], "");
    assert_eq!(status, 2, "an option value the game does not have");
    let (status, _) = rulesi(&["serve", "games/stax.game", "--host", "no such host", "--port", "0"], "");
    assert_eq!(status, 1, "an address that cannot be listened on");
}

/// SIGTERM (as Ctrl-C) stops the server at once, even while the computer thinks for a
/// minute in four games (the most at once: a fifth is refused as `busy`).
#[test]
fn a_signal_stops_the_server_while_the_computer_thinks() {
    let mut server = Served::start("agon", &[]);
    let thinking: Vec<_> = (0..4)
        .map(|_| {
            let id = server.new_game()["id"].clone();
            let address = server.address.clone();
            std::thread::spawn(move || {
                let think = json!({"ply": 0, "think_ms": 60_000}).to_string();
                // Refused as busy while the fifth game's short searches hold a permit:
                // asked again.
                let mut answer = (503, String::new());
                for _ in 0..10_000 {
                    answer = request(&address, "POST", &path(&id, "/computer"), think.as_bytes());
                    if answer.0 != 503 {
                        break;
                    }
                }
                answer
            })
        })
        .collect();
    // A fifth game's computer is refused once the four searches run.
    let fifth = server.new_game();
    let id = fifth["id"].clone();
    let mut ply = 0;
    let mut busy = false;
    for _ in 0..1000 {
        let (status, answer) = server.call("POST", &path(&id, "/computer"), Some(json!({"ply": ply, "think_ms": 1})));
        if status == 503 {
            assert_eq!(answer["code"], "busy");
            busy = true;
            break;
        }
        assert_eq!(status, 200, "{answer}");
        ply = answer["ply"].as_u64().expect("a ply");
        if !answer["outcome"].is_null() {
            server.ok("POST", &path(&id, "/undo"), None);
            ply -= 1;
        }
    }
    assert!(busy, "four searches of a minute make the computer busy");
    let pid = server.child.id() as libc::pid_t;
    // SAFETY: kill has no memory effects; the pid is the child this test started.
    assert_eq!(unsafe { libc::kill(pid, libc::SIGTERM) }, 0);
    let status = server.child.wait().expect("the server ends");
    assert!(status.success(), "{status:?}");
    for t in thinking {
        let (status, _) = t.join().expect("the request ends");
        assert_eq!(status, 0, "a search cut short by the end of the server answers nothing");
    }
}

/// A game with reserves (`tests/oracle/drops.game`: two soldiers and a guard in each
/// hand): the position carries each side's hand, every kind with its letter and count;
/// a drop takes a piece from the mover's hand, in the JSON and in the picture beside
/// the board. A game without reserves sends none.
#[test]
fn the_position_carries_the_hands_of_a_game_with_reserves() {
    let server = Served::start("../tests/oracle/drops", &[]);
    let p = server.new_game();
    let hand =
        |n: i64| json!([{"kind": "soldier", "letter": "S", "count": n}, {"kind": "guard", "letter": "G", "count": 1}]);
    assert_eq!(
        p["reserves"],
        json!([{"side": "white", "pieces": hand(2)}, {"side": "black", "pieces": hand(2)}]),
        "{}",
        p["reserves"]
    );
    let svg = p["svg"].as_str().expect("a picture");
    assert!(svg.contains(r#"<g class="hand" data-side="white">"#), "{svg}");
    assert_eq!(svg.matches(r#"data-kind="soldier" data-count="2""#).count(), 2, "{svg}");
    let id = p["id"].clone();
    let after = server.ok("POST", &path(&id, "/play"), Some(json!({"ply": 0, "turn": "S*b2"})));
    assert_eq!(
        after["reserves"],
        json!([{"side": "white", "pieces": hand(1)}, {"side": "black", "pieces": hand(2)}]),
        "{}",
        after["reserves"]
    );
    let svg = after["svg"].as_str().expect("a picture");
    assert_eq!(svg.matches(r#"data-kind="soldier" data-count="1""#).count(), 1, "{svg}");

    let plain = Served::start("stax", &[]);
    let p = plain.new_game();
    assert_eq!(p["reserves"], json!([]), "a game without reserves");
    assert!(!p["svg"].as_str().expect("a picture").contains("class=\"hand\""));
}

/// Boards of other shapes are served as `draw` draws them, every cell clickable: a
/// graph board (`tests/oracle/mill.game`: only its 24 points, each a clickable
/// circle, and its links as lines), a square with holes (`tests/oracle/holes.game`:
/// no clickable shape where a cell is left out) and a rhombus.
#[test]
fn graph_holed_and_rhombus_boards_are_served_with_every_cell_clickable() {
    for (game, cells) in [("mill", 24), ("holes", 33), ("rhombus", 16)] {
        let server = Served::start(&format!("../tests/oracle/{game}"), &[]);
        let p = server.new_game();
        let svg = p["svg"].as_str().expect("a picture");
        let (status, drawn) = rulesi(&["draw", &format!("tests/oracle/{game}.game")], "");
        assert_eq!(status, 0, "{game}: rulesi draw");
        assert_eq!(without_clicks(svg), drawn, "{game}: the served picture is draw's plus the clickable cells");
        assert_eq!(svg.matches("data-cell=").count(), cells, "{game}");
        for t in p["legal"].as_array().expect("legal") {
            for cell in t["cells"].as_array().expect("cells") {
                let attr = format!("data-cell=\"{}\"", cell.as_str().expect("a label"));
                assert!(svg.contains(&attr), "{game}: no clickable {attr}");
            }
        }
    }
    let holes = Served::start("../tests/oracle/holes", &[]).new_game();
    assert!(!holes["svg"].as_str().expect("a picture").contains("data-cell=\"a1\""), "a hole is not clickable");
}
