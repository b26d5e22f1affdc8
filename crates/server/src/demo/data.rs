//! The demo office: its customers, suppliers, account settings and logo, and the
//! positions its invoices and offers are made of.

use super::*;

/// A demo customer: master data (with a VAT ID whose checksum is valid), correspondence
/// language and its billing contact (gender, first and last name, job, e-mail).
pub(super) struct DemoCustomer {
    pub(super) name: &'static str,
    pub(super) address: &'static str,
    pub(super) country: &'static str,
    pub(super) email: &'static str,
    pub(super) term: i64,
    pub(super) vat_identifier: Option<&'static str>,
    pub(super) language: Language,
    pub(super) phone: &'static str,
    pub(super) website: Option<&'static str>,
    pub(super) contact: (
        Gender,
        &'static str,
        &'static str,
        &'static str,
        &'static str,
    ),
}

pub(super) const CUSTOMERS: &[DemoCustomer] = &[
    DemoCustomer {
        name: "Müller & Söhne GmbH",
        address: "Lindenstraße 12\n80331 München",
        country: "DE",
        email: "buchhaltung@mueller-soehne.de",
        term: 14,
        vat_identifier: Some("DE812345673"),
        language: Language::De,
        phone: "+49 89 5512340",
        website: Some("https://mueller-soehne.example"),
        contact: (
            Gender::F,
            "Sabine",
            "Müller",
            "Buchhaltung",
            "sabine.mueller@mueller-soehne.de",
        ),
    },
    DemoCustomer {
        name: "Alpenblick Hotel AG",
        address: "Seestrasse 4\n6006 Luzern\nSchweiz",
        country: "CH",
        email: "office@alpenblick.ch",
        term: 30,
        vat_identifier: Some("CHE109238471"),
        language: Language::De,
        phone: "+41 41 2101010",
        website: Some("https://alpenblick.example"),
        contact: (
            Gender::M,
            "Reto",
            "Zürcher",
            "Finanzen",
            "finanzen@alpenblick.ch",
        ),
    },
    DemoCustomer {
        name: "Nordlicht Design KG",
        address: "Speicherstadt 7\n20457 Hamburg",
        country: "DE",
        email: "rechnung@nordlicht-design.de",
        term: 14,
        vat_identifier: Some("DE294817367"),
        language: Language::De,
        phone: "+49 40 3003000",
        website: None,
        contact: (
            Gender::F,
            "Nina",
            "Hansen",
            "Geschäftsführerin",
            "nina@nordlicht-design.de",
        ),
    },
    DemoCustomer {
        name: "Bäckerei Sonnenschein",
        address: "Marktplatz 3\n50667 Köln",
        country: "DE",
        email: "info@baeckerei-sonnenschein.de",
        term: 7,
        vat_identifier: None,
        language: Language::De,
        phone: "+49 221 123456",
        website: None,
        contact: (
            Gender::M,
            "Peter",
            "Sonnenschein",
            "Inhaber",
            "peter@baeckerei-sonnenschein.de",
        ),
    },
    DemoCustomer {
        name: "Greenfield Analytics Ltd",
        address: "221 Baker Street\nLondon NW1 6XE\nUnited Kingdom",
        country: "GB",
        email: "accounts@greenfield-analytics.co.uk",
        term: 30,
        vat_identifier: Some("GB987654353"),
        language: Language::En,
        phone: "+44 20 79460000",
        website: Some("https://greenfield-analytics.example"),
        contact: (
            Gender::F,
            "Olivia",
            "Brooks",
            "Accounts payable",
            "olivia.brooks@greenfield-analytics.co.uk",
        ),
    },
    DemoCustomer {
        name: "Stadtwerke Ahrensburg",
        address: "Am Alten Markt 1\n22926 Ahrensburg",
        country: "DE",
        email: "kreditoren@stadtwerke-ahrensburg.de",
        term: 30,
        vat_identifier: Some("DE314159262"),
        language: Language::De,
        phone: "+49 4102 990",
        website: None,
        contact: (
            Gender::U,
            "Kim",
            "Petersen",
            "Kreditorenbuchhaltung",
            "kreditoren@stadtwerke-ahrensburg.de",
        ),
    },
    DemoCustomer {
        name: "Café Kranzler Betriebs GmbH",
        address: "Kurfürstendamm 18\n10719 Berlin",
        country: "DE",
        email: "verwaltung@kranzler-cafe.de",
        term: 14,
        vat_identifier: None,
        language: Language::De,
        phone: "+49 30 8871390",
        website: None,
        contact: (
            Gender::M,
            "Thomas",
            "Richter",
            "Verwaltung",
            "t.richter@kranzler-cafe.de",
        ),
    },
    DemoCustomer {
        name: "Van der Berg B.V.",
        address: "Keizersgracht 101\n1015 CJ Amsterdam\nNetherlands",
        country: "NL",
        email: "finance@vanderberg.nl",
        term: 30,
        vat_identifier: Some("NL812345678B01"),
        language: Language::En,
        phone: "+31 20 5550100",
        website: Some("https://vanderberg.example"),
        contact: (
            Gender::F,
            "Femke",
            "de Vries",
            "Finance",
            "femke.devries@vanderberg.nl",
        ),
    },
    DemoCustomer {
        name: "Donau Medien GmbH",
        address: "Praterstraße 22\n1020 Wien\nÖsterreich",
        country: "AT",
        email: "buchhaltung@donau-medien.at",
        term: 14,
        vat_identifier: Some("ATU51234560"),
        language: Language::De,
        phone: "+43 1 2145000",
        website: Some("https://donau-medien.example"),
        contact: (
            Gender::M,
            "Lukas",
            "Gruber",
            "Controlling",
            "lukas.gruber@donau-medien.at",
        ),
    },
];

/// The demo suppliers: name, address, VAT ID, IBAN (valid check digits), BIC.
pub(super) const SUPPLIERS: &[(&str, &str, &str, &str, &str)] = &[
    (
        "Papier & Co. KG",
        "Industriestraße 9\n70565 Stuttgart",
        "DE136695976",
        "DE89370400440532013000",
        "COBADEFFXXX",
    ),
    (
        "CloudHost GmbH",
        "Rechenzentrum 1\n60311 Frankfurt",
        "DE314159262",
        "DE44500105175407324931",
        "INGDDEFFXXX",
    ),
];

/// The demo account (issue 9 § The account's own data): a German GmbH with VAT ID
/// (valid checksum), tax number, register entry, managing directors and bank account.
pub(super) fn demo_account() -> AccountUpdate {
    AccountUpdate {
        name: Some("Kontor Demo GmbH".into()),
        address: Some("Hauptstraße 1\n10115 Berlin".into()),
        country_code: Some("DE".into()),
        vat_identifier: Some("DE136695976".into()),
        tax_number: Some("37/123/45678".into()),
        register_court: Some("Amtsgericht Charlottenburg".into()),
        register_number: Some("HRB 123456 B".into()),
        managing_directors: Some("Anna Schmidt, Jonas Weber".into()),
        phone: Some("+49 30 1234567".into()),
        email: Some("billing@kontor.example".into()),
        website: Some("https://kontor.example".into()),
        account_holder: Some("Kontor Demo GmbH".into()),
        iban: Some("DE02120300000000202051".into()),
        bic: Some("BYLADEM1001".into()),
        bank_name: Some("Deutsche Kreditbank".into()),
        ..Default::default()
    }
}

/// The demo logo (an SVG wordmark, sanitized like an uploaded one).
pub(super) const LOGO_SVG: &[u8] = include_bytes!("logo.svg");

/// Sets the demo account's own data and logo through the same rules as `PUT /account`
/// and `PUT /account/logo`. Errors: a rule refuses the data (a defect of the demo) or a
/// write fails.
pub(super) async fn fill_account(state: &AppState) -> Result<(), String> {
    let update = demo_account();
    let mut tx = crate::store::db::begin_write(&state.pool)
        .await
        .map_err(|e| e.to_string())?;
    let mut settings = crate::account::repo::load(&mut tx)
        .await
        .map_err(|e| format!("{e:?}"))?;
    let errors = validate_account_update(&update, &settings.with_smtp());
    if !errors.is_empty() {
        return Err(format!("demo account refused: {errors:?}"));
    }
    apply_account_update(&update, &mut settings.account);
    let svg = crate::input::svg::sanitize(LOGO_SVG).map_err(|e| format!("demo logo: {e:?}"))?;
    let key = state
        .files
        .put_new(
            crate::store::storage::Area::AccountLogo,
            "svg",
            svg.as_bytes(),
        )
        .await
        .map_err(|e| format!("{e:?}"))?;
    settings.logo = Some(crate::account::repo::StoredLogo {
        key,
        content_type: "image/svg+xml".into(),
    });
    crate::account::repo::save(&mut tx, &settings)
        .await
        .map_err(|e| format!("{e:?}"))?;
    tx.commit().await.map_err(|e| e.to_string())
}

/// The company body of a demo customer: foreign business customers are billed under
/// reverse charge (no German VAT on B2B services abroad), German ones with 19 %.
pub(super) fn customer_body(n: usize, c: &DemoCustomer) -> NewCompany {
    let foreign = c.country != "DE";
    NewCompany {
        kind: Some(CompanyType::Customer),
        name: Some(c.name.to_string()),
        address: Some(c.address.to_string()),
        email: Some(c.email.to_string()),
        currency: Some(if c.country == "CH" { "CHF" } else { "EUR" }.to_string()),
        default_invoice_due_days: Some(c.term),
        tags: Some(if n.is_multiple_of(3) {
            vec!["key account".to_string()]
        } else {
            vec![]
        }),
        customer_vat: Some(CustomerVat {
            tax: Some(Decimal::new(19, 0)),
            reverse_charge: foreign,
            intra_eu: false,
        }),
        country_code: Some(c.country.to_string()),
        vat_identifier: c.vat_identifier.map(str::to_string),
        language: Some(c.language),
        phone: Some(c.phone.to_string()),
        website: c.website.map(str::to_string),
        default_cash_discount: Some(Decimal::new(2, 0)),
        default_cash_discount_days: Some(7),
        ..Default::default()
    }
}

/// The body of a demo supplier.
pub(super) fn supplier_body(s: &(&str, &str, &str, &str, &str)) -> NewCompany {
    NewCompany {
        kind: Some(CompanyType::Supplier),
        name: Some(s.0.into()),
        address: Some(s.1.into()),
        country_code: Some("DE".into()),
        vat_identifier: Some(s.2.into()),
        iban: Some(s.3.into()),
        bic: Some(s.4.into()),
        ..Default::default()
    }
}

/// Positions: German title, English title, unit, unit price.
pub(super) const POSITIONS: &[(&str, &str, &str, &str)] = &[
    ("Konzeptworkshop", "Concept workshop", "h", "120"),
    ("UX-Design", "UX design", "h", "95"),
    ("Frontend-Entwicklung", "Frontend development", "h", "105"),
    ("Backend-Entwicklung", "Backend development", "h", "110"),
    ("Projektmanagement", "Project management", "h", "90"),
    ("Hosting (monatlich)", "Hosting (monthly)", "month", "49.90"),
    ("Fotoshooting", "Photo shoot", "day", "850"),
    ("Texterstellung", "Copywriting", "page", "65"),
    ("Domainverlängerung", "Domain renewal", "pcs", "14.99"),
    ("Supportpaket", "Support package", "month", "290"),
];
