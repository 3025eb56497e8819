from django.urls import path

from accounts import views

app_name = "accounts"

urlpatterns = [
    path("link/", views.link_identity, name="link_identity"),
]
