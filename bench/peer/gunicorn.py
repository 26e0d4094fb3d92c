"""goref's gunicorn settings (config/gunicorn.py, read as a file: importing the ``config``
package would load goref's settings) without its start-up hook, which checks goref's
database, and its logger class, which lives in the ``config`` package: the peer has
neither (with no access log, the logger does nothing per request)."""

import runpy
from pathlib import Path

_goref = runpy.run_path(str(Path(__file__).resolve().parents[2] / "config" / "gunicorn.py"))
globals().update(
    {
        k: v
        for k, v in _goref.items()
        if k not in ("on_starting", "logger_class", "os") and not k.startswith("_")
    }
)
