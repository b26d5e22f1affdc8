//! The outbox of writes made while offline (issue 37 "Writes offline, synced exactly
//! once"): what is queued, in which order it is sent, and what an answer does to it. Pure
//! rules; the app's `api::outbox` keeps the [`Outbox`] in `localStorage` and sends it.
//!
//! - Only creations are queued ([`OutboxKind`]: a draft invoice, a new offer, a new
//!   company, a new purchase with its receipt — `POST` of a JSON body). Finalizing, sending, payments and deletions need
//!   the server (numbers stay gap-free) and are never queued.
//! - Each item gets its `Idempotency-Key` when it is queued (in fact before its first
//!   attempt: the request that failed offline already carried it), and every replay sends
//!   the same key, so a connection cut after the server wrote the record answers the stored
//!   record again instead of writing a second one (`docs/decisions.md` § Idempotency-Key).
//! - Replay goes in the order of queueing ([`Outbox::next_to_send`]); a 2xx removes the
//!   item, a 4xx keeps it with the server's message and field errors and the replay goes on
//!   with the next item (items are independent creations), a network failure or a 5xx
//!   stops the replay with the item still waiting.
//!
//! Decision: `docs/decisions.md` § "Offline" (outbox).

use crate::error::FieldErrors;
use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};

/// The stored format written now; other versions are not read (never half an outbox).
pub const OUTBOX_VERSION: u32 = 1;

/// Most items waiting at once; a further write offline is refused with a message (the
/// browser's storage holds about 5 MB).
pub const OUTBOX_MAX_ITEMS: usize = 100;

/// The largest stored outbox read back, in bytes of JSON text (a receipt photo travels as
/// base64 inside its purchase; the browser's `localStorage` holds about 5 million
/// characters); larger text is ignored.
pub const OUTBOX_MAX_BYTES: usize = 8 * 1024 * 1024;

/// What an outbox item creates, and where it is sent.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum OutboxKind {
    /// `POST /invoices` with `status: draft`.
    Invoice,
    /// `POST /offers` with `status: draft`.
    Offer,
    /// `POST /companies`.
    Company,
    /// `POST /purchases`, the receipt (photo or PDF) inside the body as base64.
    Purchase,
}

impl OutboxKind {
    /// The API path the item is posted to (below `/api/v1`).
    pub fn path(self) -> &'static str {
        match self {
            OutboxKind::Invoice => "/invoices",
            OutboxKind::Offer => "/offers",
            OutboxKind::Company => "/companies",
            OutboxKind::Purchase => "/purchases",
        }
    }
}

/// The server's refusal of an item (a 4xx): kept for correction.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct OutboxRefusal {
    /// HTTP status, 400–499.
    pub status: u16,
    /// The server's sentence.
    pub message: String,
    /// Field path → messages (422), as the server answered them.
    #[serde(default)]
    pub errors: FieldErrors,
}

/// One queued write.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct OutboxItem {
    /// The `Idempotency-Key` of every attempt ([`is_outbox_key`]); also the item's id.
    pub key: String,
    /// What it creates.
    pub kind: OutboxKind,
    /// The request body: the JSON text of the first attempt, byte for byte (the server
    /// compares a replay's body with the first request's under the same key).
    pub body: String,
    /// The form's state when it was queued (its local draft shape), to reopen it for
    /// correction after a refusal.
    #[serde(default)]
    pub form: serde_json::Value,
    /// The form's local draft name ([`crate::local_draft::local_draft_key`]'s `form`:
    /// `invoice.new`, `company.new.customers`, …) and its page (`/invoices/new`), where
    /// "Correct" reopens a refused item.
    pub form_name: String,
    /// The app path of that form, below the bundle's prefix.
    pub form_path: String,
    /// What the list shows: the customer's or company's name.
    pub label: String,
    /// When it was queued, UTC.
    pub queued_at: DateTime<Utc>,
    /// Set by a 4xx: the item waits for correction or discarding, replays skip it.
    #[serde(default)]
    pub refusal: Option<OutboxRefusal>,
}

/// The queued writes of one person, oldest first. `Default` is [`Outbox::new`] (the
/// current version).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Outbox {
    /// [`OUTBOX_VERSION`] when written.
    pub version: u32,
    /// Oldest first.
    pub items: Vec<OutboxItem>,
}

/// [`Outbox::push`]'s refusal: [`OUTBOX_MAX_ITEMS`] items wait already.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OutboxFull;

/// What one replayed request answered.
#[derive(Clone, Debug, PartialEq)]
pub enum SendOutcome {
    /// 2xx (a replayed answer included): the record exists; the item goes.
    Stored,
    /// 4xx: the item stays with the refusal; the replay goes on with the next.
    Refused(OutboxRefusal),
    /// No answer, or a 5xx: the item stays as it was; the replay stops.
    Unreachable,
}

impl SendOutcome {
    /// The outcome of an answer with HTTP `status` (0: no answer), the server's message
    /// and field errors.
    pub fn of_status(status: u16, message: String, errors: FieldErrors) -> Self {
        match status {
            200..=299 => SendOutcome::Stored,
            // 401 (the session ended: the person signs in again), 408 (timeout) and 429
            // (too many) are worth trying again as they are.
            401 | 408 | 429 => SendOutcome::Unreachable,
            400..=499 => SendOutcome::Refused(OutboxRefusal {
                status,
                message,
                errors,
            }),
            _ => SendOutcome::Unreachable,
        }
    }
}

/// Whether `key` is a key this outbox makes: `kontor-` and 32 lowercase hex digits (128
/// random bits), within the server's rule of 1–255 printable ASCII characters.
pub fn is_outbox_key(key: &str) -> bool {
    key.strip_prefix("kontor-").is_some_and(|hex| {
        hex.len() == 32
            && hex
                .bytes()
                .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b))
    })
}

/// The idempotency key of 16 random bytes (from the browser's `crypto.getRandomValues`).
pub fn outbox_key(random: [u8; 16]) -> String {
    let mut key = String::with_capacity(39);
    key.push_str("kontor-");
    for b in random {
        key.push_str(&format!("{b:02x}"));
    }
    key
}

impl Default for Outbox {
    fn default() -> Self {
        Outbox::new()
    }
}

impl Outbox {
    /// An empty outbox.
    pub fn new() -> Self {
        Outbox {
            version: OUTBOX_VERSION,
            items: Vec::new(),
        }
    }

    /// Reads stored text; empty for text that is too long, broken, of another version or
    /// holding an item with a key this outbox does not make.
    pub fn parse(text: &str) -> Self {
        if text.len() > OUTBOX_MAX_BYTES {
            return Outbox::new();
        }
        match serde_json::from_str::<Outbox>(text) {
            Ok(o)
                if o.version == OUTBOX_VERSION
                    && o.items.len() <= OUTBOX_MAX_ITEMS
                    && o.items.iter().all(|i| is_outbox_key(&i.key)) =>
            {
                o
            }
            _ => Outbox::new(),
        }
    }

    /// Queues `item` at the end. Errors: [`OutboxFull`] when [`OUTBOX_MAX_ITEMS`] wait
    /// already; an item whose key is queued already is not queued twice (`Ok`).
    pub fn push(&mut self, item: OutboxItem) -> Result<(), OutboxFull> {
        if self.items.iter().any(|i| i.key == item.key) {
            return Ok(());
        }
        if self.items.len() >= OUTBOX_MAX_ITEMS {
            return Err(OutboxFull);
        }
        self.items.push(item);
        Ok(())
    }

    /// The oldest item that is not refused and not in `tried` (the keys this replay sent
    /// already), if any.
    pub fn next_to_send(&self, tried: &[String]) -> Option<&OutboxItem> {
        self.items
            .iter()
            .find(|i| i.refusal.is_none() && !tried.contains(&i.key))
    }

    /// Applies what sending item `key` answered. Answers whether the replay goes on.
    pub fn settle(&mut self, key: &str, outcome: SendOutcome) -> bool {
        match outcome {
            SendOutcome::Stored => {
                self.items.retain(|i| i.key != key);
                true
            }
            SendOutcome::Refused(refusal) => {
                if let Some(i) = self.items.iter_mut().find(|i| i.key == key) {
                    i.refusal = Some(refusal);
                }
                true
            }
            SendOutcome::Unreachable => false,
        }
    }

    /// Clears item `key`'s refusal so the next replay sends it again ("Retry").
    pub fn retry(&mut self, key: &str) {
        if let Some(i) = self.items.iter_mut().find(|i| i.key == key) {
            i.refusal = None;
        }
    }

    /// Removes item `key` and answers it ("Discard", or "Correct" that reopens its form).
    pub fn discard(&mut self, key: &str) -> Option<OutboxItem> {
        let at = self.items.iter().position(|i| i.key == key)?;
        Some(self.items.remove(at))
    }

    /// How many items wait (refused ones included: they need the person).
    pub fn len(&self) -> usize {
        self.items.len()
    }

    /// True when nothing waits.
    pub fn is_empty(&self) -> bool {
        self.items.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::Message;
    use serde_json::json;

    fn item(n: u8, kind: OutboxKind) -> OutboxItem {
        OutboxItem {
            key: outbox_key([n; 16]),
            kind,
            body: json!({"n": n}).to_string(),
            form: json!({}),
            form_name: "invoice.new".into(),
            form_path: "/invoices/new".into(),
            label: format!("Kunde {n}"),
            queued_at: Utc::now(),
            refusal: None,
        }
    }

    fn refused() -> OutboxRefusal {
        OutboxRefusal {
            status: 422,
            message: "Bitte prüfen".into(),
            errors: [("customer_id".to_string(), vec![Message::verbatim("fehlt")])].into(),
        }
    }

    #[test]
    fn keys_are_random_hex_the_server_accepts() {
        let k = outbox_key([0xab; 16]);
        assert_eq!(k, format!("kontor-{}", "ab".repeat(16)));
        assert!(is_outbox_key(&k));
        assert!(k.len() <= 255 && k.bytes().all(|b| (0x21..=0x7e).contains(&b)));
        assert_ne!(outbox_key([1; 16]), outbox_key([2; 16]));
        for bad in [
            "",
            "kontor-",
            "kontor-ABABABABABABABABABABABABABABABAB",
            "x-00000000000000000000000000000000",
            &format!("{k}0"),
        ] {
            assert!(!is_outbox_key(bad), "{bad}");
        }
    }

    #[test]
    fn replay_goes_in_queue_order_and_past_refusals() {
        let mut o = Outbox::new();
        for (n, kind) in [
            (1, OutboxKind::Invoice),
            (2, OutboxKind::Company),
            (3, OutboxKind::Offer),
        ] {
            o.push(item(n, kind)).unwrap();
        }
        let first = o.next_to_send(&[]).unwrap().key.clone();
        assert_eq!(first, outbox_key([1; 16]));
        assert!(o.settle(&first, SendOutcome::Stored));
        let second = o.next_to_send(&[]).unwrap().key.clone();
        assert_eq!(second, outbox_key([2; 16]));
        // A refusal keeps the item with the server's words; the replay goes on.
        assert!(o.settle(&second, SendOutcome::Refused(refused())));
        let third = o.next_to_send(&[]).unwrap().key.clone();
        assert_eq!(third, outbox_key([3; 16]));
        // No answer: the item stays, the replay stops.
        assert!(!o.settle(&third, SendOutcome::Unreachable));
        assert_eq!(o.len(), 2);
        assert_eq!(
            o.items[0].refusal.as_ref().unwrap().errors["customer_id"][0],
            "fehlt"
        );
        assert!(o.items[1].refusal.is_none());
        // Retry clears the refusal: it is sent again, first.
        o.retry(&second);
        assert_eq!(o.next_to_send(&[]).unwrap().key, second);
        // Keys tried in this replay are not sent twice in it.
        assert_eq!(
            o.next_to_send(std::slice::from_ref(&second)).unwrap().key,
            third
        );
        assert!(o.discard(&second).is_some());
        assert!(o.discard(&second).is_none());
        assert_eq!(o.len(), 1);
    }

    #[test]
    fn answers_map_to_outcomes() {
        let e = FieldErrors::new;
        assert_eq!(
            SendOutcome::of_status(201, String::new(), e()),
            SendOutcome::Stored
        );
        assert_eq!(
            SendOutcome::of_status(200, String::new(), e()),
            SendOutcome::Stored
        );
        assert_eq!(
            SendOutcome::of_status(0, String::new(), e()),
            SendOutcome::Unreachable
        );
        assert_eq!(
            SendOutcome::of_status(503, String::new(), e()),
            SendOutcome::Unreachable
        );
        assert_eq!(
            SendOutcome::of_status(429, String::new(), e()),
            SendOutcome::Unreachable
        );
        assert_eq!(
            SendOutcome::of_status(401, String::new(), e()),
            SendOutcome::Unreachable
        );
        // 409 "outcome unknown" of a duplicate still running: kept for correction/retry.
        assert!(
            matches!(SendOutcome::of_status(409, "x".into(), e()), SendOutcome::Refused(r) if r.status == 409)
        );
        assert!(matches!(
            SendOutcome::of_status(422, "x".into(), e()),
            SendOutcome::Refused(_)
        ));
    }

    #[test]
    fn the_same_key_is_queued_once_and_the_outbox_is_bounded() {
        let mut o = Outbox::new();
        o.push(item(1, OutboxKind::Invoice)).unwrap();
        o.push(item(1, OutboxKind::Invoice)).unwrap();
        assert_eq!(o.len(), 1);
        for n in 2..=OUTBOX_MAX_ITEMS as u8 {
            o.push(item(n, OutboxKind::Company)).unwrap();
        }
        assert!(o.push(item(200, OutboxKind::Offer)).is_err());
        assert_eq!(o.len(), OUTBOX_MAX_ITEMS);
    }

    #[test]
    fn stored_text_reads_back_and_hostile_text_is_ignored() {
        // An outbox started from nothing (the default) is written in the current version.
        let mut fresh = Outbox::default();
        fresh.push(item(3, OutboxKind::Purchase)).unwrap();
        assert_eq!(
            Outbox::parse(&serde_json::to_string(&fresh).unwrap()),
            fresh
        );
        let mut o = Outbox::new();
        o.push(item(7, OutboxKind::Offer)).unwrap();
        let text = serde_json::to_string(&o).unwrap();
        assert_eq!(Outbox::parse(&text), o);
        assert!(Outbox::parse("{\"version\":1,\"items\":[").is_empty());
        assert!(Outbox::parse(&text.replace("\"version\":1", "\"version\":9")).is_empty());
        let foreign = text.replace(&outbox_key([7; 16]), "../../etc");
        assert!(Outbox::parse(&foreign).is_empty());
        assert!(Outbox::parse(&" ".repeat(OUTBOX_MAX_BYTES + 1)).is_empty());
        assert!(
            Outbox::parse(&format!("{}1{}", "[".repeat(10_000), "]".repeat(10_000))).is_empty()
        );
    }

    #[test]
    fn kinds_post_to_their_paths() {
        assert_eq!(OutboxKind::Invoice.path(), "/invoices");
        assert_eq!(OutboxKind::Offer.path(), "/offers");
        assert_eq!(OutboxKind::Company.path(), "/companies");
        assert_eq!(OutboxKind::Purchase.path(), "/purchases");
        assert_eq!(
            serde_json::to_value(OutboxKind::Offer).unwrap(),
            json!("offer")
        );
    }
}
