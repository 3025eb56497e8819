from django.urls import path

from taxes import views

app_name = "taxes"

urlpatterns = [
    path("staff/loans/", views.loans_in_arrears, name="loans_in_arrears"),
    path("staff/loans/<int:loan_id>/default/", views.loan_default, name="loan_default"),
]
