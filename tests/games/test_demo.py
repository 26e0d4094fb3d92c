"""seed_demo: a complete demo tournament, through the services, and idempotent."""

from __future__ import annotations

from io import StringIO

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group
from django.core.management import CommandError, call_command
from django.http import HttpRequest

from games.engine.record import parse_record
from games.engine.replay import replay
from games.engine.rules import get_rules
from games.management.commands.seed_demo import DEMO_TOURNAMENT, USERS, random_legal_game
from games.models import LOCKED_STATES, Game, Player, ResultSubmission, Round, Tournament
from games.people.services.grants import DIRECTORS_GROUP
from ops.models import AuditEntry

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _debug_on(settings):  # type: ignore[no-untyped-def]
    """The demo runs only under DEBUG (a development machine)."""
    settings.DEBUG = True


def test_it_refuses_to_run_with_debug_off(settings) -> None:  # type: ignore[no-untyped-def]
    settings.DEBUG = False
    with pytest.raises(CommandError, match="only with DEBUG on"):
        call_command("seed_demo", stdout=StringIO())
    assert not get_user_model().objects.exists()


def _counts() -> dict[str, int]:
    return {
        "tournaments": Tournament.objects.count(),
        "rounds": Round.objects.count(),
        "games": Game.objects.count(),
        "players": Player.objects.count(),
        "users": get_user_model().objects.count(),
        "submissions": ResultSubmission.objects.count(),
        "audit": AuditEntry.objects.count(),
        "groups": Group.objects.count(),
    }


def test_it_makes_a_small_mcmahon_tournament_with_entries_results_and_records() -> None:
    out = StringIO()
    call_command("seed_demo", stdout=out)
    t = Tournament.objects.get(name=DEMO_TOURNAMENT)
    assert t.rated and t.rounds.count() == 3
    games = list(t.games.all())
    assert len(games) == 12 and Player.objects.count() == 9
    assert t.system == "mcmahon" and t.number_of_rounds == 3 and not t.is_closed
    ito = t.entries.get(player__family_name="Ito")
    assert ito.participation == "baa"  # a bye in round 1, then withdrawn
    assert t.entries.filter(participation="").count() == 8
    assert all(g.result_reason for g in games)
    assert sum(g.state in LOCKED_STATES for g in games) == 11  # one waits for Bob
    with_records = [g for g in games if g.sgf]
    assert len(with_records) == 3
    for g in with_records:
        played = replay(parse_record(g.sgf), get_rules(g.rules), strict=False)
        assert played.violations == [] and played.moves_played == 48
    for username, password in USERS.values():
        assert username in out.getvalue() and password in out.getvalue()
    director = get_user_model().objects.get(username=USERS["director"][0])
    assert director.is_staff and director.groups.filter(name=DIRECTORS_GROUP).exists()
    assert t.directors.filter(pk=director.pk).exists()


def test_running_it_twice_changes_nothing() -> None:
    call_command("seed_demo", stdout=StringIO())
    first = _counts()
    out = StringIO()
    call_command("seed_demo", stdout=out)
    assert _counts() == first
    assert "nothing to do" in out.getvalue()


def test_the_demo_users_can_log_in(client) -> None:  # type: ignore[no-untyped-def]
    call_command("seed_demo", stdout=StringIO())
    for username, password in USERS.values():
        # django-axes watches every login, so it needs the request.
        assert client.login(request=HttpRequest(), username=username, password=password)


def test_random_games_are_legal_and_repeatable() -> None:
    assert random_legal_game(7) == random_legal_game(7)
    assert random_legal_game(7) != random_legal_game(8)
