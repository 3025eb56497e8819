"""The import area's URLs, included in the benefits app's namespace under staff/."""

from django.urls import path

from benefits.imports import views

urlpatterns = [
    path("staff/imports/", views.imports_home, name="imports_home"),
    path("staff/imports/upload/", views.imports_upload, name="imports_upload"),
    path("staff/imports/<int:batch_id>/", views.import_detail, name="import_detail"),
    path("staff/imports/<int:batch_id>/apply/", views.import_apply, name="import_apply"),
    path("staff/imports/<int:batch_id>/rollback/", views.import_rollback, name="import_rollback"),
    path("staff/market-rates/", views.market_rates, name="market_rates"),
    path("staff/regulatory-tables/", views.regulatory_tables, name="regulatory_tables"),
]
