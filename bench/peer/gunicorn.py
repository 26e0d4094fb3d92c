"""goref's gunicorn settings (config/gunicorn.py, read as a file: importing the ``config``
package would load goref's settings) without its start-up hook, which checks goref's
database: the peer has none."""

import runpy
from pathlib import Path

_goref = runpy.run_path(str(Path(__file__).resolve().parents[2] / "config" / "gunicorn.py"))
globals().update(
    {k: v for k, v in _goref.items() if k != "on_starting" and not k.startswith("_") and k != "os"}
)
