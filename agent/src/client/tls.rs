//! TLS for `https://` base URLs: rustls with the ring provider (already in the build for the
//! gateway), trusting the system's roots — `SSL_CERT_FILE` / `SSL_CERT_DIR` are honoured, so
//! a private CA works — and the bundled Mozilla roots when the system has none.

use std::sync::{Arc, OnceLock};

use rustls::pki_types::ServerName;
use tokio::net::TcpStream;
use tokio_rustls::TlsConnector;
use tokio_rustls::client::TlsStream;

use crate::client::error::ClientError;

fn connector() -> Result<TlsConnector, ClientError> {
    static CONFIG: OnceLock<Result<Arc<rustls::ClientConfig>, rustls::Error>> = OnceLock::new();
    let config = CONFIG.get_or_init(|| {
        let mut roots = rustls::RootCertStore::empty();
        let native = rustls_native_certs::load_native_certs();
        for cert in native.certs {
            // A malformed system certificate is skipped, as browsers do.
            let _ = roots.add(cert);
        }
        if roots.is_empty() {
            roots.extend(webpki_roots::TLS_SERVER_ROOTS.iter().cloned());
        }
        let provider = Arc::new(rustls::crypto::ring::default_provider());
        rustls::ClientConfig::builder_with_provider(provider)
            .with_safe_default_protocol_versions()
            .map(|b| Arc::new(b.with_root_certificates(roots).with_no_client_auth()))
    });
    match config {
        Ok(c) => Ok(TlsConnector::from(c.clone())),
        Err(e) => Err(ClientError::Transport(format!("cannot set up TLS: {e}"))),
    }
}

pub async fn connect(host: &str, tcp: TcpStream) -> Result<TlsStream<TcpStream>, ClientError> {
    let name = ServerName::try_from(host.to_owned()).map_err(|e| {
        ClientError::Transport(format!("`{host}` is not a valid TLS server name: {e}"))
    })?;
    connector()?
        .connect(name, tcp)
        .await
        .map_err(|source| ClientError::Connect {
            target: format!("https://{host}"),
            source,
        })
}
