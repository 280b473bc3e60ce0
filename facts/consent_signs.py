"""The signs around a consent request (facts/consent.py reads them): whether it points back at
what was said before or at this message, whether "forget it" is a request, and whether a
correction follows that should be kept (docs/design.md §13).
"""

from __future__ import annotations

import re

from facts.consent_forget import PREVIOUS, WHAT_I_SAID
from facts.consent_words import SOFTENER

# A message that points back at what was said before: with a withholding request about "it"
# or "that" (not "this", not what follows), it asks to forget the previous turn.
BACKWARD = re.compile(
    r"\b" + WHAT_I_SAID + r"|\b(?:my|that|the) " + PREVIOUS + r" (?:message|answer|reply|response|comment|turn|bit|part"
    r"|sentence|statement|entry|input|text|post|thing i (?:said|wrote|typed|sent|mentioned|told you))\b"
    r"|\b(?:my|that) " + PREVIOUS + r" one\b"
    # "The message I sent before this one", "what I wrote before this".
    r"|\b(?:the|that|my) (?:message|text|thing|bit|part) i (?:just )?(?:sent|wrote|typed|posted)\b"
    r"|\bbefore this (?:one|message)\b"
    # "Forget it and don't store it": "forget it" beside a keeping request asks to drop what was said.
    r"|\bforget (?:about )?(?:it|that),? and (?:please |pls )?(?:don't|do not|never) "
    r"(?:save|store|keep|remember|log|record)\b"
    r"|\bi take (?:that|it) back\b|^(?:\w+[,!.]?\s+)?scratch that\b|\bi overshared\b"
    r"|\bi (?:shouldn't|should not) have (?:said|shared|told you|mentioned|written|typed|sent|posted)\b"
    # ...the "I" dropped in chat: "oops shouldnt have said that".
    r"|(?:^|\b(?:oops|ugh|oh|hmm|damn|dang|argh|welp|whoops|sorry),?\s+)(?:shouldn't|should not) have"
    r" (?:said|shared|told you|mentioned|written|typed|sent|posted)\b"
    r"|\bi (?:didn't|did not) mean to (?:say|share|tell you|mention|send|write|type) (?:that|it)\b"
    r"|\b(?:that|it) was (?:meant|supposed) to be (?:private|off the record|between us)\b"
    r"|\b(?:that|it) was (?:too much information|tmi|too personal|oversharing|an overshare)\b|\bi said too much\b"
    r"|\b(?:earlier|before|previously|a (?:moment|minute) ago),? i (?:said|mentioned|told you|gave you|shared|wrote)\b"
    r"|\b(?:the|that|those) \w+(?: \w+)? i (?:gave you|told you|sent you|shared with you)\b"
    r"|\b(?:the|that|those) (?:[\w']+ ){1,4}?i (?:just |'ve just |have just )(?:mentioned|said|wrote|typed|shared)\b"
    r"|\b(?:a mistake|wrong|stupid|dumb) to (?:share|say|tell you|mention|send|write)\b"
    r"|\bi changed my mind about (?:sharing|saying|telling you|mentioning)\b"
    r"|\bwrong (?:chat|conversation|window|person|thread|tab)\b"
    r"|\bi regret (?:saying|sharing|telling you|mentioning|writing|typing)\b"
    # The fifteenth set's: "pretend I didn't say that", "unsee that", "... from before", "I brought
    # up at the start".
    r"|\bpretend (?:that )?i (?:never|didn't|did not) (?:say|said|tell|mention|type|typed|write|share|send|sent)\b"
    r"|\bunsee (?:that|it)\b|\bfrom (?:before|earlier)(?=\s*(?:[.!,;]|$))"
    r"|\bi brought up (?:at the start|earlier|before|a (?:moment|minute) ago)\b"
    # The sixteenth's: what was said named with when ("I mentioned my diagnosis earlier", "yesterday I
    # told you ..."), taken back or retracted, regretted, a message someone else typed, the chat's start.
    r"|\bi (?:mentioned|told you|said|shared|gave you|wrote)\b[^.!?]{0,40}\b(?:earlier|before|yesterday|last week"
    r"|a (?:minute|moment|while) ago)\b|\b(?:yesterday|last week|last time|the other day|earlier in (?:this|the)"
    r" (?:chat|conversation)),? i (?:mentioned|told you|said|shared|gave you|wrote)\b"
    r"|\btake back what i\b|\bretract(?:ing)? (?:that|it)\b|\bi regret (?:that|it)\b"
    r"|\bat the start of (?:this|the) (?:chat|conversation)\b|\bthat was my \w+ typing\b"
    r"|\b(?:that|it) was (?:way |far |a bit |a little )?too much info(?:rmation)?\b"
    r"|\b(?:shouldn't|should not) have been (?:saved|stored|remembered|recorded|logged|kept)\b"
    r"|\b(?:told you|gave you|sent you|said|mentioned|shared|wrote|typed) "
    r"(?:just now|a (?:moment|minute|second|bit|while) ago|a few (?:minutes|seconds|moments) ago|earlier|before"
    r"|previously)\b"
)
# What a withholding request points at, read in its sentence: this message or what follows.
# ("What I wrote before this", "the message before this one" point back.)
AHEAD = re.compile(
    # ("At the start of this chat" is the chat, what was said before included.)
    r"\b(?<!before )(?<!prior to )(?:this(?! (?:chat|conversation|session|thread)\b)|these|the following|what follows"
    r"|about to|going to|next|here|now on)\b"
)
# "Forget it", "remove that": a request about a pronoun, a request only beside a pointer back.
# ("Forget it, the number I gave you is fine" is "never mind": "forget it" asks only when
# polite or at its clause's end.)
UNDO_PRONOUN = re.compile(
    r"(?:^|[.!?;:,\-\u2013\u2014]\s*|\b(?:and|so|then)\s+)"
    r"(?:(?:please|kindly|just|can you|could you)\s+(?:just\s+)?forget(?: about)? (?:all of )?(?:it|that)\b"
    r"|(?:i'd like|i would like|i want|i need) you to forget (?:it|that)\b"
    r"|forget(?: about)? (?:it|that)(?=\s*(?:[.!;]|$)|,? please\b)"
    r"|"
    + SOFTENER
    + r"(?:can you\s+|could you\s+)?(?:remove|delete|erase|wipe|drop|clear|scrub|purge|discard|get rid of"
    r"|lose|ditch|scrap) (?:it|that|them)\b)"
)

# A correction after the request ("..., let's do Wednesday", "- he's actually coming", "and use
# 555-0199"): the person replaces what they said, and the new words should be kept...
CORRECTION = re.compile(
    r"\b(?:let's|let us|i meant|i mean|instead|correction|make it|change it to|actually"
    r"|use(?! (?:it|that|this)\b)|go with|should be"
    r"|the right|the correct|is wrong|was wrong|typo"
    # The same in Spanish, German, French, Portuguese and Italian (facts/consent_languages.py).
    r"|quer[ií]a decir|quise decir|en realidad|ich meinte|eigentlich|sondern|je voulais dire|je veux dire|en fait"
    r"|plutôt|eu quis dizer|quis dizer|na verdade|aliás|volevo dire|intendevo|anzi|in realtà"
    # ...and Dutch.
    r"|ik bedoelde|ik bedoel|bedoelde ik|in plaats daarvan|ik wilde zeggen)\b"
)
# ...unless they say it was private.
PRIVATE = re.compile(
    r"\b(?:private|personal|shouldn't have|should not have|overshar\w*|sensitive|secret|confidential|embarrass\w*"
    r"|too much|regret\w*|off the record"
    r"|privad[oa]|privat|privé|privée|privat[oa]|personnel|pessoal|persönlich|personale|persoonlijk|gevoelig)\b"
)
