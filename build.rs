//! Generates the app's text catalogue from `locales/en/*.json` and `locales/de/*.json` at
//! compile time (issue 12): a key missing or empty in either language fails the build.
//! See `build/catalogue.rs` and `docs/decisions.md` § German and English in the app.

#[path = "build/catalogue.rs"]
mod catalogue;

fn main() {
    // Route chunks (issue 13, `docs/decisions.md` § Route chunks): the release wasm keeps the
    // linker's relocations so `scripts/post_build.sh` can split it, and the lazy routes
    // become split points (`cfg(kontor_split)`). Debug builds, tests and clippy get plain
    // async routes. `KONTOR_SPLIT=0` turns it off for a release build.
    println!("cargo::rustc-check-cfg=cfg(kontor_split)");
    println!("cargo:rerun-if-env-changed=KONTOR_SPLIT");
    let wasm = std::env::var("CARGO_CFG_TARGET_ARCH").as_deref() == Ok("wasm32");
    let release = std::env::var("PROFILE").as_deref() == Ok("release");
    let split = match std::env::var("KONTOR_SPLIT").as_deref() {
        Ok("0") => false,
        Ok("1") => true,
        _ => release,
    };
    if wasm && split {
        println!("cargo:rustc-link-arg-bins=--emit-relocs");
        println!("cargo:rustc-cfg=kontor_split");
    }
    println!("cargo:rerun-if-changed=locales");
    println!("cargo:rerun-if-changed=build/catalogue.rs");
    let read = |lang: &str| {
        let dir = std::path::PathBuf::from(format!("locales/{lang}"));
        if let Ok(files) = std::fs::read_dir(&dir) {
            for file in files.flatten() {
                println!("cargo:rerun-if-changed={}", file.path().display());
            }
        }
        catalogue::read_dir(&dir).unwrap_or_else(|e| panic!("{e}"))
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
    // The catalogue files themselves, for the catalogue test (`tests/components/i18n.rs`), which runs
    // in the browser and cannot read the directory.
    let mut sources = String::from(
        "/// `(language, file, JSON)` of every catalogue file.\npub static SOURCES: &[(&str, &str, &str)] = &[\n",
    );
    for lang in ["en", "de"] {
        let mut files: Vec<_> = std::fs::read_dir(format!("locales/{lang}"))
            .expect("locales")
            .flatten()
            .map(|f| f.path())
            .filter(|p| p.extension().and_then(|e| e.to_str()) == Some("json"))
            .collect();
        files.sort();
        for file in files {
            // Relative to the crate at compile time (not this checkout's absolute path): a
            // build cache shared by two clones reuses this output without rerunning the
            // script, and an absolute path would name the other clone's files.
            let name = file.display().to_string();
            sources.push_str(&format!(
                "    ({lang:?}, {name:?}, include_str!(concat!(env!(\"CARGO_MANIFEST_DIR\"), \"/\", {name:?}))),\n",
            ));
        }
    }
    sources.push_str("];\n");
    std::fs::write(
        std::path::Path::new(&out).join("catalogue_sources.rs"),
        sources,
    )
    .expect("write catalogue_sources.rs");
}
