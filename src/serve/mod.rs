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

use session::Server;

/// Serves `server` at `host:port` (port 0: any free port) until Ctrl-C or SIGTERM.
/// `bound` is told the address once the server listens. Returns why it could not
/// start or stopped.
pub fn serve(server: Server, host: &str, port: u16, bound: impl FnOnce(std::net::SocketAddr)) -> Result<(), String> {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .map_err(|e| format!("cannot start the server: {e}"))?;
    runtime.block_on(async move {
        let listener = tokio::net::TcpListener::bind((host, port))
            .await
            .map_err(|e| format!("cannot listen on {host} port {port}: {e}"))?;
        let address = listener.local_addr().map_err(|e| format!("cannot listen on {host} port {port}: {e}"))?;
        bound(address);
        axum::serve(listener, routes::router(Arc::new(server)))
            .with_graceful_shutdown(stopped())
            .await
            .map_err(|e| format!("the server stopped: {e}"))
    })
}

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
