from django.apps import AppConfig


class BenchConfig(AppConfig):
    """Benchmarks and evaluations: the top floor. No product app imports it."""

    name = "bench"
    verbose_name = "Benchmarks and evaluations"
