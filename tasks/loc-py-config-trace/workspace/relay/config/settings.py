"""The typed settings the rest of relay reads."""
from dataclasses import dataclass

from .durations import parse_duration
from .errors import ConfigError


@dataclass(frozen=True)
class ServerSettings:
    host: str
    port: int
    max_body_kb: int


@dataclass(frozen=True)
class DeliverySettings:
    timeout_s: float
    retries: int
    backoff_s: float
    concurrency: int
    verify_tls: bool


@dataclass(frozen=True)
class QueueSettings:
    path: str
    max_pending: int
    drop_after_s: float


@dataclass(frozen=True)
class LogSettings:
    level: str
    json: bool


@dataclass(frozen=True)
class Settings:
    server: ServerSettings
    delivery: DeliverySettings
    queue: QueueSettings
    log: LogSettings


def build_settings(merged):
    try:
        s, d, q, lg = merged["server"], merged["delivery"], merged["queue"], merged["log"]
        settings = Settings(
            server=ServerSettings(s["host"], int(s["port"]), int(s["max_body_kb"])),
            delivery=DeliverySettings(
                parse_duration(d["timeout"]), int(d["retries"]), parse_duration(d["backoff"]),
                int(d["concurrency"]), bool(d["verify_tls"]),
            ),
            queue=QueueSettings(q["path"], int(q["max_pending"]), parse_duration(q["drop_after"])),
            log=LogSettings(str(lg["level"]).lower(), bool(lg["json"])),
        )
    except (KeyError, ValueError) as exc:
        raise ConfigError(f"invalid configuration: {exc}") from None
    if not 0 < settings.server.port < 65536:
        raise ConfigError(f"server.port out of range: {settings.server.port}")
    if settings.delivery.retries < 0:
        raise ConfigError("delivery.retries must be >= 0")
    if settings.log.level not in ("debug", "info", "warning", "error"):
        raise ConfigError(f"log.level: unknown level {settings.log.level!r}")
    return settings
