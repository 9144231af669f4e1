//! `https://` base URLs: a real TLS server on loopback with a certificate made by openssl,
//! trusted through `SSL_CERT_FILE` the way a private CA would be.

// Test code: a panic is how it reports a failure.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::process::Command;
use std::sync::Arc;

use http_body_util::Full;
use hyper::service::service_fn;
use hyper_util::rt::TokioIo;
use nab_agent::Message;
use nab_agent::{ChatRequest, ClientConfig, Endpoint, LlmClient, NoopObserver};
use rustls::pki_types::pem::PemObject;
use rustls::pki_types::{CertificateDer, PrivateKeyDer};

fn openssl(args: &[&str], dir: &std::path::Path) {
    let out = Command::new("openssl")
        .args(args)
        .current_dir(dir)
        .output()
        .expect("openssl must be installed to make the test certificates");
    assert!(out.status.success(), "openssl {args:?}: {out:?}");
}

/// A private CA and a `localhost` server certificate it signed (webpki refuses a
/// self-signed CA certificate used as the server's own).
fn private_ca(
    dir: &std::path::Path,
) -> (std::path::PathBuf, std::path::PathBuf, std::path::PathBuf) {
    openssl(
        &[
            "req",
            "-x509",
            "-newkey",
            "rsa:2048",
            "-nodes",
            "-days",
            "1",
            "-subj",
            "/CN=nab test CA",
            "-keyout",
            "ca.key",
            "-out",
            "ca.pem",
        ],
        dir,
    );
    openssl(
        &[
            "req",
            "-newkey",
            "rsa:2048",
            "-nodes",
            "-subj",
            "/CN=localhost",
            "-keyout",
            "server.key",
            "-out",
            "server.csr",
        ],
        dir,
    );
    std::fs::write(
        dir.join("ext.cnf"),
        "basicConstraints=CA:FALSE\nsubjectAltName=DNS:localhost\nextendedKeyUsage=serverAuth\n",
    )
    .unwrap();
    openssl(
        &[
            "x509",
            "-req",
            "-in",
            "server.csr",
            "-CA",
            "ca.pem",
            "-CAkey",
            "ca.key",
            "-CAcreateserial",
            "-days",
            "1",
            "-extfile",
            "ext.cnf",
            "-out",
            "server.pem",
        ],
        dir,
    );
    (
        dir.join("ca.pem"),
        dir.join("server.pem"),
        dir.join("server.key"),
    )
}

#[tokio::test]
async fn https_base_url_streams_over_tls_and_verifies_the_server() {
    let dir = tempfile::tempdir().unwrap();
    let (ca_path, cert_path, key_path) = private_ca(dir.path());
    // Set before the client's TLS configuration is first built (it is built once per process).
    unsafe { std::env::set_var("SSL_CERT_FILE", &ca_path) };

    let certs = vec![CertificateDer::from_pem_file(&cert_path).unwrap()];
    let key = PrivateKeyDer::from_pem_file(&key_path).unwrap();
    let server_config = rustls::ServerConfig::builder_with_provider(Arc::new(
        rustls::crypto::ring::default_provider(),
    ))
    .with_safe_default_protocol_versions()
    .unwrap()
    .with_no_client_auth()
    .with_single_cert(certs, key)
    .unwrap();
    let acceptor = tokio_rustls::TlsAcceptor::from(Arc::new(server_config));
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let port = listener.local_addr().unwrap().port();

    let server = tokio::spawn(async move {
        let (tcp, _) = listener.accept().await.unwrap();
        let tls = acceptor.accept(tcp).await.unwrap();
        let service = service_fn(|req: hyper::Request<hyper::body::Incoming>| async move {
            assert_eq!(req.uri().path(), "/v1/chat/completions");
            let body = concat!(
                "data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"over tls\"},\"finish_reason\":null}]}\n\n",
                "data: {\"choices\":[{\"index\":0,\"delta\":{},\"finish_reason\":\"stop\"}]}\n\n",
                "data: [DONE]\n\n"
            );
            Ok::<_, std::convert::Infallible>(
                hyper::Response::builder()
                    .header("content-type", "text/event-stream")
                    .body(Full::new(bytes::Bytes::from_static(body.as_bytes())))
                    .unwrap(),
            )
        });
        hyper::server::conn::http1::Builder::new()
            .serve_connection(TokioIo::new(tls), service)
            .await
            .unwrap();
    });

    let request = Arc::new(ChatRequest {
        model: "m".into(),
        messages: vec![Arc::new(Message::user("hi"))],
        tools: Arc::new(vec![]),
        max_tokens: None,
        temperature: None,
    });
    let url = format!("https://localhost:{port}/v1");
    let client = LlmClient::new(ClientConfig::new(Endpoint::parse(&url).unwrap()));
    let answer = client
        .complete(request.clone(), &mut NoopObserver)
        .await
        .unwrap();
    assert_eq!(answer.turn.content, "over tls");
    server.await.unwrap();

    // A listener that does not speak TLS makes the handshake fail with an error naming the URL.
    let plain = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let plain_port = plain.local_addr().unwrap().port();
    tokio::spawn(async move {
        let (mut s, _) = plain.accept().await.unwrap();
        use tokio::io::AsyncWriteExt;
        let _ = s.write_all(b"HTTP/1.1 200 OK\r\n\r\nnot tls").await;
    });
    let mut cfg =
        ClientConfig::new(Endpoint::parse(&format!("https://localhost:{plain_port}")).unwrap());
    cfg.retry.max_retries = 0;
    let err = LlmClient::new(cfg)
        .complete(request, &mut NoopObserver)
        .await
        .unwrap_err();
    assert!(err.to_string().contains("https://localhost"), "{err}");
}
