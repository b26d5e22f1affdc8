//! The IMAP side of the inbox (issue 36): connecting with the stored settings (implicit
//! TLS, STARTTLS or plain, through the same native TLS as the SMTP sender), signing in,
//! reading the folder's messages by UID and moving processed ones. Every step has a time
//! limit ([`STEP_TIMEOUT`]); errors are sentences naming the step and the server (never the
//! password), answered as 502 by the endpoints.

use async_imap::{Client, Session};
use futures_util::TryStreamExt;
use kontor_model::inbox::{InboxConfig, InboxSecurity};
use std::pin::Pin;
use std::task::{Context, Poll};
use std::time::Duration;
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::net::TcpStream;

/// Longest wait for one step (connecting, signing in, one command).
pub const STEP_TIMEOUT: Duration = Duration::from_secs(20);
/// Largest message read (bytes, as the server reports `RFC822.SIZE`); larger ones are
/// recorded from their header for a person to look at.
pub const MAX_MESSAGE: u32 = 25 * 1024 * 1024;
/// Most messages one poll reads (the next poll reads the rest).
pub const MAX_PER_POLL: usize = 100;

/// The connection to the IMAP server: plain TCP or TLS over it.
#[derive(Debug)]
pub enum Connection {
    /// No encryption (`security: none`).
    Plain(TcpStream),
    /// TLS (`tls`, or `starttls` after the upgrade).
    Tls(Box<tokio_native_tls::TlsStream<TcpStream>>),
}

impl AsyncRead for Connection {
    fn poll_read(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<std::io::Result<()>> {
        match self.get_mut() {
            Connection::Plain(s) => Pin::new(s).poll_read(cx, buf),
            Connection::Tls(s) => Pin::new(s.as_mut()).poll_read(cx, buf),
        }
    }
}

impl AsyncWrite for Connection {
    fn poll_write(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<std::io::Result<usize>> {
        match self.get_mut() {
            Connection::Plain(s) => Pin::new(s).poll_write(cx, buf),
            Connection::Tls(s) => Pin::new(s.as_mut()).poll_write(cx, buf),
        }
    }

    fn poll_flush(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<std::io::Result<()>> {
        match self.get_mut() {
            Connection::Plain(s) => Pin::new(s).poll_flush(cx),
            Connection::Tls(s) => Pin::new(s.as_mut()).poll_flush(cx),
        }
    }

    fn poll_shutdown(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<std::io::Result<()>> {
        match self.get_mut() {
            Connection::Plain(s) => Pin::new(s).poll_shutdown(cx),
            Connection::Tls(s) => Pin::new(s.as_mut()).poll_shutdown(cx),
        }
    }
}

/// The 502 of a failed step's sentence `e` (what `/inbox/test` and `/inbox/poll` answer).
pub fn unreachable(e: String) -> crate::http::error::ApiError {
    crate::http::error::ApiError::BadGateway(format!("The inbox cannot be read: {e}."))
}

/// A signed-in IMAP session.
pub type Mailbox = Session<Connection>;

/// `what` within [`STEP_TIMEOUT`], its error as a sentence starting with `step`.
async fn step<T, E: std::fmt::Display>(
    step: &str,
    what: impl std::future::Future<Output = Result<T, E>>,
) -> Result<T, String> {
    match tokio::time::timeout(STEP_TIMEOUT, what).await {
        Ok(Ok(v)) => Ok(v),
        Ok(Err(e)) => Err(format!("{step}: {e}")),
        Err(_) => Err(format!(
            "{step}: no answer within {} seconds",
            STEP_TIMEOUT.as_secs()
        )),
    }
}

async fn tls(host: &str, tcp: TcpStream) -> Result<Connection, String> {
    let connector = native_tls_connector()?;
    let stream = step(
        &format!("TLS with {host}"),
        tokio_native_tls::TlsConnector::from(connector).connect(host, tcp),
    )
    .await?;
    Ok(Connection::Tls(Box::new(stream)))
}

fn native_tls_connector() -> Result<tokio_native_tls::native_tls::TlsConnector, String> {
    tokio_native_tls::native_tls::TlsConnector::new().map_err(|e| format!("TLS: {e}"))
}

/// Reads the server's greeting (`* OK …`).
async fn greeting(client: &mut Client<Connection>, host: &str) -> Result<(), String> {
    let read = step(&format!("greeting of {host}"), client.read_response()).await?;
    match read {
        Some(_) => Ok(()),
        None => Err(format!("greeting of {host}: the connection was closed")),
    }
}

/// Connects to and signs in at the mailbox of `config`. Errors: a sentence naming the
/// step that failed (connect, TLS, greeting, STARTTLS, sign-in).
pub async fn open(config: &InboxConfig) -> Result<Mailbox, String> {
    let host = config.host.as_str();
    let at = format!("{host}:{}", config.port);
    let tcp = step(
        &format!("connecting to {at}"),
        TcpStream::connect((host, config.port)),
    )
    .await?;
    let client = match config.security {
        InboxSecurity::Tls => {
            let mut client = Client::new(tls(host, tcp).await?);
            greeting(&mut client, host).await?;
            client
        }
        InboxSecurity::Starttls => {
            let mut client = Client::new(Connection::Plain(tcp));
            greeting(&mut client, host).await?;
            step(
                &format!("STARTTLS with {host}"),
                client.run_command_and_check_ok("STARTTLS", None),
            )
            .await?;
            let Connection::Plain(tcp) = client.into_inner() else {
                return Err("STARTTLS: the connection is encrypted already".into());
            };
            // No greeting after STARTTLS (RFC 3501 § 6.2.1).
            Client::new(tls(host, tcp).await?)
        }
        InboxSecurity::None => {
            let mut client = Client::new(Connection::Plain(tcp));
            greeting(&mut client, host).await?;
            client
        }
    };
    let password = config.password.clone().unwrap_or_default();
    match tokio::time::timeout(STEP_TIMEOUT, client.login(&config.user, &password)).await {
        Ok(Ok(session)) => Ok(session),
        Ok(Err((e, _))) => Err(format!(
            "signing in at {host} as {} was refused: {e}",
            config.user
        )),
        Err(_) => Err(format!(
            "signing in at {host}: no answer within {} seconds",
            STEP_TIMEOUT.as_secs()
        )),
    }
}

/// Selects `folder`; its number of messages. Errors: a sentence naming the folder.
pub async fn select(mailbox: &mut Mailbox, folder: &str) -> Result<u32, String> {
    let selected = step(
        &format!("opening folder \"{folder}\""),
        mailbox.select(folder),
    )
    .await?;
    Ok(selected.exists)
}

/// One message's UID and size (`RFC822.SIZE`, bytes).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Listed {
    /// The message's UID in the selected folder.
    pub uid: u32,
    /// Its size in bytes.
    pub size: u32,
}

/// The first [`MAX_PER_POLL`] messages of the selected folder, oldest UID first.
/// Errors: a sentence.
pub async fn list(mailbox: &mut Mailbox) -> Result<Vec<Listed>, String> {
    let mut uids: Vec<u32> = step("searching the folder", mailbox.uid_search("ALL"))
        .await?
        .into_iter()
        .collect();
    uids.sort_unstable();
    uids.truncate(MAX_PER_POLL);
    if uids.is_empty() {
        return Ok(Vec::new());
    }
    let set = uids
        .iter()
        .map(u32::to_string)
        .collect::<Vec<_>>()
        .join(",");
    let fetched = step("listing the messages", async {
        let stream = mailbox.uid_fetch(&set, "(UID RFC822.SIZE)").await?;
        stream.try_collect::<Vec<_>>().await
    })
    .await?;
    let mut listed: Vec<Listed> = fetched
        .iter()
        .filter_map(|f| {
            Some(Listed {
                uid: f.uid?,
                size: f.size.unwrap_or(0),
            })
        })
        .collect();
    listed.sort_by_key(|l| l.uid);
    Ok(listed)
}

/// The message `uid` of the selected folder as sent (`BODY.PEEK[]`: its `\Seen` flag is
/// left as it was), or only its header with `header_only`. Errors: a sentence.
pub async fn fetch(mailbox: &mut Mailbox, uid: u32, header_only: bool) -> Result<Vec<u8>, String> {
    let query = if header_only {
        "(UID BODY.PEEK[HEADER])"
    } else {
        "(UID BODY.PEEK[])"
    };
    let fetched = step(&format!("reading message {uid}"), async {
        let stream = mailbox.uid_fetch(uid.to_string(), query).await?;
        stream.try_collect::<Vec<_>>().await
    })
    .await?;
    fetched
        .iter()
        .find(|f| f.uid == Some(uid))
        .and_then(|f| if header_only { f.header() } else { f.body() })
        .map(<[u8]>::to_vec)
        .ok_or_else(|| format!("reading message {uid}: the server sent no content"))
}

/// Creates `folder` unless it exists (an error of `CREATE` for an existing folder is
/// expected and ignored; a missing folder shows when moving).
pub async fn ensure_folder(mailbox: &mut Mailbox, folder: &str) {
    let _ = step("creating the processed folder", mailbox.create(folder)).await;
}

/// Moves message `uid` of the selected folder to `folder` (`UID MOVE`, RFC 6851; with
/// `UID COPY`, `\Deleted` and `UID EXPUNGE` where the server has no MOVE). Errors: a
/// sentence.
pub async fn move_to(mailbox: &mut Mailbox, uid: u32, folder: &str) -> Result<(), String> {
    let what = format!("moving message {uid} to \"{folder}\"");
    if step(&what, mailbox.uid_mv(uid.to_string(), folder))
        .await
        .is_ok()
    {
        return Ok(());
    }
    step(&what, mailbox.uid_copy(uid.to_string(), folder)).await?;
    step(&what, async {
        let stream = mailbox
            .uid_store(uid.to_string(), "+FLAGS.SILENT (\\Deleted)")
            .await?;
        stream.try_collect::<Vec<_>>().await
    })
    .await?;
    step(&what, async {
        let stream = mailbox.uid_expunge(uid.to_string()).await?;
        stream.try_collect::<Vec<_>>().await
    })
    .await?;
    Ok(())
}

/// Signs out (errors ignored: the messages are handled already).
pub async fn close(mut mailbox: Mailbox) {
    let _ = tokio::time::timeout(STEP_TIMEOUT, mailbox.logout()).await;
}
