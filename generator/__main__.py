"""`python -m generator` runs the same command line as `muster`."""

from .cli import run

run()
