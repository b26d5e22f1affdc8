//! Issue 11 (recurring invoices) in real Chromium against the real server with the release
//! bundle: a monthly schedule whose next date lies two months back is created through the
//! app's form; the job bills each of the three due months exactly once — also after the
//! server was restarted twice — and the schedule's page lists the history with links to
//! the invoices. Screenshots of the list, form and detail at 1280 and 1024 px.

use kontor_e2e::{dist, Browser, Server};
use kontor_model::party::Language;
use kontor_model::recurring::{fill_placeholders, period_of, Interval, Period};
use serde_json::{json, Value};

fn row(n: usize, field: &str) -> String {
    format!(".pe-table tbody tr[data-row-key]:nth-of-type({n}) [data-field={field}]")
}

/// Sets an input's value as the browser's date picker does (value + event).
async fn set_value(b: &Browser, css: &str, value: &str) {
    let el = b.find(css).await;
    let arg = serde_json::to_value(&el).unwrap();
    b.client
        .execute(
            "arguments[0].value = arguments[1]; arguments[0].dispatchEvent(new Event('input', {bubbles: true}));",
            vec![arg, json!(value)],
        )
        .await
        .expect("set value");
}

/// The first days of the month `back` months before the job's today, and of the two
/// following months: `["2026-09-01", "2026-10-01", "2026-11-01"]` in November 2026.
fn months_back(back: i32) -> Vec<String> {
    let today = kontor_server::recurring::job::today().to_string();
    let year: i32 = today[0..4].parse().unwrap();
    let month: i32 = today[5..7].parse().unwrap();
    (0..=back)
        .map(|k| {
            let index = year * 12 + (month - 1) - back + k;
            format!("{:04}-{:02}-01", index / 12, index % 12 + 1)
        })
        .collect()
}

/// The invoice of `period_start` (a month's first day) as the job titles it for a German
/// customer (the default language).
fn expected_title(template: &str, run: &Value) -> String {
    let period = Period {
        start: serde_json::from_value(run["period_start"].clone()).unwrap(),
        end: serde_json::from_value(run["period_end"].clone()).unwrap(),
    };
    fill_placeholders(template, period, Interval::Monthly, Language::De)
}

async fn invoices(server: &Server) -> Vec<Value> {
    server
        .get("/invoices?per_page=100")
        .await
        .as_array()
        .unwrap()
        .clone()
}

async fn set_width(b: &Browser, width: u32) {
    b.client.set_window_size(width, 900).await.expect("resize");
}

/// Screenshots of the page in the dark theme at 1280 and 1024 px; back to light at 1280.
async fn dark_shots(b: &Browser, name: &str) {
    b.client
        .execute("document.documentElement.dataset.theme = 'dark';", vec![])
        .await
        .expect("dark");
    b.screenshot(&format!("{name}-dark-1280")).await;
    set_width(b, 1024).await;
    b.screenshot(&format!("{name}-dark-1024")).await;
    set_width(b, 1280).await;
    b.client
        .execute("delete document.documentElement.dataset.theme;", vec![])
        .await
        .expect("light");
}

#[tokio::test(flavor = "multi_thread")]
async fn a_past_due_schedule_made_in_the_app_is_billed_once_per_month_across_two_restarts() {
    let mut server = Server::start(Some(dist()), vec![]).await;
    let customer = server.customer("Kranzler Hosting GmbH").await;
    let b = server.signed_in_browser().await;

    // The empty list says what to do and links to the form.
    b.open(&server.base, "/recurring_invoices").await;
    b.wait_text("No recurring invoices yet").await;
    b.screenshot("recurring-00-empty-1280").await;
    b.click(".empty-state a.btn-primary").await;
    b.wait_js(
        "return location.pathname === '/recurring_invoices/new' && !!document.querySelector('#f-next_date');",
        vec![],
    )
    .await;

    // Saving the empty form names what is missing, in the form's words.
    set_value(&b, "#f-next_date", "").await;
    b.click("form button[type=submit]").await;
    b.wait_text("Please correct the marked fields.").await;
    b.wait_text("Customer is required").await;
    b.wait_text("Next invoice date is required").await;
    b.wait_text("Position 1: title is required").await;
    set_width(&b, 1024).await;
    b.screenshot("recurring-01-form-errors-1024").await;
    set_width(&b, 1280).await;

    // A monthly schedule whose next date is two months back, finalized invoices.
    let dates = months_back(2);
    b.pick_company("#f-customer_id", "Kranzler Hosting GmbH")
        .await;
    b.wait_picked("#f-customer_id", &customer.to_string()).await;
    b.fill("#f-title", "Hosting {month} {year}").await;
    b.fill(&row(1, "title"), "Server {period}").await;
    b.fill(&row(1, "quantity"), "1").await;
    b.fill(&row(1, "unit_price"), "49").await;
    set_value(&b, "#f-next_date", &dates[0]).await;
    b.click("input[name=mode][value=finalize]").await;
    b.wait_text("58.31").await; // 49 + 19 % in the editor's totals
    b.screenshot("recurring-02-form-1280").await;
    set_width(&b, 1024).await;
    b.screenshot("recurring-03-form-1024").await;
    set_width(&b, 1280).await;
    dark_shots(&b, "recurring-03-form").await;
    b.click("form button[type=submit]").await;
    b.wait_js(
        "return /^\\/recurring_invoices\\/\\d+$/.test(location.pathname);",
        vec![],
    )
    .await;
    let path = b.path().await;
    let id: i64 = path.rsplit('/').next().unwrap().parse().unwrap();

    // The job made one invoice per due month at once: three, finalized, dated on the
    // first, with the month as service period and the placeholders filled.
    let check = |record: Value, all: Vec<Value>| {
        let runs = record["runs"].as_array().unwrap().clone();
        let mut starts: Vec<&str> = runs
            .iter()
            .map(|r| r["period_start"].as_str().unwrap())
            .collect();
        starts.sort_unstable();
        assert_eq!(starts, dates, "one run per month: {runs:?}");
        assert_eq!(all.len(), 3, "exactly one invoice per month: {all:?}");
        for run in &runs {
            let invoice = all
                .iter()
                .find(|i| i["id"] == run["invoice_id"])
                .unwrap_or_else(|| panic!("the run's invoice exists: {run}"));
            assert_eq!(invoice["date"], run["period_start"]);
            assert_eq!(invoice["service_period_from"], run["period_start"]);
            assert_eq!(invoice["service_period_to"], run["period_end"]);
            assert_eq!(
                invoice["title"],
                expected_title("Hosting {month} {year}", run)
            );
            assert_ne!(invoice["status"], "draft");
            assert!(invoice["identifier"].is_string());
        }
        runs
    };
    let record = server.get(&format!("/recurring_invoices/{id}")).await;
    let runs = check(record, invoices(&server).await);
    assert_eq!(runs.len(), 3);

    // Two restarts: the start-up pass finds nothing more to do.
    server.restart().await;
    check(
        server.get(&format!("/recurring_invoices/{id}")).await,
        invoices(&server).await,
    );
    server.restart().await;
    let record = server.get(&format!("/recurring_invoices/{id}")).await;
    let runs = check(record.clone(), invoices(&server).await);
    assert!(record["active"].as_bool().unwrap());
    assert_eq!(record["last_run_date"].as_str(), Some(dates[2].as_str()));

    // The schedule's page (loaded from the restarted server) lists the history, newest
    // first, with links to the three invoices.
    b.open(&server.base, &path).await;
    b.wait_text("History").await;
    b.find("#recurring-history").await;
    let links = b
        .wait_js(
            "const a = [...document.querySelectorAll('#recurring-history a[data-invoice-id]')]; return a.length === 3 ? a.map(x => [x.dataset.invoiceId, x.textContent, x.getAttribute('href')]) : null;",
            vec![],
        )
        .await;
    let links = links.as_array().unwrap();
    let newest = runs
        .iter()
        .max_by_key(|r| r["period_start"].as_str().unwrap().to_string())
        .unwrap();
    assert_eq!(links[0][0], newest["invoice_id"].to_string());
    assert_eq!(links[0][1], newest["invoice_identifier"]);
    for link in links {
        assert_eq!(link[2], format!("/invoices/{}", link[0].as_str().unwrap()));
    }
    // The next invoice's title as the job will fill it in (German customer).
    let next = serde_json::from_value(record["next_date"].clone()).unwrap();
    let next_title = fill_placeholders(
        "Hosting {month} {year}",
        period_of(Interval::Monthly, next).unwrap(),
        Interval::Monthly,
        Language::De,
    );
    b.wait_text(&format!("Next invoice: \u{201c}{next_title}\u{201d}"))
        .await;
    b.screenshot("recurring-04-detail-1280").await;
    set_width(&b, 1024).await;
    b.screenshot("recurring-05-detail-1024").await;
    set_width(&b, 1280).await;
    dark_shots(&b, "recurring-05-detail").await;

    // A history link opens the invoice.
    b.click("#recurring-history a[data-invoice-id]").await;
    b.wait_js(
        &format!(
            "return location.pathname === '/invoices/{}';",
            newest["invoice_id"]
        ),
        vec![],
    )
    .await;
    b.wait_text(newest["invoice_identifier"].as_str().unwrap())
        .await;

    // The list shows the schedule with its next date (the month after the last run).
    b.open(&server.base, "/recurring_invoices").await;
    b.wait_text("Kranzler Hosting GmbH").await;
    b.wait_text("Hosting {month} {year}").await;
    b.wait_text("Active").await;
    b.screenshot("recurring-06-list-1280").await;
    set_width(&b, 1024).await;
    b.screenshot("recurring-07-list-1024").await;
    set_width(&b, 1280).await;
    dark_shots(&b, "recurring-07-list").await;

    b.close().await;
}
