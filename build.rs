//! Generates the app's text catalogue from `locales/en.json` and `locales/de.json` at
//! compile time (issue 12): a key missing or empty in either language fails the build.
//! See `build/catalogue.rs` and `docs/decisions.md` § German and English in the app.

#[path = "build/catalogue.rs"]
mod catalogue;

fn main() {
    println!("cargo:rerun-if-changed=locales/en.json");
    println!("cargo:rerun-if-changed=locales/de.json");
    println!("cargo:rerun-if-changed=build/catalogue.rs");
    let read = |lang: &str| {
        let path = format!("locales/{lang}.json");
        let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
        catalogue::parse(&path, &text).unwrap_or_else(|e| panic!("{e}"))
    };
    let en = read("en");
    let de = read("de");
    let langs = [("en", &en), ("de", &de)];
    let problems = catalogue::problems(&langs);
    if !problems.is_empty() {
        panic!(
            "the text catalogues are incomplete:\n  {}",
            problems.join("\n  ")
        );
    }
    let out = std::env::var("OUT_DIR").expect("OUT_DIR");
    std::fs::write(
        std::path::Path::new(&out).join("catalogue.rs"),
        catalogue::generate(&langs),
    )
    .expect("write catalogue.rs");
}
