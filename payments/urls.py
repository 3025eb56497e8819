from django.urls import path

from payments import views

app_name = "payments"

urlpatterns = [
    path("", views.my_payments, name="mine"),
    path("pdf/", views.my_payments_pdf, name="mine_pdf"),
    path("<int:payment_id>/bank-account/", views.correct_destination, name="correct_destination"),
    path("<int:payment_id>/payee-bank-account/", views.payee_bank_account, name="payee_bank_account"),
    path("staff/", views.pay_date, name="pay_date"),
    path("staff/deaths/", views.deaths, name="deaths"),
    path("staff/deaths/<int:payment_id>/", views.death_record, name="death_record"),
    path("staff/<str:on>/export/", views.export, name="export"),
    path("staff/<str:on>/instructions.csv", views.instruction_csv, name="instruction_csv"),
]
