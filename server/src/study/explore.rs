//! An explorer view: the keys a query names read from the store, summed
//! by `tengen_study::explorer::view`.

use tengen_protocol::{ErrorBody, ErrorCode, ExplorerFilter, ExplorerView};
use tengen_rules::Point;
use tengen_rules::game::{Opening, RuleSet};
use tengen_store::Store;
use tengen_study::explorer::{self, Query, Rows};

fn refused(e: impl std::fmt::Display) -> ErrorBody {
    ErrorBody::new(ErrorCode::BadRequest, e.to_string())
}

/// The view of the position after `moves`.
pub async fn explore(
    store: &dyn Store,
    depth: u32,
    rule_set: RuleSet,
    opening: Opening,
    size: Option<u8>,
    moves: Vec<Point>,
    filter: ExplorerFilter,
) -> Result<ExplorerView, ErrorBody> {
    if depth == 0 {
        return Err(ErrorBody::new(
            ErrorCode::NotFound,
            "this server keeps no opening explorer",
        ));
    }
    let size = size.unwrap_or(rule_set.default_size());
    if size != rule_set.default_size() && !(rule_set == RuleSet::Freestyle && size == 19) {
        return Err(refused(format!(
            "{rule_set} is not played on {size}x{size}"
        )));
    }
    let query = Query {
        rule_set,
        opening,
        size,
        moves,
        filter,
        depth,
    };
    let form = query.form().map_err(refused)?;
    let store_error = |e| crate::accounts::store_refusal(&e);
    let months: Vec<u32> = if query.has_period() {
        store
            .tallies(explorer::SPACE, &[query.months_key()])
            .await
            .map_err(store_error)?
            .remove(0)
            .into_iter()
            .map(|(month, _)| month)
            .collect()
    } else {
        Vec::new()
    };
    let keys = query.node_keys(&form, &months).map_err(refused)?;
    let counts = store
        .tallies(explorer::SPACE, &keys)
        .await
        .map_err(store_error)?;
    let latest = store
        .lists(explorer::SPACE, &keys[..1])
        .await
        .map_err(store_error)?
        .remove(0);
    explorer::view(&query, &form, &Rows { counts, latest }).map_err(refused)
}
