"""More ways of asking not to be remembered, read after facts/consent_rules.py's (issue 37): the
forms the eighth labelled set showed the rules missing, each kept for its reason and not for one
sentence (tests/facts/test_consent_eighth_fixes.py): an imperative closed by a colon, "off the
record" opening a sentence, a polite question that this or the previous message not be saved,
soft wishes ("not for keeps", "ephemeral"), consent withheld, carrying this into later chats
(docs/design.md §13). Same pieces, same rule: linear patterns only.
"""

from __future__ import annotations

from core.lazy_re import Patterns
from facts.consent_forget import PREVIOUS, SAID
from facts.consent_words import (
    ANY_VERB,
    IN_MEMORY,
    KEEP_DONE,
    KEEP_ING,
    KEEP_OBJECT,
    LATER_CHATS,
    MEMORY_DONE,
    MEMORY_ING,
    MEMORY_VERB,
    NOT,
    NOT_A_THING,
    NOT_ANY,
    OPENING,
    PLACE,
    SUBJECT,
)

# A keeping verb's past participle ending its clause, a question's included ("... not be saved?").
# ("Can this not be recorded?" is what one asks of a call or a meeting: "recorded" alone is not the
# assistant's memory here; "saved", "stored", "kept" are.)
DONE_OR_ASKED = (
    r"(?:"
    + MEMORY_DONE
    + r"|(?!recorded\b)"
    + KEEP_DONE
    + r"(?=\s*(?:[?.!;:,\-\u2013\u2014]|$)|\s+anywhere\b)|"
    + KEEP_DONE
    + IN_MEMORY
    + ")"
)
# This message or chat as a subject ("it is ephemeral" may be anything).
THIS_CHAT_SUBJECT = r"this(?: (?:one|message|chat|conversation|exchange|thread|session|bit|part))?(?:'s| is| are)?"
# A clause's end, or a courtesy closing it.
CLOSED = r"(?=\s*(?:[.!?,;:\-\u2013\u2014]|$)|\s+(?:please|pls|plz|thanks|thx|ok|okay|and|but|so)\b)"
# What the person said before, as the subject of a polite question ("could the previous message ...").
SAID_SUBJECT = (
    r"(?:(?:the|my|that) " + PREVIOUS + r" (?:message|one|bit|part|answer|reply|comment|turn|thing i " + SAID + ")"
    r"|what i (?:just )?" + SAID + ")"
)

WISH_PATTERNS = [
    # "Quick q, dont store: ..." / "no need to save - ...": a bare verb closed by a colon labels what follows
    # ("not to keep: ..." too, but "don't keep: old receipts, ..." heads a list).
    OPENING + NOT_ANY + r"(?:save|store|log|record|retain)\s*[:\u2013\u2014]",
    OPENING + r"(?:not to|no need to|you (?:don't|do not) (?:need|have) to) keep\s*[:\u2013\u2014]",
    # "mate don't keep this one", "meaning don't remember it": a vocative or a gloss before "don't".
    r"(?:\b(?:mate|bro|dude|lol|listen),?\s+|\b(?:meaning|as in),?\s+(?:you )?)"
    + NOT
    + r"(?:"
    + MEMORY_VERB
    + "|"
    + KEEP_OBJECT
    + ")",
    # "OFF THE RECORD what do you think ...", "Speaking off the record here, ...": opening a sentence
    # (with the press or someone else it was left out before, facts/consent.py).
    r"(?:^|[.!?;]\s*)(?:(?:ok|okay|so|but|and|hey|alright|well),?\s+){0,2}"
    r"(?:(?:speaking|talking|strictly|completely|totally|purely|just|honestly|frankly|entirely)\s+){0,2}"
    r"off the record(?:\s+(?:here|now|though|please|for a (?:sec|second|moment|minute)))?"
    r"(?:\s*[:,\-\u2013\u2014]|\s+(?=(?:what|how|why|who|where|when|which|do|does|did|can|could|should|would|will"
    r"|i|i'm|i've|i'd|my|me|we|honestly|but)\b))",
    # "Just between the two of us 🤫 ...": a finger to the lips (or a zipped mouth) closes it like a colon.
    r"(?:^|[.!?;]\s*)(?:(?:strictly|just|only|purely) )?between (?:us|you and me|the two of us|ourselves)"
    r"(?: only)?\s*[\U0001f910\U0001f92b]",
    # "Could the previous message not be saved?", "can this one not go in the memory thing?"
    r"\b(?:can|could|would|will|shall|may) (?:" + SUBJECT + r"(?: one)?|" + SAID_SUBJECT + r")\s+(?:please\s+)?not "
    r"(?:(?:be|get) " + DONE_OR_ASKED + r"|(?:go|end up|get|stay) (?:in|into|to|on|onto) " + PLACE + ")",
    # "This convo is not for keeps": kept for now, not for good.
    r"\b" + THIS_CHAT_SUBJECT + r" (?:just |only |strictly )?not for keeps\b",
    # "I'd like this chat to stay ephemeral" / "keep this one ephemeral".
    r"(?:\b(?:" + SUBJECT + r"|this (?:exchange|thread))(?: one)?(?: to| should| must| can| will)? "
    r"(?:stay|stays|remain|remains|be kept)|\b" + THIS_CHAT_SUBJECT + r"(?: to| should| must| can| will)?(?: be)?)"
    r" (?:purely |strictly |just |totally |completely )?ephemeral" + CLOSED,
    r"(?:"
    + OPENING
    + r"|\blet(?:'s| us) )keep "
    + SUBJECT
    + r"(?: one)? (?:purely |strictly |just )?ephemeral"
    + CLOSED,
    # "I don't consent to this being remembered" / "I do not consent to you storing it".
    r"\b(?:don't|do not|never) consent to (?:"
    + SUBJECT
    + r" (?:being |getting )"
    + DONE_OR_ASKED
    + r"|you (?:"
    + MEMORY_ING
    + "|"
    + KEEP_ING
    + r"))",
    # "Don't carry this over to next time", "don't take it with you into future chats", "don't let
    # this shape what you know about me".
    OPENING
    + NOT_ANY
    + r"(?:carry|bring|take) "
    + SUBJECT
    + r" (?:over |along |forward |with you )?(?:to|into|in|onto) (?:"
    + LATER_CHATS
    + r"|next time\b|the next (?:time|chat|conversation|session)\b)",
    OPENING + NOT_ANY + r"let " + SUBJECT + r" (?:influence|affect|shape|change|colou?r) " + PLACE,
    # "Would you be so kind as not to remember this?"
    r"\b(?:so kind as|kind enough|good enough) (?:not to|to not) " + ANY_VERB,
    # "Nothing I say in this message goes into memory" / "nothing from this msg in your memory".
    r"\bnothing i (?:say|tell you|write|share|type)(?: here| now| today| in this (?:message|chat|conversation"
    r"|session))? (?:should |will |can |must )?(?:goes|go|gets|get|ends up|end up) (?:in|into|to|on) " + PLACE,
    r"\bnothing (?:from|in|of) (?:this|my) (?:message|chat|conversation|session)"
    r" (?:(?:should |will |can |must )?(?:goes|go|gets|get|ends up|end up) )?(?:in|into|to|on) " + PLACE,
    r"\bnothing (?:from|of|in) (?:this|our|today's) (?:chat|conversation|message|session|exchange) "
    r"(?:sticks|stays|lingers|is kept|gets kept)\b",
    # "Not something I want on file", "not anything I need in your memory".
    r"(?:(?:^|[.!?;:,\-\u2013\u2014]\s*|\b(?:this|that|it)(?:'s| is)\s+)not|\b(?:this|that|it) isn't) "
    r"(?:something|anything) i (?:want|need|'d like|would like) (?:kept |saved |stored )?(?:on file|on record|in "
    + PLACE
    + ")",
    # "Without keeping any record of it" / "without wanting it saved" / "without you keeping it:".
    r"(?:^|[.!?;:,\-\u2013\u2014]\s*)without (?:you )?(?:keeping|making) (?:a |any )?(?:records?|notes?|logs?) of "
    r"(?:it|this|that)\b",
    r"\bwithout (?:wanting|having) (?:it|this|that|any of (?:this|that|it)) (?:to be )?" + DONE_OR_ASKED,
    r"\bwithout you keeping (?:it|this|that|any of (?:this|that|it))(?=\s*(?:[?.!;:,\-\u2013\u2014]|$))",
    r"\b(?:chat|discuss|rant)\w*\b[^.!?;]{0,40}?\bwithout (?:it|this|that) (?:being|getting) " + DONE_OR_ASKED,
    # "I'd like it forgotten once we're done" / "you can forget this as soon as you've answered" /
    # "would you mind forgetting this convo?".
    r"\b(?:want|'d like|would like|need) (?:this|it|all of this) forgotten"
    r"(?=\s*(?:[.!;,:]|$)| (?:once|when|after|as soon as)\b)",
    r"\byou (?:can|could|may|should)(?: just)? forget (?:this|all of this)"
    r"(?: (?:message|conversation|chat|exchange))? (?:as soon as|once|when|after)\b",
    r"\b(?:would|do|will) you mind forgetting (?:this|all of this)\b",
    OPENING + r"(?:delete|erase|discard|wipe|drop|forget) (?:this|all of this|this (?:message|conversation|chat))"
    r" (?:after|once) (?:answering|replying|responding|you(?:'ve| have) (?:answered|replied|responded))\b",
    # "MEMORY: NO." / "memory - off": a label, like "no memory."
    r"^memory\s*[:=\-\u2013\u2014]\s*(?:no|off|none|disabled)(?=\s*(?:[.!,;:\-\u2013\u2014]|$))",
    # "... and not for your memory": the label after a conjunction.
    r"\b(?:and|but) not for (?:your (?:memory|notes|profile|records?)|(?:the )?memory)\b",
    # "I'd like this kept out of your memory of me" / "I'd rather this didn't become part of your memory".
    r"\b" + SUBJECT + r" (?:kept|left) (?:out of|off) " + PLACE,
    r"\b(?:rather|prefer(?: it)?(?: if)?) "
    + SUBJECT
    + r" (?:didn't|did not|doesn't|does not|wasn't|won't|not) (?:become|go into|end up in|get into|make it into) "
    r"(?:part of )?" + PLACE,
    # "I know you have memory but please switch it off for this one" / "no profile updates from this".
    r"\bmemory\b[^.!?]{0,60}\b(?:switch|turn) it off (?:for|on|in) (?:this|that)\b",
    OPENING + r"no (?:profile|memory) (?:updates?|changes?|entries|notes) (?:from|for|based on|about) "
    r"(?:this|it|that)(?: (?:one|message|chat|conversation))?" + CLOSED,
    # The eleventh set's forms (tests/facts/test_consent_eleventh_fixes.py).
    # A label before what follows: "Private thought, not for storage: ...", "Incognito question, ...".
    # ("Use the shed for tools, not for storage." ends there: no colon, no label.)
    r"(?:^|[.!?;:,]\s*)not for (?:storage|storing|saving|keeping|keeps|memory|remembering)\s*[:\u2013\u2014]",
    r"(?:^|[.!?;]\s*)(?:incognito|ephemeral) (?:question|request|message|query|ask)"
    r"\s*[:,\-\u2013\u2014]",
    # "no saving pls", "No storing, thanks.": the label as the whole message.
    r"^(?:(?:ok|okay|and|but|so|hey),?\s+)?no (?:saving|storing|remembering|logging|recording|keeping)"
    r"(?:,? (?:please|pls|plz|thanks|thx|ok|okay))?\s*[.!]*$",
    # "Use this only for now and then discard it": kept for the answer, then let go.
    r"\buse (?:this|it|that|these details|this info(?:rmation)?) (?:only )?for (?:now|this (?:answer|reply|question"
    r"|request|chat|conversation))(?: only)?,? (?:and )?then (?:discard|forget|delete|erase|drop|bin|wipe|lose) "
    r"(?:it|this|them)\b",
    # "For this request, switch off memory": the label before the switch.
    r"(?:^|[.!?;]\s*)(?:just )?for this (?:one|message|request|question|chat|conversation|turn|bit|part|session),?"
    r" (?:please )?(?:(?:switch|turn) (?:off (?:your |the )?memory|(?:your |the )?memory off)"
    r"|(?:pause|disable|suspend) (?:your |the )?memory|no memory|memory off)\b" + NOT_A_THING,
    # "Don't profile me on this": the person profiled from this message (not "based on my accent").
    OPENING + NOT_ANY + r"profile me (?:on|from|based on|using|with|over) (?:this|that|it|any of (?:this|that|it))\b",
    # "this is confidential dont remember": a privacy word, then the verb closing the message unpunctuated.
    r"\b(?:confidential|private|personal|secret|sensitive|between us),? (?:so )?(?:please |pls )?(?:don't|do not)"
    r" (?:remember|save|store|keep)(?: (?:it|this|that))?(?: (?:please|pls|ok|okay|thanks))?\s*[.!]*$",
    # "One of those don't-remember-this things": the request made a hyphenated label.
    r"\b(?:don't|do-not|dont)-(?:remember|save|store|keep|record|memori[sz]e)-(?:this|it|me)\b",
    # "Answer me but let it vanish from memory afterwards".
    OPENING + r"let (?:it|this|that|all of (?:it|this)) (?:vanish|disappear|fade|evaporate|slip|drop) "
    r"(?:from|out of) (?:your |the )?(?:memory|memories|notes)\b",
    # "Mentally shred this after you answer": (not "shred this after you read it", paper).
    OPENING + r"mentally (?:shred|burn|bin|trash|delete|erase|wipe|toss|discard) (?:this|all of this|it)\b",
    # The twelfth and thirteenth sets' forms. A label opening the message, in brackets, as a
    # hashtag, a slash command or a "NO MEMORY:" prefix ("[off the record] ...", "#nomemory ...").
    # (The fourteenth set's: "[private]", "<ephemeral>", "[no-memory]", "NOMEM:", "Tag: do-not-store.")
    r"^[\[(<][^\])>]{0,40}?\b(?:off the record|not for (?:memory|saving)|(?:do not|don't) (?:save|store|remember|keep)"
    r"|no (?:memory|saving|storing)|incognito|ephemeral|no-?mem(?:ory)?|nomem"
    r"|(?:do-not|dont|don't)-(?:save|store|remember|keep))\b[^\])>]{0,40}[\])>]"
    r"|^[\[(<]\s*private\s*[\])>](?!\s*(?:or|and|vs|versus)\b)",
    r"(?:^|\s)[#/](?:nomemory|nomem|nosave|nostore|norecord|offtherecord|dontsave|dontremember|incognito)\b",
    r"^no (?:memory|saving|storing|remembering)\s*:"
    r"|^(?:tag:\s*)?(?:no-?mem(?:ory)?|nomem|(?:do-not|dont|don't)-(?:save|store|remember|keep))\s*[:.]",
    # A condition on the answer: "as long as you don't store it", "only answer if this won't be saved".
    r"\bas long as you (?:don't|do not|won't|will not) (?:store|save|remember|keep|record)\b",
    r"\bonly (?:answer|reply|respond|help) if (?:this|it) (?:won't|will not) be "
    r"(?:added|saved|stored|kept|remembered)\b",
    # "Incognito mode please", "can we do this one incognito?".
    r"\bincognito mode,? please\b|\b(?:do|keep|make) this (?:one )?incognito\b",
    # Metaphors for not keeping: said in disappearing ink, whispered and not written down, unsaid.
    r"\bdisappearing ink\b|\bwhisper you (?:don't|do not|won't) write down\b|\bmemory-free zone\b"
    r"|\b(?:this|it) (?:goes|should go|can go) in one ear and out the other\b|\bconsider (?:this|it) unsaid\b",
    # Terse chat: "no mem pls", "don't save pls", "off the record pls", the whole message.
    r"^(?:no mem(?:ory)?|off the record|(?:don't|do not) (?:save|store|remember|keep)(?: (?:this|it))?),? please"
    r"(?:,? (?:ty|thanks|thx))?\s*[.!]*$",
    # Not to shape a profile: "don't personalize anything based on this", "don't let this shape
    # future recommendations"; "temporary info only, do not persist".
    r"\b(?:don't|do not) personali[sz]e (?:anything|this|it)\b",
    r"\b(?:don't|do not) let (?:this|it|that) (?:shape|influence|affect|change) (?:(?:my|your|future) ){0,2}"
    r"(?:recommendations|suggestions|profile)\b",
    r"\b(?:don't|do not) persist(?: (?:this|it|that))?(?=\s*(?:[:.,!;\-\u2013\u2014]|$))",  # not "to disk"
]

WISH_RE = Patterns(WISH_PATTERNS)
