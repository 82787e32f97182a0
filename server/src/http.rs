//! The HTTP side of the one port: `/ws` (upgraded to a WebSocket and handed
//! to [`crate::conn`]), `/healthz` (503 once a graceful stop began or while
//! the store refuses writes, for load balancers), `/metrics`, `/lag.json`
//! (the public lag page's figures, [`crate::lag`]), and the web client
//! ([`crate::web`]).
//!
//! An upgrade passes, in order: the graceful stop (503), the per-address
//! caps (429 with `Retry-After`, [`crate::addresses`]), overload (503
//! with `Retry-After` while the server is behind, [`crate::pressure`]),
//! the global connection cap (503, [`crate::admission`]). Every route runs under the
//! socket's deadline ([`crate::gate`]). The WebSocket has no extensions:
//! permessage-deflate is never negotiated (tungstenite implements none), so
//! a message costs what its bytes say and no compression bomb inflates.

use axum::Router;
use axum::extract::ws::WebSocketUpgrade;
use axum::extract::{ConnectInfo, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::IntoResponse;
use axum::routing::get;
use tengen_protocol::{MAX_WS_MESSAGE_BYTES, WS_PATH};

use crate::AppState;
use crate::addresses::{Client, Refused};
use crate::gate::Peer;
use crate::metrics::cap_hit;

pub fn router(state: AppState) -> Router {
    // After a response: time to take it and to send the next request.
    let caps = &state.hosting.settings.caps;
    let between_requests = caps.handshake_timeout + caps.write_timeout;
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
        .route("/lag.json", get(lag))
        .merge(crate::web::router())
        .with_state(state)
        .layer(axum::middleware::from_fn_with_state(
            between_requests,
            crate::gate::deadline_layer,
        ))
}

/// 200 `ok` while serving; 503 `shutting down` once a graceful stop
/// began, and 503 with the reason while the store refuses writes (every
/// move would be refused here; `health`).
async fn healthz(State(state): State<AppState>) -> axum::response::Response {
    if *state.shutdown.borrow() {
        (StatusCode::SERVICE_UNAVAILABLE, "shutting down").into_response()
    } else if let Some(why) = state.store_health.refusing(state.hosting.store.as_ref()) {
        let body = format!("the store refuses writes: {why}");
        (StatusCode::SERVICE_UNAVAILABLE, body).into_response()
    } else {
        "ok".into_response()
    }
}

/// This node's recent move and store-write times and live counts, for
/// anyone (the web client's `/lag` page shows them).
async fn lag(State(state): State<AppState>) -> axum::response::Response {
    let hosting = &state.hosting;
    let report = hosting
        .lag
        .report(hosting.directory.len(), state.admission.open());
    match serde_json::to_string(&report) {
        Ok(body) => (
            [
                ("content-type", "application/json"),
                ("cache-control", "no-store"),
                ("x-content-type-options", "nosniff"),
            ],
            body,
        )
            .into_response(),
        Err(_) => StatusCode::INTERNAL_SERVER_ERROR.into_response(),
    }
}

/// The client a request comes from (through a trusted proxy, the address
/// it forwarded).
fn client_of(state: &AppState, peer: &Peer, headers: &HeaderMap) -> Client {
    let xff = headers.get("x-forwarded-for").and_then(|v| v.to_str().ok());
    state.addresses.client(peer.addr.ip(), xff)
}

/// HTTP 429: a per-address cap, with when to try again (whole seconds,
/// at least one); the socket is closed after it.
fn too_many(refused: &Refused) -> axum::response::Response {
    cap_hit(refused.cap);
    let secs = refused.retry_after.as_secs_f64().ceil().max(1.0) as u64;
    (
        StatusCode::TOO_MANY_REQUESTS,
        [
            ("retry-after", secs.to_string()),
            ("connection", "close".to_string()),
        ],
        format!(
            "too many connections from your address ({}); try again in {secs} s",
            refused.cap.name()
        ),
    )
        .into_response()
}

async fn upgrade(
    ws: WebSocketUpgrade,
    State(state): State<AppState>,
    ConnectInfo(peer): ConnectInfo<Peer>,
    headers: HeaderMap,
) -> axum::response::Response {
    if *state.shutdown.borrow() {
        return (StatusCode::SERVICE_UNAVAILABLE, "the server is restarting").into_response();
    }
    let client = client_of(&state, &peer, &headers);
    if !crate::moderation::gate::upgrade_allowed(&state.hosting.moderation, client.ip) {
        return (StatusCode::FORBIDDEN, "this address is banned").into_response();
    }
    let place = match state.addresses.upgrade(client) {
        Ok(place) => place,
        Err(refused) => {
            tracing::debug!(peer = %peer.addr, client = %client.ip, cap = refused.cap.name(), "upgrade refused");
            return too_many(&refused);
        }
    };
    if let Some(retry) = state.hosting.pressure.shedding() {
        state.hosting.pressure.shed("connection");
        let secs = retry.as_secs().max(1).to_string();
        return (
            StatusCode::SERVICE_UNAVAILABLE,
            [("retry-after", secs)],
            "the server is busy; try again shortly",
        )
            .into_response();
    }
    let Some(ticket) = state.admission.admit() else {
        return (
            StatusCode::SERVICE_UNAVAILABLE,
            [("retry-after", "5")],
            "the server is full; try again shortly",
        )
            .into_response();
    };
    let ticket = ticket.with_address(place);
    let read_buffer = state.hosting.settings.read_buffer_bytes;
    ws.read_buffer_size(read_buffer)
        .write_buffer_size(crate::outbound::WRITE_BUFFER)
        .max_write_buffer_size(crate::outbound::MAX_WRITE_BUFFER)
        .max_message_size(MAX_WS_MESSAGE_BYTES)
        .max_frame_size(MAX_WS_MESSAGE_BYTES)
        .on_upgrade(move |socket| crate::conn::run(socket, state, peer.addr, client, ticket))
        .into_response()
}
