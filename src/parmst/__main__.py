"""``python -m parmst`` is the ``parmst`` command."""

import sys

from parmst.cli import main

sys.exit(main())
