from django.apps import AppConfig


class ElectionsConfig(AppConfig):
    name = "elections"
    verbose_name = "Claims, elections and notices"

    def ready(self) -> None:
        from elections.benefit_elections import jobs

        jobs.register()
