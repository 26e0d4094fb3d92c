"""The directors' admin: tournaments, rounds, games and players, scoped to the director.

A director sees only the tournaments he directs; every change goes through
``games.services``; results are entered on the game's form or a round's result sheet,
never edited here; a locked game is read-only (docs/games.md, "The admin").  The
tournaments, rounds, pairing and result sheets are ``games.tournament.admin``.
"""

from __future__ import annotations

from typing import Any, cast

from django import forms
from django.contrib import admin
from django.core.exceptions import PermissionDenied, ValidationError
from django.db.models import QuerySet
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import get_object_or_404
from django.template.response import TemplateResponse
from django.urls import URLPattern, path, reverse
from django.utils.html import format_html

from games.models import Club, Game, Player, ResultSubmission, Tournament
from games.people import services as people
from games.people.engine.federation_ids import PLAYER_ID_FIELDS
from games.people.services.clubs import can_change_club, club_create, club_update
from games.people.services.imports import COLUMNS, players_import_upload
from games.people.services.invitations import player_invite
from games.permissions import (
    can_edit_player,
    can_invite_player,
    can_link_account,
    is_director,
    is_federation_official,
)
from games.tournament import services as tournament_services
from ops.admin_mixins import (
    ReadOnlyAdminMixin,
    ServiceRefusalAdminMixin,
    changed_values,
    saved_nothing,
)
from ops.services import StateConflict

# --------------------------------------------------------------------------- games


GAME_PAIRING_FIELDS = ("black", "white", "handicap", "komi", "table", "rules")
GAME_RESULT_FIELDS = (
    "result_display",
    "state",
    "result_submitted_by",
    "locked_at",
    "sgf_warnings",
    "dead_stones",
    "correct_link",
)


class GameAddForm(forms.ModelForm[Game]):
    round_number = forms.IntegerField(min_value=1, max_value=32767, label="Round")

    class Meta:
        model = Game
        fields = ("tournament", "black", "white", "handicap", "komi", "table", "rules")

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["komi"].required = False
        self.fields["rules"].required = False
        self.fields["handicap"].required = False
        self.fields["handicap"].initial = None
        self.fields[
            "handicap"
        ].help_text = (
            "Leave empty for the tournament's handicap policy (the weaker player takes Black)."
        )
        self.fields["komi"].help_text = "Leave empty for the tournament's komi."
        self.fields["rules"].help_text = "Leave empty for the tournament's rules."


class SubmissionInline(admin.TabularInline[ResultSubmission, Game]):
    model = ResultSubmission
    extra = 0
    can_delete = False
    fields = ("created_at", "kind", "player", "submitted_by", "result", "comment")
    readonly_fields = fields

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(Game)
class GameAdmin(ServiceRefusalAdminMixin, admin.ModelAdmin[Game]):
    list_display = (
        "id",
        "tournament",
        "round_number",
        "table",
        "black",
        "white",
        "handicap",
        "result_display",
        "state",
    )
    list_display_links = ("id",)
    list_filter = ("state", "tournament", "round__number")
    list_select_related = ("tournament", "round", "black", "white")
    search_fields = (
        "black__family_name",
        "black__given_name",
        "white__family_name",
        "white__given_name",
    )
    inlines = [SubmissionInline]
    ordering = ("-tournament__start_date", "round__number", "table", "id")

    def get_queryset(self, request: HttpRequest) -> QuerySet[Game]:
        qs = super().get_queryset(request).select_related("tournament", "round", "black", "white")
        if request.user.is_superuser:
            return qs
        return qs.filter(tournament__directors=request.user)

    @admin.display(description="round", ordering="round__number")
    def round_number(self, obj: Game) -> int:
        return obj.round.number

    @admin.display(description="result")
    def result_display(self, obj: Game) -> str:
        return obj.result_display or "–"

    @admin.display(description="result")
    def correct_link(self, obj: Game) -> str:
        if obj.is_locked:
            return "locked: this result is final"
        url = reverse("games:game-enter", args=[obj.pk])
        label = "correct the result" if obj.result_reason else "enter the result"
        return format_html('<a href="{}">{}</a>', url, label)

    def get_form(
        self, request: HttpRequest, obj: Game | None = None, change: bool = False, **kwargs: Any
    ) -> Any:
        if obj is None:
            kwargs["form"] = GameAddForm
        return super().get_form(request, obj, change=change, **kwargs)

    def get_fields(self, request: HttpRequest, obj: Game | None = None) -> Any:
        if obj is None:
            return ("tournament", "round_number", *GAME_PAIRING_FIELDS)
        return ("tournament", "round", *GAME_PAIRING_FIELDS, *GAME_RESULT_FIELDS)

    def get_readonly_fields(self, request: HttpRequest, obj: Game | None = None) -> Any:
        if obj is None:
            return ()
        if obj.is_locked:
            return ("tournament", "round", *GAME_PAIRING_FIELDS, *GAME_RESULT_FIELDS)
        return ("tournament", "round", *GAME_RESULT_FIELDS)

    def formfield_for_foreignkey(self, db_field: Any, request: HttpRequest, **kwargs: Any) -> Any:
        if db_field.name == "tournament" and not request.user.is_superuser:
            kwargs["queryset"] = Tournament.objects.filter(directors=request.user.pk)
        return super().formfield_for_foreignkey(db_field, request, **kwargs)

    def has_change_permission(self, request: HttpRequest, obj: Game | None = None) -> bool:
        if not super().has_change_permission(request, obj):
            return False
        if obj is None:
            return True
        # A locked result is history: the admin shows it, read-only.
        return not obj.is_locked and is_director(request.user, obj.tournament)

    def has_delete_permission(self, request: HttpRequest, obj: Game | None = None) -> bool:
        if obj is not None and (obj.is_locked or obj.result_reason):
            return False
        return super().has_delete_permission(request, obj)

    def get_actions(self, request: HttpRequest) -> Any:
        actions = super().get_actions(request)
        actions.pop("delete_selected", None)  # it would skip the per-game lock check
        return actions

    def save_model(self, request: HttpRequest, obj: Game, form: Any, change: bool) -> None:
        data = form.cleaned_data
        if change:
            changed = changed_values(form, GAME_PAIRING_FIELDS)
            if changed:
                tournament_services.game_update(actor=request.user, game=obj, **changed)
            obj.refresh_from_db()
            return
        created = tournament_services.game_create(
            actor=request.user,
            tournament=data["tournament"],
            round_number=data["round_number"],
            black=data["black"],
            white=data["white"],
            # Blank: the tournament's handicap policy decides (ratings.strength).
            handicap=data.get("handicap"),
            komi=data.get("komi"),
            table=data.get("table"),
            rules=data.get("rules") or None,
        )
        obj.pk = created.pk
        obj.refresh_from_db()

    def save_related(self, request: HttpRequest, form: Any, formsets: Any, change: bool) -> None:
        saved_nothing(formsets)  # submissions are read-only history


# --------------------------------------------------------------------------- players


PLAYER_FIELDS = ("family_name", "given_name", "club", "country", *PLAYER_ID_FIELDS, "email", "user")


class PlayerForm(forms.ModelForm[Player]):
    rank = forms.CharField(max_length=10, help_text="Such as 3k, 2d or 9p+.")

    class Meta:
        model = Player
        fields = PLAYER_FIELDS

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        if self.instance.pk:
            self.fields["rank"].initial = str(self.instance.rank)


class ImportForm(forms.Form):
    file = forms.FileField(help_text="A CSV file, UTF-8, with a header row.")


@admin.register(Player)
class PlayerAdmin(ServiceRefusalAdminMixin, admin.ModelAdmin[Player]):
    form = PlayerForm
    list_display = ("full_name", "rank_display", "club", "country", "egd_pin", "user")
    list_select_related = ("club", "user")
    search_fields = ("family_name", "given_name", "egd_pin", "aga_id", "nzgs_id")
    list_filter = ("country",)
    fields = ("family_name", "given_name", "rank", *PLAYER_FIELDS[2:])
    autocomplete_fields = ("club",)
    raw_id_fields = ("user",)

    def get_fields(self, request: HttpRequest, obj: Player | None = None) -> Any:
        fields = cast(tuple[str, ...], self.fields)
        # The address on file is shown to (and written by) a federation official or the
        # player's own directors only: invitations go there.
        may_see_email = (
            is_federation_official(request.user)
            if obj is None
            else can_invite_player(request.user, obj)
        )
        if not may_see_email:
            fields = tuple(f for f in fields if f != "email")
        # Only a superuser links an account directly; a director invites the player.
        if can_link_account(request.user):
            return fields
        fields = tuple(f for f in fields if f != "user")
        return (*fields, "account") if obj is not None else fields

    def get_readonly_fields(self, request: HttpRequest, obj: Player | None = None) -> Any:
        if obj is not None and not can_link_account(request.user):
            return ("account",)
        return ()

    @admin.display(description="account")
    def account(self, obj: Player) -> str:
        if obj.user_id is not None:
            return "linked to an account"
        url = reverse("admin:games_player_invite", args=[obj.pk])
        return format_html('none yet: <a href="{}">invite the player by e-mail</a>', url)

    def get_form(
        self, request: HttpRequest, obj: Player | None = None, change: bool = False, **kwargs: Any
    ) -> Any:
        kwargs["fields"] = [f for f in self.get_fields(request, obj) if f != "account"]
        return super().get_form(request, obj, change=change, **kwargs)

    def has_change_permission(self, request: HttpRequest, obj: Player | None = None) -> bool:
        allowed = super().has_change_permission(request, obj)
        return allowed and (obj is None or can_edit_player(request.user, obj))

    @admin.display(description="rank", ordering="declared_rank")
    def rank_display(self, obj: Player) -> str:
        return str(obj.rank)

    def has_delete_permission(self, request: HttpRequest, obj: Player | None = None) -> bool:
        return bool(request.user.is_superuser) and super().has_delete_permission(request, obj)

    def save_model(self, request: HttpRequest, obj: Player, form: Any, change: bool) -> None:
        data = form.cleaned_data
        if change:
            changed = changed_values(form, (*PLAYER_FIELDS, "rank"))
            # The form has written its values onto ``obj``: the service reads the stored row.
            obj = Player.objects.get(pk=obj.pk)
            if changed:
                people.player_update(actor=request.user, player=obj, **changed)
            obj.refresh_from_db()
            return
        created = people.player_create(
            actor=request.user,
            family_name=data["family_name"],
            given_name=data.get("given_name") or "",
            rank=data["rank"],
            club=data.get("club"),
            country=data.get("country") or "",
            egd_pin=data.get("egd_pin"),
            aga_id=data.get("aga_id"),
            nzgs_id=data.get("nzgs_id"),
            email=data.get("email") or "",
            user=data.get("user"),
        )
        obj.pk = created.pk
        obj.refresh_from_db()

    def get_urls(self) -> list[URLPattern]:
        extra = [
            path(
                "import-csv/",
                self.admin_site.admin_view(self.import_view),
                name="games_player_import",
            ),
            path(
                "<int:pk>/invite/",
                self.admin_site.admin_view(self.invite_view),
                name="games_player_invite",
            ),
        ]
        return extra + super().get_urls()

    def invite_view(self, request: HttpRequest, pk: int) -> HttpResponse:
        """Invite a player by e-mail, at the address on file, to create (or link) his account."""
        player = get_object_or_404(Player, pk=pk)
        if not can_invite_player(request.user, player):
            raise PermissionDenied
        errors: list[str] = []
        if request.method == "POST":
            try:
                player_invite(
                    actor=request.user,
                    player=player,
                    accept_url=lambda token: request.build_absolute_uri(
                        reverse("invitation-accept", args=[token])
                    ),
                )
            except (ValidationError, StateConflict) as exc:
                errors = list(getattr(exc, "messages", [str(exc)]))
            else:
                self.message_user(request, f"Invitation sent to {player.email}.")
                return HttpResponseRedirect(reverse("admin:games_player_change", args=[pk]))
        context = {
            **self.admin_site.each_context(request),
            "title": f"Invite {player} to an account",
            "errors": errors,
            "player": player,
            "opts": self.model._meta,
        }
        return TemplateResponse(request, "admin/games/player_invite.html", context)

    def import_view(self, request: HttpRequest) -> HttpResponse:
        """Upload a CSV of players: all rows created, or none and a report per row."""
        if not self.has_add_permission(request):
            raise PermissionDenied
        form = ImportForm(request.POST or None, request.FILES or None)
        report = None
        if request.method == "POST" and form.is_valid():
            report = players_import_upload(actor=request.user, upload=form.cleaned_data["file"])
            if report.ok:
                self.message_user(request, f"{len(report.created)} player(s) imported.")
                return HttpResponseRedirect(reverse("admin:games_player_changelist"))
        context = {
            **self.admin_site.each_context(request),
            "title": "Import players from CSV",
            "form": form,
            "report": report,
            "columns": COLUMNS,
            "opts": self.model._meta,
        }
        return TemplateResponse(request, "admin/games/player_import.html", context, status=200)


@admin.register(Club)
class ClubAdmin(ServiceRefusalAdminMixin, admin.ModelAdmin[Club]):
    """Clubs through ``games.people.services.clubs``: scoped (a club with players is a federation
    official's to change), audited, visible text only."""

    list_display = ("name", "code", "country")
    search_fields = ("name", "code")
    fields = ("name", "code", "country")

    def has_change_permission(self, request: HttpRequest, obj: Club | None = None) -> bool:
        allowed = super().has_change_permission(request, obj)
        return allowed and (obj is None or can_change_club(request.user, obj))

    def has_delete_permission(self, request: HttpRequest, obj: Club | None = None) -> bool:
        return bool(request.user.is_superuser) and super().has_delete_permission(request, obj)

    def save_model(self, request: HttpRequest, obj: Club, form: Any, change: bool) -> None:
        data = form.cleaned_data
        if change:
            changed = changed_values(form, ("name", "code", "country"))
            if changed:
                club_update(actor=request.user, club=Club.objects.get(pk=obj.pk), **changed)
            obj.refresh_from_db()
            return
        created = club_create(
            actor=request.user,
            name=data["name"],
            code=data.get("code") or "",
            country=data.get("country") or "",
        )
        obj.pk = created.pk
        obj.refresh_from_db()


@admin.register(ResultSubmission)
class ResultSubmissionAdmin(ReadOnlyAdminMixin, admin.ModelAdmin[ResultSubmission]):
    list_display = ("created_at", "game", "kind", "player", "submitted_by", "result")
    list_filter = ("kind",)
    list_select_related = ("game__round", "game__black", "game__white", "player", "submitted_by")

    def get_queryset(self, request: HttpRequest) -> QuerySet[ResultSubmission]:
        qs = super().get_queryset(request)
        if request.user.is_superuser:
            return qs
        return qs.filter(game__tournament__directors=request.user)


# The tournament day's admin registers its models (Tournament, Round) on import.
# People: the review list of possible duplicates, and the federation officials in the user admin.
from games.people import admin as people_admin  # noqa: E402, F401
from games.tournament import admin as tournament_admin  # noqa: E402, F401
