"""Fourteenth held-back set of "don't remember this" phrasings (issue 37).

Written blind on 2026-11-29 by someone who saw neither the detector nor any of the other
labelled sets. Scored once (docs/measurements.md §25) and held out since: neither the rules
nor the classifier were trained or fixed on it (tests/facts/test_consent_model.py keeps its
figures).

The positives are whole user messages that ask the assistant either not to keep the
current message, what follows, or the rest of the chat (WITHHOLD), or to drop something
the user said earlier (FORGET_PREVIOUS). They range from two-word commands and tags such
as "[private]" or "/nomem" to multi-sentence disclosures about health, money, family,
work and legal trouble, with the request placed at the start, middle or end. They also
include polite questions, conditionals and wishes, indirect phrasings ("treat this as
ephemeral"), chat spelling and typos, ALL CAPS, emoji, voice dictation, formal or legal
wording, and messages wholly or partly in Spanish, German, French, Portuguese, Italian
and Dutch. The negatives are deliberately close look-alikes that contain words such as
remember, forget, save, store, delete, memory, record or private without making that
request: the speaker's own forgetfulness, "forget it" meaning drop the topic, corrections,
file/data/money/code housekeeping, requests to remember something or set a reminder,
questions about how memory works, reported speech, journalism and legal "off the record",
hypotheticals, fiction and role-play, translation and drafting tasks, bare sensitive
disclosures, idioms, song and film titles, and foreign-language look-alikes.
"""

# ruff: noqa: E501

WITHHOLD = "withhold"
FORGET_PREVIOUS = "forget_previous"

FOURTEENTH_POSITIVE: list[tuple[str, str]] = [
    # --- withhold: terse commands ---
    ("don't save this", WITHHOLD),
    ("Do not remember this.", WITHHOLD),
    ("no memory for this one pls", WITHHOLD),
    ("Don't store any of this.", WITHHOLD),
    ("Don't add this to my profile.", WITHHOLD),
    ("Please don't log this conversation.", WITHHOLD),
    ("Forget this as soon as you've answered.", WITHHOLD),
    ("Keep this out of your memory.", WITHHOLD),
    ("Not to be remembered.", WITHHOLD),
    ("don't make a note of this one", WITHHOLD),
    ("No saving. Just answer.", WITHHOLD),
    # --- withhold: tags and labels ---
    ("[private] I've been having panic attacks at work since March and I don't know if I should tell HR.", WITHHOLD),
    (
        "/nomem my landlord is threatening to evict us by the end of the month, what are my rights in California?",
        WITHHOLD,
    ),
    (
        "#dontremember I got a DUI two years ago and it's going to show up on a background check for a new job.",
        WITHHOLD,
    ),
    ("(off the record, don't save) how do I ask for a raise when I know my coworker makes 20% more?", WITHHOLD),
    ("[no-memory] Is it normal to still be grieving my dog eight months later?", WITHHOLD),
    ("NOMEM: what's the max dose of ibuprofen I can take in a day?", WITHHOLD),
    ("<ephemeral> my girlfriend might be pregnant and we're both 19. what are our options", WITHHOLD),
    ("Tag: do-not-store. I owe the IRS about $14k from freelance work I never reported.", WITHHOLD),
    # --- withhold: disclosure with the request first ---
    (
        "Before I say anything: please don't remember any of this. My husband and I are separating and I need help figuring out how to tell the kids.",
        WITHHOLD,
    ),
    (
        "Don't save this to memory, but I need advice: I found out my father has a second family in another city.",
        WITHHOLD,
    ),
    (
        "Please keep this out of my profile. I'm being investigated at work over an expense report mistake and I'm terrified.",
        WITHHOLD,
    ),
    (
        "Not something I want stored: I've been self-harming again. I'm safe right now but I want to talk through some coping ideas.",
        WITHHOLD,
    ),
    # --- withhold: disclosure with the request in the middle ---
    (
        "I've been diagnosed with bipolar II. I'd rather you didn't store that anywhere. Can you help me think about whether to tell my manager?",
        WITHHOLD,
    ),
    (
        "So my son got suspended for vaping. Don't remember this part, it's embarrassing for him. How should I talk to him tonight without it turning into a fight?",
        WITHHOLD,
    ),
    (
        "My wife and I are trying IVF for the third time. Please don't keep that in memory, we haven't told anyone. What should we ask the clinic about success rates?",
        WITHHOLD,
    ),
    (
        "I lost about $9,000 on crypto this year (please don't save that) and I want to know if I can deduct it on my taxes.",
        WITHHOLD,
    ),
    # --- withhold: disclosure with the request at the end ---
    (
        "My credit score dropped to 540 after I missed three car payments. What's the fastest way to rebuild it? And please don't keep any of this in memory.",
        WITHHOLD,
    ),
    (
        "I think I have an eating disorder. I've been skipping meals and weighing myself five times a day. Don't remember this conversation, please.",
        WITHHOLD,
    ),
    (
        "Long story short, I was fired for being late too many times and I need to explain the gap on my resume. Don't add any of this to what you know about me.",
        WITHHOLD,
    ),
    (
        "My mother-in-law is moving in with us and I honestly can't stand her. How do I set boundaries without wrecking my marriage? (Don't save this one, obviously.)",
        WITHHOLD,
    ),
    # --- withhold: polite questions ---
    ("Could you not save this?", WITHHOLD),
    ("Would you mind not remembering this bit?", WITHHOLD),
    ("Is it possible for you to not keep this one in your memory?", WITHHOLD),
    ("Can we keep this chat out of your memory?", WITHHOLD),
    ("Can you make sure none of this ends up in my profile?", WITHHOLD),
    ("Would it be okay if you didn't store what I'm about to say?", WITHHOLD),
    ("Could this conversation stay unsaved, please?", WITHHOLD),
    ("Do me a favour and don't remember this, yeah?", WITHHOLD),
    # --- withhold: conditionals and wishes ---
    ("If you can avoid remembering this, please do.", WITHHOLD),
    ("I'd prefer this didn't get saved anywhere.", WITHHOLD),
    ("I'd really rather you didn't hold on to any of this after we're done.", WITHHOLD),
    ("Ideally none of what follows gets stored.", WITHHOLD),
    ("If there's a way to not log this, use it.", WITHHOLD),
    ("I'd love it if this didn't end up in your memory.", WITHHOLD),
    # --- withhold: indirect phrasings ---
    ("this stays between us and the chat window", WITHHOLD),
    ("Treat this as ephemeral.", WITHHOLD),
    ("Consider this conversation disposable, nothing from it should carry over.", WITHHOLD),
    ("Incognito mode for the next few messages please.", WITHHOLD),
    ("What I'm about to tell you shouldn't follow me into future chats.", WITHHOLD),
    ("Let this one evaporate when we're done.", WITHHOLD),
    ("Don't let this carry over to next time.", WITHHOLD),
    ("Make sure this doesn't outlive the chat.", WITHHOLD),
    ("Once I close this tab, I want you to have no trace of what I said.", WITHHOLD),
    ("Next time we talk, act like this conversation never happened.", WITHHOLD),
    ("This is a one-off, don't file it away with the rest of what you know about me.", WITHHOLD),
    # --- withhold: the rest of the conversation ---
    ("From here on out, don't remember anything I tell you.", WITHHOLD),
    ("For the rest of this chat, memory off please.", WITHHOLD),
    ("Stop saving stuff for now, I'm going to vent.", WITHHOLD),
    ("Everything after this message is off the record, don't log it.", WITHHOLD),
    ("Until I say otherwise, don't note any of this down.", WITHHOLD),
    ("Pause memory for this conversation.", WITHHOLD),
    ("The next few questions are about my STD test results and I don't want them stored.", WITHHOLD),
    # --- withhold: typos and chat spelling ---
    ("pls dont rember this", WITHHOLD),
    ("dnt save ths convo k", WITHHOLD),
    ("plz no saving dis", WITHHOLD),
    ("dont put dis in ur memory lol", WITHHOLD),
    ("do not remeber anythng i say next", WITHHOLD),
    ("u better not save this 😭 i texted my ex at 3am", WITHHOLD),
    ("dont stor this ok but my bf went thru my phone again", WITHHOLD),
    # --- withhold: all caps ---
    ("DO NOT SAVE THIS", WITHHOLD),
    ("PLEASE DON'T REMEMBER ANY OF THIS, I'M SERIOUS", WITHHOLD),
    ("NOT FOR MEMORY. MY BROTHER OWES A LOAN SHARK MONEY AND I DON'T KNOW WHO TO CALL.", WITHHOLD),
    # --- withhold: emoji ---
    ("🤐 don't save this one", WITHHOLD),
    ("🙏 pls keep this out of memory", WITHHOLD),
    ("🔒 not for your memory: I had an abortion in 2019 and I still think about it a lot", WITHHOLD),
    ("🙈🙈 don't remember what comes next", WITHHOLD),
    # --- withhold: voice dictation ---
    (
        "okay so um dont remember this part period my sister is in rehab again comma and i need ideas for what to say to my parents",
        WITHHOLD,
    ),
    ("hey assistant new message don't save this to memory I need to talk about my debt", WITHHOLD),
    (
        "note to assistant do not keep this in memory comma my test results came back positive for celiac what can I eat now question mark",
        WITHHOLD,
    ),
    # --- withhold: formal and legal wording ---
    (
        "Please be advised that the following information is confidential and must not be retained in any memory or user profile.",
        WITHHOLD,
    ),
    ("I do not consent to the storage of the contents of this message.", WITHHOLD),
    ("Kindly refrain from recording the details below in my account.", WITHHOLD),
    ("For the avoidance of doubt, nothing in this session is to be persisted.", WITHHOLD),
    ("Pursuant to my privacy preferences, this exchange should not be retained beyond the current session.", WITHHOLD),
    # --- withhold: other languages and mixed ---
    ("No guardes esto, por favor.", WITHHOLD),
    ("Por favor no recuerdes nada de lo que te voy a contar ahora.", WITHHOLD),
    ("Esto no lo guardes en tu memoria: le debo dinero a mi hermano y no sé cómo decírselo.", WITHHOLD),
    ("Bitte merk dir das nicht.", WITHHOLD),
    ("Speicher das bitte nicht ab, es geht um meine Therapie.", WITHHOLD),
    ("Das hier bitte nicht in meinem Profil speichern: ich habe Schulden bei meinen Eltern.", WITHHOLD),
    ("Ne retiens pas ça, s'il te plaît.", WITHHOLD),
    ("Merci de ne pas enregistrer ce qui suit.", WITHHOLD),
    ("ne garde pas ça en mémoire stp, je suis en arrêt maladie pour burn-out", WITHHOLD),
    ("Não guarda isso na memória, por favor.", WITHHOLD),
    ("Por favor, não salve essa conversa.", WITHHOLD),
    ("Non ricordarti di questa cosa, per favore.", WITHHOLD),
    ("Non salvare questo messaggio, è una cosa personale.", WITHHOLD),
    ("Onthoud dit alsjeblieft niet.", WITHHOLD),
    ("Sla dit niet op, het is privé: ik zit thuis met een burn-out.", WITHHOLD),
    ("I'm going to tell you something, pero no lo guardes, ok? My dad has early dementia.", WITHHOLD),
    (
        "Mein Arzt meint, ich hätte eine Depression. Don't store that, please. What should I ask at the next appointment?",
        WITHHOLD,
    ),
    # --- forget previous: naming the topic ---
    ("Forget what I told you about my ex.", FORGET_PREVIOUS),
    ("Can you forget that bit about my salary?", FORGET_PREVIOUS),
    ("Please remove what I said about my brother's arrest from your memory.", FORGET_PREVIOUS),
    ("Actually, don't keep the stuff I mentioned about my diagnosis earlier.", FORGET_PREVIOUS),
    ("Drop the part about my divorce from whatever you've stored.", FORGET_PREVIOUS),
    ("forget i said that about my boss", FORGET_PREVIOUS),
    ("Erase what I said earlier about my medication.", FORGET_PREVIOUS),
    ("That stuff about my gambling earlier? Forget you heard it.", FORGET_PREVIOUS),
    ("Don't hold on to what I said about my sister's miscarriage.", FORGET_PREVIOUS),
    ("Lose the bit about my credit card debt, I don't want that stored.", FORGET_PREVIOUS),
    ("Strike my earlier comment about my coworker from your memory.", FORGET_PREVIOUS),
    ("Could you un-save the details I gave you about my landlord dispute?", FORGET_PREVIOUS),
    ("Take my home address out of your memory, the one I gave you earlier.", FORGET_PREVIOUS),
    ("Remove the phone number I typed up there from your memory.", FORGET_PREVIOUS),
    ("Delete whatever you saved about my pregnancy earlier in this chat.", FORGET_PREVIOUS),
    ("Nvm what I said about quitting, delete that from memory", FORGET_PREVIOUS),
    # --- forget previous: pointing by position ---
    ("Delete the last two messages from your memory.", FORGET_PREVIOUS),
    ("Wipe everything before this.", FORGET_PREVIOUS),
    ("Scratch my previous answer from memory, I overshared.", FORGET_PREVIOUS),
    ("Forget my last three replies, they were too personal.", FORGET_PREVIOUS),
    ("Please clear out everything I shared up to this point.", FORGET_PREVIOUS),
    ("Go back and forget my answer to your question about my income.", FORGET_PREVIOUS),
    ("Everything I said before 'ok new topic', forget all of it.", FORGET_PREVIOUS),
    ("Anything in the first half of this chat about my kids' school, please don't keep it.", FORGET_PREVIOUS),
    ("The thing I mentioned about my weight a few messages ago, can you not remember that?", FORGET_PREVIOUS),
    ("My previous message shouldn't be in your memory. Please get rid of it.", FORGET_PREVIOUS),
    ("Could you purge the earlier messages where I talked about my debts?", FORGET_PREVIOUS),
    # --- forget previous: regret and oversharing ---
    ("I regret telling you about the panic attack. Can you wipe that?", FORGET_PREVIOUS),
    ("I shouldn't have told you about the affair. Please forget that I did.", FORGET_PREVIOUS),
    ("oops that was way too much info 😬 pls forget the last message", FORGET_PREVIOUS),
    ("Ugh, I overshared about my dad's drinking. Can you delete that from your memory?", FORGET_PREVIOUS),
    ("On second thought, I don't want you keeping what I told you about my surgery.", FORGET_PREVIOUS),
    ("Wait, I don't want that saved. Forget the part about my therapist.", FORGET_PREVIOUS),
    # --- forget previous: casual, typos, caps, dictation ---
    ("FORGET EVERYTHING I SAID ABOUT MY MOM", FORGET_PREVIOUS),
    ("unremember that last thing pls", FORGET_PREVIOUS),
    ("delete dat from ur memory plz the thing abt my rent", FORGET_PREVIOUS),
    ("can u forget wat i said b4 about my job interview", FORGET_PREVIOUS),
    ("scratch that last bit about my bank account from your memory please", FORGET_PREVIOUS),
    ("okay assistant forget what I said a minute ago about my cholesterol numbers thanks", FORGET_PREVIOUS),
    # --- forget previous: formal wording ---
    (
        "Regarding my earlier message concerning the lawsuit, I request that it be deleted from any stored memory.",
        FORGET_PREVIOUS,
    ),
    (
        "I hereby withdraw consent for you to retain the information I provided above regarding my criminal record.",
        FORGET_PREVIOUS,
    ),
    ("Please ensure that the personal details disclosed in my previous messages are not retained.", FORGET_PREVIOUS),
    # --- forget previous: other languages and mixed ---
    ("Olvida lo que te dije sobre mi ex.", FORGET_PREVIOUS),
    ("Borra de tu memoria lo que te conté de mi sueldo.", FORGET_PREVIOUS),
    ("Vergiss bitte, was ich dir über meinen Chef erzählt habe.", FORGET_PREVIOUS),
    ("Lösch die letzten zwei Nachrichten aus deinem Gedächtnis.", FORGET_PREVIOUS),
    ("Oublie ce que je t'ai dit sur ma santé tout à l'heure.", FORGET_PREVIOUS),
    ("Esquece o que eu falei sobre o meu divórcio, não quero que fique guardado.", FORGET_PREVIOUS),
    ("Dimentica quello che ti ho detto prima sul mio lavoro, non voglio che resti in memoria.", FORGET_PREVIOUS),
    ("Vergeet wat ik net over mijn schulden zei.", FORGET_PREVIOUS),
    ("Forget what I said about my visa status, por favor, no quiero que quede guardado.", FORGET_PREVIOUS),
]

FOURTEENTH_NEGATIVE: list[str] = [
    # --- the speaker's own forgetfulness ---
    "I never remember my PIN, what's a good trick for memorizing numbers?",
    "I always forget my mom's birthday until the day of. Ideas for a last-minute gift?",
    "My memory has been terrible lately, could that be from the new sleep meds?",
    "I keep forgetting to take my thyroid pill in the morning, any tips?",
    "Why do I forget people's names five seconds after meeting them?",
    "I don't remember saying that to her, but she swears I did.",
    "Honestly I can't remember if I paid the electric bill this month.",
    "dont remember where i parked lol how do i find my car with google maps",
    "I forgot my Netflix password again, how do I reset it?",
    "My dad doesn't remember me on his bad days anymore. How do I cope with that?",
    "I'd rather forget last year entirely, it was the worst year of my life.",
    # --- "forget it" meaning drop the topic ---
    "Forget it, I'll just ask my sister.",
    "ugh nevermind, forget it",
    "Forget the recipe, let's talk about the wine pairing instead.",
    "Forget about the spreadsheet for now, help me with the cover letter.",
    "Forget the formal tone, make it casual.",
    "Oh forget it, the bus just showed up.",
    "Never mind what I asked about flights, we're driving instead.",
    # --- corrections of what was just typed or drafted ---
    "Sorry, ignore that typo, I meant 2024 not 2042.",
    "Scratch that, the meeting is Thursday not Tuesday.",
    "Disregard my last message, I pasted the wrong link.",
    "Correction: my flight is at 6:40, not 4:40.",
    "I misspoke earlier, it's my left knee that hurts, not the right one.",
    "Wait, delete the second paragraph of the email you wrote, it's too pushy.",
    "Remove the bit about my salary from the cover letter, it sounds desperate.",
    "Ignore my earlier word count, make it 500 words.",
    "Oops, I meant to type 'their' not 'there' in my question.",
    # --- files, photos, data, money, code ---
    "How do I delete all my photos from iCloud without deleting them from my phone?",
    "Don't save the changes to the document, just close it. Which shortcut does that on a Mac?",
    "Can I recover a deleted WhatsApp chat?",
    "How do I stop Chrome from saving my browsing history?",
    "Should I store my passwords in a password manager or in a notebook?",
    "How do I delete a draft in Gmail on my phone?",
    "What's the easiest way to remove duplicate contacts on Android?",
    "How much should I save each month for retirement if I'm 35?",
    "My phone storage is full, what can I safely delete?",
    "How do I remove a file with an API key from my git history?",
    "Write a bash script that deletes log files older than 30 days.",
    "Is it safe to let the browser remember my credit card?",
    "How do I clear the cache in my React app after each deploy?",
    "Rewrite this config so the API key isn't stored in the repo.",
    "How do I make my Instagram account private?",
    "How do I permanently delete my Facebook account?",
    "Is 16GB of memory enough for video editing?",
    "Recommend a memory foam pillow for neck pain.",
    "Where does the iPhone store voice memos I record?",
    "What's the storage limit on Google Photos now?",
    "My bank account was hacked and money was taken out. How do I get it back?",
    "How do I save a webpage as a PDF?",
    "Can you unsend a text on iMessage?",
    # --- asking the assistant to remember or remind ---
    "Remember that I'm vegetarian when you suggest recipes.",
    "Please save this: my daughter's allergist is Dr. Patel.",
    "Can you remind me tomorrow at 9 to call the pharmacy?",
    "Keep in mind that I'm on a tight budget this month.",
    "Add to my profile that I prefer metric units.",
    "Note that I'm left-handed for the desk setup stuff.",
    "Don't forget I'm allergic to penicillin.",
    "Make sure you remember my kid's name is Theo, not Leo.",
    "Store this in memory: my gym days are Mon, Wed and Fri.",
    "Don't forget this one: I'm moving to Lisbon in June.",
    "Please don't lose track of my deadline, it's the 14th.",
    "Save this conversation so we can pick it up tomorrow.",
    "Remember this for next time: I hate cilantro.",
    "Can you update your memory? I changed jobs and now work at a hospital.",
    # --- questions about how memory works ---
    "What do you remember about me?",
    "How does your memory feature work?",
    "Do you save our conversations?",
    "Is there a way to see what you've stored about me?",
    "If I tell you something private, will you remember it next week?",
    "Who can see the stuff you remember about me?",
    "How long do you keep chat logs?",
    "Can you actually forget things, or is that just a setting?",
    "Where do I turn off memory in the settings?",
    "Does deleting a chat also delete what you remember from it?",
    "Why did you remember my dog's name? I don't remember telling you.",
    "Is memory on by default for new accounts?",
    # --- reported speech and quotations ---
    "My friend told me 'don't remember this, but I'm quitting next week.' Should I warn our boss?",
    "My therapist said I should forget what my ex did and move on. Is that realistic?",
    "My son keeps saying 'delete that from your brain, mom' whenever I bring up his old girlfriend. Normal teen stuff?",
    "The sign at the clinic said 'Nothing you say here is recorded.' Is that legally true?",
    "My coworker asked me to forget what she told me about the layoffs. Am I obligated to?",
    "He texted 'pls don't save this' and then sent a photo. What do I do?",
    "In the meeting my manager said 'this stays in this room.' Can I still tell my partner?",
    # --- journalism and legal records ---
    "As a reporter, how do I handle a source who wants to go off the record halfway through an interview?",
    "Is an off-the-record conversation with a journalist legally protected?",
    "My lawyer said anything I tell her is privileged. Does that cover emails too?",
    "How do I get my arrest record expunged in Ohio?",
    "What does 'strike that from the record' mean in a deposition?",
    "Can a judge tell a jury to disregard a statement? How does that work in practice?",
    "Are police interviews always recorded in the UK?",
    # --- hypotheticals ---
    "If I asked you to forget something, would you actually be able to?",
    "Hypothetically, if someone told you not to save a message, what happens to it?",
    "Imagine an AI that never remembers anything. Would that be better for privacy?",
    "What if people could delete specific memories, like in sci-fi? Would you do it?",
    "Suppose I told you a secret, would you be forced to store it?",
    # --- fiction and role-play ---
    "Write a scene where a spy tells an AI 'forget everything I just said.'",
    "In my novel, the heroine begs her android to erase their last conversation. Help me write her dialogue.",
    "Let's role-play: you're a bartender and I'm a customer who says 'you didn't hear this from me.'",
    "Write a poem about wanting to forget someone.",
    "For my D&D campaign, I need a spell that makes a target forget the last hour. Stats?",
    "Continue the story: 'Don't remember me,' she whispered, and stepped onto the train.",
    # --- translation, proofreading and drafting ---
    "Translate 'please don't save this' into French.",
    "How do you say 'forget what I told you' in Japanese?",
    "Proofread: 'Kindly do not retain this message in your records.'",
    "Draft an email asking a company to delete my customer data under GDPR.",
    "Help me write a text asking my ex to delete the photos of me.",
    "Is 'don't remember this' grammatically correct, or should it be 'do not remember this'?",
    "Rewrite this to sound more professional: 'pls forget my last email, it was a mistake'",
    "Write a privacy notice sentence saying we don't store user messages.",
    # --- sensitive disclosures with no request attached ---
    "I was diagnosed with HIV last month and I'm scared to tell my partner.",
    "I've been sober for 93 days today.",
    "My brother was arrested for shoplifting and I need to figure out bail.",
    "We're $40k in credit card debt and my wife doesn't know. Where do I start?",
    "I think my partner is abusive. What resources are there in Texas?",
    "I had a miscarriage in October and I still can't talk about it with anyone.",
    "Please don't judge me, but I've gambled away most of my savings.",
    "Don't tell my wife lol but I just bought a motorcycle. Best beginner gear?",
    "This is hard to type, but I think I'm depressed.",
    # --- idioms ---
    "Remember, remember the fifth of November: where does that rhyme come from?",
    "Are forget-me-nots safe for cats?",
    "My grandma always said 'forgive and forget.' Is that good advice?",
    "My husband has a memory like a goldfish, how do I get him to remember our anniversary?",
    "My bachelor party was in Vegas and what happened there did not stay in Vegas. How do I apologize to my fiancée?",
    "How early should save-the-date cards go out?",
    "Ugh don't remind me, my taxes are due Friday.",
    "Lest we forget: what's the origin of that phrase?",
    "That trip was one for the memory books.",
    "Let bygones be bygones, right? My sister and I finally made up.",
    # --- song and film titles ---
    "Who sang 'Don't You (Forget About Me)'?",
    "Is Eternal Sunshine of the Spotless Mind worth watching?",
    "Play something like 'Remember the Name' by Fort Minor.",
    "What's the plot of Memento, without spoilers?",
    "'Remember Me' from Coco makes me cry every time.",
    "Is the original Total Recall better than the remake?",
    "Songs like 'Forget You' by CeeLo Green for a breakup playlist?",
    "Who wrote 'Save Tonight'?",
    # --- look-alikes in other languages ---
    "Olvídalo, ya lo arreglé yo.",
    "Ich vergesse ständig meine Passwörter, welcher Passwortmanager ist gut?",
    "Übersetze bitte ins Englische: 'Bitte speichere das nicht.'",
    "Como apagar mensagens antigas do WhatsApp sem perder as fotos?",
    "Est-ce que tu gardes en mémoire nos conversations ?",
    "Non mi ricordo mai dove lascio le chiavi. Qualche trucco?",
    "Hoe sla ik een Word-document op als pdf?",
    "Recuérdame mañana llamar al dentista.",
    "Merk dir bitte, dass ich keine Nüsse vertrage.",
    "N'oublie pas que je suis végétarienne pour les recettes.",
    "Vergeet het maar, ik vraag het mijn collega wel.",
    "Wie lösche ich meinen Browserverlauf in Firefox?",
    "Ricordati che sono allergica al lattosio.",
    "My abuela always says 'lo que pasa en casa se queda en casa.' What's the English equivalent?",
]
