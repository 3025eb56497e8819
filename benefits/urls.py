from django.urls import path

from benefits import views, views_staff
from benefits.batches import views as batch_views
from benefits.delivery import views as delivery_views
from benefits.imports import urls as imports_urls
from benefits.jobs import views as job_views
from benefits.plan_identity import views as plan_identity_views

app_name = "benefits"

urlpatterns = [
    path("", views.dashboard, name="dashboard"),
    path("participants/<int:participant_id>/", views.participant_dashboard, name="participant_dashboard"),
    path("documents/<int:document_id>/", views.document_download, name="document_download"),
    path(
        "participants/<int:participant_id>/plans/<slug:plan_key>/vesting/",
        views.plan_vesting,
        name="plan_vesting",
    ),
    path(
        "participants/<int:participant_id>/plans/<slug:plan_key>/statement/",
        views.plan_statement,
        name="plan_statement",
    ),
    path(
        "participants/<int:participant_id>/plans/<slug:plan_key>/statement/pdf/",
        views.plan_statement_pdf,
        name="plan_statement_pdf",
    ),
    path(
        "participants/<int:participant_id>/plans/<slug:plan_key>/modeler/",
        views.plan_modeler,
        name="plan_modeler",
    ),
    path("participants/<int:participant_id>/modeler/<int:run_id>/", views.modeler_run, name="modeler_run"),
    path(
        "participants/<int:participant_id>/modeler/<int:run_id>/dates/<int:index>/",
        views.modeler_estimate,
        name="modeler_estimate",
    ),
    path("participants/<int:participant_id>/modeler/<int:run_id>/save/", views.quote_save, name="quote_save"),
    path("participants/<int:participant_id>/quotes/<int:quote_id>/", views.quote_detail, name="quote_detail"),
    path(
        "participants/<int:participant_id>/quotes/<int:quote_id>/dates/<int:index>/",
        views.quote_estimate,
        name="quote_estimate",
    ),
    path("participants/<int:participant_id>/quotes/<int:quote_id>/pdf/", views.quote_pdf, name="quote_pdf"),
    path(
        "participants/<int:participant_id>/delivery/",
        delivery_views.delivery_preferences,
        name="delivery_preferences",
    ),
    path(
        "participants/<int:participant_id>/delivery/test/", delivery_views.delivery_test, name="delivery_test"
    ),
    path(
        "participants/<int:participant_id>/delivery/consent/",
        delivery_views.delivery_consent,
        name="delivery_consent",
    ),
    path(
        "participants/<int:participant_id>/delivery/withdraw/",
        delivery_views.delivery_withdraw,
        name="delivery_withdraw",
    ),
    path("staff/mailing/", delivery_views.delivery_mailing, name="delivery_mailing"),
    path(
        "staff/mailing/<int:delivery_id>/mailed/",
        delivery_views.delivery_mark_mailed,
        name="delivery_mark_mailed",
    ),
    path("staff/participants/", views_staff.staff_participants, name="staff_participants"),
    path("staff/plans/", views_staff.admin_plans, name="admin_plans"),
    path("staff/plans/<slug:key>/", views_staff.admin_plan_detail, name="admin_plan_detail"),
    path(
        "staff/plans/<slug:key>/identification/",
        plan_identity_views.plan_identity_edit,
        name="plan_identity_edit",
    ),
    path(
        "staff/plans/<slug:key>/confirm/", views_staff.admin_plan_confirm_settings, name="admin_plan_confirm"
    ),
    path(
        "staff/plans/<slug:key>/readings/<str:name>/",
        views_staff.admin_plan_update_reading,
        name="admin_plan_update_reading",
    ),
    path("staff/audit/", views_staff.audit_log, name="audit_log"),
    path("staff/jobs/", job_views.staff_jobs, name="staff_jobs"),
    path("staff/jobs/<int:job_id>/retry/", job_views.staff_job_retry, name="staff_job_retry"),
    path("staff/statement-batches/", batch_views.batch_list, name="statement_batches"),
    path("staff/statement-batches/<int:batch_id>/", batch_views.batch_detail, name="statement_batch"),
    path(
        "staff/statement-batches/<int:batch_id>/retry/", batch_views.batch_retry, name="statement_batch_retry"
    ),
    *imports_urls.urlpatterns,
]
