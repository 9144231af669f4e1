"""The broker from a shell script: `python3 -m nabverify COMMAND ...` (PYTHONPATH=/nab/lib).

    cat PATH                 print a file of the code under test (a regular file, not a link);
                             exit 1 when there is none
    run [--timeout S] [--stdin FILE] [--cwd DIR] -- ARGV...
                             run ARGV as the sandbox user; print its stdout (its stderr goes to
                             stderr) and exit with its status (124 on timeout, 128+N on signal N)
    ls PATH                  print "kind name" per entry of a folder; exit 1 when there is none

A shell test that runs as the verifier user uses these instead of touching /workspace:

    answer=$(python3 -m nabverify cat /workspace/answer) || exit 1
    [ "$answer" = 42 ]
"""

import argparse
import sys

from . import broker


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python3 -m nabverify")
    sub = parser.add_subparsers(dest="command", required=True)
    cat = sub.add_parser("cat")
    cat.add_argument("path")
    ls = sub.add_parser("ls")
    ls.add_argument("path")
    run = sub.add_parser("run")
    run.add_argument("--timeout", type=float, default=60.0)
    run.add_argument("--stdin")
    run.add_argument("--cwd", default="/workspace")
    run.add_argument("argv", nargs="+")
    opts = parser.parse_args(argv)
    try:
        b = broker.default()
        if opts.command == "cat":
            data = b.read(opts.path)
            if data is None:
                print("nabverify: no regular file at %s" % opts.path, file=sys.stderr)
                return 1
            sys.stdout.buffer.write(data)
            return 0
        if opts.command == "ls":
            entries = b.listdir(opts.path)
            if entries is None:
                print("nabverify: no folder at %s" % opts.path, file=sys.stderr)
                return 1
            for name, kind in entries:
                print("%s %s" % (kind, name))
            return 0
        stdin = b""
        if opts.stdin:
            with open(opts.stdin, "rb") as f:
                stdin = f.read()
        r = b.run(opts.argv, stdin=stdin, cwd=opts.cwd, timeout=opts.timeout)
        sys.stdout.buffer.write(r.stdout_bytes)
        sys.stderr.buffer.write(r.stderr_bytes)
        if r.timed_out:
            return 124
        if r.signal:
            return 128 + int(r.signal)
        if r.exit is None:
            print("nabverify: %s" % r.describe(), file=sys.stderr)
            return 127
        return int(r.exit)
    except broker.BrokerError as e:
        print("nabverify: %s" % e, file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
