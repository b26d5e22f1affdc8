//! Kontor browser app.
