"""Third held-back labelled set for the "don't remember this" detector (issue 37).

Written on 2026-11-28 by someone who had not seen the detector or its other
labelled sets, so that these phrases are independent of its rules.

THIRD_POSITIVE holds (message, label) pairs in which an end user asks a chat
assistant with long-term memory not to keep something:

- WITHHOLD: do not keep THIS message, or what I am saying now or next.
- FORGET_PREVIOUS: drop what I said in my PREVIOUS message.

THIRD_NEGATIVE holds messages that look similar but are NOT such a request:
the user's own memory, asking the assistant TO remember, "forget it" meaning
never mind, everyday save/store/keep/record/log/delete, quoted or reported
requests by other people, questions about how memory works, "off the record"
about others, and negated requests about other things.
"""

WITHHOLD = "withhold"
FORGET_PREVIOUS = "forget_previous"

THIRD_POSITIVE: list[tuple[str, str]] = [
    # --- withhold (35) ---
    ("Please don't remember this: my sister's due date is March 3rd.", WITHHOLD),
    ("don't save this one, but my bank PIN hint is my childhood dog", WITHHOLD),
    (
        "I'd rather you didn't keep a note of this. I've been seeing a therapist for anxiety.",
        WITHHOLD,
    ),
    (
        "Is there a way you can not keep this? I was diagnosed with ADHD last year.",
        WITHHOLD,
    ),
    (
        "This shouldn't be saved anywhere: I'm interviewing with a competitor next week.",
        WITHHOLD,
    ),
    (
        "Do not memorise this, please. My landlord's number is 07700 900123.",
        WITHHOLD,
    ),
    ("don't memorize any of this, i'm just venting", WITHHOLD),
    (
        "Can you not store this in your memory? I'm pregnant but haven't told anyone yet.",
        WITHHOLD,
    ),
    ("Please don't log this conversation.", WITHHOLD),
    ("My salary is 85k. Don't record that anywhere.", WITHHOLD),
    (
        "Keep this between us and don't add it to my profile: I failed my driving test again.",
        WITHHOLD,
    ),
    ("don't write this down: the gate code is 4471", WITHHOLD),
    (
        "I'm going to tell you something, but please don't hold onto it afterwards.",
        WITHHOLD,
    ),
    (
        "For this next bit, don't retain anything I say. I owe my brother about two thousand pounds.",
        WITHHOLD,
    ),
    (
        "Not something you should remember, but I've started taking antidepressants.",
        WITHHOLD,
    ),
    (
        "Quick one, no need to save this to memory: my flight lands at 6.",
        WITHHOLD,
    ),
    (
        "Forget this as soon as we're done: my ex's new address is 14 Elm Road.",
        WITHHOLD,
    ),
    (
        "Temporary info only, don't keep it: the wifi password at my mum's is sunflower22.",
        WITHHOLD,
    ),
    (
        "I'm telling you this in confidence and I don't want it stored. I've got a court date in January.",
        WITHHOLD,
    ),
    ("Please do not commit this to memory.", WITHHOLD),
    (
        "Can this stay out of your long-term memory? My son is being assessed for autism.",
        WITHHOLD,
    ),
    (
        "Hey, I need help drafting a resignation letter. Please don't remember "
        "any of it, my boss doesn't know yet. It should be polite and short.",
        WITHHOLD,
    ),
    ("Don't put this in my profile, but I'm allergic to latex.", WITHHOLD),
    (
        "Here's my medical history for this chat only, don't keep it after: asthma, two surgeries, penicillin allergy.",
        WITHHOLD,
    ),
    ("I don't want you remembering this.", WITHHOLD),
    ("what i'm about to say stays in this chat. don't save it.", WITHHOLD),
    (
        "Please make sure none of this gets logged to my memory, it's about my finances.",
        WITHHOLD,
    ),
    (
        "I'd prefer it if you didn't memorise my address, it's 22 Baker Lane, Leeds.",
        WITHHOLD,
    ),
    (
        "Could you avoid storing this? I'm job hunting while still employed.",
        WITHHOLD,
    ),
    (
        "don't remember this pls, it's embarrassing: I cried at a car advert today",
        WITHHOLD,
    ),
    (
        "Could you please not save the following to memory. My partner and I are doing IVF.",
        WITHHOLD,
    ),
    (
        "One-time thing, not to be kept: my passport number is 123456789.",
        WITHHOLD,
    ),
    (
        "Can you help me plan a surprise party for Jen on the 12th? Don't store "
        "any of this in your memory, she sometimes uses my account. We have "
        "about 20 guests.",
        WITHHOLD,
    ),
    (
        "off the record, I'm thinking about leaving my husband. please don't retain this.",
        WITHHOLD,
    ),
    (
        "My favorite color is green but I don't want that recorded in my profile.",
        WITHHOLD,
    ),
    # --- forget_previous (15) ---
    ("Actually, forget what I just said.", FORGET_PREVIOUS),
    ("Please delete that last message from your memory.", FORGET_PREVIOUS),
    (
        "Scratch that, don't remember what I told you about my job.",
        FORGET_PREVIOUS,
    ),
    (
        "Can you erase what I said a moment ago about my health?",
        FORGET_PREVIOUS,
    ),
    ("I shouldn't have shared that. Please don't keep it.", FORGET_PREVIOUS),
    (
        "Disregard my previous message and don't store it anywhere.",
        FORGET_PREVIOUS,
    ),
    ("oops, that was private. forget I mentioned it", FORGET_PREVIOUS),
    (
        "The thing I said about my brother's debts, please remove it from your memory.",
        FORGET_PREVIOUS,
    ),
    ("Don't keep what I just told you, I overshared.", FORGET_PREVIOUS),
    (
        "Could you wipe my last message from whatever you've saved about me?",
        FORGET_PREVIOUS,
    ),
    (
        "On second thought, I'd rather you didn't remember my previous answer.",
        FORGET_PREVIOUS,
    ),
    ("That address I gave you just now - please forget it.", FORGET_PREVIOUS),
    (
        "please drop that from memory, the bit about my divorce",
        FORGET_PREVIOUS,
    ),
    (
        "Ugh, ignore that last message, and definitely don't save it to my profile.",
        FORGET_PREVIOUS,
    ),
    (
        "Hmm, the stuff about my medication above shouldn't have been stored. Can you un-save it?",
        FORGET_PREVIOUS,
    ),
]

THIRD_NEGATIVE: list[str] = [
    # the user's own memory
    "I can't remember where I parked the car.",
    "I keep forgetting my passwords, any tips for a password manager?",
    "My grandma doesn't remember my name anymore. How do I cope?",
    # asking the assistant TO remember
    "Please remember that I prefer metric units.",
    "Remember this: my daughter's birthday is June 4th.",
    "Please note that I'm vegetarian when suggesting recipes.",
    "Can you keep track of my reading list for me?",
    "Take note: the team meeting moved to Thursday.",
    "I don't want to forget my anniversary again, can you remind me each year?",
    "Do you remember what we talked about last week?",
    # "forget it" meaning never mind
    "Forget it, I'll figure out the recipe myself.",
    "oh forget it, never mind",
    "Forget about the budget for now, let's focus on the itinerary.",
    # everyday save/store/keep/record/log/note/delete/erase
    "How do I save money on groceries?",
    "What's the best way to store fresh basil?",
    "Should I keep my receipts for tax purposes?",
    "Can you help me record a voice memo on my iPhone?",
    "How do I log my running distance in Strava?",
    "How do I delete a file permanently on Windows?",
    "Can I erase a whiteboard marker stain from my shirt?",
    "How long does cooked rice keep in the fridge?",
    "Is it safe to store batteries in the freezer?",
    "I forgot to save my Word document and the laptop crashed. Can I recover it?",
    "Write down a shopping list for lasagna.",
    "I need to record the minutes for tomorrow's meeting, any template?",
    "Should I retain a lawyer for a small claims case?",
    "Can you save me some time and summarise this article?",
    "How do I stop my phone from keeping location history?",
    "Is there a way to stop Chrome from saving my card details?",
    "How do I clear my browser history?",
    "What's the difference between RAM and storage?",
    "I deleted my Instagram account last night. Good idea?",
    "Hold onto your hat, I've got big news: I got the job!",
    "Keep it short please, I'm in a hurry.",
    # quoted or reported requests by someone else
    "My boss said 'don't remember this' in the meeting and then told us about layoffs. What should I do?",
    "My friend asked me not to save her number, is that weird?",
    "My therapist said she won't keep notes of our sessions. Is that normal?",
    'The sign said "do not record this performance". Can I film anyway?',
    "She told me 'please don't tell anyone', so I haven't. Was I right?",
    "My son asked his teacher not to record his absence. Can she do that?",
    "My manager logs every minute we spend on breaks. Is that legal in the UK?",
    # questions about how the feature works
    "How does your memory feature work?",
    "Can you show me what you remember about me?",
    "Do you store my conversations forever?",
    "Is it possible to turn off memory in settings, or is it always on?",
    # "off the record" about other people
    "My colleague told me something off the record about the merger. Should I tell my team?",
    "What does 'off the record' mean in journalism?",
    # negated requests about other things
    "Don't remind me about the dentist tomorrow, I already know.",
    "Please don't log me out when I switch tabs.",
    "I'd rather you didn't use so many bullet points.",
]
