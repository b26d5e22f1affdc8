//! Issue 34 § Dark mode: every button meets WCAG AA contrast (4.5:1 for its text) in the
//! light and the dark theme — the primary and danger buttons measured in Chromium from
//! their computed colours (the dark theme's primary button read 2.23:1 before).

use kontor_e2e::{dist, Server};

/// The contrast ratio of the first `css` element's text against its background, as the
/// browser computes both (`rgb(…)` strings; WCAG 2 relative luminance).
const RATIO: &str = r#"
const e = document.querySelector(arguments[0]);
if (!e) return false;
const s = getComputedStyle(e);
const rgb = t => (t.match(/[\d.]+/g) || []).slice(0, 3).map(Number);
const lum = c => {
  const [r, g, b] = c.map(v => { v /= 255; return v <= 0.03928 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4); });
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
};
const [a, b] = [lum(rgb(s.color)), lum(rgb(s.backgroundColor))].sort((x, y) => y - x);
return Math.round(((a + 0.05) / (b + 0.05)) * 100) / 100;
"#;

#[tokio::test(flavor = "multi_thread")]
async fn primary_and_danger_buttons_meet_aa_in_both_themes() {
    let server = Server::start(Some(dist()), vec![]).await;
    let b = server.signed_in_browser().await;
    b.open(&server.base, "/invoices").await;
    b.find(".page-head").await;
    // One button of each kind, styled by the app's own classes.
    b.wait_js(
        "document.body.insertAdjacentHTML('beforeend', '<button class=\"btn btn-primary\" id=\"probe-primary\">Speichern</button><button class=\"btn btn-danger\" id=\"probe-danger\">Löschen</button>'); return true;",
        vec![],
    )
    .await;
    for theme in ["light", "dark"] {
        b.wait_js(
            "document.documentElement.dataset.theme = arguments[0]; return true;",
            vec![theme.into()],
        )
        .await;
        tokio::time::sleep(std::time::Duration::from_millis(200)).await;
        for probe in ["#probe-primary", "#probe-danger"] {
            let ratio = b.wait_js(RATIO, vec![probe.into()]).await.as_f64().unwrap();
            assert!(ratio >= 4.5, "{theme} {probe}: {ratio}:1");
        }
    }
    b.close().await;
}
