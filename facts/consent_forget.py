"""The requests to forget what the person said before ("forget what I just said", "delete my last
message", "don't keep what I told you about my sister"), as regular expressions made of
facts/consent_words.py's pieces, and the words that point back at what was said: the soft ones
first (a correction after them keeps the new words), then the ones that name the memory or a
keeping verb (facts/consent.py reads a message with them; docs/design.md §13).
"""

from __future__ import annotations

from facts.consent_words import (
    DONE,
    KEEP_ING,
    KEEP_VERB,
    MEMORY_ING,
    MEMORY_PLACE,
    MEMORY_VERB,
    NOT_ANY,
    OPENING,
    PLACE,
    PLACE_VERB,
    SOFTENER,
)

# What the person said before (past tense): "what I just told you", "the stuff I mentioned".
SAID = (
    r"(?:said|told you|typed|wrote|written|mentioned|shared|gave you|sent you|talked about|brought up)\b"
    r"(?! to (?!you\b|(?:my|your) (?:memory|profile|notes)\b))"
)
# ...said here, not written elsewhere ("what I wrote on the whiteboard", "... from the report").
NOT_WRITTEN_ELSEWHERE = (
    r"(?![^.!?;,]{0,40}\b(?:on|in|into|from) (?:the|a|an|my|his|her|their|our|that) "
    r"(?!(?:chat|conversation|message|session|memory|memories|notes|record|last|previous|earlier|past|profile"
    r"|preferences)\b))"
)
WHAT_I_SAID = (
    r"(?:(?:what|everything|all(?: that)?|anything|(?:the|that|those) (?:stuff|thing|things|bit|part)"
    r"|the (?:part|bit) (?:where|when)) (?:that )?"
    # ("Everything I've said so far": the perfect tense too.)
    r"i(?:'ve just | (?:just |have just |had just |already |ever |have )?|'ve )"
    # "the details I just gave you": any thing, when just said.
    r"|(?:the|that|those) (?:[\w']+ ){1,2}?i (?:just |have just |'ve just ))" + SAID + NOT_WRITTEN_ELSEWHERE
)
PREVIOUS = r"(?:last|previous|earlier|prior|preceding)"
PREVIOUS_OBJECT = (
    r"(?:the|my|that) " + PREVIOUS + r" (?:(?:two|three|four|five|few|couple of|\d{1,2}) )?"
    r"(?:things? i (?:said|told you|wrote|mentioned|typed)|message|answer|comment|repl(?:y|ies)|response|turn)"
)
SAID_BEFORE = (
    r"(?:any of )?(?:" + WHAT_I_SAID + "|" + PREVIOUS_OBJECT + "|(?:that|the|my) " + PREVIOUS + r" (?:bit|part)\b)"
)
UNDO_VERB = (
    r"(?:scratch|scrap|strike|erase|delete|remove|wipe|drop|clear|purge|scrub|forget|retract|discard|undo|get rid of)"
)
UNDONE = r"(?:" + WHAT_I_SAID + r"|that|it|them|my|the)(?: [\w']+){0,5}"
# Requests that may be a correction instead ("forget what I said, let's go to Rome"): read
# as one only when no correction follows them (see _correction_follows).
SOFT_FORGET_PATTERNS = [
    # Forget what I just said / forget everything I said in my last message.
    OPENING + r"forget (?:about )?" + WHAT_I_SAID,
    # I'd prefer if you forgot what I just said.
    # ("You forgot what I told you!" is a complaint: "forgot" only after "if"/"rather".)
    r"\b(?:you (?:to|can|could|may|should)(?: just)? forget|(?:if|rather) you (?:just )?forgot) "
    r"(?:what|everything|all(?: that)?) i (?:just )?" + SAID,
    # Forget I said that / forget that I mentioned my ex / forget I ever mentioned it.
    OPENING + r"forget (?:that )?i (?:ever |just |even )?" + SAID + r"(?! this\b)",
    # Forget that last message / can you forget the last thing I said?
    OPENING
    + r"forget (?:about )?(?:everything (?:from|in) |all of )?(?:that|the|my|those|these|her|his|their) "
    + PREVIOUS
    # ("my last four or five messages": a count, or two.)
    + r" (?:(?:two|three|four|five|six|few|couple of|\d{1,2})(?: or (?:two|three|four|five|six|\d{1,2}))? )?"
    r"(?:message|thing|bit|part|sentence|comment|repl(?:y|ies)|response|turn|answer)",
    # Pretend I never said that / pretend you didn't hear that.
    OPENING + r"pretend (?:that )?i (?:never|didn't|did not) (?:say|tell you|mention|type|write|share)\b",
    OPENING + r"pretend i never " + SAID,
    OPENING + r"pretend (?:that )?you (?:never|didn't|did not) (?:hear|read|see) (?:that|it)\b",
    # Delete what I just told you / erase that last bit from your memory / strike that from the record.
    OPENING
    + r"(?:scratch|scrap|strike|erase|delete|remove|wipe|drop|clear|retract|discard|undo|purge|get rid of|lose|ditch"
    r"|bin|trash|toss|dump|throw away|throw out) " + WHAT_I_SAID,
    # Delete my last message / erase that previous message.
    # ("Delete the last two messages in the group chat": messages elsewhere, deleted there.)
    OPENING
    + r"(?:erase|delete|remove|wipe|drop|clear|retract|discard|purge|scrap) "
    + PREVIOUS_OBJECT
    + r"s?\b(?!\s+(?:in|on|at)\s+(?!(?:this|our) (?:chat|conversation)\b|(?:your |the )?memory\b))",
    # "Please forget the bit about my brother": what was said, named by its topic, the person's own.
    OPENING + r"forget (?:about )?(?:the|that) (?:bit|part|stuff|thing|things|details?|story) (?:about|on|regarding)"
    r" (?:my|me|myself)\b",
]
# Requests that name the memory or a keeping verb: no correction reads them away.
FORGET_PREVIOUS_PATTERNS = SOFT_FORGET_PATTERNS + [
    OPENING + UNDO_VERB + " " + UNDONE + r" (?:from|out of) (?:" + MEMORY_PLACE + ")",
    # (Only "out of": "get my address from your memory" asks to recall it.)
    OPENING + r"(?:take|get) " + UNDONE + r" out of (?:" + MEMORY_PLACE + ")",
    # Can you unremember what I told you? / can you un-save it?
    OPENING
    + r"un-?(?:remember|learn|save|store|record|log|memori[sz]e|keep) (?:(?:what|everything|all(?: that)?) i (?:just )?"
    + SAID
    + "|"
    + PREVIOUS_OBJECT
    + ")",
    OPENING + r"un-?(?:save|store|record|log|memori[sz]e|remember|keep) (?:that|it)\b",
    # Don't keep what I just told you / don't remember the stuff I mentioned.
    r"(?:" + OPENING + NOT_ANY + r"|\b(?:can|could|would|will) you " + SOFTENER + r"not |\bstop "
    r"|\bi (?:didn't|did not|don't|do not) want you to )"
    r"(?:"
    + MEMORY_VERB
    + "|"
    + KEEP_VERB
    + "|"
    + PLACE_VERB
    + "|"
    + MEMORY_ING
    + "|"
    + KEEP_ING
    + r")\s+"
    + SAID_BEFORE,
    # I'd like what I just shared about my visa not to be remembered.
    r"\b(?:want|'d like|would like|prefer|rather) (?:that |it if )?"
    + WHAT_I_SAID
    + r"[^.!?;]{0,60}? not (?:to )?be "
    + DONE,
    # "Don't let my previous message end up in your memory."
    OPENING
    + NOT_ANY
    + r"let "
    + SAID_BEFORE
    + r" (?:go|end up|get|make it|stay|stick|live) (?:in|into|to|on|onto) "
    + PLACE,
    # Undo saving my previous message.
    OPENING + r"undo (?:saving|storing|remembering|recording|logging|keeping) (?:that|it|" + SAID_BEFORE + ")",
    # "Undo that memory, the one about my job", "delete that note about my landlord": a memory already
    # kept, named as one.
    OPENING + r"(?:undo|delete|erase|remove|wipe|scrap|drop|clear) (?:that|the|this) (?:last |latest |new )?"
    r"(?:memory(?=\s*(?:[,.!;\-\u2013\u2014]|$)|\s+(?:about|on|of)\b)|(?:memory|note|entry)"
    r"(?= (?:about|on|of) (?:my|me)\b| you (?:made|saved|kept)\b))",
    # The twelfth and thirteenth sets' forms: "unlearn that last bit", "un-remember the number I
    # typed", "forget everything above this line", "#forget last msg", "[delete from memory] ...":
    # verbs and labels that mean undoing a memory and nothing else.
    r"\bunlearn (?:that|this|it|what|everything|the (?:part|bit))\b|\bun-?remember\b",
    r"\bforget (?:everything|all|anything) (?:above|before) this\b"
    # ("Delete everything before this line": a document; "this" must end the clause.)
    r"|\b(?:erase|delete|wipe|clear|purge|scrub|remove|drop) (?:everything|all|anything) (?:before|prior to) this"
    r"(?=\s*(?:[,.!;:?]|please|pls|thanks|$))",
    r"(?:^|\s)#forget\b|^[\[(<](?:delete|erase|remove|forget) (?:from|in) (?:your |the )?memory[\])>]",
    # "Delete that from your memory", "remove my last message from your memory".
    r"\b(?:delete|remove|erase|wipe) (?:that|my (?:last|previous) message) from (?:your )?memory\b",
    # "If that bit made it into your memory, take it out": a memory already kept, to be undone.
    r"\bmade it into your (?:memory|notes)\b[^.!?]{0,30}\btake (?:it|that) out\b",
    # "Forget the name of my therapist that I just mentioned": what was just said, named (not "the
    # restaurant I mentioned earlier", a correction's usual words).
    r"\bforget (?:the|my) [^.,;!?]{1,60}? (?:that |which )?i just "
    r"(?:mentioned|typed|gave you|told you|sent you|shared)\b",
]
