//! The migrations written once (issue 30: one schema source): from number 26 on, each is a
//! [`Version`] emitted for both engines; 1–25 stay the `.sql` files of `migrations/`
//! they were written as.

use super::ddl::{Column, Default, OnDelete, Step, Type, Version};

/// Every migration written here, in order.
pub const VERSIONS: &[Version] = &[
    TEXT_FOLD,
    SHARED_FUNCTIONS,
    CUSTOMER_APPROVALS,
    OFFER_CONFIRMATIONS,
    DEBIT_CREDIT_NUMBERS,
    GIROCODE,
    BANK_STATEMENTS,
    CATALOGUE,
    CREDIT_NOTES,
    SENT_MAIL,
    DOWN_PAYMENTS,
    SELLER_NAME,
    CREDIT_NOTE_INDEX,
    TOTALS_PAUSE,
    LIVE_INVOICE_INDEXES,
    DOCUMENT_GROSS_INDEXES,
    SUPPLIER_INBOX,
    EINVOICE_CHECK,
];

/// 26: `kontor_fold`, the same case folding on both engines.
const TEXT_FOLD: Version = Version {
    version: 26,
    description: "text fold",
    why: "Issue 30: searches fold letters the same way on both engines, Unicode included\n\
          (\"ärzte\" finds \"ÄRZTE\"): kontor_fold(text) is the text in lower case; on\n\
          PostgreSQL under the ICU root collation, whatever the cluster's own locale.",
    steps: &[Step::Function {
        name: "kontor_fold",
        postgres: r#"CREATE FUNCTION kontor_fold(t TEXT) RETURNS TEXT
    LANGUAGE sql IMMUTABLE PARALLEL SAFE
    AS $$ SELECT lower(t COLLATE "und-x-icu") $$;"#,
    }],
};

/// 27: the other functions one statement text needs on both engines.
const SHARED_FUNCTIONS: Version = Version {
    version: 27,
    description: "shared functions",
    why: "Issue 30: no statement is rewritten at run time. kontor_milli(amount) is an amount\n\
          in exact thousandths (BIGINT); json_each(text) reads a JSON text column the way\n\
          SQLite's json_each does (key, value as text); GREATEST is PostgreSQL's own.",
    steps: &[
        Step::Function {
            name: "kontor_milli",
            postgres: "CREATE FUNCTION kontor_milli(amount NUMERIC) RETURNS BIGINT
    LANGUAGE sql IMMUTABLE PARALLEL SAFE
    AS $$ SELECT trunc(amount * 1000)::BIGINT $$;",
        },
        Step::Function {
            name: "json_each",
            postgres: "CREATE FUNCTION json_each(doc TEXT) RETURNS TABLE (key TEXT, value TEXT)
    LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
    SELECT NULL::text, v
    FROM json_array_elements_text(
        CASE WHEN json_typeof(doc::json) = 'array' THEN doc::json ELSE '[]'::json END) AS v
    UNION ALL
    SELECT e.key, e.value
    FROM json_each_text(
        CASE WHEN json_typeof(doc::json) = 'object' THEN doc::json ELSE '{}'::json END) AS e
$$;",
        },
    ],
};

/// 28: online offer approval (issue 31).
const CUSTOMER_APPROVALS: Version = Version {
    version: 28,
    description: "customer approvals",
    why: "Issue 31: the customer signs (or declines) an offer online through a link. One\n\
          approval per offer; its token is derived from the audit key file's key (named by\n\
          key_fingerprint) and a random nonce, and only its SHA-256 is looked up.",
    steps: &[
        Step::CreateTable {
            name: "offer_customer_approvals",
            columns: &[
                Column::new("id", Type::Id),
                Column::new("offer_id", Type::Integer).references("offers", OnDelete::Cascade),
                Column::new("token_hash", Type::Bytes),
                Column::new("token_nonce", Type::Text),
                Column::new("key_fingerprint", Type::Text),
                Column::new("active", Type::Bool).default(Default::Bool(true)),
                Column::new("customer_full_name", Type::Text).nullable(),
                Column::new("customer_email", Type::Text).nullable(),
                Column::new("signature_key", Type::Text).nullable(),
                Column::new("signed_at", Type::Timestamp).nullable(),
                Column::new("optional_item_ids", Type::Json).default(Default::Text("[]")),
                Column::new("declined_at", Type::Timestamp).nullable(),
                Column::new("decline_reason", Type::Text).nullable(),
                Column::new("created_at", Type::Timestamp),
                Column::new("updated_at", Type::Timestamp),
            ],
            primary_key: &[],
        },
        Step::CreateIndex {
            name: "offer_customer_approvals_offer",
            table: "offer_customer_approvals",
            columns: &["offer_id"],
            unique: true,
        },
        Step::CreateIndex {
            name: "offer_customer_approvals_token",
            table: "offer_customer_approvals",
            columns: &["token_hash"],
            unique: true,
        },
    ],
};

/// 29: order confirmations (issue 31).
const OFFER_CONFIRMATIONS: Version = Version {
    version: 29,
    description: "offer confirmations",
    why: "Issue 31: an accepted offer gets one order confirmation (its title; printed from\n\
          the offer's accepted positions), and the account may create and send it on its\n\
          own when the customer signs online (offer_confirmation_on_approval).",
    steps: &[
        Step::CreateTable {
            name: "offer_confirmations",
            columns: &[
                Column::new("id", Type::Id),
                Column::new("offer_id", Type::Integer).references("offers", OnDelete::Cascade),
                Column::new("title", Type::Text),
                Column::new("created_at", Type::Timestamp),
                Column::new("updated_at", Type::Timestamp),
            ],
            primary_key: &[],
        },
        Step::CreateIndex {
            name: "offer_confirmations_offer",
            table: "offer_confirmations",
            columns: &["offer_id"],
            unique: true,
        },
        Step::AddColumn {
            table: "account_settings",
            column: Column::new("offer_confirmation_on_approval", Type::Bool)
                .default(Default::Bool(false)),
        },
    ],
};

/// 30: debtor and creditor numbers are unique per kind (issue 31).
const DEBIT_CREDIT_NUMBERS: Version = Version {
    version: 30,
    description: "debit credit numbers",
    why: "Issue 31: a debtor number (debtor_number, wire debit_number) and a creditor number\n\
          (creditor_number, wire credit_number) belong to one company each. Issue 11 let\n\
          companies share one. The company with the lowest id keeps a shared number, the\n\
          others are emptied (their exports book on 10000/70000 + id again).",
    steps: &[
        Step::Update {
            statement: "UPDATE companies SET debtor_number = NULL WHERE debtor_number IS NOT NULL \
                AND EXISTS (SELECT 1 FROM companies o \
                WHERE o.debtor_number = companies.debtor_number AND o.id < companies.id)",
        },
        Step::Update {
            statement:
                "UPDATE companies SET creditor_number = NULL WHERE creditor_number IS NOT NULL \
                AND EXISTS (SELECT 1 FROM companies o \
                WHERE o.creditor_number = companies.creditor_number AND o.id < companies.id)",
        },
        Step::CreateIndex {
            name: "companies_debit_number",
            table: "companies",
            columns: &["debtor_number"],
            unique: true,
        },
        Step::CreateIndex {
            name: "companies_credit_number",
            table: "companies",
            columns: &["creditor_number"],
            unique: true,
        },
    ],
};

/// 31: the GiroCode switch (issue 32).
const GIROCODE: Version = Version {
    version: 31,
    description: "girocode",
    why: "Issue 32: EUR invoices and reminders print a GiroCode (EPC QR code) beside the\n\
          payment line; a switch in Settings turns it off (on by default).",
    steps: &[Step::AddColumn {
        table: "account_settings",
        column: Column::new("girocode", Type::Bool).default(Default::Bool(true)),
    }],
};

/// 32: bank statements and their transactions; payments say which transaction they came
/// from (issue 32).
const BANK_STATEMENTS: Version = Version {
    version: 32,
    description: "bank statements",
    why: "Issue 32: statements are imported (camt.05x, MT940), their transactions matched\n\
          to invoices and purchases; a payment booked from a transaction names it, so that\n\
          undoing the match removes exactly those payments. An entry is imported once: the\n\
          bank's reference and the entry's facts are each unique per account.",
    steps: &[
        Step::CreateTable {
            name: "bank_statements",
            columns: &[
                Column::new("id", Type::Id),
                Column::new("format", Type::Text),
                Column::new("filename", Type::Text),
                Column::new("account_iban", Type::Text).nullable(),
                Column::new("currency", Type::Text).nullable(),
                Column::new("from_date", Type::Date).nullable(),
                Column::new("to_date", Type::Date).nullable(),
                Column::new("opening_balance", Type::Decimal).nullable(),
                Column::new("closing_balance", Type::Decimal).nullable(),
                Column::new("entries", Type::Integer),
                Column::new("duplicates", Type::Integer),
                Column::new("matched", Type::Integer),
                Column::new("suggested", Type::Integer),
                Column::new("created_at", Type::Timestamp),
                Column::new("updated_at", Type::Timestamp),
            ],
            primary_key: &[],
        },
        Step::CreateTable {
            name: "bank_transactions",
            columns: &[
                Column::new("id", Type::Id),
                Column::new("bank_statement_id", Type::Integer)
                    .references("bank_statements", OnDelete::Cascade),
                Column::new("booking_date", Type::Date),
                Column::new("value_date", Type::Date).nullable(),
                Column::new("amount", Type::Decimal),
                Column::new("currency", Type::Text),
                Column::new("counterparty_name", Type::Text).nullable(),
                Column::new("counterparty_iban", Type::Text).nullable(),
                Column::new("remittance_information", Type::Text).nullable(),
                Column::new("end_to_end_id", Type::Text).nullable(),
                Column::new("creditor_reference", Type::Text).nullable(),
                Column::new("bank_reference", Type::Text).nullable(),
                Column::new("reference_key", Type::Text).nullable(),
                Column::new("facts_key", Type::Text),
                Column::new("state", Type::Text),
                Column::new("suggestions", Type::Json).default(Default::Text("[]")),
                Column::new("created_at", Type::Timestamp),
                Column::new("updated_at", Type::Timestamp),
            ],
            primary_key: &[],
        },
        Step::CreateIndex {
            name: "bank_transactions_reference_key",
            table: "bank_transactions",
            columns: &["reference_key"],
            unique: true,
        },
        Step::CreateIndex {
            name: "bank_transactions_facts_key",
            table: "bank_transactions",
            columns: &["facts_key"],
            unique: true,
        },
        Step::CreateIndex {
            name: "bank_transactions_state",
            table: "bank_transactions",
            columns: &["state", "booking_date"],
            unique: false,
        },
        Step::CreateIndex {
            name: "bank_transactions_statement",
            table: "bank_transactions",
            columns: &["bank_statement_id"],
            unique: false,
        },
        Step::AddColumn {
            table: "invoice_payments",
            column: Column::new("bank_transaction_id", Type::Integer).nullable(),
        },
        Step::AddColumn {
            table: "purchase_payments",
            column: Column::new("bank_transaction_id", Type::Integer).nullable(),
        },
        Step::CreateIndex {
            name: "invoice_payments_bank_transaction",
            table: "invoice_payments",
            columns: &["bank_transaction_id"],
            unique: false,
        },
        Step::CreateIndex {
            name: "purchase_payments_bank_transaction",
            table: "purchase_payments",
            columns: &["bank_transaction_id"],
            unique: false,
        },
    ],
};

/// 33: articles and text snippets (issue 33).
const CATALOGUE: Version = Version {
    version: 33,
    description: "articles text snippets",
    why: "Issue 33: articles (MOCO's catalog services) are priced services and goods a\n\
          position is filled from; positions copy their values, so nothing refers to an\n\
          article. number_key is the number in lower case (set by the server from the\n\
          model's article_number_key): unique, so two articles never share a number\n\
          regardless of case. Text snippets are named salutations, footers and e-mail texts\n\
          per language. Both are audited like companies.",
    steps: &[
        Step::CreateTable {
            name: "articles",
            columns: &[
                Column::new("id", Type::Id),
                Column::new("number", Type::Text).nullable(),
                Column::new("number_key", Type::Text).nullable(),
                Column::new("title", Type::Text),
                Column::new("description", Type::Text).nullable(),
                Column::new("unit", Type::Text).nullable(),
                Column::new("unit_price", Type::Decimal).nullable(),
                Column::new("currency", Type::Text),
                Column::new("tax_category", Type::Text).nullable().one_of(&[
                    "standard",
                    "reduced",
                    "zero",
                    "exempt",
                    "reverse_charge",
                    "intra_eu",
                    "export",
                ]),
                Column::new("tax", Type::Decimal).nullable(),
                Column::new("active", Type::Bool).default(Default::Bool(true)),
                Column::new("created_at", Type::Timestamp),
                Column::new("updated_at", Type::Timestamp),
            ],
            primary_key: &[],
        },
        Step::CreateIndex {
            name: "articles_number_key",
            table: "articles",
            columns: &["number_key"],
            unique: true,
        },
        Step::CreateTable {
            name: "text_snippets",
            columns: &[
                Column::new("id", Type::Id),
                Column::new("name", Type::Text),
                Column::new("kind", Type::Text).one_of(&["salutation", "footer", "email"]),
                Column::new("language", Type::Text).one_of(&["de", "en"]),
                Column::new("text", Type::Text),
                Column::new("created_at", Type::Timestamp),
                Column::new("updated_at", Type::Timestamp),
            ],
            primary_key: &[],
        },
        Step::CreateIndex {
            name: "text_snippets_kind_language",
            table: "text_snippets",
            columns: &["kind", "language"],
            unique: false,
        },
    ],
};

/// 34: credit notes (issue 33).
const CREDIT_NOTES: Version = Version {
    version: 34,
    description: "credit notes",
    why: "Issue 33: a credit note (Rechnungskorrektur) is an invoice row with credit_note\n\
          set and credited_invoice_id naming the invoice it corrects, numbered in its own\n\
          series (credit_note_number_format). The credited invoice keeps credited_total,\n\
          the positive gross its credit notes credit, written in the credit note's\n\
          transaction: the open amount is gross - payments - credited_total, read by the\n\
          lists without a join.",
    steps: &[
        Step::AddColumn {
            table: "invoices",
            column: Column::new("credit_note", Type::Bool).default(Default::Bool(false)),
        },
        Step::AddColumn {
            table: "invoices",
            column: Column::new("credited_invoice_id", Type::Integer)
                .nullable()
                .references("invoices", OnDelete::Restrict),
        },
        Step::AddColumn {
            table: "invoices",
            column: Column::new("credited_total", Type::Decimal).default(Default::Text("0")),
        },
        Step::AddColumn {
            table: "account_settings",
            column: Column::new("credit_note_number_format", Type::Text)
                .default(Default::Text("G{YY}{MM}-{NNN}")),
        },
    ],
};

/// 35: the sent-mail record (issue 33).
const SENT_MAIL: Version = Version {
    version: 35,
    description: "sent mail",
    why: "Issue 33: every message Kontor sends or puts in the outbox is recorded - when,\n\
          to whom, the subject, the document it carried, how it left (smtp, outbox) and\n\
          what became of it (sent, queued, failed with the sentence shown). Messages with\n\
          a document keep their bytes (message_key, a file of the sent_mail area) so they\n\
          can be sent again; bcc is kept for that only. resent_email_id links a message\n\
          to the record of its resending.",
    steps: &[
        Step::CreateTable {
            name: "emails",
            columns: &[
                Column::new("id", Type::Id),
                Column::new("at", Type::Timestamp),
                Column::new("sender", Type::Text),
                Column::new("to_addresses", Type::Json),
                Column::new("cc_addresses", Type::Json),
                Column::new("bcc_addresses", Type::Json),
                Column::new("subject", Type::Text),
                Column::new("document_type", Type::Text)
                    .nullable()
                    .one_of(&["invoice", "offer", "reminder", "order_confirmation"]),
                Column::new("document_id", Type::Integer).nullable(),
                Column::new("transport", Type::Text).one_of(&["smtp", "outbox"]),
                Column::new("state", Type::Text).one_of(&["sent", "queued", "failed"]),
                Column::new("error", Type::Text).nullable(),
                Column::new("message_id", Type::Text),
                Column::new("message_key", Type::Text).nullable(),
                Column::new("resent_email_id", Type::Integer)
                    .nullable()
                    .references("emails", OnDelete::SetNull),
                Column::new("user_id", Type::Integer).nullable(),
                Column::new("updated_at", Type::Timestamp),
            ],
            primary_key: &[],
        },
        Step::CreateIndex {
            name: "emails_document",
            table: "emails",
            columns: &["document_type", "document_id"],
            unique: false,
        },
        Step::CreateIndex {
            name: "emails_state",
            table: "emails",
            columns: &["state"],
            unique: false,
        },
    ],
};

/// 36: down-payment and final invoices (issue 33).
const DOWN_PAYMENTS: Version = Version {
    version: 36,
    description: "down-payment and final invoices; resend claims",
    why: "Issue 33: an invoice has a kind - standard, down_payment or final. A final\n\
          invoice keeps the down payments it deducts as written (deducted_down_payments,\n\
          each with its net, VAT per rate and gross) and their gross sum (deducted_total,\n\
          read by the open-amount rule without a join); a down payment names the final\n\
          invoice deducting it (final_invoice_id), claimed under the write lock, so it is\n\
          deducted once. emails.resending_at claims a kept message while it is sent again\n\
          (two resends at once send it once; a claim older than two minutes is stale).",
    steps: &[
        Step::AddColumn {
            table: "invoices",
            column: Column::new("kind", Type::Text)
                .one_of(&["standard", "down_payment", "final"])
                .default(Default::Text("standard")),
        },
        Step::AddColumn {
            table: "invoices",
            column: Column::new("deducted_down_payments", Type::Json).default(Default::Text("[]")),
        },
        Step::AddColumn {
            table: "invoices",
            column: Column::new("deducted_total", Type::Decimal).default(Default::Text("0")),
        },
        Step::AddColumn {
            table: "invoices",
            column: Column::new("final_invoice_id", Type::Integer)
                .nullable()
                .references("invoices", OnDelete::SetNull),
        },
        Step::AddColumn {
            table: "emails",
            column: Column::new("resending_at", Type::Timestamp).nullable(),
        },
    ],
};

/// 37: the seller's name as an imported e-invoice writes it (issue 34).
const SELLER_NAME: Version = Version {
    version: 37,
    description: "the seller's name of an imported e-invoice",
    why: "Issue 34: an imported e-invoice whose seller matches a supplier by VAT ID or IBAN\n\
          under another name says so and offers to take the new name. The purchase keeps\n\
          the seller's name (BT-27) as the document writes it.",
    steps: &[Step::AddColumn {
        table: "purchases",
        column: Column::new("einvoice_seller_name", Type::Text).nullable(),
    }],
};

/// 38: credit notes found by the invoice they correct without reading every invoice.
const CREDIT_NOTE_INDEX: Version = Version {
    version: 38,
    description: "an index on the invoice a credit note corrects",
    why: "Issue 35: every read of one invoice lists its credit notes\n\
          (credited_invoice_id = the invoice). Without an index that read walked every\n\
          live invoice: 22 ms per POST /invoices at 60,000 stored, 40 times the rest of\n\
          the request, growing with the data.",
    steps: &[Step::CreateIndex {
        name: "invoices_credited_invoice",
        table: "invoices",
        columns: &["credited_invoice_id"],
        unique: false,
    }],
};

/// 39: the invoices a large write follows in the kept totals itself.
const TOTALS_PAUSE: Version = Version {
    version: 39,
    description: "invoices whose kept totals a large write follows itself",
    why: "Issue 32: a bank statement import books thousands of payments in one\n\
          transaction; the totals triggers read each invoice's summary row four times per\n\
          booking (before and after the payment, before and after the status). While an\n\
          invoice's id is in invoice_totals_paused (only inside the writing transaction,\n\
          empty at rest) the triggers leave it alone and the write takes its rows out of the\n\
          totals and puts them back once, in one statement each\n\
          (crate::schema::derived::pause_totals / resume_totals).",
    steps: &[Step::CreateTable {
        name: "invoice_totals_paused",
        columns: &[Column::new("invoice_id", Type::Integer)],
        primary_key: &["invoice_id"],
    }],
};

/// A partial index of the live invoices (`deleted_at IS NULL`, the condition every list
/// statement carries) over `columns`.
const fn live_invoices(name: &'static str, columns: &'static [&'static str]) -> Step {
    Step::CreatePartialIndex {
        name,
        table: "invoices",
        columns,
        condition: "deleted_at IS NULL",
    }
}

/// 40: the invoice list's sort indexes hold the live invoices only.
const LIVE_INVOICE_INDEXES: Version = Version {
    version: 40,
    description: "partial indexes of the live invoices for the list",
    why: "Issue 35: the list's sort indexes began with deleted_at, which every list\n\
          statement tests with IS NULL. SQLite reads such an index in order; PostgreSQL\n\
          does not (IS NULL is no equality for its ordering), so on PostgreSQL every page\n\
          read and sorted every invoice (7.8 ms of 10,000). Partial indexes of the live\n\
          invoices serve both engines the same way, and are read in order by both. The\n\
          sums are indexed as the list sorts them (CAST AS REAL, the same text on both).\n\
          invoices_live_title served no statement (the list sorts by kontor_fold(title))\n\
          and is gone.",
    steps: &[
        Step::DropIndex {
            name: "invoices_live_date",
        },
        Step::DropIndex {
            name: "invoices_live_due_date",
        },
        Step::DropIndex {
            name: "invoices_live_identifier",
        },
        Step::DropIndex {
            name: "invoices_live_title",
        },
        Step::DropIndex {
            name: "invoices_live_status",
        },
        Step::DropIndex {
            name: "invoices_live_customer",
        },
        Step::DropIndex {
            name: "invoices_live_gross",
        },
        Step::DropIndex {
            name: "invoices_live_net",
        },
        Step::DropIndex {
            name: "invoices_live_created",
        },
        Step::DropIndex {
            name: "invoices_live_updated",
        },
        live_invoices("invoices_live_date", &["date DESC", "id DESC"]),
        live_invoices("invoices_live_due_date", &["due_date", "id"]),
        live_invoices("invoices_live_identifier", &["identifier", "id"]),
        live_invoices("invoices_live_status", &["status", "date DESC", "id DESC"]),
        live_invoices(
            "invoices_live_customer",
            &["customer_id", "date DESC", "id DESC"],
        ),
        live_invoices("invoices_live_gross", &["CAST(gross_total AS REAL)", "id"]),
        live_invoices("invoices_live_net", &["CAST(net_total AS REAL)", "id"]),
        live_invoices("invoices_live_created", &["created_at", "id"]),
        live_invoices("invoices_live_updated", &["updated_at", "id"]),
    ],
};

/// 41: the offer and purchase lists' gross sort read from an index on PostgreSQL too.
const DOCUMENT_GROSS_INDEXES: Version = Version {
    version: 41,
    description: "offer and purchase gross indexes as the lists sort",
    why: "Issue 35: the offer and purchase lists sort by CAST(gross_total AS REAL) (the\n\
          same text on both engines). SQLite's offers_gross and purchases_gross index that\n\
          expression; PostgreSQL's (from 0024) indexed the plain column, which that order\n\
          cannot use. Both engines now index the expression.",
    steps: &[
        Step::DropIndex {
            name: "offers_gross",
        },
        Step::DropIndex {
            name: "purchases_gross",
        },
        Step::CreateIndex {
            name: "offers_gross",
            table: "offers",
            columns: &["CAST(gross_total AS REAL)", "id"],
            unique: false,
        },
        Step::CreateIndex {
            name: "purchases_gross",
            table: "purchases",
            columns: &["CAST(gross_total AS REAL)", "id"],
            unique: false,
        },
    ],
};

/// 42: the supplier inbox (issue 36).
const SUPPLIER_INBOX: Version = Version {
    version: 42,
    description: "supplier inbox",
    why: "Issue 36: Kontor reads an IMAP mailbox and turns its e-invoices into pending\n\
          purchases. inbox_settings is one row (id 1) of the mailbox's settings, the\n\
          password write-only like the SMTP one, user_id the admin who saved them (the\n\
          imported purchases' user). inbox_messages records every message\n\
          read - its Message-ID and the SHA-256 of its bytes (each unique: a message is\n\
          processed once, also across restarts and processes), sender, subject, date,\n\
          state, reason and the purchases made. job_leases lets one process at a time do\n\
          a job (the poll) when several run on one database.",
    steps: &[
        Step::CreateTable {
            name: "inbox_settings",
            columns: &[
                Column::new("id", Type::Integer),
                Column::new("enabled", Type::Bool),
                Column::new("host", Type::Text),
                Column::new("port", Type::Integer),
                Column::new("security", Type::Text).one_of(&["tls", "starttls", "none"]),
                Column::new("username", Type::Text),
                Column::new("password", Type::Text).nullable(),
                Column::new("folder", Type::Text),
                Column::new("processed_folder", Type::Text),
                Column::new("user_id", Type::Integer).nullable(),
                Column::new("updated_at", Type::Timestamp),
            ],
            primary_key: &["id"],
        },
        Step::CreateTable {
            name: "inbox_messages",
            columns: &[
                Column::new("id", Type::Id),
                Column::new("message_id", Type::Text).nullable(),
                Column::new("content_hash", Type::Text),
                Column::new("received_at", Type::Timestamp),
                Column::new("sender", Type::Text),
                Column::new("subject", Type::Text),
                Column::new("state", Type::Text).one_of(&[
                    "imported",
                    "needs_review",
                    "ignored",
                    "failed",
                ]),
                Column::new("reason", Type::Text).nullable(),
                Column::new("purchase_ids", Type::Json),
                Column::new("created_at", Type::Timestamp),
                Column::new("updated_at", Type::Timestamp),
            ],
            primary_key: &[],
        },
        Step::CreateIndex {
            name: "inbox_messages_message_id",
            table: "inbox_messages",
            columns: &["message_id"],
            unique: true,
        },
        Step::CreateIndex {
            name: "inbox_messages_content_hash",
            table: "inbox_messages",
            columns: &["content_hash"],
            unique: true,
        },
        Step::CreateIndex {
            name: "inbox_messages_state",
            table: "inbox_messages",
            columns: &["state", "received_at"],
            unique: false,
        },
        Step::CreateTable {
            name: "job_leases",
            columns: &[
                Column::new("name", Type::Text),
                Column::new("holder", Type::Text),
                Column::new("until_at", Type::Integer),
            ],
            primary_key: &["name"],
        },
    ],
};

/// 43: the check of an incoming e-invoice on its purchase (issue 36).
const EINVOICE_CHECK: Version = Version {
    version: 43,
    description: "e-invoice check",
    why: "Issue 36: every purchase made from an e-invoice carries Kontor's EN 16931 check\n\
          (einvoice_check: valid, class, findings as JSON; NULL for purchases entered by\n\
          hand and for imports before this version) and the address a request for a\n\
          corrected invoice goes to (einvoice_reply_to: the document's seller e-mail, else\n\
          the sender of the inbox message it came with).",
    steps: &[
        Step::AddColumn {
            table: "purchases",
            column: Column::new("einvoice_check", Type::Json).nullable(),
        },
        Step::AddColumn {
            table: "purchases",
            column: Column::new("einvoice_reply_to", Type::Text).nullable(),
        },
    ],
};

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sql::Engine;

    /// Issue 11 let companies share a number: the lowest id keeps it, then the unique
    /// indexes hold.
    #[tokio::test]
    async fn shared_numbers_stay_with_the_first_company() {
        use sqlx::ConnectOptions;
        let conn = sqlx::sqlite::SqliteConnectOptions::new()
            .in_memory(true)
            .connect()
            .await
            .unwrap();
        let mut tx = crate::sql::Tx::from_sqlite(conn);
        crate::sql::query(
            "CREATE TABLE companies (id INTEGER PRIMARY KEY, debtor_number INTEGER, creditor_number INTEGER)",
        )
        .execute(&mut tx)
        .await
        .unwrap();
        crate::sql::query(
            "INSERT INTO companies VALUES (1, 10005, NULL), (2, 10005, 70001), (3, 10006, 70001), (4, NULL, 70001)",
        )
        .execute(&mut tx)
        .await
        .unwrap();
        for statement in DEBIT_CREDIT_NUMBERS
            .sql(Engine::Sqlite)
            .split(';')
            .filter(|s| !s.trim().is_empty())
        {
            crate::sql::query(statement).execute(&mut tx).await.unwrap();
        }
        let rows: Vec<(i64, Option<i64>, Option<i64>)> = crate::sql::query_as(
            "SELECT id, debtor_number, creditor_number FROM companies ORDER BY id",
        )
        .fetch_all(&mut tx)
        .await
        .unwrap();
        assert_eq!(
            rows,
            [
                (1, Some(10005), None),
                (2, None, Some(70001)),
                (3, Some(10006), None),
                (4, None, None)
            ]
        );
        let again = crate::sql::query("UPDATE companies SET debtor_number = 10005 WHERE id = 3")
            .execute(&mut tx)
            .await;
        assert!(again.is_err(), "the unique index holds");
    }
}
