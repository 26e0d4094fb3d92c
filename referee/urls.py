from django.urls import URLPattern

app_name = "referee"
urlpatterns: list[URLPattern] = []
