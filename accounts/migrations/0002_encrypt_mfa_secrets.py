"""Encrypt the MFA secrets already stored in clear (TOTP keys, recovery-code seeds)."""

from django.conf import settings
from django.db import migrations


def encrypt_existing(apps, schema_editor):
    from accounts.mfa_secrets import seal_authenticator_data

    Authenticator = apps.get_model("mfa", "Authenticator")
    key = settings.MFA_ENCRYPTION_KEY
    for authenticator in Authenticator.objects.all().iterator():
        sealed = seal_authenticator_data(authenticator.data, key)
        if sealed != authenticator.data:
            authenticator.data = sealed
            authenticator.save(update_fields=["data"])


class Migration(migrations.Migration):
    dependencies = [
        ("accounts", "0001_initial"),
        ("mfa", "0003_authenticator_type_uniq"),
    ]

    operations = [migrations.RunPython(encrypt_existing, migrations.RunPython.noop)]
