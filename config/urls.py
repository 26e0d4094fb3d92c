from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.urls import include, path
from drf_spectacular.views import SpectacularRedocView, SpectacularSwaggerView

from config.schema import SchemaView
from ops.health import healthz

admin.site.site_header = "goref — tournament administration"
admin.site.site_title = "goref admin"
admin.site.index_title = "Tournaments, players and results"

urlpatterns = [
    path("admin/", admin.site.urls),
    path("accounts/login/", auth_views.LoginView.as_view(), name="login"),
    path("accounts/logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("healthz", healthz, name="healthz"),
    path("api/v1/", include("games.api.urls")),
    path("api/v1/", include("referee.api_urls")),
    path("api/v1/", include("ratings.api_urls")),
    path("api/v1/", include("ops.api_urls")),
    path("api/schema/", SchemaView.as_view(), name="schema"),
    path("api/docs/", SpectacularSwaggerView.as_view(url_name="schema"), name="api-docs"),
    path("api/redoc/", SpectacularRedocView.as_view(url_name="schema"), name="api-redoc"),
    path("referee/", include("referee.urls")),
    path("ratings/", include("ratings.urls")),
    path("", include("games.urls")),
]
