//! Issue 13's route chunks in Chromium against the real server with the split release
//! bundle: the first screens need no chunk; a page whose chunk cannot be loaded shows an
//! error with "Try again" inside the frame (never a blank page), and once the file is back
//! "Try again" loads the page in place.

use kontor_e2e::{dist, Browser, Server};
use std::path::Path;

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap().flatten() {
        let path = entry.path();
        if path.is_file() {
            std::fs::copy(&path, to.join(entry.file_name())).unwrap();
        }
    }
}

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
    let b = Browser::start().await;
    b.sign_in(&server.base, &server.key).await;
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
