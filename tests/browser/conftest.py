"""The browser suite: Playwright driving the system's Chromium against a live server.

The browser is Debian's ``chromium`` (``.ci/run`` and ``make test`` install it when it
is missing); Playwright never downloads one.  Outside CI a missing browser or missing
``playwright`` skips these tests with the reason; under ``CI=true`` they fail.  Every
journey saves screenshots under ``$GOREF_ARTIFACTS`` (default ``var/artifacts/``,
ignored by git; ``shot``).
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.factories import PASSWORD
from tests.games.rescore_helpers import Broker
from tests.referee.conftest import chief, members, nz, nz_game  # noqa: F401  (shared personas)

ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = Path(os.environ.get("GOREF_ARTIFACTS") or ROOT / "var" / "artifacts")
IN_CI = os.environ.get("CI", "").lower() in ("1", "true", "yes")


def _missing(reason: str) -> None:
    if IN_CI:
        pytest.fail(f"browser tests cannot run in CI: {reason}")
    pytest.skip(reason)


def chromium_path() -> str | None:
    """The system Chromium: $GOREF_CHROMIUM, else ``chromium`` on the PATH."""
    named = os.environ.get("GOREF_CHROMIUM")
    if named:
        return named if Path(named).exists() else None
    for name in ("chromium", "chromium-browser"):
        found = shutil.which(name)
        if found:
            return found
    return None


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        _missing("the playwright package is not installed (pip install -r requirements-dev.txt)")
    path = chromium_path()
    if path is None:
        _missing("no chromium on this machine (apt-get install chromium)")
    # Playwright's sync API runs an event loop in the test's thread; the ORM calls the
    # tests make between page actions are still plain synchronous calls.
    before = os.environ.get("DJANGO_ALLOW_ASYNC_UNSAFE")
    os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"
    try:
        with sync_playwright() as pw:
            launched = pw.chromium.launch(
                executable_path=path,
                headless=True,
                args=["--no-sandbox", "--disable-dev-shm-usage"],
            )
            yield launched
            launched.close()
    finally:
        if before is None:
            os.environ.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)
        else:
            os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = before


@pytest.fixture
def scoring_inline(monkeypatch: pytest.MonkeyPatch) -> Broker:
    """Re-scoring tasks run at once, in the server's thread, instead of on a worker."""
    broker = Broker()
    broker.execute = True
    broker.patch(monkeypatch)
    return broker


@pytest.fixture
def shot(request: pytest.FixtureRequest) -> Callable[[Any, str], Path]:
    """``shot(page, "name")``: a full-page screenshot, <artifacts>/<journey>/<n>-<name>.png
    (the journey is the test's name)."""
    folder = ARTIFACTS / request.node.name.removeprefix("test_")
    folder.mkdir(parents=True, exist_ok=True)
    for old in folder.glob("*.png"):
        old.unlink()
    count = {"n": 0}

    def take(page: Any, name: str) -> Path:
        count["n"] += 1
        path = folder / f"{count['n']:02d}-{name}.png"
        page.screenshot(path=str(path), full_page=True)
        return path

    return take


@pytest.fixture
def visit(browser: Any, live_server: Any) -> Iterator[Callable[..., Any]]:
    """``visit(user=None, width=1100)``: a new page of its own browser context, logged
    in as ``user`` (through the login form) when one is given."""
    contexts: list[Any] = []

    def open_page(user: Any = None, *, width: int = 1100, height: int = 900) -> Any:
        context = browser.new_context(viewport={"width": width, "height": height})
        context.set_default_timeout(10_000)
        contexts.append(context)
        page = context.new_page()
        page.base = live_server.url  # type: ignore[attr-defined]
        if user is not None:
            page.goto(f"{live_server.url}/accounts/login/")
            page.fill("#id_username", user.get_username())
            page.fill("#id_password", PASSWORD)
            page.click("main button[type=submit]")
            page.wait_for_url(lambda url: "/accounts/login/" not in url)
        return page

    yield open_page
    for context in contexts:
        context.close()
