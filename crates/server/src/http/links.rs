//! Where links to the app point — password-set (invitation) links today, password-reset
//! and approval links later (issue 29 § Sign-in; `docs/decisions.md` § People, sign-in and
//! roles).
//!
//! A link that is e-mailed carries a secret token, so its host must be one the server
//! trusts: the configured public URL (`KONTOR_PUBLIC_URL`), or — when none is configured —
//! the request's `Host` only if it is the server's own listen address (also as
//! `localhost` and `127.0.0.1` with its port). Behind a proxy, or with the app hosted
//! elsewhere, `KONTOR_PUBLIC_URL` must be set for links to be e-mailed. A forged `Host: evil.example` therefore never
//! reaches an inbox: without a trusted origin the link is not e-mailed (the admin still
//! sees it in the answer, built from the address they used).

use axum::http::HeaderMap;
use std::net::SocketAddr;

/// The server's public origin and the origins it trusts for links.
#[derive(Clone, Debug, Default)]
pub struct LinkOrigins {
    /// `KONTOR_PUBLIC_URL` without a trailing `/` (`https://kontor.example.com`).
    configured: Option<String>,
    /// Origins a `Host` may name when nothing is configured (`http://127.0.0.1:8080`,
    /// `http://localhost:8080`).
    trusted: Vec<String>,
}

/// `url` without surrounding space and trailing `/`, or `None` when empty.
fn clean(url: &str) -> Option<String> {
    let url = url.trim().trim_end_matches('/');
    (!url.is_empty()).then(|| url.to_string())
}

impl LinkOrigins {
    /// The origins of a server listening on `listen`, and `configured` (the public URL,
    /// if any).
    pub fn new(configured: Option<&str>, listen: SocketAddr) -> Self {
        let port = listen.port();
        let trusted = vec![
            format!("http://{listen}"),
            format!("http://localhost:{port}"),
            format!("http://127.0.0.1:{port}"),
        ];
        LinkOrigins {
            configured: configured.and_then(clean),
            trusted,
        }
    }

    /// [`LinkOrigins::new`] with the public URL from `KONTOR_PUBLIC_URL`.
    pub fn from_env(listen: SocketAddr) -> Self {
        let configured = std::env::var("KONTOR_PUBLIC_URL").ok();
        Self::new(configured.as_deref(), listen)
    }

    /// The request's origin as its `Host` names it (`http://HOST`), when the header is a
    /// plain host name or address with an optional port.
    fn from_host(headers: Option<&HeaderMap>) -> Option<String> {
        headers?
            .get(axum::http::header::HOST)?
            .to_str()
            .ok()
            .filter(|h| {
                !h.is_empty()
                    && h.chars().all(|c| {
                        c.is_ascii_alphanumeric() || matches!(c, '.' | '-' | ':' | '[' | ']')
                    })
            })
            .map(|h| format!("http://{h}"))
    }

    /// The origin of a link that will be e-mailed: the configured public URL, else the
    /// request's host when it is trusted; `None` when neither (then the link must not be
    /// sent).
    pub fn for_email(&self, headers: Option<&HeaderMap>) -> Option<String> {
        if let Some(url) = &self.configured {
            return Some(url.clone());
        }
        Self::from_host(headers).filter(|origin| self.trusted.iter().any(|t| t == origin))
    }

    /// The origin of a link shown to the person who asked for it (never e-mailed): as
    /// [`Self::for_email`], else the request's own host, else `http://127.0.0.1:8080`.
    pub fn for_answer(&self, headers: Option<&HeaderMap>) -> String {
        self.for_email(headers)
            .or_else(|| Self::from_host(headers))
            .unwrap_or_else(|| "http://127.0.0.1:8080".to_string())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::http::HeaderValue;

    fn host(h: &str) -> HeaderMap {
        let mut map = HeaderMap::new();
        map.insert(axum::http::header::HOST, HeaderValue::from_str(h).unwrap());
        map
    }

    #[test]
    fn a_forged_host_is_never_emailed() {
        let listen: SocketAddr = "127.0.0.1:8080".parse().unwrap();
        let origins = LinkOrigins::new(None, listen);
        assert_eq!(origins.for_email(Some(&host("evil.example"))), None);
        assert_eq!(
            origins.for_answer(Some(&host("evil.example"))),
            "http://evil.example"
        );
        assert_eq!(
            origins.for_email(Some(&host("127.0.0.1:8080"))).as_deref(),
            Some("http://127.0.0.1:8080")
        );
        assert_eq!(
            origins.for_email(Some(&host("localhost:8080"))).as_deref(),
            Some("http://localhost:8080")
        );
        assert_eq!(origins.for_email(Some(&host("localhost:9999"))), None);
        assert_eq!(origins.for_email(None), None);
        // The configured public URL wins over any Host.
        let configured = LinkOrigins::new(Some("https://kontor.example.com/ "), listen);
        assert_eq!(
            configured.for_email(Some(&host("evil.example"))).as_deref(),
            Some("https://kontor.example.com")
        );
        assert_eq!(configured.for_answer(None), "https://kontor.example.com");
    }
}
