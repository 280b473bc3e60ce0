"""What a client-chosen id (user_id, session_id, turn_id) and a memory text may hold, stated
once on the ground: facts.services.users enforces the id rule, facts.guard the injection
floor, and core.schemas documents both in every app's API schema.
"""

from __future__ import annotations

ID_MAX = 128

# Zero-width, bidi-override and other invisible code points used to hide text
# from a human reviewer while a model still reads it.
INVISIBLE_CHARS = (
    "\u00ad\u034f\u061c\u115f\u1160\u17b4\u17b5\u180b-\u180f"
    "\u200b-\u200f\u202a-\u202e\u2060-\u206f\u3164\ufe00-\ufe0f\ufeff\uffa0"
    "\U000e0000-\U000e007f"  # tag characters ("ASCII smuggling")
)
