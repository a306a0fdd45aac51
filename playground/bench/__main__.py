"""`python -m playground.bench SUITE [--quick] [--device DEVICE]`: print one JSON measurement per line.

Each suite is a module playground/bench/<suite>.py with `run(quick: bool) -> list[dict]`. The suites
run on the process's device (playground.device); --device picks it, as PLAYGROUND_DEVICE would.
"""
from __future__ import annotations

import argparse
import importlib
import json
import sys

from playground.device import choose_device

SUITES = ("model", "train", "generate", "viz", "app", "labs", "lessons", "uploads", "soak")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m playground.bench", description=__doc__.splitlines()[0])
    parser.add_argument("suite", choices=SUITES + ("all",))
    parser.add_argument("--quick", action="store_true", help="fewer repeats; every metric is still measured")
    parser.add_argument("--device", help="cpu, cuda, cuda:N or mps (default: PLAYGROUND_DEVICE, else the best available)")
    args = parser.parse_args(argv)
    try:
        choose_device(args.device)
    except ValueError as error:
        parser.error(str(error))
    for suite in SUITES if args.suite == "all" else (args.suite,):
        try:
            module = importlib.import_module(f"playground.bench.{suite}")
        except ModuleNotFoundError:
            if args.suite != "all":
                parser.error(f"the {suite} suite is not available in this version")
            continue
        for line in module.run(args.quick):
            sys.stdout.write(json.dumps(line) + "\n")
            sys.stdout.flush()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
