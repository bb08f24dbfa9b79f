//! `rulesi serve`: a local web server where any game is played in the browser.
//!
//! The page (`assets/serve/`: plain HTML, CSS and JavaScript, embedded in the
//! program) draws the board with the server's SVG pictures and plays through a JSON
//! API (`docs/serve.md`). [`api`] holds the requests, responses and errors,
//! [`session`] the games in play, [`routes`] the routes.

pub mod api;
pub mod routes;
pub mod session;

use std::sync::Arc;
use std::time::Duration;

use session::Server;

/// Serves `server` at `host:port` (port 0: any free port) until Ctrl-C or SIGTERM.
/// `bound` is told the address once the server listens. Returns why it could not
/// start or stopped.
///
/// On Ctrl-C the server stops at once: requests under way are dropped, and a search of
/// the computer still running is not waited for (the games end with the server
/// anyway).
pub fn serve(server: Server, host: &str, port: u16, bound: impl FnOnce(std::net::SocketAddr)) -> Result<(), String> {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        // The computer's searches run on the blocking threads (see `routes`).
        .thread_stack_size(rulesi::engine::error::SEARCH_STACK)
        .build()
        .map_err(|e| format!("cannot start the server: {e}"))?;
    let served = runtime.block_on(async move {
        let listener = tokio::net::TcpListener::bind((host, port))
            .await
            .map_err(|e| format!("cannot listen on {host} port {port}: {e}"))?;
        let address = listener.local_addr().map_err(|e| format!("cannot listen on {host} port {port}: {e}"))?;
        bound(address);
        let serving = axum::serve(listener, routes::router(Arc::new(server)));
        tokio::select! {
            done = serving => done.map_err(|e| format!("the server stopped: {e}")),
            () = stopped() => Ok(()),
        }
    });
    runtime.shutdown_timeout(SHUTDOWN);
    served
}

/// How long a stopping server waits for the work under way (the computer's searches).
const SHUTDOWN: Duration = Duration::from_millis(200);

/// Ends when the program is asked to stop: Ctrl-C or SIGTERM.
async fn stopped() {
    let interrupt = async {
        let _ = tokio::signal::ctrl_c().await;
    };
    let terminate = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut s) => {
                s.recv().await;
            }
            Err(_) => std::future::pending::<()>().await,
        }
    };
    tokio::select! {
        () = interrupt => {}
        () = terminate => {}
    }
}
