from django.urls import path

from benefits import views, views_staff

app_name = "benefits"

urlpatterns = [
    path("", views.dashboard, name="dashboard"),
    path("participants/<int:participant_id>/", views.participant_dashboard, name="participant_dashboard"),
    path("documents/<int:document_id>/", views.document_download, name="document_download"),
    path("staff/participants/", views_staff.staff_participants, name="staff_participants"),
    path("staff/plans/", views_staff.admin_plans, name="admin_plans"),
    path("staff/plans/<slug:key>/", views_staff.admin_plan_detail, name="admin_plan_detail"),
    path(
        "staff/plans/<slug:key>/confirm/", views_staff.admin_plan_confirm_settings, name="admin_plan_confirm"
    ),
    path("staff/audit/", views_staff.audit_log, name="audit_log"),
]
