from allauth.account.decorators import secure_admin_login
from django.contrib import admin
from django.urls import include, path

from accounts import views as account_views

# The Django admin logs in through allauth (rate limits, MFA), never its own form.
admin.site.login = secure_admin_login(admin.site.login)
admin.site.site_header = "Plan Benefits administration"

urlpatterns = [
    path("", account_views.home, name="home"),
    path("accounts/", include("allauth.urls")),
    path("account/", include("accounts.urls")),
    path("benefits/", include("benefits.urls")),
    path("claims/", include("elections.claims.urls")),
    path("payments/", include("payments.urls")),
    path("taxes/", include("taxes.urls")),
    path("django-admin/", admin.site.urls),
]
