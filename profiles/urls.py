"""Dashboard pages of the profiles app (issue 6)."""

urlpatterns: list = []
