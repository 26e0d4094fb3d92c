"""The review list of possible duplicates as a page of its own (games:duplicates): who
sees which pairs, merge and keep apart through the audited services, bad input."""

from __future__ import annotations

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.db import IntegrityError
from django.urls import reverse

from games.models import DuplicateState, Player, PossibleDuplicate, TournamentEntry
from games.people.services import matching as identity
from games.people.services.grants import federation_official_grant
from ops.models import AuditAction, AuditEntry
from tests.factories import PlayerFactory, TournamentFactory, UserFactory, enter

URL = reverse("games:duplicates")


def _post_csv(client, tournament, data: bytes, **kwargs):  # type: ignore[no-untyped-def]
    """The entries page's CSV import of ``data``, as the director's form posts it."""
    upload = SimpleUploadedFile("e.csv", data)
    url = reverse("games:entries", args=[tournament.pk])
    return client.post(url, {"action": "csv", "file": upload}, **kwargs)


@pytest.fixture
def pair(tournament, alice):  # type: ignore[no-untyped-def]
    """Alice entered in the director's tournament, and a second record of her."""
    enter(tournament, alice)
    twin = PlayerFactory(family_name="Liddell", given_name="Alice", egd_pin="12345678")
    return PossibleDuplicate.objects.create(
        player=twin, other=alice, reason="the same name", tournament=tournament
    )


@pytest.fixture
def elsewhere(db):  # type: ignore[no-untyped-def]
    """Another director's event, with a pair of its own."""
    boss = UserFactory(username="boss")
    t = TournamentFactory(name="Auckland Open")
    t.directors.add(boss)
    a, b = PlayerFactory(family_name="Kim"), PlayerFactory(family_name="Kim")
    enter(t, a)
    dup = PossibleDuplicate.objects.create(player=b, other=a, reason="the same name", tournament=t)
    return boss, dup


def test_a_director_sees_the_pairs_of_his_players_only(client, director, pair, elsewhere):
    client.force_login(director)
    page = client.get(URL).content.decode()
    assert f"duplicate-{pair.pk}" in page and f"duplicate-{elsewhere[1].pk}" not in page
    assert "EGD PIN 12345678" in page and "Wellington Open" in page and "3k" in page
    assert f"#{pair.player_id}" in page and f"#{pair.other_id}" in page


def test_a_federation_official_sees_every_pair(client, outsider, pair, elsewhere):
    federation_official_grant(actor=None, user=outsider)
    client.force_login(outsider)
    page = client.get(URL).content.decode()
    assert f"duplicate-{pair.pk}" in page and f"duplicate-{elsewhere[1].pk}" in page


def test_someone_who_directs_nothing_gets_403(client, outsider, pair):
    client.force_login(outsider)
    assert client.get(URL).status_code == 403
    assert client.post(URL, {"duplicate": pair.pk, "action": "apart"}).status_code == 403
    assert PossibleDuplicate.objects.get(pk=pair.pk).state == DuplicateState.OPEN


def test_a_director_of_another_event_cannot_act(client, pair, elsewhere):
    client.force_login(elsewhere[0])
    for data in (
        {"duplicate": pair.pk, "action": "apart"},
        {"duplicate": pair.pk, "action": "merge", "keep": pair.other_id},
    ):
        answer = client.post(URL, data, follow=True)
        assert answer.status_code == 200
        assert "not on your review list" in answer.content.decode()
    assert PossibleDuplicate.objects.get(pk=pair.pk).state == DuplicateState.OPEN
    assert client.get(URL + f"?tournament={pair.tournament_id}").content.count(b"<section") == 0


def test_keep_apart_is_audited_and_leaves_the_list(client, director, pair):
    client.force_login(director)
    answer = client.post(URL, {"duplicate": pair.pk, "action": "apart"}, follow=True)
    assert "are kept apart" in answer.content.decode()
    assert PossibleDuplicate.objects.get(pk=pair.pk).state == DuplicateState.APART
    assert AuditEntry.objects.filter(
        action=AuditAction.PLAYER_DUPLICATE_KEPT_APART, actor=director
    ).exists()
    assert f"duplicate-{pair.pk}" not in client.get(URL).content.decode()


def test_merge_moves_the_entries_to_the_kept_record(client, director, pair, alice):
    twin = pair.player
    second = TournamentFactory(name="Second")
    second.directors.add(director)
    enter(second, twin)
    client.force_login(director)
    answer = client.post(
        URL, {"duplicate": pair.pk, "action": "merge", "keep": alice.pk}, follow=True
    )
    assert f"Merged into {alice}" in answer.content.decode()
    assert not Player.objects.filter(pk=twin.pk).exists()
    assert TournamentEntry.objects.get(tournament=second).player_id == alice.pk
    assert Player.objects.get(pk=alice.pk).egd_pin == "12345678"
    assert AuditEntry.objects.filter(action=AuditAction.PLAYER_MERGED, actor=director).exists()


@pytest.mark.parametrize(
    "data",
    [
        {"duplicate": "abc", "action": "apart"},
        {"duplicate": "9" * 30, "action": "apart"},
        {"duplicate": "999999", "action": "apart"},
        {"action": "apart"},
        {"duplicate": "PAIR", "action": "merge", "keep": "999999"},
        {"duplicate": "PAIR", "action": "merge", "keep": "x"},
        {"duplicate": "PAIR", "action": "explode"},
    ],
)
def test_bad_input_is_a_message_never_a_500(client, director, pair, data):
    client.force_login(director)
    data = {k: str(pair.pk) if v == "PAIR" else v for k, v in data.items()}
    answer = client.post(URL, data, follow=True)
    assert answer.status_code == 200 and b'class="error"' in answer.content
    assert PossibleDuplicate.objects.get(pk=pair.pk).state == DuplicateState.OPEN


def test_a_bad_tournament_filter_is_a_404(client, director, pair):
    client.force_login(director)
    for value in ("abc", "999999", "9" * 30, "9" * 5000, "²", "-1"):
        assert client.get(URL, {"tournament": value}).status_code == 404


def test_the_entries_and_tournament_pages_link_it_with_its_count(client, director, pair):
    client.force_login(director)
    link = f'{URL}?tournament={pair.tournament_id}">1 possible duplicate to review'
    for name in ("games:entries", "games:tournament"):
        page = client.get(reverse(name, args=[pair.tournament_id])).content.decode()
        assert link in page, name


def test_the_csv_import_links_the_pairs_it_queued(client, director, tournament, alice):
    PlayerFactory(family_name="Liddell", given_name="Alice")  # two of that name: ambiguous
    client.force_login(director)
    data = b"family_name,given_name,rank\nLiddell,Alice,3k\n"
    answer = _post_csv(client, tournament, data, follow=True)
    page = answer.content.decode()
    assert "2 queued for review" in page
    assert f'<a href="{URL}?tournament={tournament.pk}">the review list</a>' in page
    assert client.get(URL).content.decode().count('class="duplicate"') == 2


# --------------------------------------------------------------------------- one search


@pytest.mark.parametrize("typed", ["jorg mull", "MÜLLER", "Müller Jörg", "12345670"])
def test_the_entries_page_and_the_api_find_a_player_alike(
    client, api_as, director, tournament, typed
):
    jorg = PlayerFactory(family_name="Müller", given_name="Jörg", egd_pin="12345670")
    PlayerFactory(family_name="Mueller", given_name="Hans")
    client.force_login(director)
    page = client.get(reverse("games:entry-search", args=[tournament.pk]), {"q": typed}).json()
    api = api_as(director).get("/api/v1/rating-lists/search/", {"q": typed}).json()
    assert [p["id"] for p in page["players"]] == [jorg.pk]
    assert [p["id"] for p in api["players"]] == [jorg.pk]


def test_a_race_on_a_csv_players_id_is_a_message_and_enters_nothing(
    client, director, tournament, monkeypatch
):
    def taken(**kwargs):  # type: ignore[no-untyped-def]
        raise IntegrityError("duplicate key value violates unique constraint")

    monkeypatch.setattr(identity, "players_create_bulk", taken)
    client.force_login(director)
    answer = _post_csv(client, tournament, b"family_name,given_name,rank\nNew,Person,3k\n")
    assert answer.status_code == 302
    page = client.get(answer["Location"]).content.decode()
    assert "import the file again" in page and not tournament.entries.exists()


def test_no_merge_button_where_the_merge_would_be_refused(client, director, tournament, pair):
    """Two records in one event are two people: the page says so instead of offering a
    Merge the service refuses; a pair another event's director owns names its player."""
    bob = PlayerFactory(family_name="Liddell", given_name="Alicia")
    enter(tournament, bob)
    same_event = PossibleDuplicate.objects.create(
        player=bob, other=pair.other, reason="close names", tournament=tournament
    )
    boss = UserFactory(username="boss2")
    theirs = TournamentFactory(name="Auckland Open")
    theirs.directors.add(boss)
    kim = PlayerFactory(family_name="Kim", given_name="Min")
    enter(theirs, kim)
    enter(tournament, PlayerFactory(family_name="Kim", given_name="M."))
    stranger = PossibleDuplicate.objects.create(
        player=Player.objects.get(given_name="M."), other=kim, reason="x", tournament=tournament
    )
    client.force_login(director)
    page = client.get(URL).content.decode()

    def section(dup):  # type: ignore[no-untyped-def]
        start = page.index(f'id="duplicate-{dup.pk}"')
        return page[start : page.index("</section>", start)]

    assert "Merge, keeping" in section(pair)  # his own players: he may merge them
    assert "Merge, keeping" not in section(same_event)
    assert "both play in Wellington Open, so they are two people" in section(same_event)
    assert "Merge, keeping" not in section(stranger)
    assert "Kim Min plays in other directors' tournaments" in section(stranger)
