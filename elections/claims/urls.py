from django.urls import path

from elections.account_elections.urls import urlpatterns as account_election_patterns
from elections.benefit_elections.urls import urlpatterns as benefit_election_patterns
from elections.claims import views, views_committee
from elections.consents.urls import urlpatterns as consent_patterns

app_name = "elections"

urlpatterns = [
    path("", views.claims_home, name="claims_home"),
    path("new/<int:membership_id>/<slug:claim_type>/", views.claim_new, name="claim_new"),
    path("from-modeler/<int:membership_id>/", views.claim_from_modeler, name="claim_from_modeler"),
    path("committee/", views_committee.committee_queue, name="committee_queue"),
    path("documents/<int:document_id>/", views.claim_document_download, name="claim_document"),
    path("<int:claim_id>/", views.claim_detail, name="claim_detail"),
    path("<int:claim_id>/notices/<int:notice_id>/", views.claim_notice_download, name="claim_notice"),
    path("<int:claim_id>/appeal/", views.claim_appeal, name="claim_appeal"),
    path("<int:claim_id>/answer/", views.claim_answer, name="claim_answer"),
    path("<int:claim_id>/documents/", views.claim_add_documents, name="claim_add_documents"),
    path("<int:claim_id>/request-documents/", views.claim_request_documents, name="claim_request_documents"),
    path("<int:claim_id>/start-review/", views_committee.claim_start_review, name="claim_start_review"),
    path("<int:claim_id>/extend/", views_committee.claim_extend, name="claim_extend"),
    path("<int:claim_id>/resume/", views_committee.claim_resume, name="claim_resume"),
    path(
        "<int:claim_id>/request-information/",
        views_committee.claim_request_information,
        name="claim_request_information",
    ),
    path("<int:claim_id>/decide/", views_committee.claim_decide, name="claim_decide"),
    path("<int:claim_id>/assign/", views_committee.claim_assign, name="claim_assign"),
    path("<int:claim_id>/notes/", views_committee.claim_add_note, name="claim_add_note"),
]

# Benefit elections, consent and notices share the "elections" namespace (their own area's urls.py).
urlpatterns += benefit_election_patterns
urlpatterns += consent_patterns
urlpatterns += account_election_patterns
