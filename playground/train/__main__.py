"""`python -m playground.train --preset NAME --out DIR [--steps N] [--seconds S]`."""
from playground.train.cli import main

raise SystemExit(main())
