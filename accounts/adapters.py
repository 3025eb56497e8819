import secrets

from allauth.account.adapter import DefaultAccountAdapter
from django.contrib.auth.hashers import make_password
from django.urls import reverse


class AccountAdapter(DefaultAccountAdapter):
    """Everyone lands on their role's home page after login."""

    def get_login_redirect_url(self, request):
        return reverse("home")

    def send_account_already_exists_mail(self, email):
        # A new address's sign-up hashes its password; an address already registered does the same
        # work, so the time of the answer does not tell the two apart (issue 26).
        make_password(secrets.token_urlsafe(16))
        return super().send_account_already_exists_mail(email)
