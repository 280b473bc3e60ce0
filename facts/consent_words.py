"""The words a request not to be remembered is made of, as pieces of regular expressions: the
openings of an imperative, the ways of saying "not", the verbs of keeping and their forms, the
places that are a memory, what a request points at (facts/consent_rules.py joins them into
requests; facts/consent.py reads a message with them; docs/design.md §13).

Every piece is linear: bounded repeats only, no quantifier inside a repeated group that can
match the same text two ways (a turn holds up to 20,000 characters).
"""

from __future__ import annotations

# Words that soften an imperative without changing it ("please just don't", "definitely don't").
SOFTENER = r"(?:(?:please|pls|plz|kindly|just|also|now|definitely|really|absolutely|seriously|certainly|simply)\s+)*"
# A clause opening where an imperative may start: the text's start, punctuation, a
# conjunction or interjection, or a polite question to the assistant; then softeners. No
# word may be both an opening and a softener: "also also also ..." would then start a scan
# to the end at every word (20,000 characters took 7 s).
OPENING = (
    r"(?:^|[.!?;:,()\-\u2013\u2014]\s*"
    r"|\b(?:and|but|so|then|wait|oh|ok|okay|hey|actually|ugh|oops|hmm|anyway|omg|whoa|woah|yikes)\s+"
    r"|\b(?:can|could|would|will) you\s+(?:please\s+|kindly\s+)?"
    r"|\b(?:make sure|be sure|ensure|see to it)(?: that)?(?: you)?\s+"
    r"|\b(?:i'd like|i would like|i want|i need) you to\s+)" + SOFTENER
)
NOT = r"(?:don't|do not)\s+(?:you dare\s+|ever\s+)?"
# The other ways an imperative says "not": to the assistant ("you must not", "you don't need
# to"), or suggested ("no need to", "let's not"). Each is a request only at a clause opening,
# like "don't"; with "I" as the subject ("I never remember") it is a statement.
NOT_ANY = (
    r"(?:(?:you\s+)?(?:don't|do not|never|must not|mustn't|should not|shouldn't|need not|needn't"
    r"|(?:don't|do not) (?:need|have) to)|you(?:'re| are) not to|no need to|let's not(?: have you)?|not to"
    r"|under no circumstances(?: (?:should|must|are|will) you)?(?: to)?)\s+"
)
# What only the person's own memory, or a thing of the world, is: "(I) don't remember the name of
# that film", "don't memorise the answers", "dont remember if I paid": a definite object with no
# word of this conversation in its clause, or "if"/"whether". A memory verb is a request without it.
CONVERSATION_WORD = (
    r"(?:this|these|i|i'm|i've|i'd|my|me|you|your|following|above|earlier|before|previous|last|prior|details?"
    r"|specifics|rest|contents?|conversation|chat|message|info|information|stuff|bits?|parts?|password|pin|address)"
)
OWN_MEMORY = (
    r"(?!\s+(?:the(?:\s+(?!" + CONVERSATION_WORD + r"\b)[\w'-]+){1,30}\s*(?:[,;:.!?\-\u2013\u2014]|$)|(?:if|whether)\b"
    # "Don't remember me as the angry one": how the person is remembered, not whether.
    r"|me (?:as|for|like|by)\b"
    # "dont remember the password to my router": a thing of the person's world, not said here.
    r"|the (?:[\w'-]+ )?(?:password|pin|code|combination|name|number) (?:to|for) (?:my|our|the) [\w'-]+"
    r"(?: [\w'-]+)?\s*(?:[,;:.!?\-\u2013\u2014]|$)))"
)
# Verbs whose only meaning here is keeping a memory: any object (or none) will do, but their own.
MEMORY_VERB = r"(?:remember|memori[sz]e|retain)\b" + OWN_MEMORY
# Verbs with everyday meanings: they need a pointing object or a memory as their place.
KEEP_VERB = (
    r"(?:save|store|keep|record|log|persist|hold on ?to|hang on ?to|train on|keep tabs on|keep track of"
    r"|(?:make|keep|take) (?:a |any )?(?:note|notes|record|log|memory|copy|copies) (?:of|on))\b"
)
# Verbs that only say where a thing goes ("put", "add"): a memory as their place, or "down"/"away".
PLACE_VERB = r"(?:note|write|jot|commit|add|put|track|file|enter|include|hold|carry)\b"
# The same verbs after "refrain from", "avoid", "mind not", "want you": the -ing forms.
MEMORY_ING = r"(?:remembering|memori[sz]ing|retaining)\b"
KEEP_ING = (
    r"(?:saving|storing|keeping|recording|logging|noting|writing down|filing|persisting"
    r"|holding on ?to|hanging on ?to)\b"
)
# Their past participles, for "this shouldn't be saved"; an everyday one (saved, kept) counts
# only at the end of its clause, before "anywhere", or with a memory as its place ("it
# shouldn't be kept in the fridge" is not a request).
MEMORY_DONE = r"(?:remembered|memori[sz]ed|retained)\b"
KEEP_DONE = r"(?:saved|stored|kept|recorded|logged|noted|written down|filed|persisted)"
# "Memory card", "profile photo", "history exam" are things, not the assistant's memory.
NOT_A_THING = (
    r"(?!\s+(?:card|stick|chip|foam|lane|leak|usage|photo|picture|pic|page|name|cabinet|folder|book|class|teacher"
    r"|exam|tab|app|account|settings|bag|insurance|pile|cabin|fire|splitter)\b)"
)
MEMORY_NOUN = (
    # ("Your chat memory", "the transcript memory": the assistant's, named by what it holds.)
    r"(?:long-term |permanent |persistent |saved |stored |(?:chat|transcript|conversation|assistant|account) )?"
    r"(?:memory|memories|memory bank|notes|notebook|profile"
    r"|records?|file|history|knowledge(?: base)?|logs?|personali[sz]ation(?: data| settings)?)\b"
    + NOT_A_THING
    # Only the assistant's: "don't save this to the database yet" is a programmer's.
    + r"|(?<=your )database\b"
)
# Later conversations are a memory too ("don't carry this over to future chats").
LATER_CHATS = r"(?:future|later|other|new|next|upcoming|all) (?:chats?|conversations?|sessions?)\b"
PLACE = (
    r"(?:(?:(?:your|my|the|any) (?:little |mental |secret |internal |user )?)?(?:" + MEMORY_NOUN + r"|preferences\b)"
    r"|(?:what|anything|everything|whatever) you (?:know|remember|keep) about me\b"
    r"|" + LATER_CHATS + ")"
)
# The assistant's memory as a thing to take something out of (not "my notes", the person's own).
MEMORY_PLACE = (
    r"(?:(?:your|my|the) )?(?:long-term |stored |saved )?(?:memory|memories|record|knowledge)\b"
    + NOT_A_THING
    + r"|your (?:notes|records)\b"
    r"|what(?:ever)? you(?:'ve| have)? (?:know|saved|stored|remember|kept|keep)"
)
# What the person is about to say, or says from now on ("what I'm going to type next").
WHAT_I_WILL_SAY = (
    r"(?:(?:what|everything|anything|whatever) "
    r"(?:i(?:'m| am) (?:about to|going to)(?: (?:say|tell you|share|type|write))?"
    r"|i (?:say|tell you|share|type|write) (?:here|now|next|today|from now on|in this (?:chat|conversation|session)))"
    r"|what comes (?:next|after this))"
)
POINTING = (
    r"(?:(?:any|all|none) of (?:this|that|it|the following|what follows|" + WHAT_I_WILL_SAY + ")|this|that|it|anything"
    r"|(?:these|those) (?:personal )?(?:details|specifics|facts)|(?:things|stuff|details|facts|info) about me"
    r"|all (?:of )?(?:this|that)|" + WHAT_I_WILL_SAY + "|what follows|the following"
    r"|a (?:record|note) of (?:this|that|it))\b"
)
# "Don't keep it in the fridge", "don't store this with the onions", "don't keep that from me":
# an everyday verb whose place is not a memory is not a request.
NOT_ELSEWHERE = (
    r"(?!\s+(?:in|on|at|under|inside|near|by|behind|beside|next to|outside|with|from|to|into|onto|around|for|as)\s+"
    r"(?!(?:(?:your|my|the|any) )?(?:mind|head)\b"
    r"|(?:this|that|my|the) (?:(?:last|previous) )?(?:message|chat|conversation|session)\b"
    r"|(?:the )?future\b|(?:a )?(?:memory|fact|note) about me\b|(?:a )?memory\b|(?:before|earlier)\s*(?:[.!,;]|$)"
    # ("Don't keep it for now": a time, not a place.)
    r"|(?:now|a while|a bit|the moment)\s*(?:[.!,;]|$)|" + PLACE + "))"
)
IN_MEMORY = r"[^.!?;]{0,30}\b(?:to|in|into|on|onto|under|for|across) " + PLACE
ANYWHERE = r"\s+anywhere(?: else| on your (?:side|end)| in your (?:system|memory))?\s*(?:[.!;:,]|$)"
CLAUSE_END = r"\s*(?:[.!;]|$)"
# An everyday verb's object: pointing (and not elsewhere), or a memory as its place.
# What the person tells about themselves, as an everyday verb's object: "don't store my kids'
# names", "please don't record my answers" ("don't save my seat" is not such a thing).
PERSONAL = (
    r"(?:(?:any|all) of )?my(?: [\w']+){0,2}? (?:name|names|address|addresses|number|numbers|email|birthday|age"
    r"|weight|height|salary|income|pin|password|passwords|details|info|information|data|answers|questions"
    r"|diagnosis|medications?|location|debts?|finances)"
    # ...the noun itself, not a modifier ("my email drafts", "my history tab").
    r"(?=\s*(?:[.!?,;:\-\u2013\u2014)]|$)|\s+(?:from|in|into|to|on|anywhere|either|please|pls|though|for|after"
    r"|afterwards|and|or|but|as|this|that|it|i|i'm|you|which|because|since|at|ok|okay|too|again|yet|now|today"
    r"|anymore|permanently|long-term|forever)\b)"
)
KEEP_OBJECT = (
    r"(?:"
    + KEEP_VERB
    + r"\s+(?:"
    + POINTING
    + "|"
    + PERSONAL
    + ")"
    + NOT_ELSEWHERE
    + "|(?:"
    + KEEP_VERB
    + "|"
    + PLACE_VERB
    + ")"
    r"(?:\s+" + POINTING + ")?" + IN_MEMORY + "|" + PLACE_VERB + r"\s+" + POINTING + r"\s+(?:down|away)\b)"
)
# "Don't keep any record of my questions": a record of anything is a memory.
RECORD_OF = r"(?:keep|make) (?:a|any) (?:record|log) of\b(?! (?:your|his|her|their|our)\b)"
# "Don't learn anything about me from this conversation."
LEARN = (
    r"learn (?:anything |something )?(?:about me )?from (?:(?:this|our) (?:chat|conversation|session|message)\b"
    r"|(?:this|that|it|any of (?:this|that|it))(?=\s*(?:[.!,;]|$)))"
)
# "Don't attach this to my profile", "don't associate this with me".
TIE = r"(?:associate|link|connect|tie|attach) " + POINTING + r" (?:with|to) (?:me|my (?:name|profile|identity))\b"
ANY_VERB = r"(?:" + MEMORY_VERB + "|" + KEEP_OBJECT + "|" + RECORD_OF + "|" + LEARN + "|" + TIE + ")"
# "Don't save any details about my health from this chat": this conversation as the source.
FROM_HERE = r"[^.!?;]{0,40}\bfrom (?:this|our|today's) (?:chat|conversation|message|session|exchange)\b"
KEEP_ING_OBJECT = (
    r"(?:"
    + KEEP_ING
    + r"\s+"
    + POINTING
    + NOT_ELSEWHERE
    + "|"
    + KEEP_ING
    + r"(?:\s+"
    + POINTING
    + ")?"
    + IN_MEMORY
    + ")"
)
PLACE_ING = r"(?:adding|putting|committing|writing|filing|noting|including|entering|holding|carrying)\b"
ANY_ING = r"(?:" + MEMORY_ING + "|" + KEEP_ING_OBJECT + "|" + PLACE_ING + r"(?:\s+" + POINTING + ")?" + IN_MEMORY + ")"
DONE = (
    r"(?:"
    + MEMORY_DONE
    + "|"
    + KEEP_DONE
    + r"(?:\s*(?:[.!;:,\-\u2013\u2014]|$)|"
    + ANYWHERE
    + "|"
    + IN_MEMORY
    + r"|\s+(?:after|beyond|past) (?:this|the|our) (?:session|chat|conversation)\b)"
    # "Make sure this doesn't get added to my saved memories": a placing verb, with a memory as its place.
    r"|(?:added|put|entered|included|copied|written|filed|uploaded)" + IN_MEMORY + ")"
)
NEGATED_BE = (
    r"(?:(?:should|must|shall|can|could|would|need|ought)(?:n't| not)|is not to|isn't to|needs? not|not|never"
    r"|(?:doesn't|does not|don't|do not) (?:need|have) to)"
    r"\s+(?:to\s+)?(?:be|get)\s+"
)
SUBJECT = (
    r"(?:this|that|it|any of (?:this|that|it)|all of this"
    r"|this (?:message|part|bit|one|conversation|chat|session|info|information|stuff|detail|details|story)"
    r"|everything (?:after|below|past) (?:this|here)(?: (?:line|point|message))?)"
)
# Between the person and the assistant, or within this conversation only.
BETWEEN_US = r"(?:just |strictly |only |purely )?between (?:us|you and me|the two of us|ourselves)\b"
THIS_CHAT = r"in this (?:chat|conversation|session|thread)\b"
CLAUSE_OPENING = r"(?:^|[.!?;:,\-\u2013\u2014]\s*|\b(?:and|but|so|ok|okay|now)\s+)"
NEXT_WORDS = (
    r"(?:this|that|all of this|what (?:i'm|i am) (?:about to|going to) (?:say|tell you|share)"
    r"|what i (?:say|tell you|share) (?:here|now|next))"
)

# "Once we're done" with the talk, not "once we're done with the main course".
DONE_TALKING = r"(?=\s*(?:[.!,;:]|$)|\s+(?:here|talking|chatting)\b)"
