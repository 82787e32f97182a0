//! The browser client: the files of `web/static/`, embedded at build time
//! (`build.rs`), served with their gzip form when the browser takes it,
//! strong ETags, year-long caching of the versioned `/assets/<version>/`
//! URLs, and strict security headers. Every client route (`/`,
//! `/play/ROOM`, `/watch/TABLE`, `/tv`, `/@/NAME`, `/game/ID`,
//! `/leaderboard`, `/tournaments`, `/tournament/ID`, `/lag`) is the same page: the client reads the path itself.

use axum::Router;
use axum::extract::Path;
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::get;

/// One embedded file.
pub struct Asset {
    /// Its path under `web/static/`.
    pub path: &'static str,
    pub mime: &'static str,
    /// A strong ETag: a hash of `raw`.
    pub etag: &'static str,
    pub raw: &'static [u8],
    /// `raw`, gzip-compressed at build time.
    pub gzip: &'static [u8],
}

include!(concat!(env!("OUT_DIR"), "/web_assets.rs"));

/// The page's Content-Security-Policy: nothing but this origin (and its
/// WebSocket), no inline script or style, no plugins, no framing.
pub const CSP: &str = "default-src 'none'; script-src 'self'; style-src 'self'; \
     img-src 'self' data:; connect-src 'self' ws: wss:; manifest-src 'self'; \
     base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

/// The embedded file at `path` (under `web/static/`).
pub fn asset(path: &str) -> Option<&'static Asset> {
    ASSETS.iter().find(|a| a.path == path)
}

/// The web client's routes (no state: everything is embedded).
pub fn router<S: Clone + Send + Sync + 'static>() -> Router<S> {
    Router::new()
        .route("/", get(page))
        .route("/tv", get(page))
        .route("/leaderboard", get(page))
        .route("/tournaments", get(page))
        .route("/tournament/{id}", get(page))
        .route("/lag", get(page))
        .route("/explorer", get(page))
        .route("/puzzle", get(page))
        .route("/puzzle/{id}", get(page))
        .route("/trainer", get(page))
        .route("/play/{room}", get(page))
        .route("/watch/{table}", get(page))
        .route("/game/{id}", get(page))
        .route("/@/{name}", get(page))
        .route("/favicon.ico", get(favicon))
        .route("/assets/{version}/{*path}", get(versioned))
}

async fn page(headers: HeaderMap) -> Response {
    if let Some(r) = from_disk("index.html") {
        return r;
    }
    match asset("index.html") {
        Some(a) => serve(a, &headers, "no-cache"),
        None => (StatusCode::NOT_FOUND, "the web client is not built in").into_response(),
    }
}

async fn favicon(headers: HeaderMap) -> Response {
    match asset("icon.svg") {
        Some(a) => serve(a, &headers, "public, max-age=86400"),
        None => StatusCode::NOT_FOUND.into_response(),
    }
}

async fn versioned(Path((version, path)): Path<(String, String)>, headers: HeaderMap) -> Response {
    if let Some(r) = from_disk(&path) {
        return r;
    }
    let Some(a) = asset(&path).filter(|a| a.path != "index.html") else {
        return (StatusCode::NOT_FOUND, "no such asset").into_response();
    };
    // An older page may still ask for its own version: it gets today's file,
    // but not cached for long under a name that does not match it.
    let cache = if version == VERSION {
        "public, max-age=31536000, immutable"
    } else {
        "no-cache"
    };
    serve(a, &headers, cache)
}

/// For working on the client: with `TENGEN_WEB_DIR` set (to `web/static`),
/// files are read from there on every request, uncached, so a reload shows
/// an edit without rebuilding the server. Never set in production.
fn from_disk(path: &str) -> Option<Response> {
    let dir = std::env::var_os("TENGEN_WEB_DIR")?;
    if path.split('/').any(|part| part == ".." || part.is_empty()) {
        return Some(StatusCode::NOT_FOUND.into_response());
    }
    let Ok(mut bytes) = std::fs::read(std::path::Path::new(&dir).join(path)) else {
        return Some((StatusCode::NOT_FOUND, "no such asset").into_response());
    };
    if path == "index.html" {
        bytes = String::from_utf8_lossy(&bytes)
            .replace("/assets/", "/assets/dev/")
            .into_bytes();
    }
    let mime = ASSETS
        .iter()
        .find(|a| a.path.rsplit('.').next() == path.rsplit('.').next())
        .map_or("application/octet-stream", |a| a.mime);
    let mut res = bytes.into_response();
    let h = res.headers_mut();
    h.insert(header::CONTENT_TYPE, HeaderValue::from_static(mime));
    h.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    security_headers(h);
    Some(res)
}

fn serve(a: &Asset, headers: &HeaderMap, cache: &'static str) -> Response {
    let gzip = accepts_gzip(headers);
    let fresh = headers
        .get(header::IF_NONE_MATCH)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.split(',').any(|t| t.trim() == a.etag || t.trim() == "*"));
    let mut res = if fresh {
        StatusCode::NOT_MODIFIED.into_response()
    } else if gzip {
        let mut r = a.gzip.into_response();
        r.headers_mut()
            .insert(header::CONTENT_ENCODING, HeaderValue::from_static("gzip"));
        r
    } else {
        a.raw.into_response()
    };
    let h = res.headers_mut();
    h.insert(header::CONTENT_TYPE, HeaderValue::from_static(a.mime));
    h.insert(header::ETAG, HeaderValue::from_static(a.etag));
    h.insert(header::CACHE_CONTROL, HeaderValue::from_static(cache));
    h.insert(header::VARY, HeaderValue::from_static("Accept-Encoding"));
    security_headers(h);
    res
}

/// The headers every page and asset carries.
pub fn security_headers(h: &mut HeaderMap) {
    h.insert(
        header::CONTENT_SECURITY_POLICY,
        HeaderValue::from_static(CSP),
    );
    h.insert(
        header::X_CONTENT_TYPE_OPTIONS,
        HeaderValue::from_static("nosniff"),
    );
    h.insert(
        header::REFERRER_POLICY,
        HeaderValue::from_static("no-referrer"),
    );
    h.insert(header::X_FRAME_OPTIONS, HeaderValue::from_static("DENY"));
    h.insert(
        "cross-origin-opener-policy",
        HeaderValue::from_static("same-origin"),
    );
    h.insert(
        "cross-origin-resource-policy",
        HeaderValue::from_static("same-origin"),
    );
    h.insert(
        "permissions-policy",
        HeaderValue::from_static("camera=(), microphone=(), geolocation=()"),
    );
}

fn accepts_gzip(headers: &HeaderMap) -> bool {
    headers
        .get_all(header::ACCEPT_ENCODING)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(','))
        .any(|coding| {
            let mut parts = coding.split(';');
            let name = parts.next().unwrap_or("").trim();
            let refused = parts.any(|p| {
                p.trim()
                    .strip_prefix("q=")
                    .and_then(|q| q.trim().parse::<f32>().ok())
                    .is_some_and(|q| q == 0.0)
            });
            (name.eq_ignore_ascii_case("gzip") || name == "*") && !refused
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_page_and_its_modules_are_embedded() {
        let index = asset("index.html").expect("index.html");
        let text = std::str::from_utf8(index.raw).unwrap();
        assert!(text.contains(&format!("/assets/{VERSION}/")), "{text}");
        assert!(asset("js/main.js").is_some());
        for a in ASSETS {
            assert!(!a.gzip.is_empty() && a.etag.starts_with('"'), "{}", a.path);
        }
    }

    #[test]
    fn gzip_is_taken_unless_refused() {
        let mut h = HeaderMap::new();
        assert!(!accepts_gzip(&h));
        h.insert(
            header::ACCEPT_ENCODING,
            "gzip, deflate, br".parse().unwrap(),
        );
        assert!(accepts_gzip(&h));
        h.insert(header::ACCEPT_ENCODING, "br, gzip;q=0".parse().unwrap());
        assert!(!accepts_gzip(&h));
    }
}
