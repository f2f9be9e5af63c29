"""``python -m moneynb.service``: the moneynb service of a JupyterHub (see the package)."""

from . import main

main()
