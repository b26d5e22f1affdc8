//! More [`Browser`] helpers: signing in, waiting for a condition in the page, reading
//! properties, fetching from inside the page.

use crate::Browser;
use fantoccini::Locator;
use serde_json::Value;
use std::time::Duration;

impl Browser {
    /// Screenshots `{name}-{theme}-{width}` in the light and the dark theme (`data-theme`
    /// on `<html>`) at 1280 and 1024 px wide; then the theme follows the system again and
    /// the window is 1280 px wide. Nothing (not even the resizing) when screenshots are
    /// off ([`crate::screenshots_wanted`]).
    pub async fn theme_screenshots(&self, name: &str) {
        if !crate::screenshots_wanted() {
            return;
        }
        for theme in ["light", "dark"] {
            let set = "document.documentElement.dataset.theme = arguments[0]; return true;";
            self.wait_js(set, vec![theme.into()]).await;
            for width in [1280, 1024] {
                self.client
                    .set_window_size(width, 900)
                    .await
                    .expect("resize");
                tokio::time::sleep(Duration::from_millis(300)).await;
                self.screenshot(&format!("{name}-{theme}-{width}")).await;
            }
        }
        let unset = "delete document.documentElement.dataset.theme; return true;";
        self.wait_js(unset, vec![]).await;
        self.client
            .set_window_size(1280, 900)
            .await
            .expect("resize");
    }

    /// Reloads the page (as after a crash or a closed tab) and answers the form's "Restore
    /// your unsaved changes from …?" with "Restore" (issue 34, issue 37); first checks that
    /// the field `empty_css` came back empty (nothing is restored unasked). Panics when the
    /// notice is not offered.
    pub async fn reload_and_restore_local_draft(&self, empty_css: &str) {
        self.client.refresh().await.expect("reload");
        let notice = self
            .find("#local-draft-notice")
            .await
            .text()
            .await
            .unwrap_or_default();
        assert!(
            notice.contains("Restore your unsaved changes from"),
            "{notice}"
        );
        assert_eq!(self.prop(empty_css, "value").await, "", "{empty_css}");
        self.click("#local-draft-restore").await;
    }

    /// Opens `base` + `path` (a form) and asserts, once its field `ready_css` shows, that no
    /// local draft is offered (after the form was saved).
    pub async fn assert_no_local_draft_offered(&self, base: &str, path: &str, ready_css: &str) {
        self.open(base, path).await;
        self.find(ready_css).await;
        tokio::time::sleep(Duration::from_millis(600)).await;
        let none = self
            .client
            .execute(
                "return !document.querySelector('#local-draft-notice');",
                vec![],
            )
            .await
            .expect("script");
        assert_eq!(
            none,
            Value::Bool(true),
            "a local draft is offered at {path}"
        );
    }

    /// Waits until the first element matching `css` contains `text` (its `textContent`).
    pub async fn wait_contains(&self, css: &str, text: &str) {
        self.wait_js(
            "const e = document.querySelector(arguments[0]); return !!e && e.textContent.includes(arguments[1]);",
            vec![css.into(), text.into()],
        )
        .await;
    }

    /// Clicks the navigation entry whose accessible name is exactly `name` (waits up to
    /// 10 s for it).
    pub async fn nav(&self, name: &str) {
        let xpath = format!("//nav[@aria-label='Main']//a[normalize-space(.)='{name}']");
        let link = self
            .client
            .wait()
            .at_most(Duration::from_secs(10))
            .for_element(Locator::XPath(&xpath))
            .await
            .unwrap_or_else(|e| panic!("no navigation entry {name:?}: {e}"));
        link.click().await.expect("click");
    }

    /// Sets the value of the input `css` as a person picking a date would, then fires
    /// `event` (`input`, `change`) on it.
    pub async fn set_value(&self, css: &str, value: &str, event: &str) {
        let el = self.find(css).await;
        let arg = serde_json::to_value(&el).unwrap();
        self.client
            .execute(
                "arguments[0].value = arguments[1]; arguments[0].dispatchEvent(new Event(arguments[2], {bubbles: true}));",
                vec![arg, serde_json::json!(value), serde_json::json!(event)],
            )
            .await
            .expect("set value");
    }

    /// Scrolls the first element matching `css` into view.
    pub async fn scroll_to(&self, css: &str) {
        self.client
            .execute(
                "document.querySelector(arguments[0]).scrollIntoView()",
                vec![css.into()],
            )
            .await
            .expect("scroll");
    }

    /// Closes every toast, as a person clicking their close buttons would.
    pub async fn close_toasts(&self) {
        self.client
            .execute(
                "document.querySelectorAll('.toast-close').forEach(c => c.click());",
                vec![],
            )
            .await
            .expect("close toasts");
    }

    /// Sets `data-theme` on `<html>` to `theme` (`light`, `dark`), as the theme switch does.
    pub async fn set_theme(&self, theme: &str) {
        self.client
            .execute(
                "document.documentElement.dataset.theme = arguments[0];",
                vec![theme.into()],
            )
            .await
            .expect("theme");
    }

    /// Screenshots `{name}-1280-{theme}` and `{name}-1024-{theme}` at those window widths,
    /// each after 250 ms to settle; the window is 1280 px wide again afterwards. Nothing
    /// when screenshots are off ([`crate::screenshots_wanted`]).
    pub async fn two_width_screenshots(&self, name: &str, theme: &str) {
        if !crate::screenshots_wanted() {
            return;
        }
        tokio::time::sleep(Duration::from_millis(250)).await;
        self.screenshot(&format!("{name}-1280-{theme}")).await;
        self.client
            .set_window_size(1024, 900)
            .await
            .expect("resize");
        tokio::time::sleep(Duration::from_millis(250)).await;
        self.screenshot(&format!("{name}-1024-{theme}")).await;
        self.client
            .set_window_size(1280, 900)
            .await
            .expect("resize");
    }

    /// Removes `data-theme` from `<html>`: the theme follows the system again.
    pub async fn unset_theme(&self) {
        self.client
            .execute("delete document.documentElement.dataset.theme;", vec![])
            .await
            .expect("theme");
    }

    /// Opens `base` and signs in with `key` (same origin); waits for the invoice list,
    /// where most tests start: sign-in lands on the dashboard ([`Browser::sign_in_only`]),
    /// then the navigation's "Invoices" opens the list.
    pub async fn sign_in(&self, base: &str, key: &str) {
        self.sign_in_only(base, key).await;
        self.click(".sidenav a[href$='/invoices']").await;
        self.wait_js(
            "return document.querySelector('.page-head h1')?.textContent.trim() === 'Invoices';",
            vec![],
        )
        .await;
        self.wait_text("New invoice").await;
    }

    /// Opens the sign-in page of `base` and submits `email` and `password` (the form's
    /// default mode); does not wait for the outcome ([`Browser::sign_in_with_password`]).
    pub async fn submit_sign_in(&self, base: &str, email: &str, password: &str) {
        self.client
            .goto(&format!("{base}/sign-in"))
            .await
            .expect("open");
        self.find("#email").await;
        self.fill("#email", email).await;
        self.fill("#password", password).await;
        self.click("#sign-in-submit").await;
    }

    /// Signs in with `email` and `password` and waits for the dashboard.
    pub async fn sign_in_with_password(&self, base: &str, email: &str, password: &str) {
        self.submit_sign_in(base, email, password).await;
        self.wait_js(
            "return location.pathname.endsWith('/dashboard') && !!document.querySelector('.page-head h1');",
            vec![],
        )
        .await;
    }

    /// Opens `base` and signs in with `key` (same origin); waits for the landing page,
    /// the dashboard (issue 11).
    pub async fn sign_in_only(&self, base: &str, key: &str) {
        self.client.goto(&format!("{base}/")).await.expect("open");
        self.api_key_mode().await;
        self.fill("#api-key", key).await;
        self.click("form button[type=submit]").await;
        self.wait_js(
            "return location.pathname.endsWith('/dashboard') && document.querySelector('.page-head h1')?.textContent.trim() === 'Dashboard';",
            vec![],
        )
        .await;
    }

    /// On the sign-in page: switches to "Sign in with an API key" (e-mail and password is
    /// the default since issue 12) and shows the server address field ("Another server…"),
    /// unless already so; waits for the key field.
    pub async fn api_key_mode(&self) {
        self.wait_js(
            "const k = document.querySelector('#api-key'); const m = document.querySelector('#sign-in-mode'); \
             if (!k && m) m.click(); \
             const a = document.querySelector('#another-server'); if (a) a.click(); \
             return !!document.querySelector('#api-key') && !!document.querySelector('#server');",
            vec![],
        )
        .await;
    }

    /// Opens the in-app `path` under `base`.
    pub async fn open(&self, base: &str, path: &str) {
        self.client
            .goto(&format!("{base}{path}"))
            .await
            .expect("open");
    }

    /// Runs `script` (a function body that may `return`) every 100 ms until it returns
    /// something truthy, up to 15 s; returns that value.
    pub async fn wait_js(&self, script: &str, args: Vec<Value>) -> Value {
        self.wait_js_within(script, args, Duration::from_secs(15))
            .await
    }

    /// [`Self::wait_js`] with its own limit `within` (a whole page load with its chunk and
    /// data, on a machine that runs two browser tests side by side); panics naming the
    /// script, its last value and what the page showed.
    pub async fn wait_js_within(&self, script: &str, args: Vec<Value>, within: Duration) -> Value {
        let mut last = Value::Null;
        let tries = (within.as_millis() / 100).max(1);
        for _ in 0..tries {
            last = self
                .client
                .execute(script, args.clone())
                .await
                .unwrap_or(Value::Null);
            let truthy = match &last {
                Value::Null => false,
                Value::Bool(b) => *b,
                Value::String(s) => !s.is_empty(),
                Value::Number(n) => n.as_f64() != Some(0.0),
                _ => true,
            };
            if truthy {
                return last;
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
        self.failure_screenshot("wait_js_failure").await;
        // What the page showed, so a failure in CI names its cause (a loading line, an
        // error panel, another address) without the screenshot.
        let shown = self
            .client
            .execute(
                "const m = document.querySelector('main') || document.body; \
                 return location.href + ' | ' + (m ? m.innerText : '').replace(/\\s+/g, ' ').slice(0, 600);",
                vec![],
            )
            .await
            .unwrap_or(Value::Null);
        panic!("never true: {script} (last {last}); the page: {shown}");
    }

    /// Waits until the element `css` has the text `text` (trimmed).
    pub async fn wait_text_of(&self, css: &str, text: &str) {
        let script = "const e = document.querySelector(arguments[0]); return !!e && e.textContent.trim() === arguments[1];";
        self.wait_js(script, vec![css.into(), text.into()]).await;
    }

    /// The property `name` of the element `css` (e.g. an input's `value`).
    pub async fn prop(&self, css: &str, name: &str) -> String {
        self.find(css)
            .await
            .prop(name)
            .await
            .expect("property")
            .unwrap_or_default()
    }

    /// Chooses the option with `value` in the `<select>` `css`.
    pub async fn select(&self, css: &str, value: &str) {
        self.find(css)
            .await
            .select_by_value(value)
            .await
            .unwrap_or_else(|e| panic!("select {value} in {css}: {e}"));
    }

    /// Fetches `url` from inside the page and answers `"<type> <size> <first 4 bytes>"`,
    /// or `"failed"` when the fetch fails (e.g. a revoked object URL).
    pub async fn fetch_in_page(&self, url: &str) -> String {
        let script = "const [url, done] = arguments;
            fetch(url).then(r => r.blob()).then(async b => {
                const head = new TextDecoder().decode(new Uint8Array(await b.slice(0, 4).arrayBuffer()));
                done(b.type + ' ' + b.size + ' ' + head);
            }, () => done('failed'));";
        self.client
            .execute_async(script, vec![url.into()])
            .await
            .expect("script")
            .as_str()
            .unwrap_or_default()
            .to_string()
    }

    /// The bytes of `url` fetched from inside the page (e.g. the `blob:` URL of a PDF the
    /// page shows); panics when the fetch fails.
    pub async fn fetch_bytes_in_page(&self, url: &str) -> Vec<u8> {
        let script = "const [url, done] = arguments;
            fetch(url).then(r => r.arrayBuffer())
                .then(b => done(Array.from(new Uint8Array(b))), e => done(String(e)));";
        let answer = self
            .client
            .execute_async(script, vec![url.into()])
            .await
            .expect("script");
        answer
            .as_array()
            .unwrap_or_else(|| panic!("fetch {url}: {answer}"))
            .iter()
            .map(|v| {
                v.as_u64()
                    .and_then(|b| u8::try_from(b).ok())
                    .expect("a byte")
            })
            .collect()
    }

    /// The current URL's path.
    pub async fn path(&self) -> String {
        self.client
            .current_url()
            .await
            .expect("url")
            .path()
            .to_string()
    }

    /// Clicks the button inside the open dialog whose text contains `text`.
    pub async fn click_in_dialog(&self, text: &str) {
        let xpath = format!("//dialog[@open]//button[contains(., '{text}')]");
        let button = self
            .client
            .wait()
            .at_most(Duration::from_secs(10))
            .for_element(Locator::XPath(&xpath))
            .await
            .unwrap_or_else(|e| panic!("no button {text:?} in a dialog: {e}"));
        button.click().await.expect("click");
    }

    /// Types `name` into the company picker `css` (a searching combobox), waits for the
    /// server's answer listing that company and picks it; waits until the picker holds it.
    pub async fn pick_company(&self, css: &str, name: &str) {
        self.fill(css, name).await;
        let xpath = format!(
            "//ul[@role='listbox']/li[@role='option'][@data-id][contains(normalize-space(.), \"{name}\")]"
        );
        let option = self
            .client
            .wait()
            .at_most(Duration::from_secs(15))
            .for_element(Locator::XPath(&xpath))
            .await
            .unwrap_or_else(|e| panic!("the picker {css} never listed {name:?}: {e}"));
        option.click().await.expect("pick");
        let picked = "const e = document.querySelector(arguments[0]); return !!e && e.dataset.companyId !== '' && e.value === arguments[1];";
        self.wait_js(picked, vec![css.into(), name.into()]).await;
    }

    /// The id of the company the picker `css` holds (`""` when none), once it equals
    /// `expected` (waits up to 15 s: a deal or project loads its company first).
    pub async fn wait_picked(&self, css: &str, expected: &str) {
        let script = "const e = document.querySelector(arguments[0]); return !!e && e.dataset.companyId === arguments[1];";
        self.wait_js(script, vec![css.into(), expected.into()])
            .await;
    }

    /// The page's accessibility violations found by axe-core (issue 31: "0 axe-core
    /// violations"), each as `"rule: n nodes: help (selectors)"`; empty when there are none.
    /// axe-core is read from `KONTOR_AXE` or npm's copy that `scripts/setup.sh` installs.
    pub async fn axe_violations(&self) -> Vec<String> {
        let path = std::env::var_os("KONTOR_AXE")
            .map(std::path::PathBuf::from)
            .unwrap_or_else(|| "/opt/wasm-tools/node_modules/axe-core/axe.min.js".into());
        let source = std::fs::read_to_string(&path).unwrap_or_else(|e| {
            panic!("axe-core at {} ({e}); run scripts/setup.sh", path.display())
        });
        self.client
            .execute(&format!("{source}\nreturn true;"), vec![])
            .await
            .expect("axe-core loads");
        let found = self
            .client
            .execute_async(
                "const done = arguments[arguments.length - 1];
                 axe.run(document, {resultTypes: ['violations']}).then(r => done(r.violations.map(v =>
                     v.id + ': ' + v.nodes.length + ' nodes: ' + v.help + ' (' + v.nodes.map(n => n.target.join(' ')).join(', ') + ')')),
                   e => done(['axe failed: ' + e]));",
                vec![],
            )
            .await
            .expect("axe runs");
        serde_json::from_value(found).unwrap_or_default()
    }
}
