"""The result slips' codes kept out of the logs: a code in ``/r/<game>/<code>/`` is a
key (whoever has it reports that player's result), and a log is read by more people,
and kept longer, than a slip.

``CodeMaskingLogger`` is gunicorn's access logger with the code masked in every field
it writes (the request line, the path, the referrer); ``MaskCodes`` does the same to
Django's own records (a 404 names its path) on the console handler.  The proxy's log
needs the same rule: docs/operations.md, "Slip codes in logs".
"""

from __future__ import annotations

import logging
import re
from typing import Any

from gunicorn.glogging import Logger

MASK = "********"
_CODE_IN_PATH = re.compile(r"(/r/\d+/)[^/?#\s\"]+")


def mask_codes(text: str) -> str:
    """``text`` with every slip code of a ``/r/<game>/<code>/`` path replaced by stars."""
    return _CODE_IN_PATH.sub(rf"\g<1>{MASK}", text)


class CodeMaskingLogger(Logger):
    """gunicorn's logger; its access lines carry no slip code (``logger_class``)."""

    def atoms(self, resp: Any, req: Any, environ: Any, request_time: Any) -> dict[str, Any]:
        found = super().atoms(resp, req, environ, request_time)
        return {k: mask_codes(v) if isinstance(v, str) else v for k, v in found.items()}


class MaskCodes(logging.Filter):
    """A logging filter: the record's message with its slip codes masked."""

    def filter(self, record: logging.LogRecord) -> bool:
        message = record.getMessage()
        masked = mask_codes(message)
        if masked != message:
            record.msg, record.args = masked, ()
        return True
