//! Writing an imported e-invoice (`import.rs`): supplier matching, the duplicate check,
//! the new supplier, the stored file and the purchase — one transaction under the write
//! lock (`docs/decisions.md` § E-invoice import (issue 10)).

use crate::events::{self, Subject};
use crate::http::error::ApiResult;
use crate::numbering::{next_number, PURCHASES};
use crate::state::AppState;
use crate::store::db::{now, ts};
use crate::store::storage::Area;
use kontor_einvoice::booking::BookedPosition;
use kontor_einvoice::semantic::{Invoice, Party, PaymentMeans};
use kontor_model::event::{to_data, CreatedData, DocumentUploadedData, EventKind};
use kontor_model::purchase::{PaymentMethod, PurchaseStatus};
use kontor_model::purchase_totals::PurchaseAmounts;

/// Everything an import writes, checked and computed.
pub struct NewImport<'a> {
    /// The read document.
    pub invoice: &'a Invoice,
    /// Its positions (lines, allowances, charges) with the document's VAT split.
    pub positions: &'a [BookedPosition],
    /// Their sum: BT-109 / BT-110 / BT-112.
    pub sum: PurchaseAmounts,
    /// `cii` | `ubl`.
    pub syntax: &'a str,
    /// `xrechnung` | `factur-x` | `en16931`.
    pub format: &'a str,
    /// MIME type of the stored original.
    pub content_type: &'a str,
    /// File extension of the stored original (`xml`, `pdf`).
    pub extension: &'a str,
    /// File name shown for the original.
    pub filename: &'a str,
    /// The original bytes.
    pub bytes: &'a [u8],
    /// The importing user.
    pub user_id: i64,
    /// Kontor's EN 16931 check of the document (issue 36).
    pub check: &'a kontor_model::einvoice_check::EinvoiceCheck,
    /// Where a request for a corrected invoice goes, if anywhere.
    pub reply_to: Option<String>,
}

/// What an import did.
pub enum Outcome {
    /// A new purchase with this id.
    Created(i64),
    /// Nothing written: the supplier already has purchase `id` with this receipt identifier.
    Duplicate(i64, String),
}

/// Upper case without spaces (VAT IDs, IBANs).
fn compact(s: &str) -> String {
    s.chars()
        .filter(|c| !c.is_whitespace())
        .collect::<String>()
        .to_ascii_uppercase()
}

/// The IBAN to pay to (BT-84), compacted; empty without a credit transfer.
pub fn payee_iban(invoice: &Invoice) -> String {
    match &invoice.payment_means {
        Some(PaymentMeans::CreditTransfer { iban, .. }) => compact(iban),
        _ => String::new(),
    }
}

/// SQL of `{col}` compacted like [`compact`]: upper case, spaces and tabs removed (the
/// tab written as itself inside the quotes, which both engines read alike).
const COMPACT_SQL: &str = "REPLACE(REPLACE(UPPER({col}), ' ', ''), '\t', '')";

/// The supplier for `seller`: the first company (suppliers first, active ones first, then
/// the oldest) whose VAT ID matches BT-31, else whose IBAN matches BT-84, else whose name
/// is exactly BT-27. `None` when none matches.
async fn match_supplier(
    tx: &mut crate::sql::Tx,
    seller: &Party,
    iban: &str,
) -> ApiResult<Option<i64>> {
    let order = "ORDER BY (kind = 'supplier') DESC, active DESC, id LIMIT 1";
    let candidates = [
        (
            "vat_identifier",
            seller.vat_identifier.as_deref().map(compact),
        ),
        ("iban", Some(iban.to_string()).filter(|i| !i.is_empty())),
    ];
    for (column, value) in candidates {
        let Some(value) = value.filter(|v| !v.is_empty()) else {
            continue;
        };
        let sql = format!(
            "SELECT id FROM companies WHERE {column} IS NOT NULL AND {} = $1 {order}",
            COMPACT_SQL.replace("{col}", column)
        );
        let found: Option<i64> = crate::sql::query_scalar(&sql)
            .bind(value)
            .fetch_optional(&mut *tx)
            .await?;
        if found.is_some() {
            return Ok(found);
        }
    }
    let name = seller.name.trim();
    if name.is_empty() {
        return Ok(None);
    }
    Ok(
        crate::sql::query_scalar(&format!("SELECT id FROM companies WHERE name = $1 {order}"))
            .bind(name)
            .fetch_optional(&mut *tx)
            .await?,
    )
}

/// A new supplier company from the seller: name, address, country, VAT ID, tax number,
/// IBAN, BIC, e-mail and phone as the document states them; its `credit_number` from the
/// account's counter when that is on (issue 31).
async fn create_supplier(tx: &mut crate::sql::Tx, invoice: &Invoice, iban: &str) -> ApiResult<i64> {
    let s = &invoice.seller;
    let mut address: Vec<String> = s.address.lines.clone();
    let city = [s.address.post_code.as_deref(), s.address.city.as_deref()]
        .into_iter()
        .flatten()
        .collect::<Vec<_>>()
        .join(" ");
    if !city.is_empty() {
        address.push(city);
    }
    let country = Some(s.address.country_code.trim().to_ascii_uppercase())
        .filter(|c| c.len() == 2 && c.chars().all(|c| c.is_ascii_alphabetic()));
    let email = s
        .contact
        .as_ref()
        .and_then(|c| c.email.clone())
        .or_else(|| {
            s.electronic_address
                .as_ref()
                .filter(|e| e.scheme == "EM")
                .map(|e| e.value.clone())
        });
    let bic = match &invoice.payment_means {
        Some(PaymentMeans::CreditTransfer { bic, .. }) => bic.clone(),
        _ => None,
    };
    let t = ts(now());
    let credit_number = crate::master_data::account_numbers::new_supplier_number(tx).await?;
    let id: i64 = crate::sql::query_scalar(
        "INSERT INTO companies (kind, name, address, email, iban, country_code, phone, vat_identifier, tax_number, bic, created_at, updated_at, creditor_number)
         VALUES ('supplier', $1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12) RETURNING id",
    )
    .bind(s.name.trim())
    .bind(address.join("\n"))
    .bind(email)
    .bind(Some(iban).filter(|i| !i.is_empty()))
    .bind(country)
    .bind(s.contact.as_ref().and_then(|c| c.phone.clone()))
    .bind(s.vat_identifier.as_deref().map(compact))
    .bind(s.tax_number.clone())
    .bind(bic)
    .bind(t)
    .bind(t)
    .bind(credit_number)
    .fetch_one(&mut *tx)
    .await?;
    Ok(id)
}

/// Writes the import: supplier (matched or new), stored file, purchase, positions.
/// A duplicate writes nothing. Errors: 500 on storage or database failure (the stored
/// file is removed again).
pub async fn create(state: &AppState, new: &NewImport<'_>) -> ApiResult<Outcome> {
    let invoice = new.invoice;
    let iban = payee_iban(invoice);
    let _guard = state.write_lock.lock().await;
    let mut tx = crate::store::db::begin_write(&state.pool).await?;
    let supplier = match_supplier(&mut tx, &invoice.seller, &iban).await?;
    // The one duplicate rule of purchases (`duplicates.rs`); a new supplier has none.
    if let Some((id, identifier)) =
        super::duplicates::find(&mut tx, supplier, Some(&invoice.number), None).await?
    {
        return Ok(Outcome::Duplicate(id, identifier));
    }
    let key = state
        .files
        .put_new(Area::PurchaseDocuments, new.extension, new.bytes)
        .await?;
    match write(&mut tx, new, supplier, &iban, &key).await {
        Ok(id) => match tx.commit().await {
            Ok(()) => Ok(Outcome::Created(id)),
            Err(e) => {
                state.files.delete(Area::PurchaseDocuments, &key).await;
                Err(e.into())
            }
        },
        Err(e) => {
            drop(tx);
            state.files.delete(Area::PurchaseDocuments, &key).await;
            Err(e)
        }
    }
}

async fn write(
    tx: &mut crate::sql::Tx,
    new: &NewImport<'_>,
    supplier: Option<i64>,
    iban: &str,
    key: &str,
) -> ApiResult<i64> {
    let invoice = new.invoice;
    let company = match supplier {
        Some(id) => id,
        None => create_supplier(tx, invoice, iban).await?,
    };
    let identifier = next_number(tx, PURCHASES, invoice.issue_date).await?;
    let payment_method = match invoice.payment_means {
        Some(PaymentMeans::DirectDebit { .. }) => PaymentMethod::DirectDebit,
        _ => PaymentMethod::BankTransfer,
    };
    let notes: Vec<&str> = invoice
        .notes
        .iter()
        .map(String::as_str)
        .chain(invoice.payment_terms.as_deref())
        .collect();
    let title = new
        .positions
        .first()
        .map(|p| p.title.as_str())
        .unwrap_or_default();
    let t = ts(now());
    let id: i64 = crate::sql::query_scalar(
        "INSERT INTO purchases (identifier, receipt_identifier, title, info, iban, reference, date, due_date, service_period_from, service_period_to, status,
            payment_method, net_total, gross_total, currency, company_id, user_id, document_key, document_type, document_name, einvoice_syntax, einvoice_format, created_at, updated_at, einvoice_seller_name, einvoice_check, einvoice_reply_to)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20, $21, $22, $23, $24, $25, $26, $27) RETURNING id",
    )
    .bind(&identifier)
    .bind(invoice.number.trim())
    .bind(title.trim())
    .bind((!notes.is_empty()).then(|| notes.join("\n")))
    .bind(iban)
    .bind(invoice.remittance_information.as_deref())
    .bind(invoice.issue_date)
    .bind(invoice.due_date)
    .bind(invoice.period.map(|p| p.0))
    .bind(invoice.period.map(|p| p.1))
    .bind(PurchaseStatus::Pending.as_str())
    .bind(payment_method.as_str())
    .bind(new.sum.net_total)
    .bind(new.sum.gross_total)
    .bind(invoice.currency.trim().to_ascii_uppercase())
    .bind(company)
    .bind(new.user_id)
    .bind(key)
    .bind(new.content_type)
    .bind(new.filename)
    .bind(new.syntax)
    .bind(new.format)
    .bind(t)
    .bind(t)
    .bind(Some(invoice.seller.name.trim()).filter(|n| !n.is_empty()))
    .bind(serde_json::to_string(new.check).unwrap_or_else(|_| "null".into()))
    .bind(new.reply_to.as_deref())
    .fetch_one(&mut *tx)
    .await?;
    for (n, p) in new.positions.iter().enumerate() {
        crate::sql::query("INSERT INTO purchase_items (purchase_id, position, title, net_total, tax_total, gross_total, tax, tax_included) VALUES ($1, $2, $3, $4, $5, $6, $7, FALSE)")
            .bind(id)
            .bind(n as i64)
            .bind(p.title.trim())
            .bind(p.amounts.net_total)
            .bind(p.amounts.tax_total)
            .bind(p.amounts.gross_total)
            .bind(p.tax.normalize())
            .execute(&mut *tx)
            .await?;
    }
    let data = to_data(&CreatedData {
        import: Some(new.format.to_string()),
        ..Default::default()
    });
    let (user, subject) = (Some(new.user_id), Subject::Purchase(id));
    events::record_as(tx, user, subject, EventKind::Created, data).await?;
    let data = to_data(&DocumentUploadedData {
        file_name: Some(new.filename.to_string()).filter(|n| !n.is_empty()),
    });
    events::record_as(tx, user, subject, EventKind::DocumentUploaded, data).await?;
    Ok(id)
}
