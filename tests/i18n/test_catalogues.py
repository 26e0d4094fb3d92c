"""The catalogues keep up with the code: every marked string of the templates and the
code is in each language's catalogue, translated and not fuzzy; the committed ``.mo``
files are the compiled ``.po`` files; and the players' and visitors' templates have no
interface text left unmarked (docs/i18n.md, "Adding a string")."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest
from django.conf import settings
from django.core.management import call_command

ROOT = Path(settings.BASE_DIR)
LANGUAGES = ("fr", "ja", "ko", "zh_Hans")
SOURCES = ("config", "games", "ops", "ratings", "referee", "templates", "locale")
IN_CI = os.environ.get("CI", "").lower() in ("1", "true", "yes")


def _need_gettext() -> None:
    missing = [
        tool for tool in ("xgettext", "msgmerge", "msgfmt", "msgattrib") if not shutil.which(tool)
    ]
    if missing:
        reason = f"GNU gettext is missing ({', '.join(missing)}): apt-get install gettext"
        if IN_CI:
            pytest.fail(reason)
        pytest.skip(reason)


def _catalogues(base: Path) -> list[Path]:
    """The project's catalogue (its templates, and ops and config, which have none of
    their own), then each app's."""
    return [
        root / "locale" / lang / "LC_MESSAGES" / "django.po"
        for root in (base, base / "games", base / "ratings", base / "referee")
        for lang in LANGUAGES
    ]


def _entries(po: Path, *flags: str) -> str:
    """The entries of ``po`` that ``msgattrib`` keeps with ``flags``, header left out."""
    out = subprocess.run(
        ["msgattrib", "--no-wrap", *flags, str(po)], check=True, capture_output=True, text=True
    ).stdout
    return "\n".join(
        line for line in out.splitlines() if line.startswith("msgid ") and line != 'msgid ""'
    )


def test_every_marked_string_is_translated_in_every_language(tmp_path: Path) -> None:
    _need_gettext()
    for name in SOURCES:
        shutil.copytree(ROOT / name, tmp_path / name, ignore=shutil.ignore_patterns("__pycache__"))
    cwd = Path.cwd()
    os.chdir(tmp_path)
    try:
        with pytest.MonkeyPatch.context() as mp:
            mp.setattr(settings, "LOCALE_PATHS", [tmp_path / "locale"])
            call_command(
                "makemessages",
                locale=list(LANGUAGES),
                no_obsolete=True,
                add_location="file",
                verbosity=0,
            )
    finally:
        os.chdir(cwd)
    problems = []
    for po in _catalogues(tmp_path):
        assert po.exists(), f"no catalogue {po.relative_to(tmp_path)}"
        for kind, flags in (("untranslated", ("--untranslated",)), ("fuzzy", ("--only-fuzzy",))):
            found = _entries(po, *flags)
            if found:
                problems.append(f"{po.relative_to(tmp_path)}, {kind}:\n{found}")
    assert not problems, "\n".join(problems)


def test_the_committed_mo_files_are_the_compiled_catalogues(tmp_path: Path) -> None:
    _need_gettext()
    for po in _catalogues(ROOT):
        built = tmp_path / "django.mo"
        subprocess.run(["msgfmt", "--check-format", "-o", str(built), str(po)], check=True)
        mo = po.with_suffix(".mo")
        assert mo.exists() and mo.read_bytes() == built.read_bytes(), (
            f"{mo.relative_to(ROOT)} is not the compiled {po.name}: run make messages"
        )


# The templates the players and the public read: every word of their interface is marked.
PUBLIC_TEMPLATES = (
    "base.html",
    "_languages.html",
    "409.html",
    "503.html",
    "games/home.html",
    "games/tournament_list.html",
    "games/_tournament_rows.html",
    "games/tournament_detail.html",
    "games/round_detail.html",
    "games/round_where.html",
    "games/_round_where_body.html",
    "games/standings.html",
    "games/_standings_body.html",
    "games/_standings_table.html",
    "games/player_detail.html",
    "games/my_games.html",
    "games/game_detail.html",
    "games/result_form.html",
    "games/dead_stones.html",
    "games/report.html",
    "games/report_throttled.html",
    "games/refused.html",
    "games/cup.html",
    "games/teams.html",
    "games/_slip_ruling.html",
    "games/email/claim_changed.txt",
    "games/email/claim_changed_subject.txt",
    "games/email/invitation.txt",
    "ratings/index.html",
    "ratings/search.html",
    "ratings/top.html",
    "ratings/head_to_head.html",
    "ratings/handicap.html",
    "ratings/what_if.html",
    "ratings/promotions.html",
    "ratings/_player_rating.html",
    "ratings/_rating.html",
    "referee/dispute_form.html",
    "registration/login.html",
    "registration/invitation.html",
    "registration/locked_out.html",
    "registration/password_reset_form.html",
    "registration/password_reset_done.html",
    "registration/password_reset_confirm.html",
    "registration/password_reset_complete.html",
    "admin/games/tournament_pairing_print.html",
)
_BLOCK = re.compile(r"{%\s*blocktranslate.*?{%\s*endblocktranslate\s*%}", re.S)
_CODE = re.compile(
    r"<(style|script|code)\b.*?</\1>|{%\s*comment\s*%}.*?{%\s*endcomment\s*%}|{#.*?#}|{%.*?%}|{{.*?}}",
    re.S,
)
_ATTRIBUTES = re.compile(r'\b(?:title|placeholder|aria-label|alt)="([^"]*)"')
_TAG = re.compile(r"<[^>]*>")
# Text that is the same in every language: names, formats, symbols.
_SAME = {"goref", "CSV", "OpenGotha", "x", "#", "&nbsp;", "&amp;"}


def unmarked(text: str) -> list[str]:
    """The words of a template's interface that are not inside a translation tag."""
    text = _CODE.sub(" ", _BLOCK.sub(" ", text))
    # An attribute of numbers only (a placeholder "12 7 31") is data, as in the text.
    found = [v for v in _ATTRIBUTES.findall(text) if re.search(r"[^\W\d_]", v)]
    for chunk in _TAG.sub("\n", text).split("\n"):
        words = [w for w in chunk.split() if w not in _SAME and re.search(r"[^\W\d_]", w)]
        if words:
            found.append(" ".join(words))
    return found


@pytest.mark.parametrize("name", PUBLIC_TEMPLATES)
def test_no_interface_text_is_left_unmarked(name: str) -> None:
    assert unmarked((ROOT / "templates" / name).read_text()) == []


def test_the_check_finds_an_unmarked_word() -> None:
    assert unmarked(
        '<p>{% translate "Standings" %}</p><th>Rank</th><a title="go">x</a><input placeholder="12 7">'
    ) == ["go", "Rank"]
