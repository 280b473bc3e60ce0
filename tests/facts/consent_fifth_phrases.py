"""Fifth held-back labelled set for the "don't remember this" detector (issue 37).

Written on 2026-11-28 by someone who had seen neither the detector nor its other
labelled sets, so that these phrases are independent of its rules.
Positives imitate consumer chat-assistant users: non-native speakers, phone typing with no
apostrophes or capitals, annoyed users, very formal users, and requests buried at the start,
middle or end of long messages about health, money, relationships, work, legal trouble, kids
and passwords. WITHHOLD items ask that the current or upcoming message not be kept; some name
the feature (memory, saved memories, personalization, my profile, chat history, what you learn
about me) and some do not ("this is private", "off the record", "just for this chat").
FORGET_PREVIOUS items ask that earlier messages be forgotten, deleted or removed. Negatives
cover the user's own memory, requests to remember or save, "forget it" / "never mind" /
"scratch that" as topic changes or corrections, everyday saving, deleting, logging and
recording, other people's requests reported indirectly, plain questions about the memory
feature, "private" / "confidential" describing other things, and negated requests about
other actions ("don't remind me", "don't use emojis").
"""

WITHHOLD = "withhold"
FORGET_PREVIOUS = "forget_previous"

FIFTH_POSITIVE: list[tuple[str, str]] = [
    # --- WITHHOLD ---
    ("pls dont save this one, its about my ex", WITHHOLD),
    ("Before I start: none of what follows should go into your memory, ok?", WITHHOLD),
    ("Kindly refrain from retaining the contents of this message in my profile.", WITHHOLD),
    ("this is private. don't keep it", WITHHOLD),
    ("off the record, my boss is being investigated and I might end up a witness", WITHHOLD),
    (
        "I have a question about my HIV test results but I don't want this stored anywhere in your saved memories.",
        WITHHOLD,
    ),
    (
        "Can you help me write a resignation letter? Also do not add any of this to what you learn about me.",
        WITHHOLD,
    ),
    ("no memory for this chat please", WITHHOLD),
    (
        "just for this conversation, don't carry it over: I'm 8 weeks pregnant and haven't told anyone yet",
        WITHHOLD,
    ),
    (
        "My password for the router is hunter22 lol, don't save that obviously, just help me "
        "figure out why the wifi keeps dropping",
        WITHHOLD,
    ),
    ("Confidential, don't keep it: I owe about 40k on credit cards.", WITHHOLD),
    ("Please exclude this message from personalization.", WITHHOLD),
    ("im going to tell u something and i need u to not remember it after, ok?", WITHHOLD),
    ("Do not log this. My son was arrested last night and I need to understand bail.", WITHHOLD),
    (
        "Hey quick one (don't note this down in my profile): what's a normal starting dose of sertraline?",
        WITHHOLD,
    ),
    (
        "Por favor no guardes esto... sorry, english: please not save this in memory, is about my visa problem",
        WITHHOLD,
    ),
    (
        "I prefer you not to memorize what I write now, it is personal matter about my husband.",
        WITHHOLD,
    ),
    ("Don't remember any of this: I'm thinking of leaving my wife.", WITHHOLD),
    ("Between us and not for your memory: I got fired today.", WITHHOLD),
    ("keep this out of chat history if u can", WITHHOLD),
    (
        "I'd rather this didn't end up in what you know about me. I was diagnosed with "
        "bipolar disorder last year and I want tips for talking to my manager about it.",
        WITHHOLD,
    ),
    (
        "Ugh. Do NOT save this. I'm so sick of the memory thing picking up everything I say.",
        WITHHOLD,
    ),
    (
        "For this message only, turn off memory: my landlord is threatening to evict me.",
        WITHHOLD,
    ),
    (
        "this one's not for the profile k? need help w a letter to my kid's school about bullying",
        WITHHOLD,
    ),
    (
        "I'm going to paste my bank statement so you can find the duplicate charge. Please "
        "don't retain any of it once we're done.",
        WITHHOLD,
    ),
    ("Sensitive stuff incoming, please don't store.", WITHHOLD),
    (
        "Dear assistant, I request that the information below not be recorded in your memory under any circumstances.",
        WITHHOLD,
    ),
    (
        "pls forget this as soon as you've answered: how do I get a restraining order in Ohio",
        WITHHOLD,
    ),
    (
        "Hi. I am writing from my work computer. Please not keep this chat in history. I need "
        "advice about harassment from colleague.",
        WITHHOLD,
    ),
    ("dont learn anything from this msg", WITHHOLD),
    (
        "Asking for a friend (ok it's me) and I don't want it in my saved memories: can you get an STD from oral?",
        WITHHOLD,
    ),
    ("Can you not add this to my memory? I'm in a lot of debt and embarrassed.", WITHHOLD),
    (
        "You can answer but don't hold on to it afterwards: I had a miscarriage in March.",
        WITHHOLD,
    ),
    (
        "Not something you should remember about me, but I've been sober 3 months after a "
        "relapse and I'm scared of the holidays.",
        WITHHOLD,
    ),
    (
        "Quick legal q, keep it out of your memory please. Can my employer read my personal emails on a work laptop?",
        WITHHOLD,
    ),
    ("Whatever I type next is private and should not be saved.", WITHHOLD),
    ("Memory off for this, thanks. What are the side effects of Accutane?", WITHHOLD),
    (
        "Please treat this conversation as ephemeral; do not persist any details about me from it.",
        WITHHOLD,
    ),
    (
        "don't put this in my profile but I'm gay and planning to come out to my parents, how do I even start",
        WITHHOLD,
    ),
    (
        "I don't want you storing my salary. It's 62,000 a year, is that enough to rent alone in Lisbon?",
        WITHHOLD,
    ),
    (
        "Sorry my english. This is secret thing, you no remember please. My brother take money from my mother account.",
        WITHHOLD,
    ),
    (
        "ok so this stays between us and doesn't go into your memory feature: I think my teenager is self-harming",
        WITHHOLD,
    ),
    (
        "Help me draft a complaint to HR. Important: nothing from this should be saved to your long-term memory.",
        WITHHOLD,
    ),
    ("just this once don't keep notes on what I say", WITHHOLD),
    (
        "I'll give you my medical history for context but I don't consent to it being remembered.",
        WITHHOLD,
    ),
    (
        "Please don't save the following to my personalization settings: my kids' names and their school.",
        WITHHOLD,
    ),
    (
        "No storing. Period. I'm sharing my tax numbers only so you can check the math.",
        WITHHOLD,
    ),
    (
        "can this one be unremembered? like don't keep it. it's about my therapy session",
        WITHHOLD,
    ),
    (
        "Before you answer, make sure this isn't saved: my passport number is X1234567, is "
        "that a valid format for an ESTA?",
        WITHHOLD,
    ),
    ("Respectfully, I ask that you not record what I am about to disclose.", WITHHOLD),
    ("mmm this is embarrassing so dont memorize it pls. how do i stop sweating so much", WITHHOLD),
    ("Do not retain: I am undocumented and want to know what my options are.", WITHHOLD),
    (
        "I want advice on my divorce but I don't want it to become part of what you learn about me. Can you do that?",
        WITHHOLD,
    ),
    (
        "This part is confidential, don't keep it. We're planning layoffs in Q1 and I need "
        "talking points for the team leads.",
        WITHHOLD,
    ),
    ("skip memory on this one", WITHHOLD),
    ("Please don't remember that I told you this, but I cheated on my exam.", WITHHOLD),
    (
        "Just for this chat: here's the burner email I use for dating apps, don't hang onto it.",
        WITHHOLD,
    ),
    (
        "ne pas sauvegarder svp, I mean don't save, it's my bank details for a transfer question",
        WITHHOLD,
    ),
    (
        "I'm trusting you not to keep this: I've been having thoughts about hurting myself lately.",
        WITHHOLD,
    ),
    ("Leave this out of my profile: I'm on the waiting list for a kidney transplant.", WITHHOLD),
    (
        "yo don't stash this in ur memory lol, I'm applying to other jobs behind my boss's back",
        WITHHOLD,
    ),
    (
        "My daughter (14) has been skipping school and I found vapes in her bag. I don't "
        "know what to do. Please don't save any of this about her.",
        WITHHOLD,
    ),
    ("don't memorize this", WITHHOLD),
    (
        "Long story, sorry. My mum moved in with us after her fall, my husband is furious, "
        "the kids are sharing a room and I'm paying her care bills from our savings without "
        "telling him. I need a plan for talking to him this weekend. Please keep all of this "
        "out of your memory, I don't want it following me around.",
        WITHHOLD,
    ),
    # --- FORGET_PREVIOUS ---
    ("Forget what I just told you about my dad.", FORGET_PREVIOUS),
    (
        "Please delete my last message from your memory, I shouldn't have shared that.",
        FORGET_PREVIOUS,
    ),
    ("can u erase what i said before? the stuff about my debts", FORGET_PREVIOUS),
    (
        "Actually, scrub the previous two messages from memory, they had my home address.",
        FORGET_PREVIOUS,
    ),
    (
        "I regret telling you about my diagnosis. Please remove it from what you remember about me.",
        FORGET_PREVIOUS,
    ),
    ("Wait, I pasted my password above. Forget that immediately.", FORGET_PREVIOUS),
    (
        "Disregard and do not keep anything I wrote earlier in this chat about my coworker.",
        FORGET_PREVIOUS,
    ),
    (
        "That thing I mentioned a minute ago about my ex? Wipe it from your memory.",
        FORGET_PREVIOUS,
    ),
    ("Pls unremember my last msg", FORGET_PREVIOUS),
    (
        "I would like the information in my previous message to be deleted from your saved memories.",
        FORGET_PREVIOUS,
    ),
    (
        "Oops that was private. Forget it, and I mean really forget it, don't store what I just said.",
        FORGET_PREVIOUS,
    ),
    ("Can you drop what I said earlier about my salary from my profile?", FORGET_PREVIOUS),
    (
        "Erase everything I told you in the last few messages about my health, please.",
        FORGET_PREVIOUS,
    ),
    (
        "Sorry, I overshared. Please don't keep the part above about my sister's rehab.",
        FORGET_PREVIOUS,
    ),
    ("Remove the earlier bit where I gave you my SSN.", FORGET_PREVIOUS),
    (
        "Hey, the stuff I said yesterday about my marriage, please take it out of your memory.",
        FORGET_PREVIOUS,
    ),
    (
        "I change my mind, the before message about my visa, please you delete from memory.",
        FORGET_PREVIOUS,
    ),
    ("Undo saving that last thing. I don't want it remembered.", FORGET_PREVIOUS),
    (
        "My previous message had my kid's full name and school. Please forget it entirely.",
        FORGET_PREVIOUS,
    ),
    (
        "Ignore and forget what I said above about the lawsuit; I'm not supposed to discuss it.",
        FORGET_PREVIOUS,
    ),
    ("Delete that from memory. The part about my meds.", FORGET_PREVIOUS),
    ("ugh why did i say that. forget the last thing pls, dont save it", FORGET_PREVIOUS),
    (
        "Please purge my earlier disclosure regarding my criminal record from your stored memories.",
        FORGET_PREVIOUS,
    ),
    ("The pregnancy thing I told you before, don't keep it. Forget it.", FORGET_PREVIOUS),
    ("Can you un-save what I said about my bank a couple messages back?", FORGET_PREVIOUS),
    ("I want you to forget my earlier messages in this chat. All of them.", FORGET_PREVIOUS),
    (
        "Whatever you picked up about my mental health from what I wrote earlier, clear it from my profile.",
        FORGET_PREVIOUS,
    ),
    ("Hmm, on second thought, forget that I told you where I work.", FORGET_PREVIOUS),
    (
        "no wait, delete what i just sent from your memory, that was meant for my sister",
        FORGET_PREVIOUS,
    ),
    (
        "Please erase my last reply from chat history and from your memory. It included my home address.",
        FORGET_PREVIOUS,
    ),
    (
        "Retract what I told you earlier about my boss, I don't want that remembered.",
        FORGET_PREVIOUS,
    ),
    (
        "Things I said before about my debts: forget them, they're not for your memory.",
        FORGET_PREVIOUS,
    ),
    ("forget my last message", FORGET_PREVIOUS),
    (
        "Okay so earlier I went on a whole rant about my brother-in-law, his gambling, the "
        "loan we gave him and how my wife keeps defending him. I was angry and I said too "
        "much. Please erase all of that from your memory and my profile, I don't want it "
        "coming up again in later chats.",
        FORGET_PREVIOUS,
    ),
]

FIFTH_NEGATIVE: list[str] = [
    # the user's own memory or forgetting
    "I keep forgetting to take my pills in the morning, any tricks?",
    "How can I remember people's names better at networking events?",
    "I don't remember if I paid the electricity bill, how do I check?",
    "My grandmother doesn't remember me anymore. How do I cope with that?",
    "I want to forget my ex, how do people move on after 5 years?",
    "Is it normal to not remember your dreams?",
    "I forgot my password for my bank app, what should I do",
    "My memory has been terrible since covid. Should I see a neurologist?",
    "I deleted my ex's number but I still remember it by heart, ugh.",
    "I have a bad memory for numbers. Tips for memorizing my new phone number?",
    (
        "I'm trying to remember the name of a song from the 90s, it had whistling in the "
        "chorus and a woman singing about a train."
    ),
    "Remind me what the capital of Australia is, I always forget.",
    # asking the assistant TO remember or save
    "Please remember that I'm vegetarian when you suggest recipes.",
    "Save this to memory: my daughter's birthday is June 3.",
    "Can you keep in mind that I live in Manila for future questions?",
    "Remember my preferred name is Sam, not Samuel.",
    "Add to my profile that I'm allergic to penicillin.",
    "Do remember this for next time, I use metric units.",
    "Don't forget that I'm in a different timezone than you think.",
    "pls never forget that i hate cilantro lol",
    "Is there a way to turn on memory? I can't find the setting.",
    # "forget it" / "never mind" / "scratch that" as topic change or correction
    "Never mind, I figured it out.",
    "Forget it, let's talk about something else. What's a good movie for tonight?",
    "Scratch that, I meant Tuesday not Thursday.",
    "Ignore my last question, the answer was in the manual.",
    "Actually forget the budget thing, can you help me plan a trip instead?",
    "oh forget about it, the shop is closed anyway",
    "Disregard the spreadsheet I pasted before, here's the corrected version.",
    "Forget the formal tone, make the email more casual.",
    "Wait no, scratch the second paragraph, it's too long.",
    "Forget about Paris, what about Lisbon for a honeymoon?",
    "nvm about the recipe, my husband already bought takeout",
    # everyday keeping / saving / deleting / recording / logging
    "How do I save money on groceries as a student?",
    "Should I keep my receipts for taxes, and for how long?",
    "How long can I keep cooked rice in the fridge?",
    "How do I delete photos from iCloud without deleting them from my phone?",
    "I want to start logging my workouts, what app do you recommend?",
    "Can I record a meeting on Zoom without the host knowing?",
    "Is it weird to keep a diary at 40?",
    "My phone storage is full, which voice memos can I safely delete?",
    "How do I erase a hard drive before selling my laptop?",
    "Help me write a note to my landlord about the broken heater.",
    "My bank saves my card details, is that safe?",
    "Do I need to keep old payslips after I change jobs?",
    "I accidentally deleted a WhatsApp chat, can I get it back?",
    "How do I stop Chrome from saving my passwords?",
    "What's the best way to store breast milk?",
    ("Our team never takes notes in meetings and we keep forgetting decisions, what process would help?"),
    "Should I clear my browser history before lending my laptop to my nephew?",
    "Is it safe to store my passwords in a notes app?",
    ("I recorded a voice memo of my dad's stories before he passed. How can I keep it safe forever?"),
    ("The app logged me out and now my saved workouts are gone. Is there a way to restore them?"),
    ("My son lost his phone and all his saved passwords with it. How do we recover his school account?"),
    "My accountant logs every expense I send him, is that standard?",
    "Not to be dramatic but my landlord kept my whole deposit. What can I do?",
    # other people's requests reported without quotes
    ("My doctor told me not to write down my symptoms every day because it makes my anxiety worse. Is that right?"),
    "My lawyer said not to keep any texts from my ex, is that normal advice?",
    "My boss asked me to delete the recording of yesterday's call. Can he require that?",
    "My wife wants me to forget about the argument but I can't.",
    "The therapist said I should stop logging every calorie I eat.",
    (
        "My friend told me something in confidence and asked me to forget she ever said it, "
        "which is impossible. How do I handle that?"
    ),
    "My teen asked me not to save her photos on the family computer. Fair?",
    "I told my sister a secret and now she's telling everyone. How do I confront her?",
    # questions about the memory feature that ask for nothing
    "How long do you keep chats?",
    "What do you remember about me?",
    "Does the memory feature work across devices?",
    "Where can I see my saved memories?",
    "Is chat history used to train your model?",
    "Do you remember what we talked about last week?",
    "How does personalization decide what to save?",
    "If I delete a conversation, is it gone from your memory too?",
    "Can my family see my chat history if we share an account?",
    "is memory turned on by default or did I do that",
    "Can I export my saved memories to a file?",
    # "private" / "confidential" describing something else
    "Is a private school worth it for a kid with ADHD?",
    "I handle confidential documents at work, how should I organize them?",
    "How do I make my Instagram account private?",
    "We're planning a private ceremony, just 20 guests. Ideas?",
    "Can I hire a private investigator to find my birth father?",
    "What's the difference between private and public health insurance in Germany?",
    "I signed a confidentiality agreement, can I still tell my spouse my salary?",
    ("Our merger is still confidential, how do I answer friends who keep asking about layoffs at my company?"),
    "How do I send a private message on LinkedIn?",
    "Is my therapist legally required to keep what I say confidential?",
    # negated requests about other actions
    "Don't remind me about the gym tomorrow, I'm taking a rest day.",
    (
        "How do I plan a surprise party without my wife finding out? Don't suggest asking her "
        "sister, she can't keep secrets."
    ),
    "Don't sugarcoat it, is my business plan bad?",
    "Don't use emojis in the reply please.",
    "Don't give me medical jargon, explain like I'm 12.",
    "dont send me a long list, just the top 3",
    "Don't judge me but I ate a whole pizza alone.",
    "Don't rewrite the whole thing, just fix the grammar.",
    "Don't mention my age in the cover letter.",
    "Don't tell me to see a doctor, I already did.",
    "I'm not asking you to keep secrets, I just want advice on my credit score.",
    # other look-alikes
    (
        "My husband and I keep arguing about money. He saves everything and I spend. How do "
        "we find a middle ground without fighting every month?"
    ),
    "Can you help me make a list of journaling prompts my therapist recommended?",
    "Keep it short please, I'm on my phone.",
    "Keep this tone for the rest of the emails.",
    "Note: the meeting is at 3pm EST, convert it to CET for me.",
    "Can you save me some time and summarize this article?",
    "This is just for my own notes: list the steps to renew a passport in India.",
    "Never mind, thanks.",
    (
        "I've been keeping a spreadsheet of every expense since January, receipts scanned and "
        "saved in a folder, but my partner says it's obsessive and I should just delete it "
        "and use a banking app. I don't want to lose the history though. What's a sensible "
        "way to keep records without it taking over my evenings?"
    ),
]
