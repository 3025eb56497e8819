from allauth.account.adapter import DefaultAccountAdapter
from django.urls import reverse


class AccountAdapter(DefaultAccountAdapter):
    """Everyone lands on their role's home page after login."""

    def get_login_redirect_url(self, request):
        return reverse("home")
