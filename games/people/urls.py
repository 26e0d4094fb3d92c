"""People's pages under the ``games`` namespace (``games/urls.py`` includes them); the
invitation page sits under ``accounts/`` (``config/urls.py``)."""

from django.urls import path

from games.people import views

urlpatterns = [
    path("duplicates/", views.duplicates, name="duplicates"),
]
