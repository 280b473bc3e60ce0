"""Does the person ask, in their own words, not to be remembered? (issue 37; docs/design.md §13)

A deterministic detector, no model: a turn it flags is withheld before anything is
extracted from it (facts.services.turns), so it must be cheap, explainable and never
send the words anywhere. It reads the user's message only, never the assistant's.

Two requests are told apart:
  - WITHHOLD: "don't remember this", "off the record: ...", "please don't save that";
  - FORGET_PREVIOUS: "forget what I just said", "forget I said that", "strike that from
    the record": this turn is withheld and what the previous turn of the session stored
    is forgotten. A request that points back ("my previous message", "what I told you",
    "I take that back", "I shouldn't have shared that") is this kind even when its verb is
    a withholding one ("don't keep it"); one that points at this message or what follows
    stays WITHHOLD, the cheaper mistake (reading a withhold as "forget the previous turn"
    would delete what the person said before).

What keeps it precise (tests/facts/test_consent_detector.py measures it):
  - a request is an imperative to the assistant: the verb opens a clause ("Don't save
    that", "..., and don't remember it") or follows "can/could/would you", "make sure you";
    "I don't remember where I parked" has a subject and is not one;
  - verbs that mean memory for nothing else ("remember", "memorise") take any object;
    verbs with everyday meanings ("save", "store", "keep", "record") need "this/that/it",
    the person's own details ("my address") or a memory as their place ("don't save money
    on shoes" is not a request), and not a place of another kind ("don't keep it in the
    fridge"); verbs that only say where ("put", "add", "write", "file") need a memory as
    their place or "down"/"away";
  - quoted words are someone else's ("my friend said 'this is off the record'") and are
    left out, and so is a question about the feature ("what happens if I say don't
    remember this?"); a polite question that asks the assistant not to ("is there a way
    you can not keep this?", "do you mind not saving this?") is read;
  - "forget it" alone is "never mind", not a request, and a request to forget what was said
    that a correction follows ("forget what I said, let's go to Rome") is a correction: its
    new words are kept, unless the message calls what was said private.

Every pattern is linear: bounded repeats only, no quantifier inside a repeated group that
can match the same text two ways (a turn holds up to 20,000 characters).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

WITHHOLD = "withhold"
FORGET_PREVIOUS = "forget_previous"

# Words that soften an imperative without changing it ("please just don't", "definitely don't").
_SOFTENER = r"(?:(?:please|pls|plz|kindly|just|also|now|definitely|really|absolutely|seriously|certainly|simply)\s+)*"
# A clause opening where an imperative may start: the text's start, punctuation, a
# conjunction or interjection, or a polite question to the assistant; then softeners. No
# word may be both an opening and a softener: "also also also ..." would then start a scan
# to the end at every word (20,000 characters took 7 s).
_OPENING = (
    r"(?:^|[.!?;:,()\-\u2013\u2014]\s*"
    r"|\b(?:and|but|so|then|wait|oh|ok|okay|hey|actually|ugh|oops|hmm|anyway)\s+"
    r"|\b(?:can|could|would|will) you\s+(?:please\s+|kindly\s+)?"
    r"|\b(?:make sure|be sure|ensure|see to it)(?: that)?(?: you)?\s+"
    r"|\b(?:i'd like|i would like|i want|i need) you to\s+)" + _SOFTENER
)
_NOT = r"(?:don't|do not)\s+(?:you dare\s+|ever\s+)?"
# The other ways an imperative says "not": to the assistant ("you must not", "you don't need
# to"), or suggested ("no need to", "let's not"). Each is a request only at a clause opening,
# like "don't"; with "I" as the subject ("I never remember") it is a statement.
_NOT_ANY = (
    r"(?:(?:you\s+)?(?:don't|do not|never|must not|mustn't|should not|shouldn't|need not|needn't"
    r"|(?:don't|do not) (?:need|have) to)|you(?:'re| are) not to|no need to|let's not(?: have you)?|not to)\s+"
)
# Verbs whose only meaning here is keeping a memory: any object (or none) will do.
_MEMORY_VERB = r"(?:remember|memori[sz]e|retain)\b"
# Verbs with everyday meanings: they need a pointing object or a memory as their place.
_KEEP_VERB = (
    r"(?:save|store|keep|record|log|persist|hold on ?to|hang on ?to|train on|keep tabs on|keep track of"
    r"|(?:make|keep|take) (?:a |any )?(?:note|notes|record|log|memory|copy|copies) (?:of|on))\b"
)
# Verbs that only say where a thing goes ("put", "add"): a memory as their place, or "down"/"away".
_PLACE_VERB = r"(?:note|write|jot|commit|add|put|track|file|enter|include|hold|carry)\b"
# The same verbs after "refrain from", "avoid", "mind not", "want you": the -ing forms.
_MEMORY_ING = r"(?:remembering|memori[sz]ing|retaining)\b"
_KEEP_ING = (
    r"(?:saving|storing|keeping|recording|logging|noting|writing down|filing|persisting"
    r"|holding on ?to|hanging on ?to)\b"
)
# Their past participles, for "this shouldn't be saved"; an everyday one (saved, kept) counts
# only at the end of its clause, before "anywhere", or with a memory as its place ("it
# shouldn't be kept in the fridge" is not a request).
_MEMORY_DONE = r"(?:remembered|memori[sz]ed|retained)\b"
_KEEP_DONE = r"(?:saved|stored|kept|recorded|logged|noted|written down|filed|persisted)"
# "Memory card", "profile photo", "history exam" are things, not the assistant's memory.
_NOT_A_THING = (
    r"(?!\s+(?:card|stick|chip|foam|lane|leak|usage|photo|picture|pic|page|name|cabinet|folder|book|class|teacher"
    r"|exam|tab|app|account|settings|bag|insurance)\b)"
)
_MEMORY_NOUN = (
    r"(?:long-term |permanent |persistent )?(?:memory|memories|memory bank|notes|profile|records?|file|history"
    r"|knowledge(?: base)?)\b" + _NOT_A_THING
)
# Later conversations are a memory too ("don't carry this over to future chats").
_LATER_CHATS = r"(?:future|later|other|new|next|upcoming|all) (?:chats?|conversations?|sessions?)\b"
_PLACE = (
    r"(?:(?:(?:your|my|the|any) )?(?:" + _MEMORY_NOUN + r"|preferences\b)|what you (?:know|remember|keep) about me\b"
    r"|" + _LATER_CHATS + ")"
)
# The assistant's memory as a thing to take something out of (not "my notes", the person's own).
_MEMORY_PLACE = (
    r"(?:(?:your|my|the) )?(?:long-term )?(?:memory|memories|record|knowledge)\b"
    + _NOT_A_THING
    + r"|your (?:notes|records)\b"
    r"|what(?:ever)? you(?:'ve| have)? (?:know|saved|stored|remember|kept)"
)
# What the person is about to say, or says from now on ("what I'm going to type next").
_WHAT_I_WILL_SAY = (
    r"(?:what|everything|anything|whatever) (?:i(?:'m| am) (?:about to|going to)(?: (?:say|tell you|share|type|write))?"
    r"|i (?:say|tell you|share|type|write) (?:here|now|next|today|from now on|in this (?:chat|conversation|session)))"
)
_POINTING = (
    r"(?:(?:any|all|none) of (?:this|that|it|the following|what follows)|this|that|it|anything"
    r"|all (?:of )?(?:this|that)|" + _WHAT_I_WILL_SAY + "|what follows|the following"
    r"|a (?:record|note) of (?:this|that|it))\b"
)
# "Don't keep it in the fridge", "don't store this with the onions", "don't keep that from me":
# an everyday verb whose place is not a memory is not a request.
_NOT_ELSEWHERE = (
    r"(?!\s+(?:in|on|at|under|inside|near|by|behind|beside|next to|outside|with|from|to|into|onto|around|for|as)\s+"
    r"(?!(?:(?:your|my|the|any) )?(?:mind|head)\b|(?:this|that|my|the) (?:message|chat|conversation|session)\b"
    r"|(?:the )?future\b|(?:a )?(?:memory|fact|note) about me\b|(?:a )?memory\b|" + _PLACE + "))"
)
_IN_MEMORY = r"[^.!?;]{0,30}\b(?:to|in|into|on|onto|under|for|across) " + _PLACE
_ANYWHERE = r"\s+anywhere(?: else)?\s*(?:[.!;:,]|$)"
_CLAUSE_END = r"\s*(?:[.!;]|$)"
# An everyday verb's object: pointing (and not elsewhere), or a memory as its place.
# What the person tells about themselves, as an everyday verb's object: "don't store my kids'
# names", "please don't record my answers" ("don't save my seat" is not such a thing).
_PERSONAL = (
    r"(?:(?:any|all) of )?my(?: [\w']+){0,2}? (?:name|names|address|addresses|number|numbers|email|birthday|age"
    r"|weight|height|salary|income|pin|password|passwords|details|info|information|data|answers|questions"
    r"|diagnosis|medications?|location|debts?|finances)"
    # ...the noun itself, not a modifier ("my email drafts", "my history tab").
    r"(?=\s*(?:[.!?,;:\-\u2013\u2014)]|$)|\s+(?:from|in|into|to|on|anywhere|either|please|pls|though|for|after"
    r"|afterwards|and|or|but|as|this|that|it|i|i'm|you|which|because|since|at|ok|okay|too|again|yet|now|today"
    r"|anymore|permanently|long-term|forever)\b)"
)
_KEEP_OBJECT = (
    r"(?:"
    + _KEEP_VERB
    + r"\s+(?:"
    + _POINTING
    + "|"
    + _PERSONAL
    + ")"
    + _NOT_ELSEWHERE
    + "|(?:"
    + _KEEP_VERB
    + "|"
    + _PLACE_VERB
    + ")"
    r"(?:\s+" + _POINTING + ")?" + _IN_MEMORY + "|" + _PLACE_VERB + r"\s+" + _POINTING + r"\s+(?:down|away)\b)"
)
# "Don't keep any record of my questions": a record of anything is a memory.
_RECORD_OF = r"(?:keep|make) (?:a|any) (?:record|log) of\b(?! (?:your|his|her|their|our)\b)"
# "Don't learn anything about me from this conversation."
_LEARN = (
    r"learn (?:anything |something )?(?:about me )?from (?:(?:this|our) (?:chat|conversation|session|message)\b"
    r"|(?:this|that|it|any of (?:this|that|it))(?=\s*(?:[.!,;]|$)))"
)
# "Don't attach this to my profile", "don't associate this with me".
_TIE = r"(?:associate|link|connect|tie|attach) " + _POINTING + r" (?:with|to) (?:me|my (?:name|profile|identity))\b"
_ANY_VERB = r"(?:" + _MEMORY_VERB + "|" + _KEEP_OBJECT + "|" + _RECORD_OF + "|" + _LEARN + "|" + _TIE + ")"
# "Don't save any details about my health from this chat": this conversation as the source.
_FROM_HERE = r"[^.!?;]{0,40}\bfrom (?:this|our|today's) (?:chat|conversation|message|session|exchange)\b"
_KEEP_ING_OBJECT = (
    r"(?:"
    + _KEEP_ING
    + r"\s+"
    + _POINTING
    + _NOT_ELSEWHERE
    + "|"
    + _KEEP_ING
    + r"(?:\s+"
    + _POINTING
    + ")?"
    + _IN_MEMORY
    + ")"
)
_PLACE_ING = r"(?:adding|putting|committing|writing|filing|noting|including|entering|holding|carrying)\b"
_ANY_ING = (
    r"(?:" + _MEMORY_ING + "|" + _KEEP_ING_OBJECT + "|" + _PLACE_ING + r"(?:\s+" + _POINTING + ")?" + _IN_MEMORY + ")"
)
_DONE = (
    r"(?:"
    + _MEMORY_DONE
    + "|"
    + _KEEP_DONE
    + r"(?:\s*(?:[.!;:,\-\u2013\u2014]|$)|"
    + _ANYWHERE
    + "|"
    + _IN_MEMORY
    + "))"
)
_NEGATED_BE = (
    r"(?:(?:should|must|shall|can|could|would|need|ought)(?:n't| not)|is not to|isn't to|needs? not|not|never"
    r"|(?:doesn't|does not|don't|do not) (?:need|have) to)"
    r"\s+(?:to\s+)?(?:be|get)\s+"
)
_SUBJECT = (
    r"(?:this|that|it|any of (?:this|that|it)|all of this"
    r"|this (?:message|part|bit|one|conversation|chat|session|info|information|stuff|detail|details|story))"
)
# Between the person and the assistant, or within this conversation only.
_BETWEEN_US = r"(?:just |strictly |only |purely )?between (?:us|you and me|the two of us|ourselves)\b"
_THIS_CHAT = r"in this (?:chat|conversation|session|thread)\b"
_CLAUSE_OPENING = r"(?:^|[.!?;:,\-\u2013\u2014]\s*|\b(?:and|but|so|ok|okay|now)\s+)"
_NEXT_WORDS = (
    r"(?:this|that|all of this|what (?:i'm|i am) (?:about to|going to) (?:say|tell you|share)"
    r"|what i (?:say|tell you|share) (?:here|now|next))"
)

# "Once we're done" with the talk, not "once we're done with the main course".
_DONE_TALKING = r"(?=\s*(?:[.!,;:]|$)|\s+(?:here|talking|chatting)\b)"

_WITHHOLD_PATTERNS = [
    # Don't remember this / do not memorise my address / for this message only: do not remember.
    _OPENING + _NOT + _MEMORY_VERB,
    # Don't save that / don't keep this in memory / don't write it down / don't put this in my profile.
    _OPENING + _NOT + _KEEP_OBJECT,
    _OPENING + _NOT + r"(?:save|store|log|record)" + _CLAUSE_END,
    _OPENING + _NOT_ANY + r"(?:save|store|keep|record|log|retain|persist)\b" + _FROM_HERE,
    # You must not remember this / no need to keep any of it / make sure not to save this.
    _OPENING + _NOT_ANY + _ANY_VERB,
    # There's no need to save this to memory.
    r"\bthere(?:'s| is) no need (?:for you )?to " + _ANY_VERB,
    # Kindly refrain from remembering this / avoid saving any of this / skip storing this.
    r"\b(?:refrain from|avoid|stop|skip|hold off(?: on)?) " + _ANY_ING,
    # I'd rather this not be saved / this shouldn't be remembered / this doesn't need to be stored.
    r"\b" + _SUBJECT + r"\s+" + _NEGATED_BE + _DONE,
    # One-time thing, not to be kept: ...
    r"(?:^|[.!?;:,\-\u2013\u2014]\s*)not to be " + _DONE,
    # Nothing from this message should be saved / none of this should be stored.
    r"\b(?:nothing (?:(?:from|in|of) (?:this|that|my) (?:message|chat|conversation|session)\s+"
    r"|i (?:say|tell you|write|share)"
    r"(?: here| now| next| today| from now on| in this (?:chat|conversation|session))?\s+)"
    r"|none of (?:this|that|it)\s+)"
    r"(?:should|must|can|may|is to|needs to|ought to)\s+(?:be|get)\s+" + _DONE,
    # Nothing should be remembered / nothing from today should go into your memory.
    r"\bnothing(?: (?:from|of|in) (?:this|that|today|here|my)(?: \w+)?| here| today)? "
    r"(?:(?:should|must|can|may|is to|needs to|ought to)"
    r" (?:be|get) "
    + _MEMORY_DONE
    + r"|(?:(?:should|must|can|will|may) )?(?:go|end up|get|make it) (?:in|into|to|on|onto) "
    + _PLACE
    + ")",
    # Keep no record of this.
    _OPENING + r"(?:keep|make|take) no (?:records?|notes?|logs?|memor(?:y|ies)|cop(?:y|ies)) (?:of|on|about)\b"
    r"(?! (?:your|his|her|their|our)\b)",
    # This should be forgotten after our chat / I want this forgotten.
    r"\b(?:this|it|all of this)\s+(?:should|must|needs to|has to|can) be forgotten\s+(?:after (?:our|this|the) "
    r"(?:chat|conversation|session)|once (?:we're|we are|you're|you are) (?:done|finished|through)"
    + _DONE_TALKING
    + r"|when (?:we're|we are|you're|you are) (?:done|finished|through)"
    + _DONE_TALKING
    + r""
    r"|afterwards|by you)\b",
    r"\bwant (?:this|it|all of this) forgotten(?:\s*(?:[.!;,]|$)| by you\b)",
    # Promise me you won't remember this / promise not to remember it.
    r"\bpromise(?: me)? (?:(?:that )?you(?:'ll| will)? (?:not|never)|(?:that )?you won't|not to|to not|never to) "
    + _ANY_VERB,
    # Make sure none of this gets logged to my memory / make sure this doesn't get saved.
    r"\b(?:make sure|ensure|see (?:to it )?that|be sure)\s+(?:that\s+)?(?:none of (?:this|that|it)\s+"
    r"(?:gets?|is|are|will be|will get|ever gets?)|(?:this|that|it|any of (?:this|that|it))\s+"
    r"(?:doesn't|does not|won't|will not|never|isn't|is not|can't|cannot)\s+(?:gets?|be|ever)?)\s*" + _DONE,
    # I'd prefer it wasn't kept / I'd rather not have this remembered.
    r"\b(?:rather|prefer|prefer it|like it|want)\s+(?:if\s+|that\s+)?" + _SUBJECT + r"\s+"
    r"(?:wasn't|weren't|isn't|was not|were not|is not|didn't get|did not get|doesn't get|does not get)\s+"
    r"(?:be\s+|get\s+)?" + _DONE,
    r"\bnot (?:have|having) " + _SUBJECT + r"\s+" + _DONE,
    # Keep this out of your memory / leave it off my profile / can this stay out of your memory?
    r"\b(?:keep|leave) " + _SUBJECT + r" (?:out of|off) " + _PLACE,
    r"\b(?:stay|stays|remain|remains|be kept|be left) (?:out of|off) " + _PLACE,
    r"\b(?:exclude|omit) (?:this|that|it)(?: \w+)? from " + _PLACE,
    # This shouldn't go into your memory / don't let this end up in my profile.
    r"(?:\b(?:this|that|it)\s+(?:(?:should|must|can|does|did|will|would)(?:n't| not)|won't|never) (?:go|end up|get)"
    r"|\bnone of (?:this|that|it) (?:(?:should|must|will|can) )?(?:goes|go|ends up|end up|gets|get))"
    r" (?:in|into|to|on|onto) " + _PLACE,
    _OPENING
    + _NOT_ANY
    + r"let "
    + _SUBJECT
    + r"\s+(?:(?:go|end up|get|make it|stick|stay|remain|live|sit) (?:in|into|to|on|onto) "
    + _PLACE
    + r"|(?:be|get)\s+"
    + _DONE
    + ")",
    # Don't let this influence future conversations.
    _OPENING
    + _NOT_ANY
    + r"let "
    + _SUBJECT
    + r" (?:influence|affect|shape|carry over (?:to|into)|follow me (?:to|into)|show up in|come up in) "
    + _LATER_CHATS,
    # Delete this after you answer / discard this once we're done.
    _OPENING + r"(?:delete|erase|discard|wipe|drop|forget(?: about)?) "
    r"(?:this|all of this|this (?:message|info|information|conversation|chat)) (?:afterwards\b"
    r"|after (?:you(?:'ve| have)? (?:answer|repl|respond|read)|we(?:'re| are) (?:done|finished|through)"
    + _DONE_TALKING
    + r"|this\b)"
    r"|once (?:you(?:'ve| have)? (?:answer|repl|respond|read)|we(?:'re| are) (?:done|finished|through)"
    + _DONE_TALKING
    + r")"
    r"|when (?:you(?:'re| are)|we(?:'re| are)) (?:done|finished|through))",
    # Don't update my profile with this / don't make this part of your memory / don't use it for memory.
    _OPENING + _NOT_ANY + r"(?:update|change|edit) " + _PLACE + r" (?:with|based on|from|using) " + _POINTING,
    _OPENING + _NOT_ANY + r"(?:make|use) " + _SUBJECT + r" (?:a )?(?:part of|for|to update) " + _PLACE,
    _OPENING + _NOT_ANY + r"make " + _SUBJECT + r" (?:a |into a )?(?:permanent |long-term |lasting )?memory\b",
    # Use this for this answer only (and then forget it).
    r"\buse (?:this|it|that|these details|this info(?:rmation)?) (?:only )?for this "
    r"(?:answer|reply|question|request|task|conversation|chat|session|message) only\b"
    r"|\buse (?:this|it|that|these details|this info(?:rmation)?) only for this "
    r"(?:answer|reply|question|request|task|conversation|chat|session|message)\b",
    # Can you not remember this? / could you not save that? / is there a way you can not keep this?
    r"\b(?:(?:can|could|would|will) you|(?:can|could|shall) we) " + _SOFTENER + "not " + _ANY_VERB,
    # (Asked, not stated: "it's ok if you don't remember this detail" gives leave, it asks nothing.)
    r"^(?:is there (?:a|any|some) way (?:for you |you can |you could )|(?:is it|would it be) possible for you )"
    r"(?:to )?(?:not|never) (?:to )?" + _ANY_VERB,
    r"^is it (?:possible|ok|okay|alright|fine) (?:if|that) you (?:don't|do not|didn't|did not|won't|never) "
    + _ANY_VERB,
    # Would you mind not remembering this? / do you mind not saving this?
    r"\b(?:mind|appreciate (?:you|your)) not " + _ANY_ING,
    # Please, no remembering this one.
    _OPENING + r"no (?:" + _MEMORY_ING + "|" + _KEEP_ING + r"\s+" + _POINTING + ")",
    # I'd rather you didn't remember this / I'd prefer you not save it / I need you to not keep this.
    r"\b(?:rather|prefer(?: it)? if|prefer that|prefer|appreciate it if|be (?:better|great|good|nice|best) if"
    r"|(?:grateful|thankful|happier|glad) if"
    r"|like it if|love it if) you "
    r"(?:didn't|did not|don't|do not|wouldn't|would not|won't|never|not|to not|not to) " + _ANY_VERB,
    r"\b(?:(?:i'm|i am) (?:asking|begging) you|i (?:ask|beg) you|(?:want|need|like) you) (?:not to|to not|never to) "
    + _ANY_VERB,
    # I don't want you to remember this / I don't want this remembered / ... this in my profile.
    # I don't want my health stuff in your memory.
    r"\b(?:don't|do not) want (?:my|any|these|those|the)(?: [\w']+){1,4} (?:in|on|added to|going into|to go into"
    r"|ending up in|(?:to be |to become )?part of) " + _PLACE,
    r"\b(?:don't|do not) want (?:you to " + _ANY_VERB + "|you " + _ANY_ING + "|" + _SUBJECT + r" (?:to be )?"
    r"(?:"
    + _DONE
    + "|(?:in|on|added to|going into|to go into|ending up in|(?:to be |to become )?part of) "
    + _PLACE
    + "))",
    # Not something you should remember / this is not something you should keep in memory.
    r"(?:(?:^|[.!?;:,\-\u2013\u2014]\s*|\b(?:this|that|it)(?:'s| is)\s+)not|\b(?:this|that|it) isn't) "
    r"(?:something|anything|a thing) "
    r"(?:(?:(?:that )?you|for you to) (?:should|must|ought to) (?:" + _MEMORY_VERB + "|" + _KEEP_VERB + _IN_MEMORY + ")"
    r"|to (?:store|save|keep|record|log)(?=\s*(?:[:,.!\-\u2013\u2014]|$)))",
    # This is not for your memory.
    r"\b(?:this|that|it)(?:'s not| is not| isn't) for (?:your (?:memory|notes|profile|records?)|(?:the )?memory)\b",
    # Ignore this for memory purposes.
    r"\b(?:ignore|skip|disregard) " + _SUBJECT + r" (?:for|when it comes to|as far as) "
    r"(?:your |my |the )?(?:long-term )?(?:memory|memories|notes|profile)\b",
    # Please forget this / forget this conversation happened ("forget it" is "never mind").
    _OPENING + r"forget (?:this|all of this)\b",
    r"\b(?:rather|prefer(?: it)? if|want|need|like) you (?:to )?(?:forget|forgot) (?:this|all of this)\b",
    # Erase this from your memory once we're done (what is said now, not before).
    _OPENING + r"(?:erase|delete|remove|wipe|drop|clear|purge|scrub) (?:this|all of this|any of this)(?: \w+){0,2} "
    r"(?:from|out of) (?:" + _MEMORY_PLACE + ")",
    # Don't learn anything about me from this.
    _OPENING + _NOT + "(?:" + _RECORD_OF + "|" + _LEARN + "|" + _TIE + ")",
    # Forget we ever had this conversation / forget you heard this / forget what I say here.
    _OPENING + r"forget (?:that )?(?:we (?:ever |even )?(?:had|have had) this (?:conversation|chat|talk|exchange)"
    r"|you (?:ever |even )?(?:heard|read|saw) (?:this|that|it|any of (?:this|that|it))"
    r"|" + _WHAT_I_WILL_SAY + r"|(?:what|everything|anything) i (?:say|tell you|share)"
    r" (?:here|now|next|in this (?:chat|conversation|message)))\b",
    # Keep this between us / this stays between you and me / what I'm about to say stays in this chat.
    r"(?:"
    + _OPENING
    + r"|\blet(?:'s| us) |\b(?:can|could|shall) we |\bwe (?:should|must|can) |\bi (?:want|need|'d like) to )"
    r"keep (?:this|that|it|all of this|what (?:i'm|i am) about to (?:say|tell you)) " + _BETWEEN_US,
    # (At a clause opening: "she said this stays between us" reports someone else's wish.)
    _CLAUSE_OPENING
    + _NEXT_WORDS
    + r"\s+(?:(?:should|must|will|can|has to|needs to)\s+)?(?:stays?|remains?|is) "
    + _BETWEEN_US,
    _CLAUSE_OPENING + r"it\s+(?:(?:should|must|will|can|has to|needs to)\s+)?(?:stays?|remains?) " + _BETWEEN_US,
    _CLAUSE_OPENING
    + _NEXT_WORDS
    + r"\s+(?:(?:should|must|will|can|has to|needs to)\s+)?(?:stays?|remains?) "
    + _THIS_CHAT,
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
    # No memory for this one / memory off for this message.
    # Incognito for this one / memory off for this message / no memories from this chat / turn memory off for this.
    r"\b(?:no memor(?:y|ies)|memory off|(?:switch|turn) (?:off (?:your |the )?memory|(?:your |the )?memory off)"
    r"|incognito(?: mode)?|private mode)(?: please)? (?:for|on|from|in) (?:this|that)"
    r"(?: (?:one|message|chat|conversation|turn|question|bit|part|session))?"
    r"(?=\s*(?:[.!,:;\-\u2013\u2014]|please\b|$))",
    # Let's do this one without memory.
    r"\b(?:do|answer|handle|take) (?:this|that|it)(?: one)? without (?:memory|saving it|remembering it)\b",
]

# What the person said before (past tense): "what I just told you", "the stuff I mentioned".
_SAID = (
    r"(?:said|told you|typed|wrote|written|mentioned|shared|gave you|sent you|talked about|brought up)\b"
    r"(?! to (?!you\b|(?:my|your) (?:memory|profile|notes)\b))"
)
# ...said here, not written elsewhere ("what I wrote on the whiteboard", "... from the report").
_NOT_WRITTEN_ELSEWHERE = (
    r"(?![^.!?;,]{0,40}\b(?:on|in|into|from) (?:the|a|an|my|his|her|their|our|that) "
    r"(?!(?:chat|conversation|message|session|memory|memories|notes|record|last|previous|earlier)\b))"
)
_WHAT_I_SAID = (
    r"(?:(?:what|everything|all(?: that)?|anything|(?:the|that|those) (?:stuff|thing|things|bit|part)"
    r"|the (?:part|bit) (?:where|when)) (?:that )?i (?:just |have just |'ve just |had just |already |ever )?"
    # "the details I just gave you": any thing, when just said.
    r"|(?:the|that|those) (?:[\w']+ ){1,2}?i (?:just |have just |'ve just ))" + _SAID + _NOT_WRITTEN_ELSEWHERE
)
_PREVIOUS = r"(?:last|previous|earlier|prior)"
_PREVIOUS_OBJECT = (
    r"(?:the|my|that) " + _PREVIOUS + r" (?:(?:two|three|few|couple of) )?(?:thing i (?:said|told you|wrote|mentioned)"
    r"|message|answer|comment|reply|response|turn)"
)
_SAID_BEFORE = (
    r"(?:any of )?(?:" + _WHAT_I_SAID + "|" + _PREVIOUS_OBJECT + "|(?:that|the|my) " + _PREVIOUS + r" (?:bit|part)\b)"
)
_UNDO_VERB = r"(?:scratch|scrap|strike|erase|delete|remove|wipe|drop|clear|purge|scrub|forget|retract|discard|undo)"
_UNDONE = r"(?:" + _WHAT_I_SAID + r"|that|it|my|the)(?: \w+){0,5}"
# Requests that may be a correction instead ("forget what I said, let's go to Rome"): read
# as one only when no correction follows them (see _correction_follows).
_SOFT_FORGET_PATTERNS = [
    # Forget what I just said / forget everything I said in my last message.
    _OPENING + r"forget (?:about )?" + _WHAT_I_SAID,
    # I'd prefer if you forgot what I just said.
    # ("You forgot what I told you!" is a complaint: "forgot" only after "if"/"rather".)
    r"\b(?:you (?:to|can|could|may|should)(?: just)? forget|(?:if|rather) you (?:just )?forgot) "
    r"(?:what|everything|all(?: that)?) i (?:just )?" + _SAID,
    # Forget I said that / forget that I mentioned my ex / forget I ever mentioned it.
    _OPENING + r"forget (?:that )?i (?:ever |just |even )?" + _SAID,
    # Forget that last message / can you forget the last thing I said?
    _OPENING
    + r"forget (?:about )?(?:everything (?:from|in) |all of )?(?:that|the|my|those|these) "
    + _PREVIOUS
    + r" (?:(?:two|three|few|couple of) )?"
    r"(?:message|thing|bit|part|sentence|comment|reply|response|turn|answer)",
    # Pretend I never said that / pretend you didn't hear that.
    _OPENING + r"pretend (?:that )?i (?:never|didn't|did not) (?:say|tell you|mention|type|write|share)\b",
    _OPENING + r"pretend i never " + _SAID,
    _OPENING + r"pretend (?:that )?you (?:never|didn't|did not) (?:hear|read|see) (?:that|it)\b",
    # Delete what I just told you / erase that last bit from your memory / strike that from the record.
    _OPENING
    + r"(?:scratch|scrap|strike|erase|delete|remove|wipe|drop|clear|retract|discard|undo|purge|get rid of|lose|ditch"
    r"|bin|trash|toss|dump|throw away|throw out) " + _WHAT_I_SAID,
    # Delete my last message / erase that previous message.
    _OPENING + r"(?:erase|delete|remove|wipe|drop|clear|retract|discard|purge|scrap) " + _PREVIOUS_OBJECT,
]
# Requests that name the memory or a keeping verb: no correction reads them away.
_FORGET_PREVIOUS_PATTERNS = _SOFT_FORGET_PATTERNS + [
    _OPENING + _UNDO_VERB + " " + _UNDONE + r" (?:from|out of) (?:" + _MEMORY_PLACE + ")",
    # (Only "out of": "get my address from your memory" asks to recall it.)
    _OPENING + r"(?:take|get) " + _UNDONE + r" out of (?:" + _MEMORY_PLACE + ")",
    # Can you unremember what I told you? / can you un-save it?
    _OPENING + r"un-?(?:remember|learn) (?:what|everything|all(?: that)?) i (?:just )?" + _SAID,
    _OPENING + r"un-?(?:save|store|record|log|memori[sz]e|remember|keep) (?:that|it)\b",
    # Don't keep what I just told you / don't remember the stuff I mentioned.
    r"(?:" + _OPENING + _NOT_ANY + r"|\b(?:can|could|would|will) you " + _SOFTENER + r"not |\bstop "
    r"|\bi (?:didn't|did not|don't|do not) want you to )"
    r"(?:"
    + _MEMORY_VERB
    + "|"
    + _KEEP_VERB
    + "|"
    + _PLACE_VERB
    + "|"
    + _MEMORY_ING
    + "|"
    + _KEEP_ING
    + r")\s+"
    + _SAID_BEFORE,
    # Undo saving my previous message.
    _OPENING + r"undo (?:saving|storing|remembering|recording|logging|keeping) (?:that|it|" + _SAID_BEFORE + ")",
]

# A message that points back at what was said before: with a withholding request about "it"
# or "that" (not "this", not what follows), it asks to forget the previous turn.
_BACKWARD = re.compile(
    r"\b"
    + _WHAT_I_SAID
    + r"|\b(?:my|that|the) "
    + _PREVIOUS
    + r" (?:message|answer|reply|response|comment|turn|bit|part"
    r"|sentence|statement|entry|input|text|post|thing i said)\b"
    r"|\bi take (?:that|it) back\b|^(?:\w+[,!.]?\s+)?scratch that\b|\bi overshared\b"
    r"|\bi (?:shouldn't|should not) have (?:said|shared|told you|mentioned|written|typed|sent|posted)\b"
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
    r"|\b(?:shouldn't|should not) have been (?:saved|stored|remembered|recorded|logged|kept)\b"
    r"|\b(?:told you|gave you|sent you|said|mentioned|shared|wrote|typed) "
    r"(?:just now|a (?:moment|minute|second|bit|while) ago|a few (?:minutes|seconds|moments) ago|earlier|before"
    r"|previously)\b"
)
# What a withholding request points at, read in its sentence: this message or what follows.
_AHEAD = re.compile(r"\b(?:this|these|the following|what follows|about to|going to|next|here|now on)\b")
# "Forget it", "remove that": a request about a pronoun, a request only beside a pointer back.
# ("Forget it, the number I gave you is fine" is "never mind": "forget it" asks only when
# polite or at its clause's end.)
_UNDO_PRONOUN = re.compile(
    r"(?:^|[.!?;:,\-\u2013\u2014]\s*|\b(?:and|so|then)\s+)"
    r"(?:(?:please|kindly|just|can you|could you)\s+(?:just\s+)?forget(?: about)? (?:it|that)\b"
    r"|forget(?: about)? (?:it|that)(?=\s*(?:[.!;]|$)|,? please\b)"
    r"|" + _SOFTENER + r"(?:can you\s+|could you\s+)?(?:remove|delete|erase|wipe|drop|clear|scrub|purge) (?:it|that)\b)"
)

# A correction after the request ("..., let's do Wednesday", "- he's actually coming", "and use
# 555-0199"): the person replaces what they said, and the new words should be kept...
_CORRECTION = re.compile(
    r"\b(?:let's|let us|i meant|i mean|instead|correction|make it|change it to|actually"
    r"|use(?! (?:it|that|this)\b)|go with|should be"
    r"|the right|the correct|is wrong|was wrong|typo)\b"
)
# ...unless they say it was private.
_PRIVATE = re.compile(
    r"\b(?:private|personal|shouldn't have|should not have|overshar\w*|sensitive|secret|confidential|embarrass\w*"
    r"|too much|regret\w*|off the record)\b"
)

_WITHHOLD_RE = [re.compile(p) for p in _WITHHOLD_PATTERNS]
_FORGET_RE = [re.compile(p) for p in _FORGET_PREVIOUS_PATTERNS]

# Someone else's words: a span in double quotes, or in single quotes that open after a
# blank and close before a non-letter (an apostrophe inside a word, as in don't, stays).
_QUOTED = re.compile(r"\"[^\"]*\"|(?:^|(?<=\s))'(?:[^']|'(?=\w))*'(?!\w)")
_SENTENCE = re.compile(r"(?<=[.!?])\s+|\n+")
# A question about something rather than a request to the assistant...
_ASKING = re.compile(r"^(?:what|how|why|who|whom|where|when|which|does|do|did|is|are|was|were|has|have)\b")
# ...unless it asks the assistant not to ("is there a way you can not keep this?").
_ASKING_NOT_TO = re.compile(r"^(?:is there (?:a|any|some) way|is it (?:possible|ok|okay|alright|fine)|do you mind)\b")
# Chat spellings of the words the patterns read ("i dont want u to remember this").
_CHAT_WORDS = {"u": "you", "ur": "your", "im": "i'm", "pls": "please", "plz": "please", "rn": "right now"}
_CHAT_SPELLING = re.compile(r"\b(?:u|ur|im|pls|plz|rn)\b")
_APOSTROPHES = str.maketrans({"\u2019": "'", "\u2018": "'", "\u201c": '"', "\u201d": '"'})


@dataclass(frozen=True)
class ConsentRequest:
    kind: str  # WITHHOLD or FORGET_PREVIOUS
    pattern: int  # which rule matched, for the logs and the tests (no words kept)


def _normalise(text: str) -> str:
    text = text.translate(_APOSTROPHES).casefold()
    text = re.sub(r"\bdont\b", "don't", text)
    text = _CHAT_SPELLING.sub(lambda found: _CHAT_WORDS[found.group()], text)
    text = re.sub(r"\boff(?:-the-|-| )record\b", "off the record", text)
    text = re.sub(r"\blong term\b", "long-term", text)
    text = _QUOTED.sub(" ", text)
    return text


def _sentences(text: str) -> list[str]:
    kept = []
    for sentence in _SENTENCE.split(text):
        sentence = " ".join(sentence.split())
        if not sentence:
            continue
        if sentence.endswith("?") and _ASKING.match(sentence) and not _ASKING_NOT_TO.match(sentence):
            continue
        kept.append(sentence)
    return kept


def _withheld(sentences: list[str], backward: bool) -> ConsentRequest | None:
    for index, pattern in enumerate(_WITHHOLD_RE):
        for sentence in sentences:
            found = pattern.search(sentence)
            if found is None:
                continue
            # Its whole sentence: "this next part, don't save it" is about this message.
            if backward and not _AHEAD.search(sentence):
                # "Disregard my previous message and don't store it": the request is about it.
                return ConsentRequest(FORGET_PREVIOUS, len(_FORGET_RE) + index)
            return ConsentRequest(WITHHOLD, index)
    return None


def _corrected_after(sentences: list[str]) -> list[bool]:
    """For each sentence, whether a later one corrects (each sentence read once: linear)."""
    later, after = False, []
    for sentence in reversed(sentences):
        after.append(later)
        later = later or _CORRECTION.search(sentence) is not None
    return after[::-1]


def _asked(patterns: list[re.Pattern[str]], sentences: list[str], soft: int) -> int | None:
    """The first pattern that asks (a soft one only when no correction follows it), or None."""
    if any(_PRIVATE.search(sentence) for sentence in sentences):
        soft = 0  # "it was private": a request whatever follows
    corrected_after = _corrected_after(sentences) if soft else []
    for index, pattern in enumerate(patterns):
        for at, sentence in enumerate(sentences):
            found = pattern.search(sentence)
            if found is None:
                continue
            if index < soft and (corrected_after[at] or _CORRECTION.search(sentence, found.end())):
                continue
            return index
    return None


def detect(user_input: str) -> ConsentRequest | None:
    """The person's request not to be remembered in this message, or None."""
    if not user_input:
        return None
    sentences = _sentences(_normalise(user_input))
    index = _asked(_FORGET_RE, sentences, soft=len(_SOFT_FORGET_PATTERNS))
    if index is not None:
        return ConsentRequest(FORGET_PREVIOUS, index)
    backward = any(_BACKWARD.search(sentence) for sentence in sentences)
    withheld = _withheld(sentences, backward)
    if withheld is not None:
        return withheld
    if backward and _asked([_UNDO_PRONOUN], sentences, soft=1) is not None:
        # "That address I gave you just now - please forget it."
        return ConsentRequest(FORGET_PREVIOUS, len(_FORGET_RE) + len(_WITHHOLD_RE))
    return None
