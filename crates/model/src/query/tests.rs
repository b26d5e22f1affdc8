//! Unit tests of this module (kept apart so the module itself stays short).

use super::*;
use crate::status::InvoiceStatus;

fn pairs_to_query(pairs: &[(String, String)]) -> String {
    let mut out = form_urlencoded::Serializer::new(String::new());
    for (k, v) in pairs {
        out.append_pair(k, v);
    }
    out.finish()
}

#[test]
fn parses_and_writes_back() {
    let q = "status=sent,paid&date_from=2026-01-01&tags=a&tags=b&term=web&page=2&custom_properties%5BKst%5D=4711&whatever=x";
    let f = InvoiceFilter::from_query(q).unwrap();
    assert_eq!(f.status, vec![InvoiceStatus::Sent, InvoiceStatus::Paid]);
    assert_eq!(f.tags, vec!["a", "b"]);
    assert_eq!(f.paging.page(), 2);
    assert_eq!(
        f.global.custom_properties,
        vec![("Kst".to_string(), "4711".to_string())]
    );
    let again = f.to_pairs();
    assert!(again.contains(&("status".into(), "sent,paid".into())));
    assert!(again.contains(&("tags".into(), "a,b".into())));
    assert!(again.contains(&("page".into(), "2".into())));
    let f2 = InvoiceFilter::from_query(&pairs_to_query(&again)).unwrap();
    assert_eq!((f2.status, f2.tags, f2.from), (f.status, f.tags, f.from));
}

#[test]
fn company_filters_read_and_write_back() {
    let f = CompanyFilter::from_query(
        "type=customer,supplier&term=hafen&tags=a&tags=b&active=false&page=3",
    )
    .unwrap();
    assert_eq!(
        f.kinds,
        vec![
            crate::party::CompanyType::Customer,
            crate::party::CompanyType::Supplier
        ]
    );
    assert_eq!(f.term.as_deref(), Some("hafen"));
    assert_eq!(f.tags, vec!["a", "b"]);
    assert_eq!(f.active, Some(false));
    let again = f.to_pairs();
    assert!(again.contains(&("type".into(), "customer,supplier".into())));
    assert!(again.contains(&("active".into(), "false".into())));
    assert_eq!(
        CompanyFilter::from_query(&pairs_to_query(&again)).unwrap(),
        f
    );
    assert_eq!(
        CompanyFilter::from_query("type=person").unwrap_err().param,
        "type"
    );
    assert_eq!(
        CompanyFilter::from_query("active=maybe").unwrap_err().param,
        "active"
    );
}

#[test]
fn wrong_forms_name_the_parameter() {
    let err = |q: &str| InvoiceFilter::from_query(q).unwrap_err();
    assert_eq!(err("date_from=yesterday").param, "date_from");
    assert!(err("date_from=yesterday").message.contains("YYYY-MM-DD"));
    assert_eq!(err("date_to=2026-1-1").param, "date_to");
    assert_eq!(err("status=sent,lost").param, "status");
    assert_eq!(err("per_page=0").param, "per_page");
    assert_eq!(err("page=x").param, "page");
    assert_eq!(err("ids=1,x").param, "ids");
    assert_eq!(err("updated_after=soon").param, "updated_after");
    // The name the request used, also for an alias.
    assert_eq!(err("customer_id=abc").param, "customer_id");
}

#[test]
fn empty_values_are_absent_and_unknown_ignored() {
    let f = InvoiceFilter::from_query("status=&date_from=&term=&foo=bar&project_id=").unwrap();
    assert!(f.to_pairs().is_empty(), "{:?}", f.to_pairs());
    assert_eq!(f, InvoiceFilter::default());
    let ids = InvoiceFilter::from_query("ids=").unwrap();
    assert_eq!(ids.global.ids, Some(vec![]));
}

#[test]
fn open_and_overdue_read_and_write_back() {
    let f = InvoiceFilter::from_query("overdue=true&open=false").unwrap();
    assert_eq!((f.open, f.overdue), (Some(false), Some(true)));
    let back = f.to_pairs();
    assert!(back.contains(&("overdue".to_string(), "true".to_string())));
    assert!(back.contains(&("open".to_string(), "false".to_string())));
    assert_eq!(
        InvoiceFilter::from_query("overdue=soon").unwrap_err().param,
        "overdue"
    );
    assert_eq!(InvoiceFilter::from_query("overdue=").unwrap().overdue, None);
}

#[test]
fn per_page_is_capped() {
    let f = InvoiceFilter::from_query("per_page=500").unwrap();
    assert_eq!(f.paging.per_page(), 100);
}

#[test]
fn lists_take_commas_repeats_and_brackets() {
    let f = InvoiceFilter::from_query("tags%5B%5D=x&tags%5B%5D=y,z").unwrap();
    assert_eq!(f.tags, vec!["x", "y", "z"]);
    let g = InvoiceFilter::from_query("customer_id=7").unwrap();
    assert_eq!(g.company_id, Some(7));
}

#[test]
fn offer_filter_reads_id_lists_and_sort() {
    let f = OfferFilter::from_query("deal_id=1,2&project_id=7&sort=title&status=accepted").unwrap();
    assert_eq!(
        (f.deal_ids.clone(), f.project_ids.clone(), f.sort.as_deref()),
        (vec![1, 2], vec![7], Some("title"))
    );
    let back = f.to_pairs();
    assert!(back.contains(&("deal_id".to_string(), "1,2".to_string())));
    assert_eq!(
        OfferFilter::from_query("sort=price").unwrap_err().param,
        "sort"
    );
    assert_eq!(
        OfferFilter::from_query("deal_id=x").unwrap_err().param,
        "deal_id"
    );
}

#[test]
fn sort_and_order_are_checked_and_written_back() {
    let f = InvoiceFilter::from_query("sort=customer&order=DESC&term=Kranzler").unwrap();
    assert_eq!(
        (f.sort.as_deref(), f.order, f.term.as_deref()),
        (Some("customer"), Some(SortOrder::Desc), Some("Kranzler"))
    );
    let back = f.to_pairs();
    assert!(back.contains(&("order".to_string(), "desc".to_string())));
    assert_eq!(
        InvoiceFilter::from_query(&pairs_to_query(&back)).unwrap(),
        f
    );
    let err = InvoiceFilter::from_query("sort=colour").unwrap_err();
    assert_eq!(err.param, "sort");
    assert!(err.message.contains("open_amount"), "{}", err.message);
    assert_eq!(
        InvoiceFilter::from_query("order=up").unwrap_err().param,
        "order"
    );
    assert_eq!(
        PurchaseFilter::from_query("sort=customer")
            .unwrap_err()
            .param,
        "sort"
    );
    let p = PurchaseFilter::from_query("sort=supplier").unwrap();
    assert_eq!(p.sort.as_deref(), Some("supplier"));
    let o = OfferFilter::from_query("sort=company&order=asc&term=x").unwrap();
    assert_eq!(
        (o.sort.as_deref(), o.order, o.term.as_deref()),
        (Some("company"), Some(SortOrder::Asc), Some("x"))
    );
    assert_eq!(SortOrder::default_for("due_date"), SortOrder::Desc);
    assert_eq!(SortOrder::default_for("gross_total"), SortOrder::Asc);
}

#[test]
fn purchase_filter_date_ranges_and_unpaid() {
    let f = PurchaseFilter::from_query(
        "date=2026-11-01:&unpaid=true&company_id=0&status=pending,archived",
    )
    .unwrap();
    assert_eq!(
        (f.date.from.is_some(), f.date.to, f.unpaid, f.company_id),
        (true, None, Some(true), Some(0))
    );
    assert_eq!(f.status.len(), 2);
    let f2 = PurchaseFilter::from_query(&pairs_to_query(&f.to_pairs())).unwrap();
    assert_eq!(f2.date, f.date);
    let to_only = PurchaseFilter::from_query("date=:2026-11-30").unwrap();
    assert!(to_only.date.from.is_none() && to_only.date.to.is_some());
    let err = |q: &str| PurchaseFilter::from_query(q).unwrap_err().param;
    assert_eq!(err("date=2026-11-01"), "date");
    assert_eq!(err("date=2026-11-01:tomorrow"), "date");
    assert_eq!(err("unpaid=maybe"), "unpaid");
    assert_eq!(err("payment_method=gold"), "payment_method");
}

#[test]
fn helpers_decode_single_and_repeated_values() {
    #[derive(Deserialize, Default)]
    #[serde(default)]
    struct Q {
        #[serde(deserialize_with = "one")]
        n: Option<i64>,
        #[serde(deserialize_with = "list")]
        m: Vec<i64>,
    }
    let q: Q = decode("n=1&n=2&m=3&m=4,5").unwrap();
    assert_eq!((q.n, q.m), (Some(2), vec![3, 4, 5]));
    let e = decode::<Q>("m=3,four").err().unwrap();
    assert_eq!(
        (e.param.as_str(), e.message.as_str()),
        ("m", "must be an integer")
    );
    assert_eq!(DateRange::parse_param("2026-01-01"), None);
    assert_eq!(DateRange::parse_param(":"), Some(DateRange::default()));
}

#[test]
fn clearing_filters_keeps_sort_order_and_page_size() {
    let f =
        InvoiceFilter::from_query("status=sent&sort=date&order=asc&page=3&per_page=20").unwrap();
    assert!(f.has_filters());
    let cleared = f.cleared();
    assert!(!cleared.has_filters());
    assert_eq!(cleared.sort.as_deref(), Some("date"));
    assert_eq!(cleared.order, Some(SortOrder::Asc));
    assert_eq!(cleared.paging.per_page, Some(20));
    assert_eq!(cleared.paging.page, None);
    assert!(cleared.status.is_empty());
    let sorted_only = InvoiceFilter::from_query("sort=date&page=2").unwrap();
    assert!(!sorted_only.has_filters());
}

#[test]
fn the_offset_of_any_page_a_client_can_send_fits() {
    let at = |page: Option<u32>, per_page: Option<u32>| {
        Paging {
            page,
            per_page,
            ..Paging::default()
        }
        .offset()
    };
    assert_eq!(at(None, None), 0);
    assert_eq!(at(Some(0), Some(0)), 0);
    assert_eq!(at(Some(3), Some(25)), 50);
    assert_eq!(at(Some(1000), Some(500)), 99_900);
    // (2^32 - 2) x 100 overflowed the 32 bits it was computed in.
    assert_eq!(at(Some(u32::MAX), Some(u32::MAX)), 429_496_729_400);
}
