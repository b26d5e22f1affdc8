//! The compile-time catalogue check and generator (issue 12, `docs/decisions.md`
//! § German and English in the app): reads every `locales/<lang>/*.json` file (one file per
//! area of the app, each `{"namespace": {"key": "text"}}`; a namespace lives in one file only), refuses a key missing or empty in either language, a
//! key that is not a Rust identifier and a `{placeholder}` set that differs between the
//! languages, and writes one Rust struct per namespace with one `&'static str` field per
//! key plus a static value per language. Shared by `build.rs` and the catalogue test.

use std::collections::{BTreeMap, BTreeSet};

/// One language's catalogue: namespace → key → text, in order.
pub type Entries = BTreeMap<String, BTreeMap<String, String>>;

/// Parses a catalogue file's JSON; `Err` names what is wrong.
pub fn parse(name: &str, json: &str) -> Result<Entries, String> {
    let value: serde_json::Value =
        serde_json::from_str(json).map_err(|e| format!("{name}: not JSON: {e}"))?;
    let top = value
        .as_object()
        .ok_or_else(|| format!("{name}: the top level must be an object of namespaces"))?;
    let mut out = Entries::new();
    for (ns, keys) in top {
        let keys = keys
            .as_object()
            .ok_or_else(|| format!("{name}: namespace `{ns}` must be an object of texts"))?;
        let mut texts = BTreeMap::new();
        for (key, text) in keys {
            let text = text
                .as_str()
                .ok_or_else(|| format!("{name}: `{ns}.{key}` must be a string"))?;
            texts.insert(key.clone(), text.to_string());
        }
        out.insert(ns.clone(), texts);
    }
    Ok(out)
}

/// Merges the catalogue files of one language (`(file name, JSON)` pairs, any order) into one
/// catalogue; `Err` names a file that is no catalogue or a namespace defined in two files.
pub fn merge(files: &[(String, String)]) -> Result<Entries, String> {
    let mut out = Entries::new();
    let mut origin: BTreeMap<String, String> = BTreeMap::new();
    for (name, json) in files {
        for (ns, keys) in parse(name, json)? {
            if let Some(first) = origin.insert(ns.clone(), name.clone()) {
                return Err(format!(
                    "namespace `{ns}` is defined in {first} and in {name}"
                ));
            }
            out.insert(ns, keys);
        }
    }
    Ok(out)
}

/// Reads and merges every `*.json` file of `dir` (one language's catalogue), sorted by name.
pub fn read_dir(dir: &std::path::Path) -> Result<Entries, String> {
    let mut files = Vec::new();
    let entries = std::fs::read_dir(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    for entry in entries {
        let path = entry.map_err(|e| format!("{}: {e}", dir.display()))?.path();
        if path.extension().and_then(|e| e.to_str()) == Some("json") {
            let text =
                std::fs::read_to_string(&path).map_err(|e| format!("{}: {e}", path.display()))?;
            files.push((path.display().to_string(), text));
        }
    }
    files.sort();
    merge(&files)
}

fn identifier(s: &str) -> bool {
    let mut chars = s.chars();
    matches!(chars.next(), Some('a'..='z' | '_'))
        && chars.all(|c| matches!(c, 'a'..='z' | '0'..='9' | '_'))
        && !matches!(
            s,
            "type"
                | "match"
                | "move"
                | "ref"
                | "self"
                | "static"
                | "use"
                | "fn"
                | "in"
                | "as"
                | "loop"
                | "if"
                | "else"
                | "for"
                | "mod"
                | "impl"
                | "trait"
                | "struct"
                | "enum"
                | "let"
                | "mut"
                | "pub"
                | "return"
                | "where"
                | "while"
                | "crate"
                | "super"
                | "const"
                | "extern"
                | "true"
                | "false"
                | "async"
                | "await"
                | "dyn"
                | "break"
                | "continue"
                | "unsafe"
        )
}

/// The `{name}` placeholders of a text.
pub fn placeholders(text: &str) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    let mut rest = text;
    while let Some(open) = rest.find('{') {
        let after = &rest[open + 1..];
        match after.find('}') {
            Some(close) => {
                out.insert(after[..close].to_string());
                rest = &after[close + 1..];
            }
            None => break,
        }
    }
    out
}

/// Every problem between the catalogues (`lang`, entries) pairs: a namespace or key missing
/// in one language, an empty text, a key that is no identifier, differing placeholders.
/// Empty when the catalogues are complete.
pub fn problems(langs: &[(&str, &Entries)]) -> Vec<String> {
    let mut out = Vec::new();
    let mut all: BTreeMap<&str, BTreeSet<&str>> = BTreeMap::new();
    for (_, entries) in langs {
        for (ns, keys) in entries.iter() {
            let set = all.entry(ns).or_default();
            set.extend(keys.keys().map(String::as_str));
        }
    }
    for (ns, keys) in &all {
        if !identifier(ns) {
            out.push(format!("namespace `{ns}` is not a snake_case identifier"));
        }
        for key in keys {
            if !identifier(key) {
                out.push(format!("key `{ns}.{key}` is not a snake_case identifier"));
            }
            let mut first: Option<(&str, BTreeSet<String>)> = None;
            for (lang, entries) in langs {
                match entries.get(*ns).and_then(|k| k.get(*key)) {
                    None => out.push(format!("`{ns}.{key}` is missing in {lang}")),
                    Some(text) if text.trim().is_empty() => {
                        out.push(format!("`{ns}.{key}` is empty in {lang}"))
                    }
                    Some(text) => {
                        let p = placeholders(text);
                        match &first {
                            None => first = Some((lang, p)),
                            Some((l0, p0)) if *p0 != p => out.push(format!(
                                "`{ns}.{key}`: placeholders {p0:?} in {l0} but {p:?} in {lang}"
                            )),
                            Some(_) => {}
                        }
                    }
                }
            }
        }
    }
    out
}

fn camel(ns: &str) -> String {
    ns.split('_')
        .map(|part| {
            let mut c = part.chars();
            c.next()
                .map(|f| f.to_ascii_uppercase().to_string() + c.as_str())
                .unwrap_or_default()
        })
        .collect()
}

/// The Rust source of the catalogue: a `Catalogue` struct with one field per namespace, one
/// struct per namespace (with a `get` by key name for wire names such as statuses), and
/// one `pub static` per language (`EN`, `DE`, upper-cased language codes). Call only with
/// catalogues that have no [`problems`].
pub fn generate(langs: &[(&str, &Entries)]) -> String {
    use std::fmt::Write;
    let reference = langs[0].1;
    let mut s = String::new();
    // One static per language and namespace, reached only through the namespace's accessor:
    // a route chunk that alone uses a namespace carries its texts (issue 13, route chunks
    // split data too), so the main module holds only the texts of the first screens.
    s.push_str("/// Every text of the app in one language (generated from `locales/*.json`): one\n/// accessor per namespace, `t().nav().invoices`.\n");
    s.push_str("pub struct Catalogue {\n    /// Index into the languages of the generated statics.\n    lang: usize,\n}\n");
    for (i, (lang, _)) in langs.iter().enumerate() {
        let _ = writeln!(
            s,
            "/// The `{lang}` catalogue.\npub static {}: Catalogue = Catalogue {{ lang: {i} }};",
            lang.to_ascii_uppercase()
        );
    }
    s.push_str("impl Catalogue {\n");
    for ns in reference.keys() {
        let _ = writeln!(
            s,
            "    /// The `{ns}` texts.\n    #[inline]\n    pub fn {ns}(&self) -> &'static {} {{\n        match self.lang {{",
            camel(ns)
        );
        for (i, (lang, _)) in langs.iter().enumerate().skip(1) {
            let _ = writeln!(
                s,
                "            {i} => &{}_{},",
                lang.to_ascii_uppercase(),
                ns.to_ascii_uppercase()
            );
        }
        let _ = writeln!(
            s,
            "            _ => &{}_{},",
            langs[0].0.to_ascii_uppercase(),
            ns.to_ascii_uppercase()
        );
        s.push_str("        }\n    }\n");
    }
    s.push_str("}\n");
    for (ns, keys) in reference {
        let _ = writeln!(
            s,
            "/// The `{ns}` texts (generated from `locales/*.json`).\n#[allow(missing_docs)]\npub struct {} {{",
            camel(ns)
        );
        for key in keys.keys() {
            let _ = writeln!(s, "    pub {key}: &'static str,");
        }
        s.push_str("}\n");
        let _ = writeln!(
            s,
            "impl {} {{\n    /// The text of the key named `key` (a wire name such as a status); `None` for an unknown key.\n    pub fn get(&self, key: &str) -> Option<&'static str> {{\n        match key {{",
            camel(ns)
        );
        for key in keys.keys() {
            let _ = writeln!(s, "            {key:?} => Some(self.{key}),");
        }
        s.push_str("            _ => None,\n        }\n    }\n}\n");
    }
    for (lang, entries) in langs {
        for (ns, keys) in entries.iter() {
            let _ = writeln!(
                s,
                "static {}_{}: {} = {} {{",
                lang.to_ascii_uppercase(),
                ns.to_ascii_uppercase(),
                camel(ns),
                camel(ns)
            );
            for (key, text) in keys {
                let _ = writeln!(s, "    {key}: {text:?},");
            }
            s.push_str("};\n");
        }
    }
    s
}
