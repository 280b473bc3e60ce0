"""Dashboard forms: search, point in time, queue edits and the typed confirmations of deletion."""

from __future__ import annotations

from typing import Any

from django import forms


class UserSearchForm(forms.Form):
    q = forms.CharField(required=False, max_length=128, label="User id contains")


class AsOfForm(forms.Form):
    as_of = forms.DateTimeField(
        required=False,
        label="As of (UTC)",
        widget=forms.DateTimeInput(attrs={"type": "datetime-local"}),
    )


class QueueEditForm(forms.Form):
    # Empty = approve the text as proposed.
    text = forms.CharField(required=False, max_length=20_000, widget=forms.Textarea(attrs={"rows": 3}))


class EraseConfirmForm(forms.Form):
    """Erasing cannot be undone, so the staff member types the user id back."""

    # Not stripped: an id may begin or end with spaces (the id rule allows them), and the
    # typed text must equal it exactly, or such a user could never be erased here.
    confirm = forms.CharField(max_length=128, strip=False, label="Type the user id to confirm")

    def __init__(self, *args: Any, expected: str, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.expected = expected

    def clean_confirm(self) -> str:
        typed: str = self.cleaned_data["confirm"]
        if typed != self.expected:
            raise forms.ValidationError("That is not this user's id; nothing was erased.")
        return typed


class ForgetKeyForm(forms.Form):
    key = forms.ChoiceField(label="Key")
    confirm = forms.CharField(max_length=64, label="Type the key to confirm")

    def __init__(self, *args: Any, keys: list[tuple[str, int]], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        key_field = self.fields["key"]
        assert isinstance(key_field, forms.ChoiceField)  # declared above as one
        key_field.choices = [(key, f"{key} ({n} fact{'s' if n != 1 else ''})") for key, n in keys]

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        if data.get("key") and data.get("confirm") != data["key"]:
            self.add_error("confirm", "The typed key does not match the chosen key; nothing was deleted.")
        return data


class MemoryModeForm(forms.Form):
    """The person's memory mode (facts.services.memory_mode), set by staff on their behalf."""

    mode = forms.ChoiceField(
        label="Memory mode",
        choices=[
            ("auto", "auto: learn from turns and recall"),
            ("confirm", "confirm: every change waits in the queue"),
            ("read_only", "read only: recall, store nothing new"),
            ("off", "off: store nothing, recall nothing"),
        ],
    )
