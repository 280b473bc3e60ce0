from django.contrib import admin
from django.templatetags.static import static
from django.urls import include, path
from django.views.generic import RedirectView

from dashboard.views.login import AdminLoginForm
from mcp_server.views import mcp_endpoint
from mem0_api.site import mem0_api
from memory_service.api import api

# The admin's sign-in counts failed passwords with the dashboard's (dashboard/views/login.py).
admin.site.login_form = AdminLoginForm

handler404 = "memory_service.not_found.not_found"

urlpatterns = [
    # Browsers ask for /favicon.ico on every page whatever the page links to.
    path("favicon.ico", RedirectView.as_view(url=static("img/favicon.svg"), permanent=True)),
    path("api/v1/", api.urls),
    path("mcp", mcp_endpoint, name="mcp"),
    path("admin/", admin.site.urls),
    path("", include("profiles.urls")),
    path("", include("dashboard.urls")),
    # mem0-compatible routes (/v1/..., /v2/..., /v3/...); last, as ninja also maps the bare root.
    path("", mem0_api.urls),
]
