"""A spouse's consent; included into the ``elections`` namespace (the URLs and names it always had)."""

from django.urls import path

from elections.consents import views

urlpatterns = [
    path("consents/<int:consent_id>/upload/", views.consent_upload, name="consent_upload"),
    path("consents/<int:consent_id>/file/", views.consent_file, name="consent_file"),
    path("admin/consents/", views.consent_queue, name="consent_queue"),
    path("admin/consents/<int:consent_id>/", views.consent_review, name="consent_review"),
    path("admin/consents/<int:consent_id>/verify/", views.consent_verify, name="consent_verify"),
    path("admin/consents/<int:consent_id>/reject/", views.consent_reject, name="consent_reject"),
]
