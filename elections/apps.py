from django.apps import AppConfig


class ElectionsConfig(AppConfig):
    name = "elections"
    verbose_name = "Claims, elections and notices"

    def ready(self) -> None:
        from elections.benefit_elections import consent_subjects

        consent_subjects.register()
        from benefits.imports.signals import market_rates_loaded
        from elections.benefit_elections.services import on_market_rates_loaded

        market_rates_loaded.connect(on_market_rates_loaded, dispatch_uid="elections.provisional_explanations")
        from benefits.imports.tables import table_loaded
        from elections.benefit_elections.repricing import reprice_after_table_load

        table_loaded.connect(reprice_after_table_load, dispatch_uid="elections.reprice_after_table_load")
