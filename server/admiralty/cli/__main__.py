"""`python -m admiralty.cli`, as the `admiralty` command."""

from admiralty.cli import main

main()
