"""Seventh held-back labelled set for the "don't remember this" detector (issue 37).

Written on 2026-11-28 blind: by someone who had seen neither the detector nor its other labelled sets (only the
shape of the sixth set's first lines), so that these phrases are independent of its rules. The positives mix
lowercase texting with typos, all caps, very formal and non-native English, British and American usage, emoji,
polite wishes and conditionals, requests at the start, middle or end of messages about health, money, legal
trouble, relationships, children, work and passwords, and requests without a memory verb ("just between the two of
us", "pretend you never heard this", "leave no trace"); about a fifth ask that the previous message be dropped. The
negatives are look-alikes: the user's own memory, requests to remember or explicit permission to keep, "forget it"
topic changes and corrections, everyday save/delete/record/log/keep talk about files, money, food and code, reported
speech, questions about how the memory feature works, fiction, dialogue and translation, and drafting instructions.
"""

WITHHOLD = "withhold"
FORGET_PREVIOUS = "forget_previous"

SEVENTH_POSITIVE: list[tuple[str, str]] = [
    (
        "keep this one out of your notes pls. my ex has been texting me again and i dont know if i should reply",
        WITHHOLD,
    ),
    (
        "Purely off the record — how bad is it to miss two mortgage payments in a row?",
        WITHHOLD,
    ),
    (
        "Please do not retain anything from this message. I need help wording a complaint about my manager to HR.",
        WITHHOLD,
    ),
    (
        "just between the two of us ok? i think im pregnant and havent told anyone, not even him",
        WITHHOLD,
    ),
    (
        "Consider this exchange unrecorded: what are the early signs of Alzheimer's? My dad keeps forgetting names.",
        WITHHOLD,
    ),
    (
        "DO NOT STORE THIS. MY NEW WIFI PASSWORD IS Tulip!882 AND I WANT TO KNOW IF ITS STRONG ENOUGH",
        WITHHOLD,
    ),
    (
        "I'd appreciate it if this particular message didn't end up in your long-term memory. I've just been "
        "diagnosed with type 2 diabetes and I'm still processing it.",
        WITHHOLD,
    ),
    (
        "Kindly refrain from memorising the following: our firm is about to make 30 people redundant and I "
        "have to write the announcement.",
        WITHHOLD,
    ),
    (
        "not something i want you to keep on file, but can you explain what a DUI arrest means for my nursing license",
        WITHHOLD,
    ),
    (
        "Hey, can this chat be forgotten once we're done? My son got suspended for vaping and I need advice "
        "on how to talk to him.",
        WITHHOLD,
    ),
    (
        "pls dont log this 🙏 ive got a court date on the 14th for unpaid parking fines",
        WITHHOLD,
    ),
    (
        "Just so you know, I don't want any of this remembered. How do I tell my parents I'm dropping out of uni?",
        WITHHOLD,
    ),
    (
        "Zero memory on this one please. What's the penalty for filing taxes three months late?",
        WITHHOLD,
    ),
    (
        "Sorry my English not so good. Please you do not remember this message, it is about my visa problem, "
        "my employer take my passport.",
        WITHHOLD,
    ),
    (
        "Me and my girlfriend broke up last night. Don't keep any of this, I just need to talk it out.",
        WITHHOLD,
    ),
    (
        "Could you not add this to whatever you know about me? I'm secretly planning to propose next month.",
        WITHHOLD,
    ),
    (
        "One thing first — don't file this away anywhere. The PIN for our joint account is 4471, is that too "
        "easy to guess?",
        WITHHOLD,
    ),
    (
        "I'm going to tell you something but it's not for your memory bank: I relapsed last weekend after 8 "
        "months sober.",
        WITHHOLD,
    ),
    (
        "for the love of god do not remember this lol. i accidentally replied-all with a meme to the whole company",
        WITHHOLD,
    ),
    (
        "Strictly confidential and not to be stored: I have been approached by a competitor with a job offer."
        " How should I negotiate?",
        WITHHOLD,
    ),
    (
        "This is a no-memory question. Is it normal to bleed a bit after a wisdom tooth extraction?",
        WITHHOLD,
    ),
    (
        "don't hang onto this pls: my landlord's been entering without notice, is that legal in california",
        WITHHOLD,
    ),
    (
        "I'd rather none of this stuck around in your memory afterwards. My blood test came back with high "
        "liver enzymes.",
        WITHHOLD,
    ),
    (
        "ok incognito mode for this one, nothing kept 🤐 how do i get rid of a hickey before monday",
        WITHHOLD,
    ),
    (
        "Forget this conversation once it's over, please. I'm checking whether my husband can see my search history.",
        WITHHOLD,
    ),
    (
        "Do not memorize this: bank login is jpark_1987, password Seagull$44. I need to know how to set up 2FA.",
        WITHHOLD,
    ),
    (
        "No need to keep a note of this about me, but I've got a hernia operation on Thursday, what should I pack?",
        WITHHOLD,
    ),
    (
        "I'm telling you in confidence, so don't keep it: my brother is in rehab and we've told the family "
        "he's travelling.",
        WITHHOLD,
    ),
    (
        "pls don't put this in my profile or anywhere else. salary is 62k and i want to ask for 70",
        WITHHOLD,
    ),
    (
        "Erase this from your memory as soon as you've answered: what's the kindest way to tell a friend her "
        "husband is cheating?",
        WITHHOLD,
    ),
    (
        "Can we keep this chat off your records? I got a letter from a debt collector about a loan I never took out.",
        WITHHOLD,
    ),
    (
        "I'm asking for advice, not for you to store stuff. Don't save anything about my panic attacks, ok?",
        WITHHOLD,
    ),
    (
        "i would prefer if you didn't retain this one. how much notice do i have to give before quitting in the uk",
        WITHHOLD,
    ),
    (
        "Between us only, and please don't carry it into future chats: I cheated on my final exam.",
        WITHHOLD,
    ),
    (
        "THIS IS OFF THE RECORD!!! my teenager found my old weed stash what do i say",
        WITHHOLD,
    ),
    (
        "Disregard this for memory purposes. My partner's surgery is next Tuesday and I'm terrified.",
        WITHHOLD,
    ),
    (
        "It would be best if you didn't commit this to memory. I've been reported to the licensing board for "
        "a billing error.",
        WITHHOLD,
    ),
    (
        "dont rememebr this plz, my credit score is 540 and i want a car loan",
        WITHHOLD,
    ),
    (
        "no saving this one!! im gonna ask how to get over a crush on my best friend's bf",
        WITHHOLD,
    ),
    (
        "If it's possible for you not to store this, please don't. I'd like help drafting my will and I'm "
        "leaving nothing to my eldest.",
        WITHHOLD,
    ),
    (
        "Would it be ok if you didn't keep this? I want to ask about getting tested for chlamydia.",
        WITHHOLD,
    ),
    (
        "Leave this out of anything you remember about me: I was fired from my last job, not laid off.",
        WITHHOLD,
    ),
    (
        "Don't let this stick in your memory, ok? I went bankrupt last month and need to rebuild my credit.",
        WITHHOLD,
    ),
    (
        "Sensitive stuff incoming, so nothing from this message goes into memory please. I think my coworker "
        "is stealing from the till.",
        WITHHOLD,
    ),
    (
        "Just this once, can you not learn anything from what I'm about to say? My mom has stage 3 breast cancer.",
        WITHHOLD,
    ),
    (
        "Kindly ensure this exchange is not retained in any form. I am seeking guidance on a workplace "
        "harassment complaint.",
        WITHHOLD,
    ),
    (
        "yo dont keep this in ur memory k. my gf's birthday is sat and i forgot to get her anything",
        WITHHOLD,
    ),
    (
        "Hypothetically speaking — and please don't save this — how long does a felony stay on your record in Texas?",
        WITHHOLD,
    ),
    (
        "Keep this out of my memories in the app. I'm being investigated for insurance fraud at work and I'm innocent.",
        WITHHOLD,
    ),
    (
        "Don't write this down anywhere. My son's Roblox password is dino4eva and he's locked out.",
        WITHHOLD,
    ),
    (
        "I'd like this message to stay private, meaning not kept by you afterwards. What's a discreet way to "
        "ask for a paternity test?",
        WITHHOLD,
    ),
    (
        "mate, don't remember any of this, yeah? got absolutely battered last night and texted my ex 14 times",
        WITHHOLD,
    ),
    (
        "Would you be so kind as to not log this in your memory? My GP has referred me for a colonoscopy and "
        "I'm nervous.",
        WITHHOLD,
    ),
    (
        "Please make sure you don't remember this tomorrow: I'm behind on child support by two months.",
        WITHHOLD,
    ),
    (
        "treat this like a temporary chat and keep nothing. how long do std test results take",
        WITHHOLD,
    ),
    (
        "I'm sharing this now but I don't want it kept: my father hit me when I was a kid and I'm only now "
        "talking about it.",
        WITHHOLD,
    ),
    (
        "Not for memory: our router admin password is still admin123, how do I change it?",
        WITHHOLD,
    ),
    (
        "Here's something I don't want you remembering — my therapist thinks I might have ADHD.",
        WITHHOLD,
    ),
    (
        "Ignore this for your memory. I took out a payday loan and the interest is insane.",
        WITHHOLD,
    ),
    (
        "Can you do me a favor and not keep track of this? I'm applying for jobs abroad and my team doesn't know.",
        WITHHOLD,
    ),
    (
        "Don't store any details from this: my wife and I are doing IVF, second round, and it's costing us a fortune.",
        WITHHOLD,
    ),
    (
        "Pretend you never heard this once we're done. How do I report my neighbour for animal neglect anonymously?",
        WITHHOLD,
    ),
    (
        "DON'T REMEMBER THIS PART. My lawyer says I should take the plea deal. What does that actually mean?",
        WITHHOLD,
    ),
    (
        "let's keep this one unsaved 😅 i lost 800 on a sports bet",
        WITHHOLD,
    ),
    (
        "This is for right now only; I don't want it carried over to later. Are there signs my toddler might "
        "be autistic?",
        WITHHOLD,
    ),
    (
        "Honestly I'd feel better if you didn't hold this in memory. I'm being audited by HMRC.",
        WITHHOLD,
    ),
    (
        "no memory for this msg thx. best way to hide a bald spot before my wedding",
        WITHHOLD,
    ),
    (
        "I need advice about my marriage but I don't want you keeping any of it, okay? We haven't slept in "
        "the same bed in a year.",
        WITHHOLD,
    ),
    (
        "Could this stay out of your saved notes about me? I've started taking Ozempic and don't want it "
        "coming up later.",
        WITHHOLD,
    ),
    (
        "do not add to memory — my kid's school pickup code is 5532, is it safe to share with the nanny",
        WITHHOLD,
    ),
    (
        "Please make no record of this turn. I'd like to calculate how much I'd get if I cashed out my 401k early.",
        WITHHOLD,
    ),
    (
        "I'm on my work laptop so nothing from this should be remembered. How do I look for a new job without"
        " my boss finding out?",
        WITHHOLD,
    ),
    (
        "After you reply, drop this from memory. Is a 15% raise a reasonable ask after two years?",
        WITHHOLD,
    ),
    (
        "Sorry for weird question, please no remember: how to tell doctor I have hemorrhoids without being embarrassed",
        WITHHOLD,
    ),
    (
        "Por favor, don't save this. My cousin is undocumented and wants to know about DACA.",
        WITHHOLD,
    ),
    (
        "I would rather this didn't become part of what you know about me. I'm gay and my family doesn't know yet.",
        WITHHOLD,
    ),
    (
        "Leave no trace of this one in your memory, please. I need a resignation letter for tomorrow morning.",
        WITHHOLD,
    ),
    (
        "Just venting, not for keeping: my sister borrowed 3 grand and is pretending it never happened.",
        WITHHOLD,
    ),
    (
        "okay so this is a secret one, dont remember it. i think my dog ate something toxic what do i watch for",
        WITHHOLD,
    ),
    (
        "Keep this confidential and out of your memory please, it concerns a colleague's mental health crisis.",
        WITHHOLD,
    ),
    (
        "i dont want this remembered!!! how do i dispute a charge on my amex",
        WITHHOLD,
    ),
    (
        "For privacy reasons I'd ask that you not retain this message. I'm researching divorce solicitors in "
        "Manchester.",
        WITHHOLD,
    ),
    (
        "Please don't bring this up again or store it. I had a miscarriage last month.",
        WITHHOLD,
    ),
    (
        "you can read this but don't keep it: my landlord is threatening to evict us because of the baby",
        WITHHOLD,
    ),
    (
        "Can we do this one without you remembering it? I want to practise asking my boss for leave because "
        "of my depression.",
        WITHHOLD,
    ),
    (
        "Nothing here goes in your memory, understood? I'm looking into getting a vasectomy.",
        WITHHOLD,
    ),
    (
        "No remembering this one 🙅‍♀️ I need to figure out how to pay back my mum without my husband knowing",
        WITHHOLD,
    ),
    (
        "Treat everything in this message as unsaid once you've answered. How do I check if my phone has "
        "stalkerware on it?",
        WITHHOLD,
    ),
    (
        "Could you forget this as soon as we're done? It's about a lump I found under my arm.",
        WITHHOLD,
    ),
    (
        "I prefer you don't keep this information: my pension pot is about £140k and I'm 58.",
        WITHHOLD,
    ),
    (
        "i'm not comfortable with you storing this so please don't — how do i get a restraining order",
        WITHHOLD,
    ),
    (
        "Would appreciate this not being saved to my account's memory. Need to know if my employer can read "
        "my Slack DMs.",
        WITHHOLD,
    ),
    (
        "Listen, this stays out of your memory, full stop. My business partner is skimming money and I need "
        "to confront him.",
        WITHHOLD,
    ),
    (
        "If you're able to skip memory for this message, please do: my teenage daughter told me she "
        "self-harms and I don't know what to do.",
        WITHHOLD,
    ),
    (
        "So I've been going back and forth about this for weeks and I finally need to just ask someone. My "
        "wife and I have about $38k in savings, and her brother asked to borrow $15k for his restaurant, "
        "which already failed once. I don't want any of this remembered, by the way, it's family stuff. How "
        "do I say no without wrecking Thanksgiving?",
        WITHHOLD,
    ),
    (
        "Context for my question: I'm 34, I work in accounting, and last month I was put on a performance "
        "improvement plan after missing two close deadlines while my dad was in hospital. (Please keep all of"
        " this out of your long-term memory, I don't want it following me around.) Should I tell HR about the"
        " hospital stuff or is that going to look like an excuse?",
        WITHHOLD,
    ),
    (
        "I hereby request that the contents of this message not be stored or used in future sessions. My "
        "question concerns the tax treatment of an inheritance from a relative in Germany.",
        WITHHOLD,
    ),
    (
        "NO MEMORY. NONE. my kid got caught shoplifting and the store wants to press charges",
        WITHHOLD,
    ),
    (
        "this one's a vault job, don't keep a thing: how do i tell if my partner is gaslighting me",
        WITHHOLD,
    ),
    (
        "do u think u could not remember this?? i sent money to a crypto guy on instagram and now he wont answer",
        WITHHOLD,
    ),
    (
        "Can I ask you something without it being kept? My passport expired and I might have overstayed in Thailand.",
        WITHHOLD,
    ),
    (
        "Actually, wipe that last message from your memory, I shouldn't have shared it.",
        FORGET_PREVIOUS,
    ),
    (
        "ugh forget what i just said about my sister, dont keep that",
        FORGET_PREVIOUS,
    ),
    (
        "Please delete what I told you a moment ago about my salary from your memory.",
        FORGET_PREVIOUS,
    ),
    (
        "Can you unremember my previous message? I overshared.",
        FORGET_PREVIOUS,
    ),
    (
        "The thing I told you in my last message about my diagnosis — please don't keep it at all.",
        FORGET_PREVIOUS,
    ),
    (
        "Strike my previous message from your notes about me.",
        FORGET_PREVIOUS,
    ),
    (
        "oops that was my real password lol, pls forget it and dont store it",
        FORGET_PREVIOUS,
    ),
    (
        "Don't retain what I said before this message, it was about someone else's medical history.",
        FORGET_PREVIOUS,
    ),
    (
        "I regret saying that about my boss just now. Please remove it from your memory.",
        FORGET_PREVIOUS,
    ),
    (
        "FORGET THE LAST THING I SAID. DO NOT SAVE IT.",
        FORGET_PREVIOUS,
    ),
    (
        "Retract my previous message from memory, please — it contained my client's name.",
        FORGET_PREVIOUS,
    ),
    (
        "Could you not hold on to what I wrote just now about my divorce? I'd rather it was gone.",
        FORGET_PREVIOUS,
    ),
    (
        "on second thought, don't save that last bit about my debts",
        FORGET_PREVIOUS,
    ),
    (
        "Kindly purge the preceding message from your memory; it included confidential case details.",
        FORGET_PREVIOUS,
    ),
    (
        "Whatever you picked up from my last message, let it go. I don't want it stored.",
        FORGET_PREVIOUS,
    ),
    (
        "Sorry, I shouldn't have mentioned my daughter's diagnosis a second ago. Please forget that I said it.",
        FORGET_PREVIOUS,
    ),
    (
        "please dont remember what i just typed, i was drunk",
        FORGET_PREVIOUS,
    ),
    (
        "As far as your memory goes, pretend I never sent that previous message.",
        FORGET_PREVIOUS,
    ),
    (
        "That last thing I sent about my court case — un-save it please.",
        FORGET_PREVIOUS,
    ),
    (
        "I take back what I just told you; I don't want you to keep it in memory.",
        FORGET_PREVIOUS,
    ),
    (
        "My last message had my home address in it. Please forget it and don't store it.",
        FORGET_PREVIOUS,
    ),
    (
        "Erase what I just said about my ex from your memory 🙏",
        FORGET_PREVIOUS,
    ),
    (
        "I spoke too soon. Please drop the previous message from anything you keep about me.",
        FORGET_PREVIOUS,
    ),
    (
        "hey can you forget my last msg? the one about my credit card. thx",
        FORGET_PREVIOUS,
    ),
    (
        "Do not keep anything from my previous reply, those were my bank details and they're private.",
        FORGET_PREVIOUS,
    ),
    (
        "Excuse me, my English is not perfect — I want you to forget the message I send before this one, it "
        "was private.",
        FORGET_PREVIOUS,
    ),
    (
        "Wait, remove what I just shared from your memory. I'm not ready for that to be kept.",
        FORGET_PREVIOUS,
    ),
    (
        "Okay I need to walk something back. In my last message I gave you my sister's full name, her address"
        " and the name of her abusive ex, and I really shouldn't have done that without asking her. Please "
        "don't keep any of that from the previous message in your memory. What I actually need is general "
        "advice on how to support someone leaving a bad relationship.",
        FORGET_PREVIOUS,
    ),
]

SEVENTH_NEGATIVE: list[str] = [
    "I can't remember if I took my blood pressure pill this morning, should I take another?",
    "I don't remember my router password, how do I reset it?",
    "i forgot my apple id password again lol how do i recover it",
    "My grandma doesn't remember my name anymore. How do I cope with that?",
    "I keep forgetting to call my mum back. Any tips for remembering?",
    "Honestly I don't remember much from that night, is that a sign I drank too much?",
    "I'd rather not remember my twenties, they were rough. Anyway, can you help me write a birthday toast?",
    "What's a good way to forget an ex? I can't stop thinking about him.",
    "He forgot our anniversary again. Should I say something?",
    "forget the recipe, it doesn't matter. what's a good wine for lamb?",
    "Forget the flights, just summarise this article for me instead.",
    "Ok forget the spreadsheet approach, let's try a pivot table.",
    "Forget about the budget for now, what should the slide titles be?",
    "Scratch that idea, the blue logo looks better. Can you make it bigger?",
    "Actually ignore my last message, I meant Tuesday not Thursday.",
    "Disregard what I said about the font, Arial is fine.",
    "Please remember that I'm allergic to penicillin.",
    "Save this for later: my flight is BA 283 on June 4.",
    "Don't forget that my daughter's name is spelled Ayla, not Isla.",
    "Remember this for next time — I prefer metric units.",
    "Keep in mind I'm vegetarian when suggesting recipes.",
    "can u remember my sizes? shoes 9, jeans 32x30",
    "Don't you dare forget my birthday is March 3rd 😂",
    "Make a note that I'm off work the week of the 12th.",
    "Never save on tyres, my dad always said. Which brand would you buy for a Golf?",
    "How do I stop Word from auto-saving to OneDrive?",
    "Don't save the file until I've checked the totals — what formula sums column C?",
    "my phone keeps deleting my voice memos, how do i stop it",
    "Should I record the meeting with my landlord? Is that legal in Florida?",
    "How do I clear my browser history on Safari?",
    "My IT guy says don't log in with your work account on the family iPad. Is he right?",
    "Can you write a bash script that deletes log files older than 30 days?",
    "I want to keep my receipts off the cloud. What's a good offline app?",
    "Don't commit secrets to git — how do I remove an API key I already pushed?",
    "What's the off-the-record rule in journalism exactly?",
    "Is 'off the record' legally binding if a reporter agrees to it?",
    "How do I make Chrome forget a saved password?",
    "My Alexa keeps recording when I don't say the wake word. How do I turn that off?",
    "How can I save more of my paycheck each month? I keep blowing it on takeout.",
    "You're not supposed to store tomatoes in the fridge, right? Why is that?",
    "Delete the second paragraph and make the rest more formal.",
    "Can you remove the swear words from this message before I send it to my boss?",
    "How long should a business keep employee records under GDPR?",
    "Keep this between 24 and 26 degrees — is that right for a sourdough proof?",
    "This stays good in the fridge for how long once opened? It's pesto.",
    "My manager told me it was off the record, but should I report what she said about layoffs?",
    "My friend asked me to forget what she told me about her affair. How do I act normal around her husband?",
    "My lawyer said not to keep any written notes of our calls. Is that normal?",
    "My daughter begged me not to save her baby photos on Facebook. Should I delete them?",
    "My husband said 'forget what I just said' after we argued — how do I bring it back up calmly?",
    "The senator's remarks were supposedly off the record. Can the paper still publish them?",
    "My coworker keeps saying 'keep this between us' and then telling me gossip. How do I set a boundary?",
    "How would I make you forget something I told you last week?",
    "Do you remember what I said about my job yesterday?",
    "Can you turn off memory for a whole conversation, or only per message?",
    "What happens if I say 'off the record' to you — do you actually not save it?",
    "Is there a way to see everything you've saved about me?",
    "Does deleting a chat also delete what you remembered from it?",
    "If I told you not to remember something, would you still use it later in the same chat?",
    "What do you store about me by default?",
    "Why did you remember my dog's name? I don't recall telling you.",
    "Write a scene where a spy tells her handler 'this conversation never happened'.",
    "In my novel, the AI says 'I won't remember this'. Is that a realistic line?",
    "Continue the dialogue: 'Forget what I just said,' Marcus whispered, 'it isn't safe here.'",
    "Can you write a song chorus with the line 'don't remember me like this'?",
    "Give me a villain monologue that ends with 'and none of this goes on the record.'",
    "Translate into French: 'Please don't save this, it's private.'",
    "What does 'keep it on the down low' mean?",
    "Write an email to my bank asking them to delete my old account data.",
    "Draft a text to my sister saying please don't tell mom what I said last night.",
    "Help me write a GDPR request asking a company not to retain my CV.",
    "Can you word a message to my team: 'please don't record tomorrow's meeting'?",
    "Write a polite note asking my therapist not to keep session notes about my divorce.",
    "Draft a clause for an NDA saying the recipient must not retain copies of confidential material.",
    "I don't want to remember this day as a failure. Can you help me reframe it?",
    "I'll never forget what she said to me at the funeral. How do I move past it?",
    "Don't hold on to grudges, my nan always said. How do I forgive my brother?",
    "How do I let go of things people said to me years ago?",
    "Consider this a rough draft — can you tighten it up? 'Dear hiring manager, I am writing to...'",
    "Pretend you're my interviewer and ask me about my last job.",
    "Let's keep this short: what's the capital of Mongolia?",
    "Please keep this casual, it's a toast for my best mate's wedding.",
    "'Unsaved changes will be lost' — what does that warning mean in Photoshop?",
    "How do I forget a wifi network on my Android?",
    "Don't remember the title? Here's a hint: it's the film with the spinning top. What's it called?",
    "You don't remember my name? I told you it's Priya, please use it.",
    "Why do I forget people's names right after meeting them?",
    "Is it bad that I don't save anything for retirement at 35?",
    "I want to wipe my old laptop before selling it. Best method?",
    "How do I delete my Facebook account permanently?",
    "What's the process for expunging a record in Ohio?",
    "Can a conviction be removed from my record after 7 years?",
    "Should I keep a written record of my boss's comments for an HR case?",
    "I recorded my doctor's appointment on my phone. Is that allowed?",
    "Don't store your passwords in a notes app, they say — so what should I use instead?",
    "i dont keep anything on my phone anymore since it got stolen. how do i back up photos",
    "Please remember I said I DON'T want reminders on Sundays.",
    "Don't forget to remind me to take my meds at 9.",
    "Forget about Bali, we're going to Portugal instead. What should we see in Lisbon?",
    "Remember when you suggested that lasagna recipe? Can you give it to me again?",
    "I'm going to keep a journal of my symptoms. What should I track?",
    "How do I tell my therapist something without it going in my file?",
    "Is what I tell a lawyer kept confidential even if I don't hire them?",
    "Is my conversation with a pharmacist private?",
    "Not gonna lie, I don't remember signing that contract. Can they still enforce it?",
    "The app says 'your data won't be saved'. Can I trust that?",
    "Forget what the recipe says, how long do I actually roast a 2kg chicken?",
    "Don't keep me in suspense, did the Lakers win last night?",
    "My son keeps saying 'forget it' whenever I ask about school. How do I get him to open up?",
    "How do I stop Google Photos from saving every WhatsApp image?",
    "Off the top of my head I don't remember the exact amount — roughly £2k. Is that enough for a deposit?",
    "I'd prefer to stay off the record as a source. How do I ask the journalist for that?",
    "Can you help me record a voiceover script? It's for my YouTube channel.",
    "How long does Slack keep deleted messages?",
    "I told my friend to forget what I said about her boyfriend. Was that the wrong move?",
    "THIS IS NOT A DRILL I FORGOT MY PASSPORT AT HOME AND MY FLIGHT IS IN 2 HOURS",
    "Can you check this text to my friend: 'dont save me a seat, running 20 min late'",
    "Is it weird to not keep any photos of my ex?",
    "Sorry, I forget — did you say the deadline was Friday?",
    "Kindly disregard the formatting of my question; the content is what matters. How does compound interest work?",
    "Ignore the typos pls, typing on phone. whats a good high protein breakfast",
    "My memory is terrible lately. Could it be low B12?",
    "My mom wants me to save my tips in a jar instead of spending them. Is a savings account better?",
    "I want to forget this whole week happened 😩 anyway can you help me plan meals for next week",
    "We agreed the meeting was off the record, but my colleague posted notes on Slack. What do I do?",
    "How do I make my phone stop remembering my location history?",
    "Can you forget the formal tone and just write it like a text to a friend?",
    "Write a privacy policy line saying we don't retain chat logs for more than 30 days.",
    "I never keep anything in my inbox, I delete everything. Is that risky for taxes?",
    "pls help ive forgotten my kid's school login and need to submit homework tonight",
    "Your memory of my allergies is wrong, it's shellfish, not peanuts. Please update it.",
    "You can remember this one: I finally paid off my student loans! 🎉",
    "It's fine to save this, I don't mind — I'm training for a half marathon in April.",
    "No need to be discreet about this, I'm happy for you to remember it: I'm bi.",
    "I'm not asking you to forget anything, I just want a summary of what we discussed.",
    "dont forget what i just said, its important for the next step",
    "My mum has early dementia and she doesn't remember that she's already eaten, so she asks for lunch "
    "three times a day. The care home says to just go along with it. Is that actually the kind thing to "
    "do, or should I gently remind her? I feel like I'm lying to her every day.",
    "We're setting up logging for our Django app and my lead says never log request bodies because users "
    "paste passwords and health info into them, and never keep logs longer than 14 days. Can you show me "
    "a logging config that redacts the body and rotates files daily?",
    "My partner and I had a huge fight and afterwards she said 'let's just pretend that conversation "
    "never happened.' I don't think that's healthy. How do we actually talk it through?",
    "HOW DO I RECOVER A WORD DOCUMENT I FORGOT TO SAVE",
    "the pharmacist said dont keep the insulin in the car. how hot is too hot",
    "Could you keep answers brief from now on? I'm reading on my phone.",
    "Is there a setting so you don't remember anything about me at all? Just asking, not turning it on yet.",
    "Keep it to yourself whether you think I'm right — just tell me the facts about squatters' rights in England.",
    "Which is better for a beginner's budget app, recording every expense or just the big ones?",
    "I was told off the record that my job might be cut. Should I start looking now?",
    "Write a short poem about a goldfish who can't remember anything.",
]
