//! The JSON API's requests, responses and errors (documented in `docs/serve.md`).
//!
//! Requests are read with [`parse`] (unknown fields refused, so that a typing mistake
//! is an error rather than a setting silently ignored); every error is an [`ApiError`],
//! answered as `{code, message}` with its HTTP status.

use std::collections::BTreeMap;

use axum::http::StatusCode;
use axum::http::header::CONTENT_TYPE;
use axum::response::{IntoResponse, Response};
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};

/// The longest thinking time `computer` accepts, in milliseconds.
pub const MAX_THINK_MS: u64 = 60_000;

/// `POST /api/games`: a new game.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NewGame {
    /// Option values by key: a value's name, or a number.
    #[serde(default)]
    pub options: BTreeMap<String, serde_json::Value>,
    /// A ruleset of the game (the options override it).
    #[serde(default)]
    pub ruleset: Option<String>,
}

/// `POST /api/games/{id}/play`: a turn, by its notation or by its cells.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PlayTurn {
    /// The ply the turn is played at: the number of turns played so far.
    pub ply: usize,
    /// The turn in the game's notation, as `play` reads it.
    #[serde(default)]
    pub turn: Option<String>,
    /// Or the turn's cells, as a legal turn lists them in `cells`.
    #[serde(default)]
    pub cells: Option<Vec<String>>,
}

/// `POST /api/games/{id}/undo`: the ply is optional.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Undo {
    /// The ply the page shows, if it says.
    #[serde(default)]
    pub ply: Option<usize>,
}

/// `POST /api/games/{id}/computer`: the computer plays the next turn.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Computer {
    /// The ply the turn is played at.
    pub ply: usize,
    /// How long it thinks, from 1 to [`MAX_THINK_MS`] milliseconds.
    pub think_ms: u64,
}

/// `POST /api/games/load`: a saved game.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Load {
    /// The record's text, as `play`'s `save` writes it.
    pub record: String,
}

/// `GET /api/game`: the game the server plays, for the "new game" form.
#[derive(Debug, Serialize)]
pub struct GameInfo {
    /// The game file's name.
    pub file: String,
    /// The title.
    pub title: String,
    /// The players, in turn order.
    pub players: Vec<String>,
    /// The options.
    pub options: Vec<OptionInfo>,
    /// The rulesets.
    pub rulesets: Vec<RulesetInfo>,
    /// The ruleset new games get when none is asked for (`serve --ruleset`).
    pub default_ruleset: Option<String>,
    /// The option values new games get when none are given (`serve --option`).
    pub default_options: BTreeMap<String, String>,
}

/// An option of the game.
#[derive(Debug, Serialize)]
pub struct OptionInfo {
    /// Its key.
    pub name: String,
    /// Its named values, in order.
    pub values: Vec<String>,
    /// Its values as words, names and numbers alike (`` `a`, a whole number from 1 to 9 ``).
    pub description: String,
    /// Whether it takes numbers.
    pub numeric: bool,
    /// Its default.
    pub default: String,
}

/// A ruleset of the game.
#[derive(Debug, Serialize)]
pub struct RulesetInfo {
    /// Its name.
    pub name: String,
    /// What it sets, as `key=value` items.
    pub description: String,
    /// The values it sets.
    pub settings: BTreeMap<String, String>,
}

/// A game in play, as the page shows it.
#[derive(Debug, Serialize)]
pub struct Position {
    /// The game's id.
    pub id: String,
    /// Turns played so far.
    pub ply: usize,
    /// The player to move (`null` once the game is over).
    pub to_move: Option<String>,
    /// The player who chooses the next turn, when a rule gives the choice to another.
    pub chooser: Option<String>,
    /// The name of the player who chooses the next turn (the player to move or the
    /// chooser) as `players` lists it; `null` once the game is over.
    pub choosing: Option<String>,
    /// The result, `null` while the game goes on.
    pub outcome: Option<Outcome>,
    /// A status line: the move number, who is to play, the phase, the scores.
    pub status: String,
    /// The board as an SVG document, each cell clickable (`data-cell`); in a game
    /// with reserves, the hands are drawn beside it.
    pub svg: String,
    /// The pieces each side holds off the board, side by side (empty in a game
    /// without reserves).
    pub reserves: Vec<Reserve>,
    /// The turns played, in notation.
    pub moves: Vec<String>,
    /// The cells of the last turn.
    pub last: Vec<String>,
    /// The legal turns.
    pub legal: Vec<Turn>,
    /// The record of the game (the format `play`'s `save` writes).
    pub record: String,
    /// The ruleset and option values of the game.
    pub options: BTreeMap<String, String>,
    /// The ruleset, if one was chosen.
    pub ruleset: Option<String>,
}

/// The pieces one side holds off the board.
#[derive(Debug, Serialize)]
pub struct Reserve {
    /// The side (a player, or a colour in a game with colours).
    pub side: String,
    /// Each kind with a reserve, in the order the game declares them, zeros too.
    pub pieces: Vec<Held>,
}

/// How many pieces of one kind a side holds off the board.
#[derive(Debug, Serialize)]
pub struct Held {
    /// The kind's name.
    pub kind: String,
    /// The kind's letter for this side.
    pub letter: String,
    /// How many.
    pub count: i64,
}

/// How a game ended.
#[derive(Debug, Serialize)]
pub struct Outcome {
    /// The winner, `null` for a draw.
    pub winner: Option<String>,
    /// The result in words: `white wins`, `draw`.
    pub result: String,
}

/// A legal turn.
#[derive(Debug, Serialize)]
pub struct Turn {
    /// In the game's notation.
    pub notation: String,
    /// The cells a player clicks to play it, in order (each part's start and
    /// destination, a cell repeated only when not consecutive).
    pub cells: Vec<String>,
    /// Its parts.
    pub parts: Vec<TurnPart>,
}

/// One part of a turn.
#[derive(Debug, Serialize)]
pub struct TurnPart {
    /// The kind of move: `place`, `step`, `slide`, `jump`, `relocate`, `pass`, `choose`.
    pub action: &'static str,
    /// The start cell.
    pub from: Option<String>,
    /// The destination.
    pub to: Option<String>,
    /// The cell jumped over.
    pub over: Option<String>,
    /// What a `choose` chooses.
    pub choice: Option<String>,
}

/// A refusal or failure: its HTTP status and the body `{code, message}` (and `ply`
/// for a stale ply).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ApiError {
    /// The HTTP status.
    pub status: StatusCode,
    /// A stable kebab-case code.
    pub code: &'static str,
    /// The reason, in words.
    pub message: String,
    /// The game's current ply (for `stale-ply`).
    pub ply: Option<usize>,
}

/// The body of an error.
#[derive(Serialize)]
struct ErrorBody<'a> {
    code: &'a str,
    message: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    ply: Option<usize>,
}

impl ApiError {
    /// An error of this status and code.
    pub fn new(status: StatusCode, code: &'static str, message: impl Into<String>) -> ApiError {
        ApiError { status, code, message: message.into(), ply: None }
    }

    /// 400: a body that is not the JSON asked for.
    pub fn bad_request(message: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::BAD_REQUEST, "bad-request", message)
    }

    /// 404: no game has this id (never made, or dropped to make room).
    pub fn no_game(id: &str) -> ApiError {
        let shown: String = id.chars().take(40).collect();
        ApiError::new(
            StatusCode::NOT_FOUND,
            "no-such-game",
            format!("no game `{shown}` is kept here (start a new game or load a record)"),
        )
    }

    /// 409: the page shows another ply than the game's (another tab moved).
    pub fn stale(current: usize, asked: usize) -> ApiError {
        ApiError {
            ply: Some(current),
            ..ApiError::new(
                StatusCode::CONFLICT,
                "stale-ply",
                format!("the game is at ply {current}, not {asked}: it changed elsewhere (reload it)"),
            )
        }
    }

    /// 422: a request the game refuses (an illegal turn, a bad option, ...).
    pub fn refused(code: &'static str, message: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::UNPROCESSABLE_ENTITY, code, message)
    }

    /// 500: the engine stopped on a run-time error.
    pub fn engine(message: impl std::fmt::Display) -> ApiError {
        ApiError::new(StatusCode::INTERNAL_SERVER_ERROR, "engine-error", format!("the engine stopped: {message}"))
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let body = ErrorBody { code: self.code, message: &self.message, ply: self.ply };
        json_response(self.status, &body)
    }
}

/// A JSON response.
pub fn json_response<T: Serialize>(status: StatusCode, body: &T) -> Response {
    match serde_json::to_string(body) {
        Ok(text) => (status, [(CONTENT_TYPE, "application/json")], text).into_response(),
        Err(e) => (StatusCode::INTERNAL_SERVER_ERROR, format!("cannot write the answer: {e}")).into_response(),
    }
}

/// Reads a request's JSON body; an empty body reads as `{}` when the request has
/// defaults for everything (`default`).
pub fn parse<T: DeserializeOwned>(body: &[u8], default: Option<T>) -> Result<T, ApiError> {
    if body.iter().all(u8::is_ascii_whitespace) {
        return default.ok_or_else(|| ApiError::bad_request("the request has no body: a JSON object is expected"));
    }
    serde_json::from_slice(body).map_err(|e| ApiError::bad_request(format!("the body is not the JSON expected: {e}")))
}

/// An option's value as JSON (a string or a whole number) as text.
pub fn option_text(key: &str, value: &serde_json::Value) -> Result<String, ApiError> {
    match value {
        serde_json::Value::String(s) => Ok(s.clone()),
        serde_json::Value::Number(n) if n.is_i64() => Ok(n.to_string()),
        _ => Err(ApiError::bad_request(format!("option `{key}`: a value is a string or a whole number"))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn empty_bodies_take_the_default_only_where_there_is_one() {
        let undo: Undo = parse(b"  ", Some(Undo::default())).expect("an empty undo");
        assert_eq!(undo.ply, None);
        let e = parse::<Load>(b"", None).expect_err("a load needs a record");
        assert_eq!(e.status, StatusCode::BAD_REQUEST);
    }

    #[test]
    fn unknown_fields_and_wrong_types_are_bad_requests() {
        let e = parse::<PlayTurn>(br#"{"ply": 0, "trun": "a1"}"#, None).expect_err("a misspelt field");
        assert_eq!(e.code, "bad-request");
        assert!(e.message.contains("trun"), "{}", e.message);
        assert!(parse::<Computer>(br#"{"ply": -1, "think_ms": 5}"#, None).is_err());
        assert!(parse::<NewGame>(b"[1, 2", None).is_err());
    }

    #[test]
    fn option_values_are_names_or_whole_numbers() {
        assert_eq!(option_text("k", &serde_json::json!("x")), Ok("x".to_string()));
        assert_eq!(option_text("k", &serde_json::json!(7)), Ok("7".to_string()));
        assert!(option_text("k", &serde_json::json!(1.5)).is_err());
        assert!(option_text("k", &serde_json::json!(null)).is_err());
    }
}
