//! The HTTP side of the one port: `/ws` (upgraded to a WebSocket and handed
//! to [`crate::conn`]), `/healthz` (503 once a graceful stop began, for
//! load balancers), `/metrics`, and the web client ([`crate::web`]).

use std::net::SocketAddr;

use axum::Router;
use axum::extract::ws::WebSocketUpgrade;
use axum::extract::{ConnectInfo, State};
use axum::http::StatusCode;
use axum::response::IntoResponse;
use axum::routing::get;
use tengen_protocol::{MAX_WS_MESSAGE_BYTES, WS_PATH};

use crate::AppState;

pub fn router(state: AppState) -> Router {
    Router::new()
        .route(WS_PATH, get(upgrade))
        .route("/healthz", get(healthz))
        .route(
            "/metrics",
            get(|| async {
                (
                    [("content-type", "text/plain; version=0.0.4")],
                    crate::metrics::render(),
                )
            }),
        )
        .merge(crate::web::router())
        .with_state(state)
}

/// 200 `ok` while serving; 503 `shutting down` once a graceful stop began.
async fn healthz(State(state): State<AppState>) -> axum::response::Response {
    if *state.shutdown.borrow() {
        (StatusCode::SERVICE_UNAVAILABLE, "shutting down").into_response()
    } else {
        "ok".into_response()
    }
}

async fn upgrade(
    ws: WebSocketUpgrade,
    State(state): State<AppState>,
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
) -> axum::response::Response {
    if *state.shutdown.borrow() {
        return (StatusCode::SERVICE_UNAVAILABLE, "the server is restarting").into_response();
    }
    if !crate::moderation::gate::upgrade_allowed(&state.hosting.moderation, peer.ip()) {
        return (StatusCode::FORBIDDEN, "this address is banned").into_response();
    }
    let Some(ticket) = state.admission.admit() else {
        return (
            StatusCode::SERVICE_UNAVAILABLE,
            [("retry-after", "5")],
            "the server is full; try again shortly",
        )
            .into_response();
    };
    let read_buffer = state.hosting.settings.read_buffer_bytes;
    ws.read_buffer_size(read_buffer)
        .write_buffer_size(crate::outbound::WRITE_BUFFER)
        .max_write_buffer_size(crate::outbound::MAX_WRITE_BUFFER)
        .max_message_size(MAX_WS_MESSAGE_BYTES)
        .max_frame_size(MAX_WS_MESSAGE_BYTES)
        .on_upgrade(move |socket| crate::conn::run(socket, state, peer, ticket))
        .into_response()
}
