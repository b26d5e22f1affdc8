//! Edit, delete and copy rules for offers, purchases and invoices (issue 11 § Edit,
//! delete, copy, repeat; `docs/decisions.md` § Edit, delete, copy (issue 11)). Pure: the
//! server refuses with these catalogue messages (422, English and German) and builds
//! copies with these bodies.

use crate::error::message::Text;
use crate::error::messages;
use crate::invoice::{Invoice, InvoiceItem};
use crate::invoice_input::{NewInvoice, NewInvoiceItem, VatInput};
use crate::offer::{NewOffer, NewOfferItem, Offer, OfferItem, OfferStatus};
use crate::position::PositionType;
use crate::position_vat::TaxCategory;
use crate::purchase::PurchaseStatus;
use crate::status::InvoiceStatus;
use chrono::{Days, NaiveDate};

/// Why offer `status` may not be edited (PUT /offers/{id}), or `None` when it may: only
/// `created` and `sent` offers are edited; accepted, billed and archived ones are records.
pub fn offer_edit_refusal(status: OfferStatus) -> Option<Text> {
    match status {
        OfferStatus::Created | OfferStatus::Sent => None,
        _ => Some(messages::OFFER_NOT_EDITABLE),
    }
}

/// Why offer `status` may not be deleted (DELETE /offers/{id}), or `None` when it may:
/// only `created` offers (never sent) are deleted.
pub fn offer_delete_refusal(status: OfferStatus) -> Option<Text> {
    match status {
        OfferStatus::Created => None,
        _ => Some(messages::OFFER_NOT_DELETABLE),
    }
}

/// Why purchase `status` may not be edited (PUT /purchases/{id}), or `None` when it may:
/// only `pending` purchases; an approved one must be moved back to pending first.
pub fn purchase_edit_refusal(status: PurchaseStatus) -> Option<Text> {
    match status {
        PurchaseStatus::Pending => None,
        PurchaseStatus::Approved => Some(messages::PURCHASE_APPROVED_NOT_EDITABLE),
    }
}

/// The due date of a copy made on `today`: `today` plus the customer's payment term in
/// days, else the account's default term (days). `None` when the date would overflow or a
/// term is negative.
pub fn copy_due_date(
    today: NaiveDate,
    customer_term_days: Option<i64>,
    account_term_days: i64,
) -> Option<NaiveDate> {
    let days = customer_term_days.unwrap_or(account_term_days);
    today.checked_add_days(Days::new(u64::try_from(days).ok()?))
}

/// A lump-sum net total is copied only for an item without quantity and unit price (the
/// creation body accepts exactly one of the two forms).
fn lump_sum(
    kind: PositionType,
    quantity: Option<rust_decimal::Decimal>,
    unit_price: Option<rust_decimal::Decimal>,
    net_total: rust_decimal::Decimal,
) -> Option<rust_decimal::Decimal> {
    (kind == PositionType::Item && quantity.is_none() && unit_price.is_none()).then_some(net_total)
}

/// The VAT fields a copied position keeps (rate in percent, category, exemption reason):
/// an item's own; other kinds carry none.
fn copied_vat(
    kind: PositionType,
    tax: Option<rust_decimal::Decimal>,
    tax_category: Option<TaxCategory>,
    tax_exemption_reason: &Option<String>,
) -> (
    Option<rust_decimal::Decimal>,
    Option<TaxCategory>,
    Option<String>,
) {
    if kind == PositionType::Item {
        (tax, tax_category, tax_exemption_reason.clone())
    } else {
        (None, None, None)
    }
}

fn invoice_item(i: &InvoiceItem) -> NewInvoiceItem {
    let (tax, tax_category, tax_exemption_reason) =
        copied_vat(i.kind, i.tax, i.tax_category, &i.tax_exemption_reason);
    NewInvoiceItem {
        kind: Some(i.kind),
        title: Some(i.title.clone()).filter(|t| !t.is_empty()),
        description: i.description.clone(),
        quantity: i.quantity,
        unit: i.unit.clone(),
        unit_price: i.unit_price,
        net_total: lump_sum(i.kind, i.quantity, i.unit_price, i.net_total),
        // Billed time and expenses stay with the original: a copy bills nothing twice.
        activity_ids: None,
        expense_ids: None,
        tax,
        tax_category,
        tax_exemption_reason,
    }
}

/// The creation body of a copy of `invoice` (POST /invoices/{id}/copy): a **draft** with
/// the same customer, project, recipient address, title, positions (with their VAT
/// fields, without billed activities/expenses), salutation, footer, tags, custom
/// properties, discount, cash discount, VAT, currency, buyer reference and payment means;
/// dated `today`, due `due_date`. Not kept: number, service period, payments, reminders,
/// reversal links, the offer link and a final invoice's deductions. A reversal invoice's copy is an ordinary draft with
/// the same (negative) positions.
pub fn invoice_copy(invoice: &Invoice, today: NaiveDate, due_date: NaiveDate) -> NewInvoice {
    NewInvoice {
        customer_id: Some(invoice.customer_id),
        recipient_address: Some(invoice.recipient_address.clone()),
        date: Some(today),
        due_date: Some(due_date),
        title: Some(invoice.title.clone()),
        tax: Some(invoice.tax),
        currency: Some(invoice.currency.clone()),
        items: Some(invoice.items.iter().flatten().map(invoice_item).collect()),
        service_period_from: None,
        service_period_to: None,
        status: Some(InvoiceStatus::Draft),
        change_address: None,
        // `Some("")` keeps an empty text empty instead of taking the account default.
        salutation: Some(invoice.salutation.clone().unwrap_or_default()),
        footer: Some(invoice.footer.clone().unwrap_or_default()),
        discount: Some(invoice.discount),
        cash_discount: Some(invoice.cash_discount),
        cash_discount_days: Some(invoice.cash_discount_days),
        project_id: invoice.project_id,
        internal_contact_id: invoice.user.as_ref().map(|u| u.id),
        custom_properties: Some(invoice.custom_properties.clone()),
        tags: Some(invoice.tags.clone()),
        vat: Some(VatInput {
            reverse_charge: Some(invoice.vat.reverse_charge),
            intra_eu: Some(invoice.vat.intra_eu),
        }),
        offer_id: None,
        buyer_reference: invoice.buyer_reference.clone(),
        payment_means: invoice.payment_means,
        // A final invoice's copy is a final draft that deducts nothing yet: each down
        // payment is deducted once.
        kind: Some(invoice.kind),
        down_payment_invoice_ids: None,
    }
}

fn offer_item(i: &OfferItem) -> NewOfferItem {
    let (tax, tax_category, tax_exemption_reason) =
        copied_vat(i.kind, i.tax, i.tax_category, &i.tax_exemption_reason);
    NewOfferItem {
        kind: Some(i.kind),
        title: i.title.clone().filter(|t| !t.is_empty()),
        description: i.description.clone(),
        quantity: i.quantity,
        unit: i.unit.clone(),
        unit_price: i.unit_price,
        net_total: lump_sum(i.kind, i.quantity, i.unit_price, i.net_total),
        optional: Some(i.optional),
        tax,
        tax_category,
        tax_exemption_reason,
    }
}

/// The creation body of a copy of `offer` (POST /offers/{id}/copy; the new offer is
/// `created` and numbered as on creation): the same company, project, deal, contact,
/// internal contact, recipient address, title, positions (with their VAT fields and
/// optional flags), salutation, footer, tags, custom properties, discount, VAT, currency
/// and print setting; dated `today`, valid until `due_date`. Not kept: number, status,
/// invoices, attachments.
pub fn offer_copy(offer: &Offer, today: NaiveDate, due_date: NaiveDate) -> NewOffer {
    NewOffer {
        company_id: offer.company.as_ref().map(|c| c.id),
        deal_id: offer.deal.as_ref().map(|d| d.id),
        project_id: offer.project.as_ref().map(|p| p.id),
        recipient_address: Some(offer.recipient_address.clone()),
        date: Some(today),
        due_date: Some(due_date),
        title: Some(offer.title.clone()),
        tax: Some(offer.tax),
        currency: Some(offer.currency.clone()),
        items: Some(offer.items.iter().flatten().map(offer_item).collect()),
        change_address: None,
        salutation: Some(offer.salutation.clone().unwrap_or_default()),
        footer: Some(offer.footer.clone().unwrap_or_default()),
        discount: Some(offer.discount),
        contact_id: offer.contact.as_ref().map(|c| c.id),
        internal_contact_id: offer.user.as_ref().map(|u| u.id),
        tags: Some(offer.tags.clone()),
        custom_properties: Some(offer.custom_properties.clone()),
        print_detail_columns: Some(offer.print_detail_columns),
        vat: Some(VatInput {
            reverse_charge: Some(offer.vat.reverse_charge),
            intra_eu: Some(offer.vat.intra_eu),
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn offers_edit_while_created_or_sent_and_delete_while_created() {
        for s in OfferStatus::ALL {
            let editable = matches!(s, OfferStatus::Created | OfferStatus::Sent);
            assert_eq!(offer_edit_refusal(s).is_none(), editable, "{s:?}");
            assert_eq!(
                offer_delete_refusal(s).is_none(),
                s == OfferStatus::Created,
                "{s:?}"
            );
        }
        // Issue 34: an e-mailed offer is sent, so it is no longer deleted.
        assert!(offer_delete_refusal(OfferStatus::Created.after_sending()).is_some());
    }

    #[test]
    fn purchases_edit_while_pending() {
        assert_eq!(purchase_edit_refusal(PurchaseStatus::Pending), None);
        let why = purchase_edit_refusal(PurchaseStatus::Approved).unwrap();
        assert!(why.en.contains("approved"));
        assert!(why.de.contains("freigegeben"));
    }

    #[test]
    fn copy_due_date_prefers_the_customer_term() {
        let d = NaiveDate::from_ymd_opt(2026, 11, 23).unwrap();
        assert_eq!(
            copy_due_date(d, Some(30), 14),
            NaiveDate::from_ymd_opt(2026, 12, 23)
        );
        assert_eq!(
            copy_due_date(d, None, 14),
            NaiveDate::from_ymd_opt(2026, 12, 7)
        );
        assert_eq!(copy_due_date(d, Some(-1), 14), None);
        assert_eq!(copy_due_date(NaiveDate::MAX, None, 1), None);
    }

    #[test]
    fn lump_sums_only_without_quantity_and_price() {
        let ten = rust_decimal::Decimal::TEN;
        assert_eq!(lump_sum(PositionType::Item, None, None, ten), Some(ten));
        assert_eq!(
            lump_sum(PositionType::Item, Some(ten), Some(ten), ten),
            None
        );
        assert_eq!(lump_sum(PositionType::Subtotal, None, None, ten), None);
    }

    #[test]
    fn copied_invoice_positions_bill_nothing_again_and_keep_their_vat() {
        use crate::position_vat::TaxCategory;
        use rust_decimal::Decimal;
        let billed = InvoiceItem {
            id: 7,
            kind: PositionType::Item,
            title: "Consulting".into(),
            description: Some("<p>On site</p>".into()),
            quantity: Some(Decimal::TWO),
            unit: Some("h".into()),
            unit_price: Some(Decimal::new(9000, 2)),
            net_total: Decimal::new(18000, 2),
            activity_ids: vec![1, 2],
            expense_ids: vec![3],
            tax: Some(Decimal::new(7, 0)),
            tax_category: Some(TaxCategory::Standard),
            tax_exemption_reason: None,
        };
        let copy = invoice_item(&billed);
        assert_eq!(copy.activity_ids, None);
        assert_eq!(copy.expense_ids, None);
        assert_eq!(copy.net_total, None, "quantity × price, no lump sum");
        assert_eq!(copy.tax, Some(Decimal::new(7, 0)));
        assert_eq!(copy.tax_category, Some(TaxCategory::Standard));
        let heading = InvoiceItem {
            kind: PositionType::Subtotal,
            title: String::new(),
            quantity: None,
            unit_price: None,
            tax: Some(Decimal::TEN),
            ..billed
        };
        let copy = invoice_item(&heading);
        assert_eq!((copy.title, copy.net_total, copy.tax), (None, None, None));
    }
}
