//! The routes: the page and its files, and the JSON API (see `docs/serve.md`).
//!
//! Every handler reads its body as bytes (at most [`MAX_BODY`]: a larger one is a 413),
//! parses it itself (a 400 names what is wrong) and does the game's work on a
//! blocking thread, so that a long replay or the computer's search never holds up
//! the server's other requests.

use std::sync::Arc;

use axum::Router;
use axum::body::Bytes;
use axum::extract::rejection::{BytesRejection, PathRejection};
use axum::extract::{DefaultBodyLimit, Path, State};
use axum::http::header::{CACHE_CONTROL, CONTENT_TYPE};
use axum::http::{StatusCode, Uri};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use tokio::sync::Semaphore;

use super::api::{self, ApiError, json_response, parse};
use super::session::{Server, lock};

/// The largest request body accepted: 1 MiB (a record of tens of thousands of moves).
pub const MAX_BODY: usize = 1024 * 1024;

/// The most searches of the computer at once; more are refused (503) until one ends.
pub const MAX_SEARCHES: usize = 4;

/// What the handlers share.
#[derive(Clone)]
pub struct Shared {
    /// The game and the games in play.
    pub server: Arc<Server>,
    /// Permits for the computer's searches.
    pub searches: Arc<Semaphore>,
}

/// The page's files.
const INDEX: &str = include_str!("../../assets/serve/index.html");
const SCRIPT: &str = include_str!("../../assets/serve/board.js");
const STYLE: &str = include_str!("../../assets/serve/style.css");

/// The application: the page and the API.
pub fn router(server: Arc<Server>) -> Router {
    let shared = Shared { server, searches: Arc::new(Semaphore::new(MAX_SEARCHES)) };
    Router::new()
        .route("/", get(|| async { asset("text/html; charset=utf-8", INDEX) }))
        .route("/board.js", get(|| async { asset("text/javascript; charset=utf-8", SCRIPT) }))
        .route("/style.css", get(|| async { asset("text/css; charset=utf-8", STYLE) }))
        .route("/api/game", get(game_info))
        .route("/api/games", post(new_game))
        .route("/api/games/load", post(load))
        .route("/api/games/{id}", get(position))
        .route("/api/games/{id}/play", post(play))
        .route("/api/games/{id}/undo", post(undo))
        .route("/api/games/{id}/computer", post(computer))
        .fallback(not_found)
        .method_not_allowed_fallback(method_not_allowed)
        .layer(DefaultBodyLimit::max(MAX_BODY))
        .with_state(shared)
}

/// A file of the page.
fn asset(content_type: &'static str, text: &'static str) -> Response {
    ([(CONTENT_TYPE, content_type), (CACHE_CONTROL, "no-cache")], text).into_response()
}

async fn not_found(uri: Uri) -> ApiError {
    let shown: String = uri.path().chars().take(100).collect();
    ApiError::new(StatusCode::NOT_FOUND, "not-found", format!("nothing is served at {shown}"))
}

async fn method_not_allowed(uri: Uri) -> ApiError {
    let shown: String = uri.path().chars().take(100).collect();
    ApiError::new(StatusCode::METHOD_NOT_ALLOWED, "method-not-allowed", format!("{shown} does not take this method"))
}

/// The body, or the error for a body that could not be read (413 when too large).
fn body(read: Result<Bytes, BytesRejection>) -> Result<Bytes, ApiError> {
    read.map_err(|e| {
        let status = e.status();
        if status == StatusCode::PAYLOAD_TOO_LARGE {
            ApiError::new(status, "too-large", format!("the body is larger than {MAX_BODY} bytes"))
        } else {
            ApiError::new(status, "bad-request", format!("the body cannot be read: {}", e.body_text()))
        }
    })
}

/// The id in a game's path, or the error for a path that cannot be read (not UTF-8).
fn game_id(path: Result<Path<String>, PathRejection>) -> Result<String, ApiError> {
    path.map(|Path(id)| id)
        .map_err(|e| ApiError::bad_request(format!("the game's id cannot be read: {}", e.body_text())))
}

/// Runs a game's work on a blocking thread.
async fn blocking<T: serde::Serialize + Send + 'static>(
    work: impl FnOnce() -> Result<T, ApiError> + Send + 'static,
) -> Response {
    let answer = match tokio::task::spawn_blocking(work).await {
        Ok(answer) => answer,
        Err(e) => Err(ApiError::new(StatusCode::INTERNAL_SERVER_ERROR, "internal", format!("the request failed: {e}"))),
    };
    match answer {
        Ok(value) => json_response(StatusCode::OK, &value),
        Err(e) => e.into_response(),
    }
}

async fn game_info(State(shared): State<Shared>) -> Response {
    json_response(StatusCode::OK, &shared.server.info())
}

async fn new_game(State(shared): State<Shared>, read: Result<Bytes, BytesRejection>) -> Response {
    let request = match body(read).and_then(|b| parse::<api::NewGame>(&b, Some(api::NewGame::default()))) {
        Ok(r) => r,
        Err(e) => return e.into_response(),
    };
    blocking(move || shared.server.create(request)).await
}

async fn load(State(shared): State<Shared>, read: Result<Bytes, BytesRejection>) -> Response {
    let request = match body(read).and_then(|b| parse::<api::Load>(&b, None)) {
        Ok(r) => r,
        Err(e) => return e.into_response(),
    };
    blocking(move || shared.server.load(&request.record)).await
}

async fn position(State(shared): State<Shared>, id: Result<Path<String>, PathRejection>) -> Response {
    let id = match game_id(id) {
        Ok(id) => id,
        Err(e) => return e.into_response(),
    };
    blocking(move || {
        let game = shared.server.get(&id)?;
        let g = lock(&game);
        g.position(&id, &shared.server.record_game)
    })
    .await
}

async fn play(
    State(shared): State<Shared>,
    id: Result<Path<String>, PathRejection>,
    read: Result<Bytes, BytesRejection>,
) -> Response {
    let id = match game_id(id) {
        Ok(id) => id,
        Err(e) => return e.into_response(),
    };
    let request = match body(read).and_then(|b| parse::<api::PlayTurn>(&b, None)) {
        Ok(r) => r,
        Err(e) => return e.into_response(),
    };
    blocking(move || {
        let game = shared.server.get(&id)?;
        let mut g = lock(&game);
        g.play(&request)?;
        g.position(&id, &shared.server.record_game)
    })
    .await
}

async fn undo(
    State(shared): State<Shared>,
    id: Result<Path<String>, PathRejection>,
    read: Result<Bytes, BytesRejection>,
) -> Response {
    let id = match game_id(id) {
        Ok(id) => id,
        Err(e) => return e.into_response(),
    };
    let request = match body(read).and_then(|b| parse::<api::Undo>(&b, Some(api::Undo::default()))) {
        Ok(r) => r,
        Err(e) => return e.into_response(),
    };
    blocking(move || {
        let game = shared.server.get(&id)?;
        let mut g = lock(&game);
        g.undo(request.ply)?;
        g.position(&id, &shared.server.record_game)
    })
    .await
}

async fn computer(
    State(shared): State<Shared>,
    id: Result<Path<String>, PathRejection>,
    read: Result<Bytes, BytesRejection>,
) -> Response {
    let id = match game_id(id) {
        Ok(id) => id,
        Err(e) => return e.into_response(),
    };
    let request = match body(read).and_then(|b| parse::<api::Computer>(&b, None)) {
        Ok(r) => r,
        Err(e) => return e.into_response(),
    };
    let Ok(permit) = Arc::clone(&shared.searches).try_acquire_owned() else {
        return ApiError::new(
            StatusCode::SERVICE_UNAVAILABLE,
            "busy",
            format!("the computer is already thinking for {MAX_SEARCHES} games: try again when one has moved"),
        )
        .into_response();
    };
    blocking(move || {
        let answer = shared.server.computer(&id, &request);
        drop(permit);
        answer
    })
    .await
}
