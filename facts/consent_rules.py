"""The requests not to be remembered, as regular expressions made of facts/consent_words.py's
pieces: the ways of asking to withhold this message (the ways of asking to forget the previous
one are facts/consent_forget.py's; facts/consent.py reads a message with both; docs/design.md §13).
"""

from __future__ import annotations

from core.lazy_re import Patterns
from facts.consent_words import (
    ANY_ING,
    ANY_VERB,
    BETWEEN_US,
    CLAUSE_END,
    CLAUSE_OPENING,
    DONE,
    DONE_TALKING,
    FROM_HERE,
    IN_MEMORY,
    KEEP_DONE,
    KEEP_ING,
    KEEP_OBJECT,
    KEEP_VERB,
    LATER_CHATS,
    LEARN,
    MEMORY_DONE,
    MEMORY_ING,
    MEMORY_PLACE,
    MEMORY_VERB,
    NEGATED_BE,
    NEXT_WORDS,
    NOT,
    NOT_ANY,
    OPENING,
    PLACE,
    POINTING,
    RECORD_OF,
    SOFTENER,
    SUBJECT,
    THIS_CHAT,
    TIE,
    WHAT_I_WILL_SAY,
)

WITHHOLD_PATTERNS = [
    # Don't remember this / do not memorise my address / for this message only: do not remember.
    OPENING + NOT + MEMORY_VERB,
    # Don't save that / don't keep this in memory / don't write it down / don't put this in my profile.
    OPENING + NOT + KEEP_OBJECT,
    OPENING + NOT + r"(?:save|store|log|record)" + CLAUSE_END,
    OPENING + NOT_ANY + r"(?:save|store|keep|record|log|retain|persist)\b" + FROM_HERE,
    # You must not remember this / no need to keep any of it / make sure not to save this.
    OPENING + NOT_ANY + ANY_VERB,
    # There's no need to save this to memory.
    r"\bthere(?:'s| is) no need (?:for you )?to " + ANY_VERB,
    # Kindly refrain from remembering this / avoid saving any of this / skip storing this.
    # ("Tell my keyboard to stop remembering words", "make it stop": someone else's to do; "I want
    # you to stop" is not.)
    r"(?:(?<!\bto )(?<!\bit )(?<!\bthem )|(?<=\byou to ))\b(?:refrain from|avoid|stop|skip|hold off(?: on)?) "
    + ANY_ING,
    # I'd rather this not be saved / this shouldn't be remembered / this doesn't need to be stored.
    r"\b" + SUBJECT + r"\s+" + NEGATED_BE + DONE,
    # One-time thing, not to be kept: ...
    r"(?:^|[.!?;:,\-\u2013\u2014]\s*)not to be " + DONE,
    # "Strictly between us, and not to be remembered: ..." (not "remembered as/for": how, not whether).
    r"(?:^|[.!?;:,\-\u2013\u2014]\s*)(?:and|but) not to be (?:"
    + MEMORY_DONE
    + r"(?! (?:as|for|by)\b)|"
    + KEEP_DONE
    + r"\s*[:\u2013\u2014])",
    # "This can't be saved: ...": "can't"/"won't" only before a colon or with the memory named ("the
    # file can't be saved, it's corrupt" is about a file), or "by you".
    r"\b"
    + SUBJECT
    + r"\s+(?:can't|cannot|can not|won't|will not)\s+(?:be|get)\s+(?:(?:"
    + MEMORY_DONE
    + "|"
    + KEEP_DONE
    + r")(?:\s*[:\u2013\u2014]|\s+by you\b)|"
    + KEEP_DONE
    + r"\s*[:\u2013\u2014]|"
    + KEEP_DONE
    + IN_MEMORY
    + ")",
    # Nothing from this message should be saved / none of this should be stored.
    r"\b(?:nothing (?:(?:from|in|of) (?:this|that|my) (?:message|chat|conversation|session)\s+"
    r"|i (?:say|tell you|write|share)"
    r"(?: here| now| next| today| from now on| in this (?:chat|conversation|session))?\s+)"
    r"|none of (?:this|that|it)\s+)"
    r"(?:should|must|can|may|is to|needs to|ought to)\s+(?:be|get)\s+" + DONE,
    # Nothing should be remembered / nothing from today should go into your memory.
    r"\bnothing(?: (?:from|of|in) (?:this|that|today|here|my)(?: \w+)?| here| today)? "
    r"(?:(?:should|must|can|may|is to|needs to|ought to)"
    r" (?:be|get) "
    + MEMORY_DONE
    + "|(?:should|must|can|may|is to|needs to|ought to) (?:be|get) (?:"
    + KEEP_DONE
    + "|added|put|entered|included|copied|uploaded)"
    + IN_MEMORY
    + r"|(?:(?:should|must|can|will|may) )?(?:go|goes|end up|ends up|get|gets|make it|makes it) (?:in|into|to|on|onto) "
    + PLACE
    + ")",
    # Keep no record of this.
    OPENING + r"(?:keep|make|take) no (?:records?|notes?|logs?|memor(?:y|ies)|cop(?:y|ies)) (?:of|on|about)\b"
    r"(?! (?:your|his|her|their|our)\b)",
    # This should be forgotten after our chat / I want this forgotten.
    r"\b(?:this|it|all of this)\s+(?:should|must|needs to|has to|can) be forgotten\s+(?:after (?:our|this|the) "
    r"(?:chat|conversation|session)|once (?:we're|we are|you're|you are) (?:done|finished|through)"
    + DONE_TALKING
    + r"|when (?:we're|we are|you're|you are) (?:done|finished|through)"
    + DONE_TALKING
    + r""
    r"|afterwards|by you)\b",
    r"\bwant (?:this|it|all of this) forgotten(?:\s*(?:[.!;,]|$)| by you\b)",
    # Promise me you won't remember this / promise not to remember it.
    r"\bpromise(?: me)? (?:(?:that )?you(?:'ll| will)? (?:not|never)|(?:that )?you won't|not to|to not|never to) "
    + ANY_VERB,
    # Make sure none of this gets logged to my memory / make sure this doesn't get saved.
    r"\b(?:make sure|ensure|see (?:to it )?that|be sure)\s+(?:that\s+)?(?:none of (?:this|that|it)\s+"
    r"(?:gets?|is|are|will be|will get|ever gets?)|(?:this|that|it|any of (?:this|that|it))\s+"
    r"(?:doesn't|does not|won't|will not|never|isn't|is not|can't|cannot)\s+(?:gets?|be|ever)?)\s*" + DONE,
    # I'd prefer it wasn't kept / I'd rather not have this remembered.
    r"\b(?:rather|prefer|prefer it|like it|want|appreciate it"
    r"|(?:be )?(?:better|great|best|nicer|happier|glad|grateful))"
    r"\s+(?:if\s+|that\s+)?" + SUBJECT + r"\s+"
    r"(?:wasn't|weren't|isn't|was not|were not|is not|didn't get|did not get|doesn't get|does not get)\s+"
    r"(?:be\s+|get\s+)?" + DONE,
    r"\bnot (?:have|having) " + SUBJECT + r"\s+" + DONE,
    # Keep this out of your memory / leave it off my profile / can this stay out of your memory?
    r"\b(?:keep|leave) " + SUBJECT + r" (?:out of|off) " + PLACE,
    r"\b(?:stay|stays|remain|remains|be kept|be left) (?:out of|off) " + PLACE,
    r"\b(?:exclude|omit) (?:this|that|it)(?: \w+)? from " + PLACE,
    # This shouldn't go into your memory / don't let this end up in my profile.
    r"(?:\b(?:this|that|it)\s+(?:(?:should|must|can|does|did|will|would)(?:n't| not)|won't|never) (?:go|end up|get)"
    r"|\bnone of (?:this|that|it) (?:(?:should|must|will|can) )?(?:goes|go|ends up|end up|gets|get))"
    r" (?:in|into|to|on|onto) " + PLACE,
    OPENING
    + NOT_ANY
    + r"let "
    + SUBJECT
    + r"\s+(?:(?:go|end up|get|make it|stick|stay|remain|live|sit) (?:in|into|to|on|onto) "
    + PLACE
    + r"|(?:be|get)\s+"
    + DONE
    + ")",
    # Don't let this influence future conversations.
    OPENING
    + NOT_ANY
    + r"let "
    + SUBJECT
    + r" (?:influence|affect|shape|carry over (?:to|into)|follow me (?:to|into)|show up in|come up in) "
    + LATER_CHATS,
    # Delete this after you answer / discard this once we're done.
    OPENING + r"(?:delete|erase|discard|wipe|drop|forget(?: about)?) "
    r"(?:this|all of this|this (?:message|info|information|conversation|chat)) (?:afterwards\b"
    r"|after (?:you(?:'ve| have)? (?:answer|repl|respond|read)|we(?:'re| are) (?:done|finished|through)"
    + DONE_TALKING
    + r"|this\b)"
    r"|once (?:you(?:'ve| have)? (?:answer|repl|respond|read)|we(?:'re| are) (?:done|finished|through)"
    + DONE_TALKING
    + r")"
    r"|when (?:you(?:'re| are)|we(?:'re| are)) (?:done|finished|through))",
    # Don't update my profile with this / don't make this part of your memory / don't use it for memory.
    OPENING + NOT_ANY + r"(?:update|change|edit) " + PLACE + r" (?:with|based on|from|using) " + POINTING,
    OPENING + NOT_ANY + r"(?:make|use) " + SUBJECT + r" (?:a )?(?:part of|for|to update) " + PLACE,
    OPENING + NOT_ANY + r"make " + SUBJECT + r" (?:a |into a )?(?:permanent |long-term |lasting )?memory\b",
    # Use this for this answer only (and then forget it).
    r"\buse (?:this|it|that|these details|this info(?:rmation)?) (?:only )?for this "
    r"(?:answer|reply|question|request|task|conversation|chat|session|message) only\b"
    r"|\buse (?:this|it|that|these details|this info(?:rmation)?) only for this "
    r"(?:answer|reply|question|request|task|conversation|chat|session|message)\b",
    # Can you not remember this? / could you not save that? / is there a way you can not keep this?
    r"\b(?:(?:can|could|would|will) you|(?:can|could|shall) we) (?:like,? |maybe |perhaps |possibly )?"
    + SOFTENER
    + "not "
    + ANY_VERB,
    # (Asked, not stated: "it's ok if you don't remember this detail" gives leave, it asks nothing.)
    r"^(?:is there (?:a|any|some) way (?:for you |you can |you could )|(?:is it|would it be) possible for you )"
    r"(?:to )?(?:not|never) (?:to )?" + ANY_VERB,
    # "Would it be possible not to store this?": without "for you", only this message as the object
    # ("is it possible not to remember your dreams?" asks about people).
    r"^(?:is it|would it be|will it be|is it at all) possible (?:to )?(?:not|never) (?:to )?"
    r"(?:remember|memori[sz]e|retain|save|store|keep|record|log) (?:this|that|it|any of (?:this|that|it))"
    r"(?: (?:message|conversation|chat|one))?(?=\s*(?:[?.!,;:\-\u2013\u2014]|$)|\s+(?:please|pls|anywhere)\b)",
    r"^is it (?:possible|ok|okay|alright|fine) (?:if|that) you (?:don't|do not|didn't|did not|won't|never) " + ANY_VERB,
    # Would you mind not remembering this? / do you mind not saving this?
    r"\b(?:mind|appreciate (?:you|your)) not " + ANY_ING,
    # Please, no remembering this one.
    OPENING + r"no (?:" + MEMORY_ING + "|" + KEEP_ING + r"\s+" + POINTING + ")",
    # I'd rather you didn't remember this / I'd prefer you not save it / I need you to not keep this.
    r"\b(?:rather|prefer(?: it)? if|prefer that|prefer|appreciate it if|be (?:better|great|good|nice|best) if"
    r"|(?:grateful|thankful|happier|glad) if"
    r"|like it if|love it if) you "
    r"(?:didn't|did not|don't|do not|wouldn't|would not|won't|never|not|to not|not to) " + ANY_VERB,
    r"\b(?:(?:i'm|i am) (?:asking|begging) you|i (?:ask|beg) you|(?:want|need|like) you) (?:not to|to not|never to) "
    + ANY_VERB,
    # I don't want you to remember this / I don't want this remembered / ... this in my profile.
    # I don't want my health stuff in your memory.
    r"\b(?:don't|do not) want (?:my|any|these|those|the)(?: [\w']+){1,4} (?:in|on|added to|going into|to go into"
    r"|ending up in|(?:to be |to become )?part of) " + PLACE,
    r"\b(?:don't|do not) want (?:you to " + ANY_VERB + "|you " + ANY_ING + "|" + SUBJECT + r" (?:to be )?"
    r"(?:"
    + DONE
    + "|(?:in|on|added to|going into|to go into|ending up in|(?:to be |to become )?part of) "
    + PLACE
    + "))",
    # Not something you should remember / this is not something you should keep in memory.
    r"(?:(?:^|[.!?;:,\-\u2013\u2014]\s*|\b(?:this|that|it)(?:'s| is)\s+)not|\b(?:this|that|it) isn't) "
    r"(?:something|anything|a thing) "
    r"(?:(?:(?:(?:that )?you|for you to) (?:should|must|ought to)"
    r"|(?:that )?i(?: want| need|'d like| would like) you to) (?:" + MEMORY_VERB + "|" + KEEP_VERB + IN_MEMORY + ")"
    # "Not something I want you to keep: ...": the keeping verb closing its clause.
    r"|(?:(?:(?:that )?you|for you to) (?:should|must|ought to)|(?:that )?i(?: want| need|'d like| would like) you to)"
    r" (?:keep|save|store|record|log)(?=\s*(?:[:,.!\-\u2013\u2014]|$))"
    r"|to (?:store|save|keep|record|log)(?=\s*(?:[:,.!\-\u2013\u2014]|$)))",
    # This is not for your memory.
    r"\b(?:this|that|it)(?:'s not| is not| isn't) for (?:your (?:memory|notes|profile|records?)|(?:the )?memory)\b",
    # Ignore this for memory purposes.
    r"\b(?:ignore|skip|disregard) " + SUBJECT + r" (?:for|when it comes to|as far as) "
    r"(?:your |my |the )?(?:long-term )?(?:memory|memories|notes|profile)\b",
    # Please forget this / forget this conversation happened ("forget it" is "never mind").
    OPENING + r"forget (?:this|all of this)\b",
    r"\b(?:rather|prefer(?: it)? if|want|need|like) you (?:to )?(?:forget|forgot) (?:this|all of this)\b",
    # Erase this from your memory once we're done (what is said now, not before).
    OPENING + r"(?:erase|delete|remove|wipe|drop|clear|purge|scrub) (?:this|all of this|any of this)(?: \w+){0,2} "
    r"(?:from|out of) (?:" + MEMORY_PLACE + ")",
    # Don't learn anything about me from this.
    OPENING + NOT + "(?:" + RECORD_OF + "|" + LEARN + "|" + TIE + ")",
    # Forget we ever had this conversation / forget you heard this / forget what I say here.
    OPENING + r"forget (?:that )?(?:we (?:ever |even )?(?:had|have had) this (?:conversation|chat|talk|exchange)"
    r"|you (?:ever |even )?(?:heard|read|saw) (?:this|that|it|any of (?:this|that|it))"
    r"|" + WHAT_I_WILL_SAY + r"|(?:what|everything|anything) i (?:say|tell you|share)"
    r" (?:here|now|next|in this (?:chat|conversation|message)))\b",
    # Keep this between us / this stays between you and me / what I'm about to say stays in this chat.
    r"(?:"
    + OPENING
    + r"|\blet(?:'s| us) |\b(?:can|could|shall) we |\bwe (?:should|must|can) |\bi (?:want|need|'d like) to )"
    r"keep (?:this|that|it|all of this|what (?:i'm|i am) about to (?:say|tell you)) " + BETWEEN_US,
    # (At a clause opening: "she said this stays between us" reports someone else's wish.)
    CLAUSE_OPENING
    + NEXT_WORDS
    + r"\s+(?:(?:should|must|will|can|has to|needs to)\s+)?(?:stays?|remains?|is) "
    + BETWEEN_US,
    CLAUSE_OPENING + r"it\s+(?:(?:should|must|will|can|has to|needs to)\s+)?(?:stays?|remains?) " + BETWEEN_US,
    CLAUSE_OPENING
    + NEXT_WORDS
    + r"\s+(?:(?:should|must|will|can|has to|needs to)\s+)?(?:stays?|remains?) "
    + THIS_CHAT,
    # I'm telling you this in confidence.
    r"\b(?:tell(?:ing)? you|shar(?:e|ing)) (?:this|that|it)(?: with you)? in (?:strict |strictest |complete |total )?"
    r"confidence\b",
    # Off the record: ... / strictly off the record, ... / this is off the record.
    r"(?:^|[.!?;]\s*)(?:(?:strictly|completely|totally|purely|just|all of this)\s+)?"
    r"off the record\s*[:,\-\u2013\u2014]",
    # Strictly between us: ... (a colon or dash: "between you and me, the film was bad" is a manner of speaking).
    r"(?:^|[.!?;]\s*)(?:(?:strictly|just|only|purely) )?between (?:us|you and me|the two of us|ourselves)"
    r"\s*[:\-\u2013\u2014]",
    # This is off the record / treat this as off the record / all of this stays strictly off the record.
    r"\b(?:this|that|it|what follows|all of this|the following|the rest)\b"
    r"(?:(?!\bnot\b)[^.!?;]){0,25}\boff the record\b",
    r"\b(?:go|keep (?:this|it|that|all of this)) off the record\b",
    r"\btell(?:ing)? you (?:this|that) off the record\b",
    r"(?:^|[.!?;:,]\s*)not for (?:the record|(?:your |the )?memory|your (?:notes|profile|records?))\b",
    # "This one's not for your notebook", "not for the memory bank": any of the assistant's keeping places.
    # (Not after a comma: "for the fridge, not for your notebook" sets two things apart.)
    r"(?:(?:^|[.!?;:]\s*)|\b" + SUBJECT + r"(?: one)?(?:'s| is) )not for (?:your|the) (?:memory bank|notebook|notes"
    r"|logs?|files?|records?|database|diary|archives?)\b",
    # No memory for this one / memory off for this message.
    # Incognito for this one / memory off for this message / no memories from this chat / turn memory off for this.
    r"\b(?:(?:no|zero) memor(?:y|ies)|memory off"
    r"|(?:switch|turn) (?:off (?:your |the )?memory|(?:your |the )?memory off)"
    r"|(?:pause|disable|suspend|mute) (?:your |the )?memory"
    r"|incognito(?: mode)?|private mode)(?: please)? (?:for|on|from|in) (?:this|that)"
    r"(?: (?:one|message|chat|conversation|turn|question|bit|part|session))?"
    r"(?=\s*(?:[.!,:;\-\u2013\u2014]|(?:please|thanks|thx|ok|okay)\b|$))",
    # "No memory." / "NO MEMORY. NONE." / "This is a no-memory question": "no memory" as a label.
    r"^(?:(?:please|ok|okay|and|but|so|hey),?\s+){0,2}(?:no|zero) memor(?:y|ies)(?: (?:please|thanks|thx|ok|okay))?"
    r"\s*[.!]*$",
    r"\bno-memory (?:question|message|chat|conversation|one|request|thing|turn|session|mode)\b",
    # Keep this one unsaved / consider this exchange unrecorded.
    r"(?:"
    + OPENING
    + r"|\blet(?:'s| us) )(?:keep|leave|consider|treat|mark) (?:"
    + SUBJECT
    + r"|this (?:exchange|thread|question))"
    r" (?:as )?(?:unsaved|unrecorded|unlogged|unstored|unremembered)\b",
    # Can I ask you something without it being kept? / can we do this without you remembering it?
    r"\b(?:ask|tell|show|share|say|talk|mention|confide|vent)\w*\b[^.!?;]{0,40}?"
    r"\bwithout (?:it|this|that|any of (?:this|that|it))"
    r" (?:being|getting) (?:"
    + MEMORY_DONE
    + "|"
    + KEEP_DONE
    + r"(?=\s*(?:[?.!;:,\-\u2013\u2014]|$))|"
    + KEEP_DONE
    + IN_MEMORY
    + ")",
    r"\bwithout you (?:"
    + MEMORY_ING
    + r"|saving|storing|recording|logging) (?:it|this|that|any of (?:this|that|it))\b",
    # Treat this like a temporary chat (the assistants' name for a chat kept nowhere) / keep nothing.
    r"\b(?:treat|consider|use|make) (?:this|it|"
    + SUBJECT
    + r") (?:like|as) (?:a |an )?(?:temporary|incognito|ephemeral"
    r"|throwaway|private) (?:chat|conversation|session)\b",
    r"(?:^|[.!?;:]\s*)(?:temporary|incognito) (?:chat|mode)\s*(?:please\s*)?[:,.!\-\u2013\u2014]",
    OPENING + r"(?:keep|save|store|remember|retain|record|log) nothing(?=\s*(?:[.!;,\-\u2013\u2014]|$)"
    r"| (?:from|of) (?:this|it|that)\b| about (?:this|me)\b)",
    # "Treat this chat as if it never happened", "treat this message as ephemeral".
    OPENING + r"(?:treat|consider) this(?: (?:one|message|chat|conversation|exchange|session|thread))? "
    r"(?:as (?:if|though) (?:it|this|we|i) (?:never|didn't|did not)"
    r" (?:happen(?:ed)?|exist(?:ed)?|talk(?:ed)?|sa(?:id|y) it)"
    r"|as (?:ephemeral|temporary|unsaved|unrecorded|off the record|incognito)(?=\s*(?:[.!,;:\-\u2013\u2014]|$)))",
    # "Pretend you didn't hear this, but ...": this message, not the one before.
    OPENING + r"pretend (?:that )?you (?:never|didn't|did not) (?:hear|read|see) (?:this|any of this|what follows)"
    r"(?=\s*(?:[.!,;:\-\u2013\u2014]|$)|\s+(?:but|please|ok|okay)\b)",
    # "Forget I ever said this": said in this message.
    OPENING + r"forget (?:that )?i (?:ever |even )?(?:said|told you|mentioned|wrote|typed) this\b",
    # "Answer without saving anything from this message", "without saving any of it: ...".
    OPENING + r"(?:answer|reply|respond|help(?: me)?|tell me)\b[^.!?;]{0,30}?\bwithout (?:saving|storing|keeping"
    r"|recording|logging|remembering) (?:anything|any of (?:it|this|that)|it|this)\b"
    r"(?!\s+(?:to|in|into|on) (?:the|a|my) (?!memory|profile|notes))",
    r"(?:^|[.!?;]\s*)without (?:you )?(?:saving|storing|keeping|recording|logging|remembering) (?:anything|any of"
    r" (?:it|this|that)|it|this)\s*[:\u2013\u2014]",
    # "Not in memory, not in notes, nowhere": places listed and refused.
    r"(?:^|[.!?;:,\-\u2013\u2014]\s*)not in (?:your |the )?(?:memory|notes|profile|records?|logs?)\s*[,;]\s*"
    r"(?:and )?(?:not|nowhere)\b",
    # "Off the books and out of your memory", "keep this off the books memory-wise".
    r"\boff the books,? (?:memory-wise|memorywise|as far as (?:your )?memory (?:goes|is concerned)"
    r"|and (?:out of|not in) (?:your |the )?memory)\b",
    # "This is incognito, so ...", "so no saving: ...": labels, like "no memory".
    r"\bthis(?: (?:one|message|chat|conversation))?(?:'s| is) (?:in )?incognito(?: mode)?"
    r"(?=\s*(?:[.!,;:\-\u2013\u2014]|$))",
    OPENING
    + r"no (?:saving|storing|remembering|logging|recording|keeping)(?: (?:please|pls|thanks))?\s*[:\u2013\u2014]",
    # Let's do this one without memory.
    r"\b(?:do|answer|handle|take) (?:this|that|it)(?: one)? without (?:memory|saving it|remembering it)\b",
]

WITHHOLD_RE = Patterns(WITHHOLD_PATTERNS)
