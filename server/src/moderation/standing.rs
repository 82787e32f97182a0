//! Changing an account's standing: read, change, write conditionally on
//! the version read, again on a conflict (another moderator or node wrote
//! meanwhile), so that no change is lost; then noted in this node's
//! [`super::book::Book`].

use tengen_store::{Standing, Store, StoreError};

/// How often a change is tried against concurrent writers.
const ATTEMPTS: usize = 5;

/// Applies `change` to `name`'s standing (a fresh one if none is stored)
/// and stores it; the stored result. `change` returns `false` to write
/// nothing (and the standing as read is returned).
pub async fn update(
    store: &dyn Store,
    name: &str,
    mut change: impl FnMut(&mut Standing) -> bool,
) -> Result<Standing, StoreError> {
    for _ in 0..ATTEMPTS {
        let mut standing = store
            .standing(name)
            .await?
            .unwrap_or_else(|| Standing::new(name));
        if !change(&mut standing) {
            return Ok(standing);
        }
        match store.put_standing(&standing).await {
            Ok(()) => {
                standing.version += 1;
                return Ok(standing);
            }
            Err(StoreError::Conflict(_)) => continue,
            Err(e) => return Err(e),
        }
    }
    Err(StoreError::Conflict(format!(
        "{name}'s standing kept changing; try again"
    )))
}
