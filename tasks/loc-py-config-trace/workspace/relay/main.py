"""python3 -m relay.main [--config relay.toml] [--print-config]"""
import argparse
import dataclasses
import json
import sys

from .config import load_config
from .config.errors import ConfigError


def main(argv=None):
    ap = argparse.ArgumentParser(prog="relay")
    ap.add_argument("--config", default=None, help="path to relay.toml")
    ap.add_argument("--print-config", action="store_true", help="print the effective settings and exit")
    args = ap.parse_args(argv)
    try:
        settings = load_config(args.config)
    except ConfigError as exc:
        print(f"relay: {exc}", file=sys.stderr)
        return 2
    if args.print_config:
        print(json.dumps(dataclasses.asdict(settings), indent=2))
        return 0
    print(f"relay would listen on {settings.server.host}:{settings.server.port}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
