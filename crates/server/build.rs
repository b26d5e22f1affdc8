//! Rebuilds the server when a migration file is added, changed or removed
//! (`sqlx_macros::migrate!` embeds the `.sql` files of `migrations/` at compile time).

fn main() {
    println!("cargo:rerun-if-changed=migrations");
}
