"""Benefit elections, beneficiaries and notices; included into the ``elections`` namespace."""

from django.urls import path

from elections.benefit_elections import views

urlpatterns = [
    path("people/<int:participant_id>/documents/", views.documents, name="documents"),
    path("notices/<int:notice_id>/", views.notice_detail, name="notice_detail"),
    path("elect/<int:membership_id>/", views.election_start, name="election_start"),
    path("drafts/<int:draft_id>/sign/", views.election_sign, name="election_sign"),
    path("drafts/<int:draft_id>/<slug:step>/", views.election_step, name="election_step"),
    path("elections/<int:election_id>/", views.election_detail, name="election_detail"),
    path("elections/<int:election_id>/revoke/", views.election_revoke, name="election_revoke"),
    path("elections/<int:election_id>/exception/", views.consent_exception, name="consent_exception"),
    path("people/<int:participant_id>/beneficiaries/", views.beneficiaries, name="beneficiaries"),
    path(
        "beneficiaries/<int:membership_id>/change/", views.beneficiaries_change, name="beneficiaries_change"
    ),
    path(
        "designations/<int:designation_id>/withdraw/", views.designation_withdraw, name="designation_withdraw"
    ),
    path(
        "admin/designations/<int:designation_id>/exception/",
        views.designation_exception,
        name="designation_exception",
    ),
    path("admin/notices/", views.notice_batches, name="notice_batches"),
    path("admin/notices/issue/", views.notice_issue_one, name="notice_issue_one"),
    path("admin/notices/<int:batch_id>/", views.notice_batch, name="notice_batch"),
    path("admin/notices/<int:batch_id>/retry/", views.notice_batch_retry, name="notice_batch_retry"),
    path("admin/notices/<int:batch_id>/resume/", views.notice_batch_resume, name="notice_batch_resume"),
]
