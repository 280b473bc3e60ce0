from django.urls import path

from webhooks import views

urlpatterns = [
    path("t/<uuid:tenant_id>/webhooks/", views.webhooks, name="dashboard-webhooks"),
]
