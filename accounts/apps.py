from django.apps import AppConfig


class AccountsConfig(AppConfig):
    name = "accounts"
    verbose_name = "Accounts and roles"

    def ready(self):
        from accounts import auth_audit  # noqa: F401 - connects the authentication audit receivers
