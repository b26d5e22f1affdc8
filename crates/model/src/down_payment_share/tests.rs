use super::*;
use crate::position_vat::TaxCategory;

fn d(text: &str) -> Decimal {
    text.parse().unwrap()
}

fn group(category: TaxCategory, rate: &str, net: &str, tax: &str) -> TaxBreakdown {
    TaxBreakdown {
        tax_category: category,
        tax: d(rate),
        net_total: d(net),
        tax_total: d(tax),
    }
}

#[test]
fn a_share_of_an_offer_is_split_over_its_rates_and_adds_up_exactly() {
    let standard = TaxCategory::Standard;
    let groups = vec![
        group(standard, "19", "1000.00", "190.00"),
        group(standard, "7", "333.33", "23.33"),
    ];
    let items = down_payment_positions(
        &groups,
        Share::Percent(d("30")),
        "EUR",
        Language::De,
        1,
        "A2611-004",
    )
    .unwrap();
    assert_eq!(items.len(), 2);
    assert_eq!(
        items[0].title.as_deref(),
        Some("Abschlag 1 auf Angebot A2611-004 (19 %)")
    );
    assert_eq!(items[0].net_total, Some(d("300.00")));
    assert_eq!(items[0].tax, Some(d("19")));
    assert_eq!(items[0].tax_category, Some(standard));
    // 30 % of 1,333.33 = 400.00 (rounded): the last rate takes the rest.
    assert_eq!(items[1].net_total, Some(d("100.00")));
    assert_eq!(items[1].tax, Some(d("7")));
    // A net amount, in English, one rate: one position without the rate.
    let one = vec![group(standard, "19", "10000.00", "1900.00")];
    let items =
        down_payment_positions(&one, Share::Net(d("1000")), "EUR", Language::En, 2, "A1").unwrap();
    assert_eq!(items.len(), 1);
    assert_eq!(
        items[0].title.as_deref(),
        Some("Down payment 2 on offer A1")
    );
    assert_eq!(items[0].net_total, Some(d("1000.00")));
    // Out of range: nothing, more than all, more than 100 %, an empty offer.
    for share in [
        Share::Percent(d("0")),
        Share::Percent(d("100.01")),
        Share::Net(d("10000.01")),
        Share::Net(d("-1")),
    ] {
        assert_eq!(
            down_payment_positions(&one, share, "EUR", Language::De, 1, "A1"),
            Err(messages::IS_OUT_OF_RANGE)
        );
    }
    assert_eq!(
        down_payment_positions(&[], Share::Percent(d("10")), "EUR", Language::De, 1, "A1"),
        Err(messages::IS_REQUIRED)
    );
    // All of it is allowed.
    let all = down_payment_positions(&one, Share::Percent(d("100")), "EUR", Language::De, 1, "A1")
        .unwrap();
    assert_eq!(all[0].net_total, Some(d("10000.00")));
}
