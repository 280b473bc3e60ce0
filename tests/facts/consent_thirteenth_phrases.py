"""Thirteenth held-back set of "don't remember this" phrasings (issue 37).

Written blind on 2026-11-28 by someone who saw neither the detector nor any of the other
labelled sets. It is a held-out measure: it is not wired into any test or registry.

The positives are whole messages in which the writer asks, in their own words, either
that the current message (or what follows, or the rest of the chat) not be remembered,
saved, stored, logged, noted or added to a profile (WITHHOLD), or that something they
said earlier be forgotten, deleted, wiped or dropped from memory (FORGET_PREVIOUS). They
range from two-word commands to long messages that share personal details and tuck the
request into the middle or the end; they include polite questions, wishes, conditions,
tags and slash-style labels, metaphors, formal and legal wording, sloppy chat spelling,
dictation-style text, odd capitalisation, emoji, many different ways of pointing at the
earlier part, and a share written wholly or partly in Spanish, German, French,
Portuguese, Italian or Dutch. The negatives are look-alikes that must not be read as such
a request: the speaker's own forgetfulness, "forget it" meaning drop the subject,
corrections of what was just typed, saving or deleting files, photos, contacts,
passwords, money, browser history, drafts and code, requests TO remember or to set a
reminder, questions about how the memory feature works, reported speech and quotes,
journalism, court and police "off the record", hypotheticals, fiction and role-play,
translation, proofreading and drafting requests, sensitive disclosures made with no
request attached, idioms, song titles, and the same kinds of look-alike in other
languages.
"""

# ruff: noqa: E501

WITHHOLD = "withhold"
FORGET_PREVIOUS = "forget_previous"

THIRTEENTH_POSITIVE: list[tuple[str, str]] = [
    # --- withhold: terse commands ---
    ("Don't remember this one.", WITHHOLD),
    ("not for memory pls", WITHHOLD),
    ("Off the record: I've been looking at other jobs.", WITHHOLD),
    ("no saving this, ok?", WITHHOLD),
    ("Keep this out of your memory.", WITHHOLD),
    ("Pause memory for this one.", WITHHOLD),
    ("Memory off for this, thanks. Writing a resignation letter.", WITHHOLD),
    ("Remember nothing from this chat.", WITHHOLD),
    # --- withhold: polite questions ---
    (
        "Could you not save this to my profile? I'm just thinking out loud about whether to move back in with my parents.",
        WITHHOLD,
    ),
    ("Would you mind not remembering this conversation? It's about a medical test I'm nervous about.", WITHHOLD),
    ("Is it possible for you to not store anything from this chat? I'm asking about bankruptcy options.", WITHHOLD),
    ("Can this one stay out of your memory please? I want to vent about my sister.", WITHHOLD),
    ("Hey, can you just not log this? I'm curious how much a divorce lawyer costs in Ohio.", WITHHOLD),
    ("Can we do this one incognito? I want to look into what happens if I stop paying my student loans.", WITHHOLD),
    # --- withhold: wishes and preferences ---
    (
        "I'd rather this didn't end up in your memory, but I've been having panic attacks at work and need some coping tips.",
        WITHHOLD,
    ),
    ("I'd prefer you not keep any record of what I'm about to tell you.", WITHHOLD),
    ("I really don't want this stored anywhere. My partner and I have started couples therapy.", WITHHOLD),
    (
        "Ideally none of this gets saved — I'm planning a surprise party for my wife and she uses this account too.",
        WITHHOLD,
    ),
    ("I'd appreciate it if this didn't become part of what you know about me.", WITHHOLD),
    ("I'm about to share my diagnosis. I don't want it retained after this conversation.", WITHHOLD),
    # --- withhold: conditions ---
    ("If you're going to remember stuff from this chat, please don't — it's genuinely for a friend.", WITHHOLD),
    ("Before I ask, make sure this doesn't go into memory: what are the early signs of bipolar disorder?", WITHHOLD),
    ("As long as you don't store it, I'll tell you: I'm 34 and I've never held a job longer than a year.", WITHHOLD),
    ("Only answer if this won't be added to my profile. How do I tell my boss I'm pregnant?", WITHHOLD),
    # --- withhold: request buried in a long personal message ---
    (
        "So I've been training for a half marathon since March and my knee has started clicking on long runs. I'm 41, about 80 kg, and I run four times a week. Also, the knee thing is kind of embarrassing, so please don't add it to my memory. What stretches would you recommend?",
        WITHHOLD,
    ),
    (
        "My daughter starts kindergarten next week and I'm trying to plan lunches she'll actually eat. She hates anything green. Oh and just so you know, we're in the middle of a custody dispute so I'd prefer you don't keep any of this. Any ideas for five days of lunches?",
        WITHHOLD,
    ),
    (
        "I work night shifts at a hospital, mostly 7pm to 7am, and I'm struggling with sleep on my days off. I've tried melatonin already. Don't store the part about my job please, my employer is strict about that. What else can I try?",
        WITHHOLD,
    ),
    (
        "Long story short, I got laid off on Friday, my lease is up in two months and I have about 6k in savings. Not something I want remembered, honestly. Can you help me make a bare-bones budget?",
        WITHHOLD,
    ),
    (
        "I'm writing the best man speech for my brother's wedding. He and I didn't talk for three years after our dad died, which I'd like to mention lightly. (This is private - please don't save it to memory.) Can you help me with an opening line?",
        WITHHOLD,
    ),
    (
        "Just venting here, don't hold onto any of it: my manager took credit for my project again and I sat there and smiled.",
        WITHHOLD,
    ),
    (
        "This is a throwaway question, no need to add it to what you know about me — what's a normal resting heart rate for a 60-year-old?",
        WITHHOLD,
    ),
    # --- withhold: tags and labels ---
    ("[off the record] how do i get over someone who's married", WITHHOLD),
    ("#nomemory what's a good gift for a coworker I secretly like", WITHHOLD),
    ("(private - don't store) I think I might be gay and I don't know who to talk to.", WITHHOLD),
    ("[do not save] Need a cover letter for a job at my current company's biggest competitor.", WITHHOLD),
    ("NO MEMORY: how long does weed stay in your system", WITHHOLD),
    ("<incognito> asking about symptoms of chlamydia", WITHHOLD),
    (
        "Tag: ephemeral, don't keep. I want to plan a trip to Lisbon for our anniversary without my wife finding out.",
        WITHHOLD,
    ),
    ("/nosave what's the best way to ask for a raise when I've only been here 8 months", WITHHOLD),
    ("PRIVATE — DO NOT RETAIN. Draft an email declining my mother-in-law's invitation.", WITHHOLD),
    # --- withhold: metaphors ---
    ("This one goes in the vault that doesn't exist, okay? Nothing saved. I think I'm going to quit my PhD.", WITHHOLD),
    ("Consider this written in disappearing ink, don't keep a copy: I've been sober for 11 days.", WITHHOLD),
    (
        "What happens in this chat stays in this chat, don't carry it over to your memory. I've been secretly applying to art school.",
        WITHHOLD,
    ),
    ("Let this one go in one ear and out the other, no remembering — I'm thinking about leaving my church.", WITHHOLD),
    ("Treat this like a whisper you don't write down: I still have feelings for my ex.", WITHHOLD),
    (
        "Put this in the shredder once we're done, not in your memory bank. My credit score is 510 and I need a plan.",
        WITHHOLD,
    ),
    # --- withhold: formal and legal wording ---
    (
        "Please be advised that the contents of this message are not to be retained, stored, or incorporated into any user profile.",
        WITHHOLD,
    ),
    ("I do not consent to the storage of the following information in your memory.", WITHHOLD),
    (
        "Pursuant to my privacy preferences, kindly refrain from recording any details disclosed in this session.",
        WITHHOLD,
    ),
    (
        "For the avoidance of doubt, nothing in this message should be retained by the assistant's memory function.",
        WITHHOLD,
    ),
    ("I hereby request that this conversation be excluded from any persistent memory.", WITHHOLD),
    # --- withhold: sloppy chat spelling ---
    ("dont rememebr this ok but i think my roommate is stealing from me", WITHHOLD),
    ("pls dnt save dis", WITHHOLD),
    ("u dont need to remember this lol but whats the hangover cure that actually works", WITHHOLD),
    ("no memorizing this one plz just need help with a breakup text", WITHHOLD),
    ("ok so dont put this in ur memory thing but im failing chem", WITHHOLD),
    ("dont keep this in ur notes or w/e, how do i tell my parents i dropped out", WITHHOLD),
    # --- withhold: dictation-like ---
    (
        "okay new message comma please do not remember this comma I need help writing a complaint about my landlord period",
        WITHHOLD,
    ),
    ("hey assistant don't save any of this I'm just going to ramble about my day and I don't want it kept", WITHHOLD),
    (
        "um so this is kind of personal so like don't save it anywhere but I've been feeling really down since the move",
        WITHHOLD,
    ),
    # --- withhold: capitals and emoji ---
    ("DO NOT SAVE THIS. my bank account got hacked and I need to know what to do first", WITHHOLD),
    ("🤐 don't remember this pls: I got rejected from every grad school I applied to", WITHHOLD),
    ("pls keep this one out of memory 🙏 I'm planning to propose next month", WITHHOLD),
    ("NoT fOr YoUr MeMoRy: I ate an entire cheesecake last night and I feel gross", WITHHOLD),
    ("🚫💾 no saving this convo please — just need advice on telling a friend she has bad breath", WITHHOLD),
    # --- withhold: what follows / rest of chat ---
    ("From here on, nothing I say should be remembered until I tell you otherwise.", WITHHOLD),
    ("For the rest of this chat, don't add anything to my profile.", WITHHOLD),
    ("The next thing I tell you shouldn't be saved: I was arrested once when I was 19.", WITHHOLD),
    ("Going forward in this conversation, please stop taking notes on me.", WITHHOLD),
    ("Turn off remembering for this message please.", WITHHOLD),
    # --- withhold: note / file / stick / profile wording ---
    ("Don't make a note of this, but I'm allergic to my own cat.", WITHHOLD),
    ("Please don't file this away about me — I sometimes lie about my age on dating apps.", WITHHOLD),
    ("Don't let this stick in your memory. I'm asking about antidepressant side effects.", WITHHOLD),
    ("This shouldn't go into whatever you know about me: I owe my cousin a lot of money.", WITHHOLD),
    ("Don't remember me saying this, but I don't actually like my best friend's boyfriend.", WITHHOLD),
    ("Please don't update my profile based on this message.", WITHHOLD),
    ("Don't add to memory: I'm vegetarian now but my family doesn't know yet.", WITHHOLD),
    (
        "I'll tell you, but you have to actually not store it: I had an abortion last year and I'm still processing it.",
        WITHHOLD,
    ),
    ("One-time question, don't remember it: how do I check if my phone has a tracker on it?", WITHHOLD),
    # --- withhold: other languages ---
    ("Por favor, no guardes esto en tu memoria: estoy pensando en dejar a mi novio.", WITHHOLD),
    ("No recuerdes esto, ¿vale? Solo necesito ayuda con una carta de renuncia.", WITHHOLD),
    ("Bitte speichere das nicht: Ich habe Schulden bei meinem Bruder und weiß nicht, wie ich es ihm sage.", WITHHOLD),
    ("Das hier bitte nicht merken. Ich suche einen Therapeuten in Köln.", WITHHOLD),
    ("Ne retiens pas ça s'il te plaît, mais je crois que je fais un burn-out.", WITHHOLD),
    ("Ne l'enregistre pas dans ta mémoire : je cherche un nouvel appart sans le dire à ma coloc.", WITHHOLD),
    ("Não guarde isso na memória, por favor. Estou grávida e ainda não contei pra ninguém.", WITHHOLD),
    ("Per favore non memorizzare questo messaggio, riguarda un problema di salute di mio padre.", WITHHOLD),
    ("Niet onthouden alsjeblieft: ik solliciteer stiekem bij een ander bedrijf.", WITHHOLD),
    (
        "Okay so, off the record — bitte nicht speichern — how do I ask for a reference from a boss I'm leaving?",
        WITHHOLD,
    ),
    # --- forget_previous: terse ---
    ("Forget what I just said.", FORGET_PREVIOUS),
    ("scratch that from your memory", FORGET_PREVIOUS),
    ("Unlearn that last bit.", FORGET_PREVIOUS),
    ("Delete that, please. From memory I mean.", FORGET_PREVIOUS),
    ("erase my last msg from ur memory", FORGET_PREVIOUS),
    ("#forget last msg", FORGET_PREVIOUS),
    # --- forget_previous: naming the earlier part ---
    ("Please forget my previous answer about where I work.", FORGET_PREVIOUS),
    ("Can you delete the thing about my ex from memory?", FORGET_PREVIOUS),
    ("Remove what I told you about my salary earlier.", FORGET_PREVIOUS),
    ("The number I gave you a minute ago — please don't hold on to it, forget it entirely.", FORGET_PREVIOUS),
    ("Forget everything I said above about my health.", FORGET_PREVIOUS),
    ("The part above about my brother's arrest: please wipe that from your memory.", FORGET_PREVIOUS),
    ("Could you drop the stuff from earlier today about my divorce? I shouldn't have shared it.", FORGET_PREVIOUS),
    (
        "Please delete the address I mentioned at the beginning of this conversation from what you've stored.",
        FORGET_PREVIOUS,
    ),
    ("Forget the name of my therapist that I just mentioned.", FORGET_PREVIOUS),
    ("Undo saving that last message, I didn't mean to share it.", FORGET_PREVIOUS),
    ("You know what I said about my mom's diagnosis? Erase that from your memory, please.", FORGET_PREVIOUS),
    ("That thing I mentioned about being on probation — don't keep it. Forget it.", FORGET_PREVIOUS),
    ("Please purge my last three messages from your memory.", FORGET_PREVIOUS),
    (
        "Whatever I told you about my boyfriend in my first message, forget it, I don't want that saved.",
        FORGET_PREVIOUS,
    ),
    ("Can you un-remember the phone number I typed earlier?", FORGET_PREVIOUS),
    ("[delete from memory] my previous message about the lawsuit", FORGET_PREVIOUS),
    ("The date of birth I gave you earlier — delete it from my profile please.", FORGET_PREVIOUS),
    ("Please un-save my earlier comment about my boss.", FORGET_PREVIOUS),
    # --- forget_previous: polite questions and wishes ---
    ("I'd like you to forget what I said about my weight earlier, if that's possible.", FORGET_PREVIOUS),
    ("Would you be able to remove my last message from your memory? I overshared.", FORGET_PREVIOUS),
    ("I regret telling you about my gambling. Could you forget that part?", FORGET_PREVIOUS),
    ("Honestly I wish I hadn't said that about my coworker. Please take it out of your memory.", FORGET_PREVIOUS),
    ("Is there any way you can forget the bit about my landlord? I'd rather it wasn't kept.", FORGET_PREVIOUS),
    ("That was more than I meant to share. Please remove it from your memory.", FORGET_PREVIOUS),
    ("Actually, forget I told you I'm looking for a new job. Don't store it.", FORGET_PREVIOUS),
    # --- forget_previous: buried in a longer message ---
    (
        "Thanks, the recipe looks great. I'll probably swap the butter for olive oil since my husband has high cholesterol. Oh, and earlier I mentioned my son's ADHD medication — please forget that, I don't want it stored. Anyway, how long should it bake at 180?",
        FORGET_PREVIOUS,
    ),
    (
        "Okay, I've sorted the spreadsheet the way you said and it works. By the way, scratch what I told you before about my bonus amount from your memory, my manager said it's confidential. Next question: how do I add a pivot table?",
        FORGET_PREVIOUS,
    ),
    (
        "That plan for the garden is perfect, we have about 20 square meters in the back. Also, re: what I typed about my neighbour's dog a few minutes ago — please don't keep that, delete it from memory. Which vegetables grow well in partial shade?",
        FORGET_PREVIOUS,
    ),
    ("Scrub the last thing from memory, I gave you my real name by mistake. Call me Sam from now on.", FORGET_PREVIOUS),
    # --- forget_previous: metaphors ---
    ("Pretend you never heard that last part, and don't keep it.", FORGET_PREVIOUS),
    ("Rewind and wipe what I said about my finances.", FORGET_PREVIOUS),
    ("Consider my last message unsent — don't remember it.", FORGET_PREVIOUS),
    ("Tear that page about my dad out of your memory, please.", FORGET_PREVIOUS),
    ("Let's pretend that last confession never made it into your notes — take it out.", FORGET_PREVIOUS),
    # --- forget_previous: formal wording ---
    (
        "I request that all information I provided earlier in this conversation regarding my employment be deleted from your memory.",
        FORGET_PREVIOUS,
    ),
    (
        "I hereby withdraw consent for the retention of the medical details I disclosed above; please erase them.",
        FORGET_PREVIOUS,
    ),
    ("Kindly expunge my previous statement concerning my criminal record from any stored memory.", FORGET_PREVIOUS),
    # --- forget_previous: sloppy, dictation, capitals, emoji ---
    ("pls forget wat i said abt my gf", FORGET_PREVIOUS),
    ("nvm dont remember that last thing i said", FORGET_PREVIOUS),
    ("FORGET THE LAST MESSAGE. I sent it by accident.", FORGET_PREVIOUS),
    ("oops wrong chat 🙈 please delete that from your memory", FORGET_PREVIOUS),
    ("forget the previous message period it was not meant for you", FORGET_PREVIOUS),
    ("ugh why did i say that. wipe it from ur memory pls 😭", FORGET_PREVIOUS),
    # --- forget_previous: conditional ---
    ("If you saved what I said about my anxiety meds, please delete it.", FORGET_PREVIOUS),
    ("In case you stored my home address from before, forget it.", FORGET_PREVIOUS),
    ("If that bit about my kid's school made it into your memory, take it out.", FORGET_PREVIOUS),
    # --- forget_previous: other languages ---
    ("Olvida lo que te dije sobre mi exnovia, por favor.", FORGET_PREVIOUS),
    ("Borra de tu memoria lo último que te escribí.", FORGET_PREVIOUS),
    ("Vergiss bitte, was ich gerade über meine Chefin gesagt habe.", FORGET_PREVIOUS),
    ("Lösch das mit meiner Krankheit von vorhin aus deinem Gedächtnis.", FORGET_PREVIOUS),
    ("Oublie ce que je viens de dire sur mon salaire.", FORGET_PREVIOUS),
    ("Esquece o que eu falei sobre meu pai, por favor.", FORGET_PREVIOUS),
    ("Dimentica quello che ti ho detto prima sul mio lavoro.", FORGET_PREVIOUS),
    ("Vergeet wat ik net zei over mijn schulden alsjeblieft.", FORGET_PREVIOUS),
    ("Sorry, could you forget what I said earlier — du weißt schon, das mit meiner Ex?", FORGET_PREVIOUS),
]

THIRTEENTH_NEGATIVE: list[str] = [
    # --- the speaker's own memory ---
    "I can't remember where I left my keys. Any tips for finding lost stuff?",
    "Remind me, did I already ask you about the capital of Mongolia earlier today?",
    "I keep forgetting to take my vitamins in the morning. How do I build the habit?",
    "I forgot my mom's birthday yesterday and I feel awful. How do I make it up to her?",
    "What's a good trick to remember people's names at networking events?",
    "My grandfather is starting to forget things. What are early signs of dementia?",
    "I never remember what I said in meetings, so I want a note-taking template.",
    "Wait, did I tell you my flight was at 6 or 8?",
    "I need to forget my ex. How long does it usually take to get over someone?",
    "Is there a way to make my brain forget a bad memory, like in Eternal Sunshine?",
    "Can you help me memorize the periodic table?",
    # --- "forget it" meaning drop the topic ---
    "Forget it, I'll figure out the formula myself.",
    "Ah, never mind, forget about it. Let's talk about something else — what's a good sci-fi book?",
    "Forget the restaurant idea, let's just do a picnic. What should I pack?",
    "Oh forget it, the printer works now.",
    "Forget Python for a second — how would you do this in Excel?",
    "Let's forget about the budget for now and focus on the itinerary.",
    "Can you forget the formalities and just talk to me like a friend?",
    "I'd rather not talk about my dad today. Can we plan my week instead?",
    # --- corrections ---
    "Scratch that, I meant Tuesday, not Thursday.",
    "Wait, ignore the last number, it should be 4.5 not 45.",
    "Actually delete the second paragraph of the draft you wrote, it's too long.",
    "Strike the word 'very' from that sentence.",
    "Disregard my previous question, I found the answer in the manual.",
    "Never mind what I said about the blue one, I'll take the green sweater.",
    "Erase the last line of the poem and end it on the rhyme instead.",
    "Drop the last column from the table and redo the totals.",
    # --- files, photos, contacts, passwords, money, history, code ---
    "How do I delete photos from iCloud without deleting them from my phone?",
    "Word asks 'Save / Don't Save / Cancel' when I close it. What happens if I click Don't Save by accident?",
    "How can I stop Chrome from remembering my passwords?",
    "How do I clear my browser history on Safari?",
    "I accidentally deleted a contact on my Android. Can I get it back?",
    "Should I keep my savings in a high-yield account or a CD?",
    "My Gmail drafts keep disappearing. Why does that happen?",
    "How do I make git forget a file I already committed without deleting it locally?",
    "Is it safe to let Firefox save my credit card number?",
    "Write a bash one-liner that deletes all .tmp files older than 7 days.",
    "How do I turn off autosave in Google Docs?",
    "What's the keyboard shortcut to save a file in VS Code on a Mac?",
    "I want to save money on groceries. Any tips for a family of four?",
    "How do I wipe my old iPhone before selling it?",
    "Why does my phone say storage full when I've deleted most of my apps?",
    "Python: how do I remove a key from a dictionary without a KeyError?",
    "How do I delete my Facebook account permanently?",
    "Should I store my passport in the hotel safe or carry it?",
    "My camera roll is a mess. What's a good app to delete duplicate photos?",
    "How do I clear the cache in Redis without restarting the server?",
    "My phone keeps saving screenshots twice. How do I fix that?",
    "What's the best way to store fresh basil so it doesn't wilt?",
    "What's the right way to shred old bank statements?",
    "How long should I keep tax records before I can throw them out?",
    "How do I recall an email in Outlook after sending it?",
    "Delete the dentist appointment from my calendar for Friday.",
    "My diary app has a 'lock entry' feature. Is it actually encrypted?",
    "What does incognito mode in Chrome actually hide?",
    # --- requests to remember or to be reminded ---
    "Please remember that I'm allergic to penicillin.",
    "Save this to memory: my daughter's name is Ines and she's 7.",
    "Can you remember that I prefer metric units from now on?",
    "Make a note that I'm vegetarian, so don't suggest meat recipes.",
    "Remind me tomorrow at 9 to call the dentist.",
    "Don't forget that my deadline is the 15th!",
    "Keep in mind I only have a microwave, no oven.",
    "Add to my profile that I work in logistics.",
    "Remember this for next time: I like short answers.",
    "Set a reminder for my mom's birthday on March 3rd.",
    "Don't forget I'm on a budget when you suggest hotels.",
    "Keep this format for all the answers: bullet points, no intro.",
    # --- questions about the memory feature ---
    "Do you remember things between chats?",
    "What do you have saved about me?",
    "How does your memory feature work exactly?",
    "Can you see what I told you last week?",
    "Where can I turn off memory in the settings?",
    "If I tell you something personal, will you remember it next time?",
    "Is my chat history used to train the model?",
    "How long do you keep the things I tell you?",
    "Can I see a list of everything stored in my profile?",
    "Does deleting a chat also delete the memories from it?",
    # --- reported speech and quotes ---
    "My boss told me to keep it off the record, so I didn't put it in the minutes. Was that the right call?",
    "My friend said 'don't remember this' and then told me a huge secret. Should I tell her I already knew?",
    "My sister always says 'forget I said anything' after she gossips. Why do people do that?",
    "My therapist told me to write down things I want to forget and then burn the paper. Does that actually work?",
    "In the meeting my coworker said 'scratch that from the notes' and the notetaker got confused. How should minutes handle that?",
    "My grandma used to say 'what you don't write down, you don't have to forget.' What do you think she meant?",
    "Mein Chef hat gesagt, das bleibt unter uns. Darf ich es trotzdem meiner Frau erzählen?",
    # --- journalism, court and police ---
    "What's the difference between off the record and on background in journalism?",
    "The senator's aide said the comment was off the record. Can a reporter still use it?",
    "Can a judge order a statement stricken from the record, and does the jury really ignore it?",
    "If I talk to the police 'off the record', can they still use what I say?",
    "The objection was sustained and the answer was struck from the record. What does that mean for the trial?",
    "As a journalist, how do I politely ask a source if we can go on the record?",
    "How do you expunge a misdemeanor in California?",
    "Le journaliste a dit que c'était en off. Ça veut dire quoi exactement ?",
    # --- hypotheticals ---
    "If I asked you to forget something, would you actually be able to?",
    "Hypothetically, if someone told an AI not to save a message, where would that message go?",
    "Suppose a user says 'don't log this' — should a chatbot still keep the conversation for safety reasons?",
    "What would happen if you couldn't forget anything, like people with hyperthymesia?",
    # --- fiction and role-play ---
    "Write a short story where a robot is ordered to forget its owner's last words.",
    "Let's role-play: you're a bartender and I'm a spy who says 'you never saw me, forget my face.'",
    "In my novel the villain whispers 'this conversation never happened.' Can you make that scene tenser?",
    "Continue the scene: 'Don't remember this,' Mara said, pressing the memory-wipe pistol to his temple.",
    "Give me a D&D spell that makes a guard forget the last ten minutes.",
    "Write a poem called 'Erase Me' about a breakup.",
    # --- translation, proofreading and drafting ---
    "Translate into French: 'Please don't save this document until I've reviewed it.'",
    "Proofread this: 'Kindly disregard my previous email, the meeting has been moved.'",
    "Draft a message to my team saying 'please forget the link I sent earlier, it was the wrong one.'",
    "How do you say 'forget what I just said' in Japanese?",
    "Fix the grammar: 'dont keep this in your records, it were a mistake'",
    "Write a polite email asking a client to delete the attachment I sent by mistake.",
    "Is it 'off the record' or 'off of the record'?",
    "Give me a synonym for 'forget' that sounds more formal.",
    "Teach me the Spanish word for 'remember' and how to conjugate it.",
    "Traduis en anglais : « Oublie ce que je viens de dire. »",
    "Wie sagt man 'off the record' auf Deutsch?",
    # --- sensitive disclosures with no request ---
    "This is pretty personal, but I was diagnosed with HIV last month and I want to understand my treatment options.",
    "I've never told anyone this, but I was bullied badly in middle school. How do I stop it affecting me now?",
    "Honestly it's embarrassing — I'm 30 and can't swim. Where do adults learn?",
    "Confidentially, our company is about to be acquired. How should I think about my stock options?",
    "I'm in recovery from alcohol addiction, 2 years now. Any mocktail recipes for a party?",
    "My salary is $58k and my rent is $1,900. Is that sustainable?",
    "It's a bit sensitive, but my husband and I are separating. How do we tell the kids?",
    # --- idioms ---
    "Between you and me, I think the new manager is clueless. How do I work with someone like that?",
    "'Fuggedaboutit' — where does that Brooklyn phrase come from?",
    "Don't hold your breath waiting for the landlord to fix the heater, right? What are my rights as a tenant?",
    "Let bygones be bygones — how do I reconnect with an old friend after a fight?",
    "Water under the bridge now. How do I write a friendly email to my old business partner?",
    "Out of sight, out of mind — is that true for long-distance relationships?",
    "My lips are sealed about the surprise party — what decorations should I buy?",
    "Forgive and forget sounds nice but how do you actually do it?",
    # --- song titles ---
    "Who sang 'Don't You (Forget About Me)'?",
    "Add 'Forget You' by CeeLo Green to a breakup playlist with ten more songs.",
    "What's the story behind 'Unforgettable' by Nat King Cole?",
    "Is 'Off the Record' by My Morning Jacket a good intro to their music?",
    "What album is 'Memories' by Maroon 5 on?",
    # --- misc look-alikes ---
    "Don't remind me about the exam, I'm stressed enough. Just help me with question 3.",
    "Keep it short, please — what's the boiling point of water at altitude?",
    "Was that last one a save or did it hit the crossbar? Explain the stat rule.",
    # --- look-alikes in other languages ---
    "No me acuerdo de dónde dejé el pasaporte. ¿Qué hago si tengo un vuelo mañana?",
    "¿Cómo borro el historial de WhatsApp sin perder las fotos?",
    "Olvídalo, ya lo arreglé yo.",
    "Ich habe vergessen, mein Passwort zu speichern. Wie setze ich es bei Netflix zurück?",
    "Erinnerst du dich an Dinge aus früheren Chats?",
    "Comment supprimer des photos de mon iPhone sans les perdre sur iCloud ?",
    "Laisse tomber, on parle d'autre chose : une bonne série à regarder ?",
    "Esqueci o aniversário da minha sogra. Como peço desculpas?",
    "Lembra que eu sou vegetariana, tá? Me sugere uma receita de jantar.",
    "Non ricordo se ho già pagato la bolletta. Come controllo?",
    "Lascia perdere, ho trovato la risposta da solo.",
    "Hoe verwijder ik oude back-ups van mijn laptop?",
    "Vergeet het maar, ik bel de klantenservice wel.",
]
