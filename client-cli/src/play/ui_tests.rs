//! Screens on ratatui's `TestBackend`.
