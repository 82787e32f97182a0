//! What the moderation tests share: `tengen-server admin` on a data
//! directory, a `moderate` request, and the refusal a request expects.

use std::path::Path;

use tengen_client::{ClientError, Connection};
use tengen_protocol::{ClientMsg, ErrorBody, ModRequest, ServerMsg};

/// `tengen-server admin` (the real binary) on `dir`: its JSON answer.
/// Waited for off the runtime, which serves the server it talks to.
pub async fn admin(dir: &Path, args: &[&str]) -> (bool, serde_json::Value) {
    let mut all = vec!["--data-dir".to_owned(), dir.display().to_string()];
    all.extend(args.iter().map(|a| a.to_string()));
    super::proc::admin(all).await
}

/// The refusal `r` must be.
pub fn refusal(r: Result<ServerMsg, ClientError>) -> ErrorBody {
    match r {
        Err(ClientError::Refused(e)) => e,
        other => panic!("expected a refusal, got {other:?}"),
    }
}

/// One `moderate` request and its answer.
pub async fn moderate(c: &mut Connection, req: ModRequest) -> Result<ServerMsg, ClientError> {
    c.request(ClientMsg::Moderate(req)).await
}
