from django.apps import AppConfig


class TaxesConfig(AppConfig):
    name = "taxes"
    verbose_name = "Taxes around payments (withholding, §402(f), Form 1099-R)"

    def ready(self) -> None:
        from taxes import hooks

        hooks.connect()
