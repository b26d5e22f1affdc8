//! `kontor-server`: serve the interface and the bundle, manage API keys, fill demo data.

use clap::{Parser, Subcommand};
use kontor_server::config::{AccountConfig, ServerConfig};
use std::net::SocketAddr;
use std::path::PathBuf;
use std::process::ExitCode;

/// Kontor: invoices, offers and purchases for one account.
#[derive(Parser)]
#[command(name = "kontor-server", version)]
struct Cli {
    /// Data directory: SQLite database (WAL) and stored files.
    #[arg(long, global = true, env = "KONTOR_DATA", default_value = "./data")]
    data: PathBuf,
    /// Account file (name, address, currencies, letter papers); default `<data>/kontor.toml`,
    /// built-in defaults when it does not exist.
    #[arg(long, global = true, env = "KONTOR_ACCOUNT")]
    account: Option<PathBuf>,
    /// Where uploads, documents and the logo are stored: `s3://bucket/prefix` for an
    /// S3-compatible bucket (endpoint, region and credentials from the AWS_* environment);
    /// default the directory `<data>/files`.
    #[arg(long, global = true, env = "KONTOR_FILES")]
    files: Option<String>,
    /// The database: default `<data>/kontor.db`; `sqlite://PATH` for a SQLite file
    /// elsewhere; `postgres://user:password@host/db` (or `?host=/socket/dir`) for PostgreSQL.
    #[arg(long, global = true, env = "KONTOR_DATABASE", hide_env_values = true)]
    database: Option<String>,
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Serve /api/v1 and the browser bundle.
    Serve {
        /// Address to listen on.
        #[arg(long, env = "KONTOR_LISTEN", default_value = "127.0.0.1:8080")]
        listen: SocketAddr,
        /// Directory of the built browser bundle (trunk's `dist`).
        #[arg(long, env = "KONTOR_DIST", default_value = "./dist")]
        dist: PathBuf,
        /// Trusted CORS origin besides our own (repeatable, or comma-separated in the env).
        #[arg(
            long = "cors-origin",
            env = "KONTOR_CORS_ORIGINS",
            value_delimiter = ','
        )]
        cors_origins: Vec<String>,
        /// Requests per API key per 2 minutes (0 = unlimited).
        #[arg(long, env = "KONTOR_RATE_LIMIT", default_value_t = 1200)]
        rate_limit: u32,
    },
    /// Manage API keys.
    Keys {
        #[command(subcommand)]
        command: KeysCommand,
    },
    /// Manage the people who sign in (issue 12).
    Users {
        #[command(subcommand)]
        command: UsersCommand,
    },
    /// Fill the database with realistic demo data (only when it holds no invoices).
    Demo,
    /// Write a consistent snapshot of the database and stored files into one archive
    /// (safe while the server runs).
    Backup {
        /// The archive to write (a ZIP file).
        file: PathBuf,
    },
    /// The audit trail (issue 15).
    Audit {
        #[command(subcommand)]
        command: AuditCommand,
    },
    /// Copy every record (and with --files-to every stored file) of this installation into
    /// an empty PostgreSQL database, verified by row counts and checksums (stop the
    /// servers first).
    MigrateTo {
        /// The target database: `postgres://user:password@host/db`.
        target: String,
        /// Also copy the stored files into this store (`s3://bucket/prefix`, or a
        /// directory); default: they stay where --files says.
        #[arg(long = "files-to")]
        files_to: Option<String>,
    },
    /// Restore an archive written by `backup` into the empty directory given by `--data`.
    Restore {
        /// The archive to read.
        file: PathBuf,
    },
}

#[derive(Subcommand)]
enum AuditCommand {
    /// Recompute the audit trail's hash chain with the audit key file; fails naming the
    /// first changed, inserted or deleted event (or one sealed without the key), else
    /// prints the number of events and the head hash.
    Verify {
        /// A head hash kept earlier (from this command or the daily log line): the trail
        /// must still contain it, so nothing up to it was rewritten or cut off.
        #[arg(long)]
        head: Option<String>,
    },
    /// Add a new audit key to the key file; it seals from the next start on, older keys
    /// stay to verify what they sealed. Restart every server process afterwards.
    RotateKey,
}

#[derive(Subcommand)]
enum UsersCommand {
    /// Create a user; prints a one-time password-set link (7 days), or with
    /// `--password-stdin` sets the password read from standard input and prints nothing secret.
    Create {
        /// E-mail address (the sign-in name; unique).
        #[arg(long)]
        email: String,
        /// First name.
        #[arg(long)]
        firstname: String,
        /// Last name.
        #[arg(long)]
        lastname: String,
        /// admin, staff or read_only.
        #[arg(long, default_value = "staff")]
        role: String,
        /// Read the password from standard input (one line) instead of printing a link.
        #[arg(long)]
        password_stdin: bool,
        /// Base of the link (the app's address).
        #[arg(
            long,
            env = "KONTOR_PUBLIC_URL",
            default_value = "http://127.0.0.1:8080"
        )]
        origin: String,
    },
    /// Set the password of the user with this e-mail, read from standard input.
    SetPassword {
        /// E-mail address.
        #[arg(long)]
        email: String,
        /// Read the password from standard input (required; the only way).
        #[arg(long)]
        password_stdin: bool,
    },
    /// List users (never passwords).
    List,
}

#[derive(Subcommand)]
enum KeysCommand {
    /// Create a key; the key alone is printed on the last line of stdout.
    Create {
        /// A name for the key (shown in the app's top bar).
        #[arg(long)]
        name: String,
        /// Allow only GET requests.
        #[arg(long)]
        read_only: bool,
    },
    /// List keys (never their secrets).
    List,
    /// Revoke a key by id.
    Revoke {
        /// Key id from `keys list`.
        id: i64,
    },
}

#[tokio::main]
async fn main() -> ExitCode {
    tracing_subscriber::fmt()
        .with_env_filter(
            tracing_subscriber::EnvFilter::try_from_env("KONTOR_LOG")
                .unwrap_or_else(|_| "info,sqlx=warn".into()),
        )
        .with_writer(std::io::stderr)
        .init();
    let cli = Cli::parse();
    match run(cli).await {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}

async fn run(cli: Cli) -> Result<(), String> {
    let account_path = cli
        .account
        .clone()
        .unwrap_or_else(|| cli.data.join("kontor.toml"));
    let account = AccountConfig::load(&account_path)?;
    match cli.command {
        Command::Serve {
            listen,
            dist,
            cors_origins,
            rate_limit,
        } => {
            let dist_dir = dist.join("index.html").exists().then_some(dist.clone());
            if dist_dir.is_none() {
                tracing::warn!("no bundle at {}; serving the API only", dist.display());
            }
            let config = ServerConfig {
                listen,
                data_dir: cli.data,
                dist_dir,
                cors_origins,
                rate_limit,
                files: cli.files,
                database: cli.database,
                account,
            };
            let bound = kontor_server::bind(&config).await?;
            let addr = bound.listener.local_addr().map_err(|e| e.to_string())?;
            // The first start's key comes first: the last line says the server runs.
            if let Some(key) = &bound.initial_key {
                println!(
                    "First start: open the URL below to create the first admin (first-run page),"
                );
                println!("or create one with `kontor-server users create --role admin ...`.");
                println!("A full-access API key for integrations was created (shown only now):");
                println!("{key}");
            }
            println!("Kontor is running at http://{addr}/");
            kontor_server::run(bound).await
        }
        Command::Keys { command } => {
            let pool =
                kontor_server::store::db::open_located(cli.database.as_deref(), &cli.data).await?;
            keys(&pool, command).await.map_err(|e| e.to_string())
        }
        Command::Users { command } => {
            let pool =
                kontor_server::store::db::open_located(cli.database.as_deref(), &cli.data).await?;
            users(&pool, command).await
        }
        Command::Backup { file } => {
            let store =
                kontor_server::store::storage::FileStore::open(cli.files.as_deref(), &cli.data)?;
            let manifest = kontor_server::store::backup::backup(
                &cli.data,
                cli.database.as_deref(),
                &store,
                &file,
            )
            .await?;
            println!(
                "Backed up {} ({} entries, migration {}) to {}",
                cli.data.display(),
                manifest.entries.len(),
                manifest.migration,
                file.display()
            );
            Ok(())
        }
        Command::MigrateTo { target, files_to } => {
            let source =
                kontor_server::store::db::open_located(cli.database.as_deref(), &cli.data).await?;
            if !target.starts_with("postgres://") && !target.starts_with("postgresql://") {
                return Err("migrate-to copies into PostgreSQL: give a postgres://… URL".into());
            }
            let target_db = kontor_server::store::db::open_postgres(&target).await?;
            let files =
                kontor_server::store::storage::FileStore::open(cli.files.as_deref(), &cli.data)?;
            let files_to = match files_to.as_deref() {
                None => None,
                Some(location) => Some(files_store_at(location)?),
            };
            let moved = kontor_server::store::migrate::migrate_to(
                &source,
                &target_db,
                &files,
                files_to.as_ref(),
            )
            .await?;
            target_db.close().await;
            for (table, sum) in &moved.tables {
                println!("{table:<28} {:>9} rows  sha256 {}", sum.rows, sum.sha256);
            }
            let rows: u128 = moved.tables.values().map(|s| u128::from(s.rows)).sum();
            println!(
                "{} stored files {} (SHA-256 checked)",
                moved.files.len(),
                if moved.files_copied {
                    "copied"
                } else {
                    "present, left in place"
                }
            );
            println!(
                "Copied {rows} rows in {} tables; counts and checksums match. Start the servers with --database pointing at the new database{}, and give each the audit key file {} (KONTOR_AUDIT_KEY_FILE or a copy in its data directory): the copied trail is sealed with it.",
                moved.tables.len(),
                if moved.files_copied { " and --files at the new store" } else { "" },
                kontor_server::proof::audit_key::key_file(&cli.data).display()
            );
            Ok(())
        }
        Command::Audit {
            command: AuditCommand::Verify { head },
        } => {
            let pool =
                kontor_server::store::db::open_located(cli.database.as_deref(), &cli.data).await?;
            let keys = kontor_server::proof::audit_key::for_db(&pool)
                .ok_or("the audit keys were not loaded")?;
            let mut conn = pool.acquire().await.map_err(|e| e.to_string())?;
            let verified = kontor_server::proof::audit::verify(&mut conn, &keys).await?;
            if let Some(kept) = head.as_deref().map(str::trim) {
                let found: Option<i64> =
                    kontor_server::sql::query_scalar("SELECT id FROM audit_events WHERE hash = $1")
                        .bind(kept)
                        .fetch_optional(&mut conn)
                        .await
                        .map_err(|e| e.to_string())?;
                match found {
                    Some(id) => println!("The kept head {kept} is event {id} of the trail."),
                    None => {
                        return Err(format!(
                            "the kept head {kept} is not in the audit trail: events up to it were rewritten or cut off"
                        ))
                    }
                }
            }
            println!(
                "The audit trail is intact: {} events (and {} not sealed yet); head hash {}",
                verified.events, verified.unsealed, verified.head
            );
            Ok(())
        }
        Command::Audit {
            command: AuditCommand::RotateKey,
        } => {
            let path = kontor_server::proof::audit_key::key_file(&cli.data);
            let mut keys = kontor_server::proof::audit_key::load(&path)?.ok_or_else(|| {
                format!(
                    "there is no audit key file {} yet: start the server once",
                    path.display()
                )
            })?;
            let fp = keys.rotate();
            kontor_server::proof::audit_key::save(&path, &keys)?;
            println!(
                "Added audit key {fp} to {}; it seals after the next start of every server process. Keep a copy of the file apart from the backups.",
                path.display()
            );
            Ok(())
        }
        Command::Restore { file } => {
            if cli
                .database
                .as_deref()
                .is_some_and(|d| !d.trim().is_empty())
            {
                return Err(
                    "restore writes <data>/kontor.db: leave --database out, then move \
                     the file where --database should point"
                        .to_string(),
                );
            }
            // The local directory is written by restore itself, after its emptiness check.
            let bucket = match cli.files.as_deref().filter(|f| !f.trim().is_empty()) {
                Some(f) => Some(kontor_server::store::storage::FileStore::open(
                    Some(f),
                    &cli.data,
                )?),
                None => None,
            };
            let manifest =
                kontor_server::store::backup::restore(&file, &cli.data, bucket.as_ref()).await?;
            println!(
                "Restored {} entries of the backup of {} into {}",
                manifest.entries.len(),
                manifest.created_at,
                cli.data.display()
            );
            Ok(())
        }
        Command::Demo => {
            let pool =
                kontor_server::store::db::open_located(cli.database.as_deref(), &cli.data).await?;
            let config = ServerConfig {
                listen: "127.0.0.1:0".parse().expect("valid"),
                data_dir: cli.data,
                dist_dir: None,
                cors_origins: vec![],
                rate_limit: 0,
                files: cli.files,
                database: cli.database,
                account,
            };
            let report =
                kontor_server::demo::fill(kontor_server::state(pool, &config).await?).await?;
            println!("{report}");
            Ok(())
        }
    }
}

async fn keys(pool: &kontor_server::sql::Db, command: KeysCommand) -> Result<(), sqlx::Error> {
    use kontor_server::access::auth;
    match command {
        KeysCommand::Create { name, read_only } => {
            let (info, secret) = auth::create_key(pool, &name, read_only).await?;
            println!(
                "Created key {} \"{}\" ({}); it is shown only now:",
                info.id,
                info.name,
                if read_only {
                    "read-only"
                } else {
                    "full access"
                }
            );
            println!("{secret}");
        }
        KeysCommand::List => {
            println!(
                "{:>4}  {:<32}  {:<10}  {:<20}  {:<20}  name",
                "id", "uuid", "access", "created", "revoked"
            );
            for k in auth::list_keys(pool).await? {
                let access = if k.read_only { "read-only" } else { "full" };
                println!(
                    "{:>4}  {:<32}  {:<10}  {:<20}  {:<20}  {}",
                    k.id,
                    k.uuid,
                    access,
                    k.created_at,
                    k.revoked_at.map(|t| t.to_string()).unwrap_or_default(),
                    k.name
                );
            }
        }
        KeysCommand::Revoke { id } => {
            if auth::revoke_key(pool, id).await? {
                println!("Key {id} revoked.");
            } else {
                println!("No active key with id {id}.");
            }
        }
    }
    Ok(())
}

/// Reads one line (the password) from standard input, without its line end.
fn read_password() -> Result<String, String> {
    let mut line = String::new();
    std::io::stdin()
        .read_line(&mut line)
        .map_err(|e| format!("cannot read the password from standard input: {e}"))?;
    Ok(line.trim_end_matches(['\r', '\n']).to_string())
}

/// A refusal of the API as one sentence per field.
fn refusal(e: kontor_server::http::error::ApiError) -> String {
    let body = kontor_server::http::error::ApiError::into_response_body(e);
    body.to_string()
}

async fn users(pool: &kontor_server::sql::Db, command: UsersCommand) -> Result<(), String> {
    use kontor_server::access::passwords;
    use kontor_server::users;
    match command {
        UsersCommand::Create {
            email,
            firstname,
            lastname,
            role,
            password_stdin,
            origin,
        } => {
            let body = kontor_model::users::NewUser {
                firstname: Some(firstname),
                lastname: Some(lastname),
                email: Some(email.clone()),
                role: Some(role),
            };
            let role = users::check_new(pool, &body, true).await.map_err(refusal)?;
            let hash = if password_stdin {
                let password = read_password()?;
                let inputs: Vec<&str> = [&body.firstname, &body.lastname, &body.email]
                    .into_iter()
                    .filter_map(|v| v.as_deref())
                    .collect();
                passwords::check_new(&password, &inputs, "password").map_err(refusal)?;
                Some(passwords::hash(password).await.map_err(refusal)?)
            } else {
                None
            };
            let id = users::insert(pool, &body, role, hash.as_deref())
                .await
                .map_err(refusal)?;
            println!("Created user {id} <{email}> ({}).", role.as_str());
            if !password_stdin {
                let invitation = users::new_invitation(pool, id, origin.trim_end_matches('/'))
                    .await
                    .map_err(refusal)?;
                println!(
                    "Password-set link (once, valid until {}):",
                    kontor_model::timestamp::format(&invitation.expires_at)
                );
                println!("{}", invitation.url);
            }
        }
        UsersCommand::SetPassword {
            email,
            password_stdin,
        } => {
            if !password_stdin {
                return Err("give --password-stdin and the password on standard input".into());
            }
            let (user, _) = users::find_by_email(pool, &email)
                .await
                .map_err(|e| e.to_string())?
                .ok_or_else(|| format!("no user with e-mail {email}"))?;
            let password = read_password()?;
            passwords::check_new(&password, &users::user_inputs(&user), "password")
                .map_err(refusal)?;
            let hash = passwords::hash(password).await.map_err(refusal)?;
            users::set_password_hash(pool, user.id, &hash, None)
                .await
                .map_err(refusal)?;
            println!("Password of user {} <{email}> set.", user.id);
        }
        UsersCommand::List => {
            let rows: Vec<(i64, Option<String>, String, String, String, bool)> =
                kontor_server::sql::query_as(
                    "SELECT id, email, firstname, lastname, role, active FROM users ORDER BY id",
                )
                .fetch_all(pool)
                .await
                .map_err(|e| e.to_string())?;
            println!(
                "{:>4}  {:<32}  {:<9}  {:<8}  name",
                "id", "email", "role", "active"
            );
            for (id, email, first, last, role, active) in rows {
                println!(
                    "{id:>4}  {:<32}  {role:<9}  {:<8}  {first} {last}",
                    email.unwrap_or_default(),
                    if active { "yes" } else { "no" }
                );
            }
        }
    }
    Ok(())
}

/// The file store `--files-to` names: `s3://…` for a bucket, otherwise a directory that
/// becomes the `files` folder's parent (as `--data` is). Errors: as `FileStore::open`.
fn files_store_at(location: &str) -> Result<kontor_server::store::storage::FileStore, String> {
    if location.starts_with("s3://") {
        kontor_server::store::storage::FileStore::open(Some(location), std::path::Path::new("."))
    } else {
        kontor_server::store::storage::FileStore::local(std::path::Path::new(location))
    }
}
