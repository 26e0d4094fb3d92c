from django.urls import URLPattern

app_name = "ratings"
urlpatterns: list[URLPattern] = []
