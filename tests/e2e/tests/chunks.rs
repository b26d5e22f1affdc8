//! Issue 13's route chunks in Chromium against the real server with the split release
//! bundle: a page whose chunk cannot be loaded shows an
//! error with "Try again" inside the frame (never a blank page), and once the file is back
//! "Try again" loads the page in place.

use kontor_e2e::{copy_dir, dist, Browser, Server};

#[tokio::test(flavor = "multi_thread")]
async fn a_missing_chunk_shows_an_error_with_retry_and_retry_loads_the_page() {
    let bundle = tempfile::tempdir().unwrap();
    copy_dir(&dist(), bundle.path());
    let chunk: Vec<_> = std::fs::read_dir(bundle.path())
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .filter(|p| {
            p.file_name()
                .and_then(|n| n.to_str())
                .is_some_and(|n| n.starts_with("split_kontor_exports-") && n.ends_with(".wasm"))
        })
        .collect();
    assert_eq!(chunk.len(), 1, "the release bundle has the exports chunk");
    let chunk = chunk[0].clone();
    let hidden = bundle.path().join("hidden");
    std::fs::create_dir_all(&hidden).unwrap();
    // The file and its precompressed copies are gone, as after a half-finished deploy.
    for suffix in ["", ".br", ".gz"] {
        let from = std::path::PathBuf::from(format!("{}{suffix}", chunk.display()));
        if from.exists() {
            let to = hidden.join(from.file_name().unwrap());
            std::fs::rename(&from, &to).unwrap();
        }
    }

    let server = Server::start(Some(bundle.path().to_path_buf()), vec![]).await;
    let b = server.signed_in_browser().await;
    b.click(".sidenav a[href$='/exports']").await;
    b.find(".chunk-error[role=alert] #chunk-retry").await;
    b.screenshot("chunks-missing").await;
    // Not a blank page: the frame and its navigation stay.
    assert!(b.body_text().await.contains("Invoices"));
    b.find(".sidenav").await;

    // The file is back: "Try again" loads the page in place.
    for entry in std::fs::read_dir(&hidden).unwrap().flatten() {
        std::fs::rename(entry.path(), bundle.path().join(entry.file_name())).unwrap();
    }
    b.click("#chunk-retry").await;
    b.wait_js(
        "return !document.querySelector('.chunk-error') && document.querySelector('.page-head h1')?.textContent.trim() === 'Exports';",
        vec![],
    )
    .await;
    b.screenshot("chunks-retried").await;
    b.close().await;
}

/// The names of the wasm files the page has fetched so far (Resource Timing).
const FETCHED_WASM: &str = "return performance.getEntriesByType('resource').map(e => e.name).filter(n => n.endsWith('.wasm')).map(n => n.split('/').pop());";

#[tokio::test(flavor = "multi_thread")]
async fn a_first_visit_loads_the_main_module_only_and_the_frame_fetches_the_list_ahead() {
    let server = Server::start(Some(dist()), vec![]).await;
    let b = Browser::start().await;
    // A first visit: the sign-in page, ready to type, from the main module alone.
    b.client
        .goto(&format!("{}/", server.base))
        .await
        .expect("open");
    b.find("form.sign-in-card input").await;
    tokio::time::sleep(std::time::Duration::from_millis(500)).await;
    // Room for every fetch of the session: the frame and the dashboard share a few hundred
    // small chunk files, beyond the browser's default 250 timing entries.
    b.client
        .execute("performance.setResourceTimingBufferSize(100000);", vec![])
        .await
        .unwrap();
    let fetched = b.client.execute(FETCHED_WASM, vec![]).await.unwrap();
    let fetched: Vec<String> = serde_json::from_value(fetched).unwrap();
    assert_eq!(fetched.len(), 1, "only the main module: {fetched:?}");
    assert!(fetched[0].starts_with("kontor-app-"), "{fetched:?}");

    // Signed in, the app opens the dashboard; once the frame has shown, the invoice
    // list's chunk is fetched before anybody asks for it.
    // (Signed in on this page, so the larger timing buffer set above stays.)
    b.api_key_mode().await;
    b.fill("#api-key", &server.key).await;
    b.click("form button[type=submit]").await;
    b.wait_js(
        "return performance.getEntriesByType('resource').some(e => e.name.includes('/split_kontor_invoice_list-'));",
        vec![],
    )
    .await;
    let before = b.client.execute(FETCHED_WASM, vec![]).await.unwrap();
    b.click(".sidenav a[href$='/invoices']").await;
    b.wait_js(
        "return document.querySelector('.page-head h1')?.textContent.trim() === 'Invoices' && !!document.querySelector('table.invoices-table, .empty-state');",
        vec![],
    )
    .await;
    // The click fetched no wasm of the list: it was there already.
    let after = b.client.execute(FETCHED_WASM, vec![]).await.unwrap();
    let list = |v: &serde_json::Value| {
        v.as_array()
            .unwrap()
            .iter()
            .filter(|n| {
                n.as_str()
                    .unwrap()
                    .starts_with("split_kontor_invoice_list-")
            })
            .count()
    };
    assert_eq!(list(&before), 1);
    assert_eq!(list(&after), 1);
    b.close().await;
}
