//! Kontor's records → the EN 16931 semantic model (issue 10; the field mapping is
//! `docs/einvoice.md`). Pure: the server loads the invoice, the account, the customer and,
//! for a reversal, the reversed invoice, and passes them in.
//!
//! What is missing for a level is decided by `kontor_model::einvoice::missing` (the same
//! rule the app shows before finalizing); [`to_semantic`] refuses with that list.

use crate::semantic::{
    Address, AllowanceCharge, Contact, ElectronicAddress, Invoice as EInvoice, Line, Party,
    PaymentMeans, PrecedingInvoice, Specification, Totals, TypeCode, VatBreakdown, VatCategory,
};
use chrono::{Datelike, NaiveDate};
use kontor_model::account::Account;
use kontor_model::einvoice::{
    buyer_reference, cash_discount_line, missing, split_address, unit_code, BuyerData, InvoiceData,
    Level, MissingField, SellerData,
};
use kontor_model::invoice::Invoice;
use kontor_model::party::Company;
use kontor_model::position::PositionType;
use rust_decimal::Decimal;

/// Everything an e-invoice is made of.
pub struct Sources<'a> {
    /// The invoice with its `items`.
    pub invoice: &'a Invoice,
    /// The account (the seller).
    pub account: &'a Account,
    /// The customer company (the buyer).
    pub customer: &'a Company,
    /// For a reversal invoice or a credit note: the number and date of the invoice it
    /// reverses or corrects (BG-3).
    pub reversed: Option<PrecedingInvoice>,
    /// The seller's contact person (BT-41), e.g. the invoice's user; `None` → the account
    /// name.
    pub contact_name: Option<&'a str>,
    /// Turns a rich-text (HTML) field into plain text (descriptions, BT-154).
    pub plain_text: &'a dyn Fn(&str) -> String,
}

fn text(value: &Option<String>) -> Option<&str> {
    value.as_deref().map(str::trim).filter(|v| !v.is_empty())
}

/// Whether the invoice is paid by direct debit: the invoice's `payment_means`, else
/// direct debit when the customer has a SEPA mandate.
fn direct_debit(src: &Sources) -> bool {
    crate::kontor_fields::direct_debit(src.invoice, src.customer)
}

/// The readiness inputs of [`missing`] for these records.
fn readiness<'a>(src: &Sources<'a>) -> (SellerData<'a>, BuyerData<'a>, InvoiceData) {
    let a = src.account;
    let c = src.customer;
    let seller = SellerData {
        name: &a.name,
        address: &a.address,
        country_code: text(&a.country_code),
        vat_identifier: text(&a.vat_identifier),
        tax_number: text(&a.tax_number),
        phone: text(&a.phone),
        email: text(&a.email),
        electronic_address: crate::kontor_fields::account_electronic_address(a),
        iban: text(&a.iban),
        sepa_creditor_identifier: crate::kontor_fields::sepa_creditor_identifier(a),
    };
    let buyer = BuyerData {
        name: &c.name,
        address: &c.address,
        country_code: text(&c.country_code),
        vat_identifier: text(&c.vat_identifier),
        email: text(&c.email),
        electronic_address: crate::kontor_fields::company_electronic_address(c),
        iban: text(&c.iban),
    };
    let lines = line_categories(src.invoice);
    let invoice = InvoiceData {
        numbered: src.invoice.identifier.is_some(),
        has_lines: !lines.is_empty(),
        direct_debit: direct_debit(src),
        needs_buyer_vat_identifier: lines
            .iter()
            .any(|c| matches!(c, VatCategory::ReverseCharge | VatCategory::IntraCommunity)),
        needs_seller_vat_identifier: lines.iter().any(|c| {
            matches!(
                c,
                VatCategory::ReverseCharge | VatCategory::IntraCommunity | VatCategory::Export
            )
        }),
    };
    (seller, buyer, invoice)
}

/// The VAT categories of the invoice's lines, in position order.
fn line_categories(invoice: &Invoice) -> Vec<VatCategory> {
    invoice
        .items
        .iter()
        .flatten()
        .filter(|i| i.kind == PositionType::Item)
        .map(|i| crate::kontor_fields::line_vat(invoice, i).0)
        .collect()
}

/// What `level` still needs (empty: the invoice can be written at that level).
pub fn check(src: &Sources, level: Level) -> Vec<MissingField> {
    let (seller, buyer, invoice) = readiness(src);
    missing(&seller, &buyer, &invoice, level)
}

/// The invoicing period: `service_period_from`–`service_period_to`, else the month of
/// `service_period` (`11/2026`), else none.
fn period(invoice: &Invoice) -> Option<(NaiveDate, NaiveDate)> {
    if let (Some(from), Some(to)) = (invoice.service_period_from, invoice.service_period_to) {
        return Some((from, to));
    }
    let (month, year) = invoice.service_period.as_deref()?.split_once('/')?;
    let first = NaiveDate::from_ymd_opt(year.trim().parse().ok()?, month.trim().parse().ok()?, 1)?;
    let next = if first.month() == 12 {
        NaiveDate::from_ymd_opt(first.year() + 1, 1, 1)?
    } else {
        NaiveDate::from_ymd_opt(first.year(), first.month() + 1, 1)?
    };
    Some((first, next.pred_opt()?))
}

fn address(free_text: &str, country: Option<&str>) -> Address {
    let parts = split_address(free_text);
    Address {
        lines: parts.lines,
        city: parts.city,
        post_code: parts.post_code,
        subdivision: None,
        country_code: country.unwrap_or_default().to_string(),
    }
}

fn email_address(value: Option<&str>) -> Option<ElectronicAddress> {
    value.map(|v| ElectronicAddress {
        value: v.to_string(),
        scheme: "EM".to_string(),
    })
}

/// The invoice as an EN 16931 document of `specification`, or what it lacks for it.
///
/// Lines: every `item` position (lump sums as quantity 1); a negative unit price is written
/// as a positive price with a negative quantity (BR-27). A reversal invoice or a credit note (issue 33) becomes a
/// credit note (381) with every amount negated, so it reads positive, and BG-3 naming the
/// reversed invoice. The document discount becomes one allowance per VAT category and rate.
/// Errors: the [`MissingField`]s of `kontor_model::einvoice::missing`, or
/// `invoice.items` when the totals cannot be computed.
pub fn to_semantic(
    src: &Sources,
    specification: Specification,
) -> Result<EInvoice, Vec<MissingField>> {
    let level = match specification {
        Specification::XRechnung => Level::XRechnung,
        Specification::En16931 => Level::En16931,
    };
    let gaps = check(src, level);
    if !gaps.is_empty() {
        return Err(gaps);
    }
    let inv = src.invoice;
    let account = src.account;
    let customer = src.customer;
    let credit = inv.reversal || inv.credit_note;
    let sign = if credit { -Decimal::ONE } else { Decimal::ONE };
    let german = customer.language != kontor_model::party::Language::En;

    let groups = crate::kontor_fields::groups(inv, customer.language).map_err(|field| {
        vec![MissingField {
            field,
            message: "The totals cannot be computed.".into(),
            place: kontor_model::einvoice::Place::Invoice,
        }]
    })?;

    let mut lines = Vec::new();
    for item in inv.items.iter().flatten() {
        if item.kind != PositionType::Item {
            continue;
        }
        let net = item.net_total * sign;
        let (quantity, price) = match (item.quantity, item.unit_price) {
            (Some(q), Some(p)) => (q * sign, p),
            _ => (sign, item.net_total),
        };
        let (quantity, price) = if price < Decimal::ZERO {
            (-quantity, -price)
        } else {
            (quantity, price)
        };
        let (category, rate, _) = crate::kontor_fields::line_vat(inv, item);
        let title = item.title.trim();
        lines.push(Line {
            id: (lines.len() + 1).to_string(),
            note: None,
            quantity: quantity.normalize(),
            unit_code: unit_code(item.unit.as_deref()).to_string(),
            net_amount: net,
            price: price.normalize(),
            name: if title.is_empty() {
                format!(
                    "{} {}",
                    if german { "Position" } else { "Item" },
                    lines.len() + 1
                )
            } else {
                title.to_string()
            },
            description: item
                .description
                .as_deref()
                .map(|d| (src.plain_text)(d))
                .map(|d| d.trim().to_string())
                .filter(|d| !d.is_empty()),
            category,
            rate,
            period: None,
        });
    }

    let mut allowances = Vec::new();
    let mut charges = Vec::new();
    let mut breakdown = Vec::new();
    let mut totals = Totals::default();
    for g in &groups {
        let items = g.items_total * sign;
        let mut taxable = g.net_total * sign;
        let mut tax = g.tax_total * sign;
        // A final invoice deducts each down payment's net at this category and rate as
        // a document-level allowance (BG-20) and its VAT from the group's, so BT-109,
        // BT-110 and BT-112 carry what is left (§ 14 (5) UStG; issue 33).
        for d in &inv.deducted_down_payments {
            for dg in d.tax_breakdown.iter().filter(|dg| {
                crate::kontor_fields::category_of(dg.tax_category) == g.category
                    && dg.tax.normalize() == g.rate
            }) {
                let amount = dg.net_total * sign;
                taxable -= amount;
                tax -= dg.tax_total * sign;
                totals.allowance_total += amount;
                allowances.push(AllowanceCharge {
                    amount,
                    base_amount: None,
                    percent: None,
                    category: g.category,
                    rate: g.rate,
                    reason: Some(if german {
                        format!(
                            "Abschlagsrechnung {} vom {}",
                            d.identifier,
                            d.date.format("%d.%m.%Y")
                        )
                    } else {
                        format!("Down-payment invoice {} of {}", d.identifier, d.date)
                    }),
                    reason_code: None,
                });
            }
        }
        totals.line_net_total += items;
        totals.tax_exclusive += taxable;
        totals.tax_total += tax;
        let difference = items - g.net_total * sign;
        if !difference.is_zero() {
            let entry = AllowanceCharge {
                amount: difference.abs(),
                base_amount: Some(items),
                percent: Some(inv.discount.abs().normalize()),
                category: g.category,
                rate: g.rate,
                reason: Some(
                    if difference > Decimal::ZERO {
                        if german {
                            "Rabatt"
                        } else {
                            "Discount"
                        }
                    } else if german {
                        "Zuschlag"
                    } else {
                        "Surcharge"
                    }
                    .to_string(),
                ),
                reason_code: Some(
                    if difference > Decimal::ZERO {
                        "95"
                    } else {
                        "ZZZ"
                    }
                    .into(),
                ),
            };
            if difference > Decimal::ZERO {
                totals.allowance_total += entry.amount;
                allowances.push(entry);
            } else {
                totals.charge_total += entry.amount;
                charges.push(entry);
            }
        }
        breakdown.push(VatBreakdown {
            category: g.category,
            rate: g.rate,
            taxable_amount: taxable,
            tax_amount: tax,
            exemption_reason: g.exemption_reason.clone(),
            exemption_reason_code: g.exemption_reason_code.clone(),
        });
    }
    totals.tax_inclusive = totals.tax_exclusive + totals.tax_total;
    totals.payable = totals.tax_inclusive;

    let period = period(inv);
    let has_k = breakdown
        .iter()
        .any(|b| b.category == VatCategory::IntraCommunity);
    let direct = direct_debit(src);
    let payment_means = if direct {
        Some(PaymentMeans::DirectDebit {
            mandate_reference: crate::kontor_fields::mandate_reference(customer)
                .unwrap_or_default()
                .to_string(),
            creditor_identifier: crate::kontor_fields::sepa_creditor_identifier(account)
                .unwrap_or_default()
                .to_string(),
            debited_iban: text(&customer.iban).unwrap_or_default().to_string(),
        })
    } else {
        text(&account.iban).map(|iban| PaymentMeans::CreditTransfer {
            iban: iban.to_string(),
            account_name: text(&account.account_holder).map(str::to_string),
            bic: text(&account.bic).map(str::to_string),
        })
    };
    let mut terms = if german {
        format!("Zahlbar bis {}.", inv.due_date.format("%d.%m.%Y"))
    } else {
        format!("Payable by {}.", inv.due_date.format("%Y-%m-%d"))
    };
    if let Some(line) = cash_discount_line(inv.cash_discount, inv.cash_discount_days) {
        terms.push('\n');
        terms.push_str(&line);
        terms.push('\n');
    }
    let legal = [
        text(&account.register_court),
        text(&account.managing_directors),
    ]
    .into_iter()
    .flatten()
    .collect::<Vec<_>>()
    .join(", ");

    Ok(EInvoice {
        specification,
        number: inv.identifier.clone().unwrap_or_default(),
        issue_date: inv.date,
        type_code: if credit {
            TypeCode::CreditNote
        } else {
            TypeCode::Invoice
        },
        currency: inv.currency.clone(),
        due_date: Some(inv.due_date),
        buyer_reference: Some(buyer_reference(
            crate::kontor_fields::invoice_buyer_reference(inv),
            crate::kontor_fields::company_buyer_reference(customer),
            customer.id,
        )),
        order_reference: None,
        notes: [inv.title.trim()]
            .into_iter()
            .filter(|t| !t.is_empty())
            .map(str::to_string)
            .collect(),
        preceding_invoice: src.reversed.clone(),
        seller: Party {
            name: account.name.clone(),
            trading_name: None,
            identifier: None,
            legal_registration: text(&account.register_number).map(str::to_string),
            vat_identifier: text(&account.vat_identifier).map(str::to_string),
            tax_number: text(&account.tax_number).map(str::to_string),
            additional_legal_information: (!legal.is_empty()).then_some(legal),
            electronic_address: email_address(
                crate::kontor_fields::account_electronic_address(account).or(text(&account.email)),
            ),
            address: address(&account.address, text(&account.country_code)),
            contact: Some(Contact {
                name: Some(
                    src.contact_name
                        .map(str::trim)
                        .filter(|n| !n.is_empty())
                        .unwrap_or(&account.name)
                        .to_string(),
                ),
                phone: text(&account.phone).map(str::to_string),
                email: text(&account.email).map(str::to_string),
            }),
        },
        buyer: Party {
            name: customer.name.clone(),
            trading_name: None,
            identifier: Some(customer.id.to_string()),
            legal_registration: None,
            vat_identifier: text(&customer.vat_identifier).map(str::to_string),
            tax_number: None,
            additional_legal_information: None,
            electronic_address: email_address(
                crate::kontor_fields::company_electronic_address(customer)
                    .or(text(&customer.email)),
            ),
            address: address(&customer.address, text(&customer.country_code)),
            contact: None,
        },
        delivery_date: if period.is_none() {
            Some(inv.date)
        } else {
            None
        },
        period,
        delivery_country: if has_k {
            text(&customer.country_code).map(str::to_string)
        } else {
            None
        },
        payment_means,
        // BT-83: the payment reference (issue 32), else the invoice number.
        remittance_information: inv
            .payment_reference
            .clone()
            .or_else(|| inv.identifier.clone()),
        payment_terms: Some(terms),
        allowances,
        charges,
        lines,
        vat_breakdown: breakdown,
        totals,
    })
}
