"""``python -m hexwx`` runs the command line."""
import sys

from hexwx.cli import main

sys.exit(main())
