"""Dashboard pages of the facts app (issue 5)."""

urlpatterns: list = []
