from django.urls import path

from accounts import views

app_name = "accounts"

urlpatterns = [
    path("link/", views.link_identity, name="link_identity"),
    path("users/", views.users, name="users"),
    path("users/<int:user_id>/role/", views.user_change_role, name="user_change_role"),
    path("users/<int:user_id>/access/", views.user_set_active, name="user_set_active"),
    path("users/new/", views.staff_login_request, name="staff_login_request"),
    path("session/keepalive/", views.session_keepalive, name="session_keepalive"),
    path("role-requests/", views.role_requests, name="role_requests"),
    path("role-requests/<int:request_id>/decide/", views.role_request_decide, name="role_request_decide"),
]
