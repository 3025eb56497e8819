"""Account elections; included into the ``elections`` namespace."""

from django.urls import path

from elections.account_elections import views

urlpatterns = [
    path("diversify/<int:membership_id>/", views.diversification, name="diversification"),
    path("contribution-rate/<int:membership_id>/", views.deferrals, name="deferrals"),
    path("people/<int:participant_id>/account-elections/", views.history, name="account_elections"),
]
