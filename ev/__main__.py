import sys

from ev.cli import main

sys.exit(main())
