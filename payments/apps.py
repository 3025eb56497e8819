from django.apps import AppConfig


class PaymentsConfig(AppConfig):
    name = "payments"
    verbose_name = "Benefit payments"

    def ready(self) -> None:
        # Elections never import payments: they send a signal this app answers (payments.hooks).
        from payments import hooks

        hooks.connect()
        from benefits.imports.kinds import register
        from payments.confirmations import KIND

        register(KIND)
