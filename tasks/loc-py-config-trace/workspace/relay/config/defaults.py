"""Built-in defaults. Every key that exists is listed here; the other layers may only override."""

DEFAULTS = {
    "server": {
        "host": "127.0.0.1",
        "port": 8080,
        "max_body_kb": 512,
    },
    "delivery": {
        "timeout": "10s",
        "retries": 3,
        "backoff": "2s",
        "concurrency": 4,
        "verify_tls": True,
    },
    "queue": {
        "path": "/var/lib/relay/queue.db",
        "max_pending": 10000,
        "drop_after": "24h",
    },
    "log": {
        "level": "info",
        "json": False,
    },
}
