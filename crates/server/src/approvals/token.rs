//! Approval tokens (issue 31: "≥ 128 random bits, URL-safe, stored only as a hash, looked up
//! in constant time").
//!
//! A token is `hex(HMAC-SHA256(key, PURPOSE, nonce))` — 64 hex digits — under the audit
//! key file's key named by the row's `key_fingerprint` (`crate::proof::audit_key`, which
//! never lives in the database), with a 256-bit random `nonce`. The database keeps the
//! nonce, the fingerprint and the token's SHA-256: staff can be shown the same link again
//! (`GET /offers/{id}/customer_approval`), while a copy of the database alone opens no
//! approval. A request's token is found by its SHA-256 (a unique index) and then compared
//! with the recomputed token in constant time.

use crate::http::error::{ApiError, ApiResult};
use subtle::ConstantTimeEq;

/// What the key derivation is for (never reused for anything else).
const PURPOSE: &[u8] = b"kontor offer approval token v1";

/// A new token with what the database stores of it.
pub struct Minted {
    /// The token (64 hex digits).
    pub token: String,
    /// SHA-256 of the token.
    pub hash: Vec<u8>,
    /// The random nonce (64 hex digits).
    pub nonce: String,
    /// The fingerprint of the key it was derived with.
    pub fingerprint: String,
}

fn keys(pool: &crate::sql::Db) -> ApiResult<std::sync::Arc<crate::proof::audit_key::Keyring>> {
    crate::proof::audit_key::for_db(pool)
        .ok_or_else(|| ApiError::Internal("no audit key is registered for the database".into()))
}

/// A fresh token under the current key. Errors: 500 when no key file is registered.
pub fn mint(pool: &crate::sql::Db) -> ApiResult<Minted> {
    let nonce = crate::access::auth::random_hex(32);
    let (fingerprint, token) = keys(pool)?
        .derive(None, PURPOSE, nonce.as_bytes())
        .ok_or_else(|| ApiError::Internal("the audit keyring is empty".into()))?;
    Ok(Minted {
        hash: hash(&token),
        token,
        nonce,
        fingerprint,
    })
}

/// The token of a stored `nonce` under key `fingerprint`. Errors: 500 when that key is not
/// in the key file (a rotated-out or foreign key: the link cannot be shown).
pub fn recompute(pool: &crate::sql::Db, nonce: &str, fingerprint: &str) -> ApiResult<String> {
    keys(pool)?
        .derive(Some(fingerprint), PURPOSE, nonce.as_bytes())
        .map(|(_, token)| token)
        .ok_or_else(|| {
            ApiError::Internal(format!(
                "approval token key {fingerprint} is not in the audit key file"
            ))
        })
}

/// SHA-256 of `token`, as stored and looked up.
pub fn hash(token: &str) -> Vec<u8> {
    crate::access::auth::hash_key(token)
}

/// Whether `token` has a token's form (64 lowercase hex digits); anything else is an
/// unknown approval without a database lookup.
pub fn well_formed(token: &str) -> bool {
    token.len() == 64
        && token
            .bytes()
            .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b))
}

/// Whether `given` equals `expected`, in time independent of where they differ.
pub fn same(given: &str, expected: &str) -> bool {
    given.as_bytes().ct_eq(expected.as_bytes()).into()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_64_lowercase_hex_digits_are_tokens() {
        assert!(well_formed(&"a1".repeat(32)));
        assert!(!well_formed(&"A1".repeat(32)));
        assert!(!well_formed(&"a1".repeat(31)));
        assert!(!well_formed(&format!("{}../", "a".repeat(61))));
    }

    #[test]
    fn a_token_is_derived_from_its_key_and_nonce() {
        let ring = crate::proof::audit_key::Keyring::generate(None);
        let (fp, one) = ring.derive(None, PURPOSE, b"nonce").unwrap();
        let (_, again) = ring.derive(Some(&fp), PURPOSE, b"nonce").unwrap();
        let (_, other) = ring.derive(None, PURPOSE, b"other nonce").unwrap();
        assert_eq!(one, again);
        assert_ne!(one, other);
        assert!(well_formed(&one));
        assert!(same(&one, &again) && !same(&one, &other));
        let foreign = crate::proof::audit_key::Keyring::generate(None);
        assert_ne!(foreign.derive(None, PURPOSE, b"nonce").unwrap().1, one);
        assert!(ring.derive(Some("00000000"), PURPOSE, b"nonce").is_none());
    }
}
