//! The conformance suite every [`crate::Store`] implementation passes.
//! (Being written.)
