"""Requests not to be remembered made as statements, labels and figures of speech (issue 37): the
forms the fifteenth blind set showed every reader missing, each kept for its reason and not for
one sentence (tests/facts/test_consent_fifteenth_fixes.py; docs/design.md §13).

A statement about how this chat is to be kept ("this one doesn't get saved", "nothing in this
thread is to be logged", "the following ... must not be stored"), a check that expects it ("you're
not going to save this, right?"), a mode asked for ("treat this like a burner chat", "memory off
for the next bit", "pause the remembering"), "remember nothing from here on", and undoing what
was already kept from this chat ("undo everything you saved from this conversation"). Each names
this chat, a memory, or a keeping verb closing its clause, so the same words about a file, money
or a device are left out. Same rule as the other rule files: linear patterns only.
"""

from __future__ import annotations

from core.lazy_re import Patterns
from facts.consent_forget import WHAT_I_SAID
from facts.consent_words import IN_MEMORY, OPENING, PLACE

# A keeping verb's past participle, and what may close it: the clause's end, a tag asking for
# agreement, "anywhere", a memory as its place ("... or added to my user profile"), or the session.
_DONE_WORD = r"(?:saved|kept|stored|remembered|retained|logged|recorded|written down|written|noted)"
_CLOSED = (
    r"(?=\s*(?:[.!,;:?\-\u2013\u2014]|$)|\s+anywhere\b|\s+(?:ok|okay|right|yeah|please|pls|lol)\b"
    r"|(?: (?:or|and) [\w ]{1,20}?)?" + IN_MEMORY + r"|\s+after (?:this|the|our) (?:session|chat|conversation)\b)"
)
# This chat, or none of it, as the subject of a statement about keeping.
_THIS_CHAT = (
    r"(?:this|this one|this (?:chat|conversation|message|thread|session|stuff|bit|part)"
    r"|this kind of (?:stuff|thing|talk)"
    r"|(?:none|nothing) of (?:this|it|what i say)|nothing (?:here|in here|from here"
    r"|(?:in|from) (?:this|our) (?:chat|conversation|thread|session|message)))"
)
_KEEPING = r"(?:save|store|keep|remember|record|log|retain)"

WITHHOLD_STATEMENTS = [
    # "This one doesn't get saved", "this kind of stuff doesn't get remembered".
    r"\b" + _THIS_CHAT + r" (?:doesn't|does not|won't|will not|never) (?:get|gets|be) " + _DONE_WORD + _CLOSED,
    # "None of this gets written to your memory", "nothing in this thread is to be logged or added to my profile".
    r"\b(?:none of (?:this|it)|nothing (?:here|in here|(?:in|from) (?:this|our) (?:whole |entire )?(?:chat|conversation"
    r"|thread|session)))"
    r" (?:gets|goes|is to be|should be|must be|will be|needs to be|is) " + _DONE_WORD + _CLOSED,
    # "What happens here stays here, nothing gets saved": this chat named, then "nothing gets saved".
    r"\b(?:here|this (?:chat|conversation|thread|session|one)|incognito)\b[^.!?]{0,60}\bnothing (?:gets|is|will be)"
    r" (?:saved|kept|stored|remembered|logged)" + _CLOSED,
    # "If there's a way to keep this from being stored, use it."
    r"\bkeep (?:this|it|that|all of this)(?: one)? from (?:being|getting) " + _DONE_WORD + _CLOSED,
    # "You're not going to save this, yeah?": a check that expects it.
    r"\byou(?:'re| are) not (?:going to|gonna) " + _KEEPING + r" (?:this|that|it|any of (?:this|that|it))(?: one)?,?"
    r" (?:right|yeah|yes|ok|okay|correct|yea|yep|are you)\s*\?",
    # "u cant keep this one k": the whole message, said to the assistant.
    r"^(?:(?:ok|okay|so|and),? )?you (?:can't|cannot|can not|mustn't|must not) " + _KEEPING + r" (?:this|that|it)"
    r"(?: one)?(?:,? (?:k|ok|okay|pls|please|lol|thanks|thx))?\s*[.!]*$",
    # "I wish you'd just not file this away anywhere."
    r"\bi wish you(?:'d| would)(?: just)? (?:not|never) (?:save|store|keep|remember|record|log|file|write|note|put)"
    r" (?:this|that|it|any of (?:this|it)|anything(?: i (?:say|tell you|share))?)\b",
    # "Could you treat this as a one-off and not save it afterwards?"
    r"\b(?:can|could|would|will) you\b[^.!?]{0,80}\band (?:then )?not "
    + _KEEPING
    + r" (?:it|this|that|any of (?:it|this))"
    r"(?: (?:afterwards|after|later|anywhere))?(?=\s*(?:[.!?,;]|$|please|thanks))",
    # "Can we do this one without you saving anything?"
    r"\b(?:do|have) this(?: one| chat| conversation)? without (?:you )?(?:saving|storing|remembering|keeping|recording"
    r"|logging) (?:anything|it|any of it)\b",
    # "Treat this like a burner conversation", "treat this chat like incognito mode" (not "disposable income").
    r"\btreat (?:this|it)(?: (?:one|chat|conversation|thread|session|message))? (?:like|as) (?:an? )?"
    r"(?:burner|incognito|ephemeral|throwaway|disposable|private browsing)"
    r"(?: (?:mode|chat|conversation|session|window|tab|thread|one|phone))?(?=\s*(?:[.!?,;:\-\u2013\u2014]|$))",
    # "Pretend you have goldfish memory for this chat."
    r"\b(?:pretend|imagine|act like|act as if) you (?:have|had|'ve got) (?:a )?(?:goldfish|no) memory"
    r" (?:for|in|during|on) this\b",
    # "Let this one go in one ear and out the other."
    r"\blet (?:this|it|that)(?: one)? go in one ear and out the other\b",
    # "Cone of silence on this one."
    r"(?:^|[.!?;]\s*)(?:(?:ok|okay|so|and),? )?cone of silence (?:on|for|over) (?:this|it|that|what follows)\b",
    # "The following contains privileged client information and must not be stored or retained."
    r"\bthe following\b[^.!?]{0,100}\b(?:must|should|shall|is|are|may)(?: not|n't)(?: to)? be "
    + _DONE_WORD
    + r"(?: (?:or|and) "
    + _DONE_WORD
    + r")?(?=\s*(?:[.!;]|$)|\s+(?:by you|after (?:this|the) (?:session|chat)))",
    # "Memory off for the next bit please", "memory paused until I say so".
    r"(?:^|[.!?;:,]\s*)(?:your )?memory (?:off|paused|disabled)(?:,? please)? (?:for|during|till|until) "
    r"(?:the next|this|the rest|what follows|a (?:bit|while|minute|moment)|i say)\b",
    # "Pause the remembering for a while", "turn off your memory for now" (not "stop saving money").
    r"(?:^|[.!?;:,]\s*|\b(?:please|pls|can you|could you) )(?:pause|stop|suspend|turn off|switch off|disable)"
    r" (?:the |your )?(?:remembering|memori[sz]ing|memory|note-taking|notetaking)"
    r"(?=\s*(?:[.!?,;:]|$)|\s+(?:for (?:a (?:while|bit|moment|minute)|now|this|the next)|until|till|while|during)\b)",
    # A command-line flag or a tag: "--no-store help me draft ...", "Tag this as do-not-remember: ...".
    r"(?:^|\s)--no-?(?:store|save|memory|mem|remember)\b",
    r"\b(?:tag|mark|flag) (?:this|it) as (?:do-not|dont|don't)-(?:save|store|remember|keep)\b",
    # The sixteenth set's. "I don't want this saved but ...", "... any of this saved in case he looks":
    # wanted unkept whatever follows, unless a place that is not a memory does.
    r"\b(?:don't|do not) want (?:this|it|any of (?:this|it)|all of this|none of this|this stuff)"
    r" (?:to be |getting )?" + _DONE_WORD + r"\b(?!\s+(?:in|on|at|under|inside|into|with|near)\s+"
    r"(?!(?:your |my |the )?(?:memory|profile|notes|records?|system)\b|case\b|this\b))",
    # "This stays unsaved, please", "I'd like none of it kept", "not something I want you holding onto".
    r"\b(?:this|it)(?: one| part| bit| message)? (?:stays|remains|should stay|can stay)"
    r" (?:unsaved|unrecorded|unlogged|unstored)\b",
    r"\b(?:i'd like|i would like|i want) none of (?:it|this) (?:kept|saved|stored|remembered|recorded)\b",
    r"\bnot something i want you (?:holding onto|holding on to|keeping|saving|storing|remembering|to keep|to save"
    r"|to remember)\b",
    # "Is it possible for you to just not keep this one?", "I would like you to please not save this".
    r"\b(?:for you to|(?:i'd like|i would like|i want|i need) you to)(?: please| kindly| just){0,2} not "
    r"(?:save|store|keep|remember|record|log|retain) (?:this|that|it|any of (?:this|it)|anything)\b",
    # "Would it be ok if this didn't get saved?", "I'd prefer it if this wasn't stored".
    r"\b(?:would it be|is it|it'd be|it would be) (?:ok|okay|alright|fine|possible) if (?:this|it|that)(?: one)?"
    r" (?:didn't|did not|doesn't|does not|wasn't|isn't|won't|wouldn't) (?:get |be )?" + _DONE_WORD + r"\b",
    # "If you could leave this out of whatever you keep on me".
    r"\bleave (?:this|it|that)(?: one)? out of (?:your (?:memory|notes|records?|profile)|what(?:ever)? you"
    r" (?:keep|know|have|store|remember))\b",
    # "I'm not comfortable with this being stored", "I'm trusting you not to keep this", "on the understanding
    # that it won't be saved", "I'm assuming you won't store it", "this isn't something I want carried over".
    r"\bnot comfortable with (?:this|it|that) being " + _DONE_WORD + r"\b",
    r"\btrust(?:ing)? you (?:not to|to not) (?:save|store|keep|remember|record|log)"
    r" (?:this|it|that|any of (?:this|it))\b",
    r"\bon the understanding that (?:this|it) (?:won't|will not|isn't going to|is not going to|doesn't|does not)"
    r" (?:get |be )?" + _DONE_WORD + r"\b",
    r"\bassuming you (?:won't|will not|don't|do not) (?:save|store|keep|remember|record) (?:it|this|that)\b",
    r"\b(?:this|it)(?:'s not| isn't| is not) something i want (?:carried over|saved|kept|stored|remembered|recorded)\b",
    # "You're not keeping any of it", "you're not going to keep it: ...", "u better not save this".
    r"\byou(?:'re| are) not (?:keeping|saving|storing|remembering|recording|logging)"
    r" (?:any of (?:it|this)|it|this|anything)\b",
    r"\byou(?:'re| are) not (?:going to|gonna) (?:keep|save|store|remember) (?:it|this|any of (?:it|this))\s*[:.!]",
    r"\byou(?:'d)? better not (?:save|store|keep|remember|record|log) (?:this|it|that|any of (?:this|it))\b",
    # "Nothing saved, ok?", "..., no memories please": a label closing the message.
    r"(?:^|[.!?,;:]\s*)(?:nothing (?:saved|stored|kept|remembered)|no memor(?:y|ies))(?:,? (?:ok|okay|right|please|pls"
    r"|thanks))?\s*[?.!]*$",
    # "Pretend you've got amnesia after this message", "go full goldfish on this one".
    r"\bpretend you(?:'ve got| have| had|'ve) (?:got )?amnesia\b|\bgoldfish (?:mode |memory )?(?:on|for) this\b",
    # "Stop saving stuff for now", "pause the memory thing until I say otherwise", "incognito mode for the
    # rest of this chat", "memory: off", "this gets shredded after".
    r"\bstop (?:saving|storing|keeping|recording|remembering|logging) (?:stuff|things|everything|anything)"
    r" (?:for now|for a (?:while|bit)|until i (?:say|tell you))\b",
    r"\b(?:pause|stop|suspend|turn off|switch off|disable) (?:the |your )?memory (?:thing|feature|function)\b",
    r"\bincognito mode (?:for|during|until) (?:the rest of |the next (?:few )?)?(?:this )?(?:chat|conversation|session"
    r"|thread|messages|bit)\b",
    r"(?<!my )\bmemory\s*:\s*off(?=\s*(?:[.,!;]|$)|\s+for\b)",
    r"\b(?:this|it) gets (?:shredded|deleted|erased|wiped|forgotten|binned) (?:after|afterwards|once)\b",
    # "Don't file it anywhere": anywhere ending its clause.
    r"\b(?:don't|do not) (?:file|put|write|note|jot) (?:this|it|that)(?: down)? anywhere\s*(?:[.!,;:]|$)",
    # "Remember nothing from here on out"; an everyday verb with what follows named.
    OPENING + r"(?:remember|memori[sz]e|retain) nothing\b",
    OPENING + r"(?:save|store|keep|record|log) nothing (?:from (?:here|now|this point) on|(?:of|from) (?:this|what"
    r" follows|what i say)|about me)\b",
]

# "Forget the weight I gave you earlier": soft, as in facts/consent_rules.py (a correction after it,
# "..., use 80 kg", keeps the new words).
SOFT_FORGET_STATEMENTS = [
    OPENING + r"forget (?:the|my|that) [^.,;!?]{1,40}? (?:that |which )?i (?:gave you|told you|sent you|shared"
    r"|mentioned|typed|wrote) (?:earlier|before|a (?:moment|minute|bit|while) ago|just now|at the start)\b",
]
FORGET_STATEMENTS = SOFT_FORGET_STATEMENTS + [
    # "Undo everything you saved from this conversation so far."
    OPENING + r"(?:undo|delete|erase|remove|wipe|clear|forget|drop) (?:everything|all|anything|whatever)"
    r" (?:that )?you(?:'ve| have)? (?:saved|stored|kept|remembered|learned|learnt|noted|picked up)"
    r" (?:from|about me from|in) (?:this|our|today's) (?:chat|conversation|session|thread)\b",
    # "Roll back your memory to before I started talking about work."
    r"\broll (?:back )?(?:your |the )?memor(?:y|ies)(?: back)? to (?:before|the start|the beginning|where)\b",
    # "Can you wipe the past few messages?", "the last couple msgs, dont keep them".
    OPENING + r"(?:wipe|delete|erase|remove|clear|forget|drop|scrap) (?:the|my) (?:past|last|previous) "
    r"(?:few|couple(?: of)?|two|three|four|five|\d{1,2}) messages\b"
    # ...not "in the group chat" or "on WhatsApp": messages elsewhere, deleted there.
    r"(?!\s+(?:in|on|at)\s+(?!(?:this|our) (?:chat|conversation)\b|(?:your |the )?memory\b))",
    r"\b(?:the|my) (?:last|previous|past) (?:couple(?: of)?|few|two|three|\d{1,2}) messages\b[^.!?]{0,20}"
    r"\b(?:don't|do not) (?:keep|save|store|remember|record|log) (?:them|those)\b",
    # "Too much info, please forget the last paragraph" (a draft's last paragraph is not: no privacy word).
    r"\b(?:too much|tmi|overshar\w*|private|personal)\b[^.!?]{0,40}\bforget (?:the|my|that) (?:last|previous)"
    r" (?:paragraph|line|few lines|sentence)\b",
    # "Could you drop whatever you noted about my visa situation?", "whatever you saved about my medication
    # earlier, get rid of it".
    OPENING + r"(?:drop|delete|remove|forget|erase|clear|get rid of|wipe) (?:whatever|everything|anything|what)"
    r" you(?:'ve| have)? (?:noted|saved|stored|kept|remembered|learned|learnt|picked up) about (?:my|me)\b",
    r"\bwhatever you(?:'ve| have)? (?:saved|stored|noted|kept|remembered) about (?:my|me)\b[^.!?]{0,40}"
    r"\b(?:get rid of|delete|drop|forget|remove|erase|clear|lose|wipe) (?:it|that|them)\b",
    # "I really don't want what I wrote about my mother-in-law sitting in your memory."
    r"\b(?:i (?:really )?(?:don't|do not) want|i'd rather not have) " + WHAT_I_SAID + r"[^.!?]{0,80}?"
    r"\b(?:sitting|staying|stored|saved|kept|living|hanging around) (?:in|on) " + PLACE,
]

WITHHOLD_STATEMENT_RE = Patterns(WITHHOLD_STATEMENTS)
FORGET_STATEMENT_RE = Patterns(FORGET_STATEMENTS)
