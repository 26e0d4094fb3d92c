from csp.decorators import csp_update
from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.urls import include, path, re_path
from django.views.decorators.csrf import csrf_exempt
from django.views.generic import RedirectView
from django.views.i18n import set_language
from drf_spectacular.views import SpectacularRedocView, SpectacularSwaggerView

from config.favicon import favicon
from config.health import healthz
from config.jobs import JobView
from config.schema import SchemaView
from games.people.views import invitation_accept
from ops.accounts import LimitedPasswordResetView

# The API documentation pages (Swagger UI, ReDoc) start with an inline script of their own
# and run ReDoc in a blob: worker; they show no user content.
_docs_csp = csp_update(
    {"script-src": ["'unsafe-inline'"], "style-src": ["'unsafe-inline'"], "worker-src": ["blob:"]}
)

# A database error raised outside a view (a middleware) is a 503 too.
handler500 = "ops.unavailable.server_error"

admin.site.site_header = "goref — tournament administration"
admin.site.site_title = "goref admin"
admin.site.index_title = "Tournaments, players and results"

urlpatterns = [
    # The audit trail's admin pages moved with the model (referee -> ops); old links still work.
    re_path(
        r"^admin/referee/auditentry/(?P<rest>.*)$",
        RedirectView.as_view(url="/admin/ops/auditentry/%(rest)s", query_string=True),
    ),
    path("admin/", admin.site.urls),
    path("accounts/login/", auth_views.LoginView.as_view(), name="login"),
    path("accounts/logout/", auth_views.LogoutView.as_view(), name="logout"),
    # Django's own password reset and change views (templates/registration/); the reset
    # limited per address and per account, and its new password logs the owner in (his
    # address is then his: a username paced by guessers is never paced from it).
    path("accounts/password_reset/", LimitedPasswordResetView.as_view(), name="password_reset"),
    path(
        "accounts/reset/<uidb64>/<token>/",
        auth_views.PasswordResetConfirmView.as_view(
            post_reset_login=True,
            post_reset_login_backend="ops.accounts.CachedModelBackend",
        ),
        name="password_reset_confirm",
    ),
    path("accounts/", include("django.contrib.auth.urls")),
    path("accounts/invitation/<str:token>/", invitation_accept, name="invitation-accept"),
    # The language switcher on every page, visitors' cached pages too, which carry no CSRF
    # token: choosing a language for someone else's browser changes nothing of his.
    path("i18n/setlang/", csrf_exempt(set_language), name="set_language"),
    path("healthz", healthz, name="healthz"),
    path("favicon.ico", favicon, name="favicon"),
    # The ratings' API first: Django tries routes in order, and its handicap lookup is one
    # of the most asked (no route is shared between the three; tests/test_urls.py).
    path("api/v1/", include("ratings.api.urls")),
    path("api/v1/", include("games.api.urls")),
    path("api/v1/", include("referee.api.urls")),
    path("api/v1/jobs/<int:pk>/", JobView.as_view(), name="api-job"),
    path("api/schema/", SchemaView.as_view(), name="schema"),
    path(
        "api/docs/", _docs_csp(SpectacularSwaggerView.as_view(url_name="schema")), name="api-docs"
    ),
    path(
        "api/redoc/", _docs_csp(SpectacularRedocView.as_view(url_name="schema")), name="api-redoc"
    ),
    path("referee/", include("referee.urls")),
    path("ratings/", include("ratings.urls")),
    path("", include("games.urls")),
]
