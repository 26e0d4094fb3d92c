from django.urls import URLPattern, path

from ops.api import JobView

urlpatterns: list[URLPattern] = [
    path("jobs/<int:pk>/", JobView.as_view(), name="api-job"),
]
