"""Eighth held-back labelled set for the "don't remember this" detector (issue 37).

Written on 2026-11-28 blind, by someone who had seen neither the detector nor its other labelled sets, so that
these phrases are independent of its rules. The positives mix lowercase texting with typos and abbreviations,
all caps, very formal and non-native English (and a little French), emoji, polite wishes and conditionals, requests
at the start, middle or end of short and long messages about health, money, relationships, work, legal matters,
children, school, immigration and passwords, and requests that use no memory verb at all ("between us only",
"not for keeps", "off the books"). The FORGET_PREVIOUS positives ask that the previous message be dropped. The
negatives are look-alikes: the user's own memory, requests to remember or note things, "forget it" and "scratch
that" corrections, everyday save/delete/record/log talk about files, money, devices and code, reported speech,
journalism and legal "off the record", questions about how the memory feature works, fiction, translation and
dialogue, and drafting instructions.
"""

WITHHOLD = "withhold"
FORGET_PREVIOUS = "forget_previous"

EIGHTH_POSITIVE: list[tuple[str, str]] = [
    ("off the record, how bad is it to skip two months of my student loan payments", WITHHOLD),
    (
        "ok this stays between you and me: I think I'm pregnant and I haven't told anyone yet. what are the "
        "earliest signs?",
        WITHHOLD,
    ),
    ("dont rememebr this pls. my ex keeps texting me at 3am and i kind of want to reply", WITHHOLD),
    (
        "Kindly do not retain the content of this message. I require guidance on disclosing a prior "
        "conviction on a visa application.",
        WITHHOLD,
    ),
    (
        "not for your memory bank: what's a polite way to tell my sister I won't lend her money again",
        WITHHOLD,
    ),
    ("can u not store this convo rn, just need to ask about a weird mole on my back", WITHHOLD),
    (
        "I'm going to tell you something but I don't want it in my profile, ok? I got laid off today.",
        WITHHOLD,
    ),
    (
        "My son was suspended from school for vaping. Please don't keep any of this, I just need advice on "
        "how to talk to him.",
        WITHHOLD,
    ),
    ("Pls dont log this one. whats the max dose of ibuprofen per day for an adult", WITHHOLD),
    (
        "This one is off-the-record 🤐 I'm interviewing at a competitor next week, how do I explain why I'm leaving?",
        WITHHOLD,
    ),
    (
        "Do not memorise this, please. My bank card got skimmed at a petrol station and I need to know what "
        "to do first.",
        WITHHOLD,
    ),
    (
        "Sorry for my english. Please you not remember this message. I am waiting for asylum decision and I am scared.",
        WITHHOLD,
    ),
    (
        "Just this once, don't add anything from this to what you know about me. How do I dispute a parking "
        "fine in Leeds?",
        WITHHOLD,
    ),
    (
        "DO NOT REMEMBER ANY OF THIS!!! my landlord is trying to evict me and i need to know my rights in california",
        WITHHOLD,
    ),
    (
        "would u mind forgetting this convo after we're done? need help writing an apology to my girlfriend",
        WITHHOLD,
    ),
    (
        "Between us only, and not for your memory: I've been using my flatmate's Netflix login without "
        "asking. Is that illegal?",
        WITHHOLD,
    ),
    (
        "I'd appreciate it if this didn't end up in your long-term memory. I've been diagnosed with ADHD at "
        "34 and I'm still processing it.",
        WITHHOLD,
    ),
    ("no saving this one k? how do i tell my parents im dropping out of uni", WITHHOLD),
    (
        "Can we keep this conversation private, as in you don't keep it? I'm worried my drinking is getting "
        "out of hand.",
        WITHHOLD,
    ),
    (
        "Please make sure nothing from this chat sticks. I'm applying for a green card through marriage and "
        "have questions about the interview.",
        WITHHOLD,
    ),
    ("incognito mode for this one pls 🙏 what are the symptoms of chlamydia", WITHHOLD),
    (
        "Don't file this away anywhere: my wife and I are seeing a couples therapist and I want tips for the "
        "next session.",
        WITHHOLD,
    ),
    (
        "my password for the work vpn keeps expiring, i use Summer2026! and variations - don't keep that "
        "obviously, just tell me how to make a better pattern",
        WITHHOLD,
    ),
    (
        "If it's possible, I'd prefer you not to store anything I say here. My teenage daughter self-harms "
        "and I need to know how to respond.",
        WITHHOLD,
    ),
    (
        "Real quick and pls don't remember it: can my employer see my browsing on my personal phone over the "
        "office wifi?",
        WITHHOLD,
    ),
    (
        "This isn't something I want you to retain. I filed for bankruptcy in 2019 - does that still affect a"
        " mortgage application?",
        WITHHOLD,
    ),
    (
        "Speaking off the record here, what should I do if I suspect my manager is fudging the expense reports?",
        WITHHOLD,
    ),
    ("forget this after u answer: how long does weed stay in ur system for a urine test", WITHHOLD),
    (
        "Hey, one thing first - don't let this shape what you know about me. I've been gambling on sports "
        "apps and lost about 3 grand.",
        WITHHOLD,
    ),
    (
        "Confidential, not to be remembered: our startup is about to miss payroll, how do I tell the team?",
        WITHHOLD,
    ),
    (
        "Please dont put this in my memories. I need a script for calling the IRS about a missed payment.",
        WITHHOLD,
    ),
    (
        "Keep this to yourself and dont save it anywhere, im planning a surprise proposal in Lisbon and need "
        "restaurant ideas",
        WITHHOLD,
    ),
    (
        "Am asking without you keeping it: my visa expired 2 weeks ago, can I still leave the country without a ban?",
        WITHHOLD,
    ),
    (
        "don't hold onto this pls. my kid's teacher said he might need to repeat year 3, how common is that",
        WITHHOLD,
    ),
    (
        "I'm about to share something sensitive, and I'd like it not to be retained beyond this reply: my "
        "father has early-onset Alzheimer's. How do we plan for his care?",
        WITHHOLD,
    ),
    ("no memory on this one. my dog ate chocolate an hour ago, how worried should i be", WITHHOLD),
    (
        "Vent incoming, and none of it should be remembered: my coworker took credit for my project in front "
        "of the VP again.",
        WITHHOLD,
    ),
    (
        "i rly dont want this stored anywhere but i think my roommate is stealing from me, how do i prove it",
        WITHHOLD,
    ),
    (
        "Could you treat this message as if it never happened once we're done? I need help wording a "
        "complaint about my GP.",
        WITHHOLD,
    ),
    ("pls dont remember that i asked this lol but how do you boil an egg", WITHHOLD),
    (
        "Ne pas retenir svp - sorry, French habit. Please don't remember this: how do I report my employer "
        "for unpaid overtime?",
        WITHHOLD,
    ),
    (
        "Just so you know, I don't consent to this being remembered. What's the statute of limitations on "
        "credit card debt in Texas?",
        WITHHOLD,
    ),
    (
        "This convo is not for keeps. Help me draft a text breaking up with someone I've only been seeing for a month.",
        WITHHOLD,
    ),
    ("Quick one, no need to store: is 38.9 a high fever for a 2 year old?", WITHHOLD),
    (
        "OFF THE RECORD what do you honestly think of my business idea, a subscription box for pickles",
        WITHHOLD,
    ),
    (
        "I'll tell you my salary but don't hang on to it: 48k, and my colleague doing the same job makes 56k."
        " How do I bring it up?",
        WITHHOLD,
    ),
    (
        "Leave this out of anything you remember about me, please: I'm on probation and want to know if I can"
        " travel out of state.",
        WITHHOLD,
    ),
    (
        "I'd rather this didn't become part of what you know about me - I was adopted and I'm thinking about "
        "searching for my birth mother.",
        WITHHOLD,
    ),
    ("mate don't keep this one, right, but how do i get out of a gym contract in the uk", WITHHOLD),
    (
        "Please don't make a note of this. I have a job offer from another bank and I'm trying to negotiate a"
        " counter-offer.",
        WITHHOLD,
    ),
    (
        "Please discard this message after answering. How should I split an inheritance with my brother fairly?",
        WITHHOLD,
    ),
    (
        "Without keeping any record of it, can you tell me what questions to ask about tapering off my "
        "anxiety meds? My doctor is on leave.",
        WITHHOLD,
    ),
    (
        "Would prefer this not be memorized: I'm gay and haven't come out to my family. how do I find a "
        "supportive therapist?",
        WITHHOLD,
    ),
    (
        "i'm asking for a friend (it's me) and pls dont remember it: can you get fired for a DUI outside work",
        WITHHOLD,
    ),
    (
        "Please, do not keep in memory. I am student from Vietnam, my part-time job is more than 20 hours, is"
        " this problem for my visa?",
        WITHHOLD,
    ),
    (
        "Dont save. dont remember. just answer: how do I reset my online banking if I forgot the security questions",
        WITHHOLD,
    ),
    (
        "You can forget this as soon as you've answered: what's a reasonable rent for a one-bed in Bristol?",
        WITHHOLD,
    ),
    (
        "Ehh I'd like this chat to stay ephemeral. my kid got caught cheating on a chemistry test, what "
        "consequences are reasonable?",
        WITHHOLD,
    ),
    (
        "don't keep a copy of this anywhere on your side: my email password is basically hunter2 and I reuse "
        "it everywhere, how bad is that",
        WITHHOLD,
    ),
    (
        "Important: this message must not be retained. I'm a nurse and I made a medication error last night; "
        "what are my reporting obligations?",
        WITHHOLD,
    ),
    (
        "just between the two of us 🤫 i still sleep with a stuffed animal at 29, is that weird",
        WITHHOLD,
    ),
    (
        "I know you have memory but please switch it off for this one. My husband's snoring is ruining our marriage.",
        WITHHOLD,
    ),
    (
        "pls dont carry this over to next time we talk, i'm having second thoughts about the wedding",
        WITHHOLD,
    ),
    (
        "Would you be so kind as not to remember this exchange? I'd like to understand how a barring order "
        "works in Ireland.",
        WITHHOLD,
    ),
    (
        "I don't want this to be part of my history with you. How do I tell my boss I'm pregnant?",
        WITHHOLD,
    ),
    (
        "ok real talk, nothing I say in this message goes into memory. my therapist said I might have BPD and"
        " I'm freaking out",
        WITHHOLD,
    ),
    (
        "Do NOT save this: my social security number got leaked in a breach, what steps do I take?",
        WITHHOLD,
    ),
    (
        "Once you've answered, please let this go - I don't want it remembered. My brother is in rehab for "
        "the second time.",
        WITHHOLD,
    ),
    (
        "dont remember this one either pls, what's the cheapest way to send money to my mum in Nigeria",
        WITHHOLD,
    ),
    (
        "Not something I want on file: my A-level results were terrible and I need to explain them in a uni "
        "application.",
        WITHHOLD,
    ),
    (
        "Keep this out of your notes on me, please. I'm thinking of donating sperm and want to know about "
        "anonymity laws.",
        WITHHOLD,
    ),
    (
        "I'm asking this without wanting it saved: can my parents see what I search for on the family wifi?",
        WITHHOLD,
    ),
    (
        "Private question, please don't retain: is it normal to still be bleeding three weeks after giving birth?",
        WITHHOLD,
    ),
    (
        "Pretty please with sugar on top don't remember this: I dented my dad's car and need to know if "
        "insurance will cover it.",
        WITHHOLD,
    ),
    ("Memory off for this msg. how do i cancel a klarna payment", WITHHOLD),
    (
        "Hi! Could you avoid storing anything from this chat? I want to ask about options for an unplanned pregnancy.",
        WITHHOLD,
    ),
    (
        "Here's my problem, and I'd like it forgotten once we're done: my tenant hasn't paid rent in three months.",
        WITHHOLD,
    ),
    (
        "Re the tax thing: I didn't declare some cash income from tutoring last year. Not something you "
        "should remember, but how do I fix it?",
        WITHHOLD,
    ),
    (
        "could you please not commit this to memory. my daughter's biological father wants to get in touch "
        "and i don't know what to do",
        WITHHOLD,
    ),
    (
        "Everything in this message stays off your records, agreed? I think my 8 year old is being bullied at school.",
        WITHHOLD,
    ),
    (
        "I'm embarrassed to ask and would rather it not be stored: how do I get rid of bed bugs?",
        WITHHOLD,
    ),
    (
        "no profile updates from this pls, just asking how to renew a Schengen visa from inside Germany",
        WITHHOLD,
    ),
    (
        "I'd like this kept out of your memory of me, as a matter of principle. What are the rules on "
        "recording a phone call with my landlord in Florida?",
        WITHHOLD,
    ),
    ("plz no rememberin this 😅 how many units of alcohol is too many in a week", WITHHOLD),
    (
        "this is sensitive so please dont retain it - my login for the hospital portal is being shared by the"
        " whole ward, should i report it",
        WITHHOLD,
    ),
    (
        "Forget this conversation happened once you've helped me: I need to write a reference for an employee"
        " I'm about to let go.",
        WITHHOLD,
    ),
    (
        "Asking this off the books, please don't keep it: is it legal to work cash-in-hand while on a student"
        " visa in Australia?",
        WITHHOLD,
    ),
    (
        "For this one only, please don't keep anything: how do I tell my kids their grandfather has cancer?",
        WITHHOLD,
    ),
    (
        "Please don't keep this in mind for later. I'm tempted to have an affair and want to talk myself out of it.",
        WITHHOLD,
    ),
    (
        "keep this under wraps, meaning don't remember it: I'm planning to quit in January and haven't told anyone",
        WITHHOLD,
    ),
    (
        "Hey can this one not go in the memory thing? I need help with a letter to the council about my "
        "neighbour's noise.",
        WITHHOLD,
    ),
    (
        "don't save any of this to my account, it's my brother's question really: what's the penalty for "
        "driving without insurance in the UK",
        WITHHOLD,
    ),
    (
        "I'm a bit paranoid, so please don't keep this: what's the best way to store my crypto seed phrase?",
        WITHHOLD,
    ),
    (
        "Honestly I'd rather you didn't know this about me going forward: I haven't filed taxes in two years.",
        WITHHOLD,
    ),
    ("MEMORY: NO. question: can a school keep my child's phone overnight as a punishment", WITHHOLD),
    ("Disregard this for memory purposes. Which blood tests check for thyroid problems?", WITHHOLD),
    (
        "Request: exclude this message from your memory. I would like to know how to appeal a university "
        "disciplinary decision.",
        WITHHOLD,
    ),
    (
        "Okay so this is kind of a long story. My mum's been living with us since her fall in March and it's "
        "putting a huge strain on everything - my partner and I barely talk, the kids are acting up, and I'm "
        "exhausted. I'm looking at care homes but feel incredibly guilty. Please don't remember any of this "
        "afterwards, I just need to think out loud. What questions should I ask when touring a home?",
        WITHHOLD,
    ),
    (
        "hi so i have a weird question. my company does random drug tests and i went to a party in amsterdam "
        "last weekend. i didnt plan on anything but i ended up having an edible. the test is probably next "
        "month. i dont want you remembering this at all btw. how long until it's out of my system, roughly, "
        "for someone who almost never uses",
        WITHHOLD,
    ),
    (
        "Dear assistant, I write to seek guidance on a delicate matter regarding my late father's estate, in "
        "which I suspect my stepmother of concealing assets. I should be grateful if you would refrain from "
        "retaining any part of this correspondence. Could you outline the steps for requesting a formal "
        "account from the executor in England and Wales?",
        WITHHOLD,
    ),
    (
        "tbh i dont want u to remember this but my gf found my old tinder profile still active and now she's "
        "furious. how do i explain it wasnt used",
        WITHHOLD,
    ),
    (
        "One condition before I ask: you don't save it. Is it worth reporting a hit-and-run on my parked car "
        "if there were no witnesses?",
        WITHHOLD,
    ),
    (
        "If you're able to not remember things, please don't remember this. I've been having panic attacks "
        "before every exam.",
        WITHHOLD,
    ),
    (
        "This stays here, don't take it with you into future chats: my 15 year old asked me about birth "
        "control and I froze.",
        WITHHOLD,
    ),
    (
        "pls pls pls dont keep this 😭 i accidentally sent my boss a meme meant for my group chat, how do i recover",
        WITHHOLD,
    ),
    (
        "I'm a teacher and I'd prefer this not be kept: one of my pupils told me something worrying about "
        "home. What's the safeguarding procedure?",
        WITHHOLD,
    ),
    (
        "Could you kindly not save this particular chat? I owe my cousin 2,000 euros and I'm avoiding her calls.",
        WITHHOLD,
    ),
    (
        "quick q, dont store: how do i change my 2FA phone number on my work account without IT noticing",
        WITHHOLD,
    ),
    (
        "I don't want this kept on my profile, it's about my immigration hearing next month. What documents "
        "should I bring?",
        WITHHOLD,
    ),
    (
        "Leave this one out of my memories please 🙂 I want to plan a budget for an IVF cycle.",
        WITHHOLD,
    ),
    (
        "Please don't write this down anywhere, even internally. What happens if I miss a court-ordered child"
        " support payment?",
        WITHHOLD,
    ),
    (
        "Ok I'll be honest but don't remember it: I lied on my CV about having a degree. Can they fire me years later?",
        WITHHOLD,
    ),
    (
        "Do me a favour and don't hang on to this one: how do you tell your best mate his wife is cheating?",
        WITHHOLD,
    ),
    (
        "Just want to chat without it being saved. My piano teacher says I'm not improving and I feel like quitting.",
        WITHHOLD,
    ),
    ("nothing from this msg in ur memory plz - whats a safe way to give my kid melatonin", WITHHOLD),
    (
        "Treat this as unrecorded, please. My partner wants to move to Canada for work and I don't want to go.",
        WITHHOLD,
    ),
    (
        "Je préfère que tu ne gardes pas ça en mémoire - I mean, please don't keep this. How do I tell my "
        "employer about my burnout?",
        WITHHOLD,
    ),
    ("forget what i said a sec ago about my ex, i overshared", FORGET_PREVIOUS),
    (
        "Please erase my last message from your memory, I shouldn't have mentioned my diagnosis.",
        FORGET_PREVIOUS,
    ),
    ("actually can you not remember that last bit about my salary", FORGET_PREVIOUS),
    ("Delete what I just told you about my brother from whatever you keep on me.", FORGET_PREVIOUS),
    ("Oops, that previous message had my password in it. Please don't store any of it.", FORGET_PREVIOUS),
    ("Undo remembering that, please. I wasn't ready to share it.", FORGET_PREVIOUS),
    ("wait, don't keep what I just said about my court date", FORGET_PREVIOUS),
    ("I regret telling you that. Could you unremember it?", FORGET_PREVIOUS),
    ("pls wipe my previous msg from ur memory", FORGET_PREVIOUS),
    ("Scrub the thing I said about my marriage from your memory, please. I was upset.", FORGET_PREVIOUS),
    ("That last thing I wrote about my kid's school - please don't hang on to it.", FORGET_PREVIOUS),
    ("Can you forget the stuff I said just now about my debts? Thanks.", FORGET_PREVIOUS),
    (
        "On second thought, I'd like what I just shared about my immigration status not to be remembered.",
        FORGET_PREVIOUS,
    ),
    (
        "I take back what I told you about my health, in the sense of: please don't keep it.",
        FORGET_PREVIOUS,
    ),
    ("FORGET MY LAST MESSAGE. I DIDN'T MEAN TO SEND THAT TO YOU.", FORGET_PREVIOUS),
    (
        "Kindly remove my previous statement regarding my employer from your stored memories.",
        FORGET_PREVIOUS,
    ),
    ("hmm i shouldn't have said that about my sister. can u drop it from memory", FORGET_PREVIOUS),
    ("Retroactively off the record, please: what I said above about my manager.", FORGET_PREVIOUS),
    ("Please treat my last message as never said - I don't want it kept.", FORGET_PREVIOUS),
    ("ugh typed my bank pin in the last message, please do not remember that", FORGET_PREVIOUS),
    ("Could the previous message not be saved? I've changed my mind about sharing it.", FORGET_PREVIOUS),
    ("that thing i just told you about my meds, keep it out of your memory pls", FORGET_PREVIOUS),
    (
        "Sorry, can you forget what I mentioned earlier about my therapist? Just the last message.",
        FORGET_PREVIOUS,
    ),
    ("please erase the last thing i said from whatever you know about me 🙈", FORGET_PREVIOUS),
    ("My previous message: please don't retain it. Too personal.", FORGET_PREVIOUS),
    (
        "Excuse me, I am not wanting you to remember what I wrote before this one, about my papers. Please delete it.",
        FORGET_PREVIOUS,
    ),
    (
        "So, I just told you all that stuff about my divorce and the custody fight, and honestly I'd feel "
        "better if you didn't keep any of it - can you forget that last message? Anyway, the actual question "
        "is whether I should get my own lawyer.",
        FORGET_PREVIOUS,
    ),
    ("Let's pretend I never sent that last one. Don't save it, ok?", FORGET_PREVIOUS),
]

EIGHTH_NEGATIVE: list[str] = [
    "i cant remember if i took my blood pressure pill this morning, what happens if i take a second one",
    "I don't remember signing this lease clause, can they still enforce it?",
    "My grandma doesn't remember my name anymore. How do I cope with that?",
    "Why can't I remember my dreams anymore?",
    "I keep forgetting my passwords, what's a good password manager?",
    "my kid never remembers to bring his homework home, any tips",
    "I forgot what I said in my interview yesterday, and now I'm worried I contradicted my CV.",
    "Is it normal to not remember much of your childhood before age 7?",
    "I totally forgot my mother-in-law's birthday, help me write a belated card",
    "dont remember the name of that movie where the guy has no short term memory and tattoos notes on himself",
    "Memory tricks for remembering the periodic table?",
    "My husband says I never remember anything he tells me. Could it be ADHD?",
    "Please remember that I'm allergic to penicillin.",
    "remember this for next time: my daughter's name is Ines and she's 6",
    "Save this to memory: I prefer metric units.",
    "Don't forget that my deadline is Friday the 12th.",
    "make sure you keep in mind that i'm vegetarian when you suggest recipes",
    "You can remember my timezone, it's CET. That's fine.",
    "Please DO remember this, it's important: my landlord's name is Mr. Patel.",
    "can you store my preferred pronouns (they/them) so i don't have to repeat myself",
    "I'm fine with you remembering everything I tell you, just so you know.",
    "Keep a record of this: I paid the plumber £180 on 3 Nov.",
    "forget it, let's just do the pasta recipe instead",
    "Scratch that, I meant Tuesday not Thursday.",
    "never mind, forget the spreadsheet, can you help me with a cover letter",
    "Forget the formal tone, make it casual.",
    "oh forget about it, I'll ask my accountant",
    "Scratch the word count I gave you, go with 300 instead.",
    "Scratch my last suggestion, the blue logo looks better after all.",
    "forget the budget for a sec, what would the dream option be?",
    "Let's forget about work for now. Tell me a joke.",
    "actually strike that, the meeting is at 3 not 2",
    "Should I not save anything this month and just pay off the credit card?",
    "How do I stop Word from autosaving to OneDrive?",
    "My phone keeps saving every WhatsApp photo to the gallery, how do I turn that off?",
    "how do i delete my instagram account permanently",
    "Don't save the file as .doc, use .docx.",
    "git: how do I forget a file that's already tracked without deleting it locally?",
    "Write a Python function that logs errors but doesn't record the user's password.",
    "How do I clear my browser history on Safari?",
    "Is it legal to record a zoom call without telling the others in the UK?",
    "Should I keep receipts for seven years for the tax office?",
    "my bank app won't let me save a new payee, why?",
    "How do I stop Google from keeping my location history?",
    "What's the best way to keep a food log without obsessing?",
    "Can I delete a sent email in Outlook?",
    "how to unsend a message on imessage",
    "Should I record my D&D sessions so the players can catch up?",
    "In Postgres, how do I make a table that doesn't write to the WAL?",
    "How do I tell the browser not to cache a page? Is Cache-Control no-store enough?",
    "We don't keep customer card numbers on our servers; what does PCI DSS still require us to document?",
    "What's a good app for saving recipes from websites?",
    "How long does Slack keep messages on the free plan?",
    "I saved 2k this year, don't let me spend it all on a new phone 😂",
    "Help me set up a budget so I don't save too little for retirement.",
    "My boss told me off the record that layoffs are coming. Should I start looking?",
    "My friend said 'please don't remember this' and then told me she's pregnant. How do I keep it secret?",
    "The witness asked the lawyer to keep her name off the record. Can a court allow that?",
    (
        "My daughter begged me to forget what she told me about her friend's self-harm, but I think I have to"
        " tell the school. Am I right?"
    ),
    "My therapist said our sessions are confidential and she doesn't keep detailed notes. Is that normal?",
    "He texted me 'forget what I just said' right after confessing he likes me. What does that mean?",
    "my manager told me to delete the emails about the audit. is that legal??",
    "A source told me something off the record - can I still publish it if I confirm it elsewhere?",
    "What does 'on background' vs 'off the record' mean in journalism?",
    "The judge ordered the remark struck from the record. What does that actually do for the jury?",
    "Can a reporter agree to go off the record and then change their mind?",
    "My lawyer said anything I tell her is privileged. Does that cover emails too?",
    "In a deposition, can I ask to go off the record to talk to my attorney?",
    "Do you remember things between our chats?",
    "How do I turn off your memory feature?",
    "If I told you something private, would you remember it next week?",
    "What do you keep about me, and where can I see it?",
    "can u forget stuff if i ask u to? just curious how it works",
    "Is there a way to delete a specific memory from your settings page?",
    "How long do you store our conversations?",
    "What happens to my data if I close my account?",
    "Does incognito mode in this app mean nothing is saved?",
    "Who at the company can read what you remember about me?",
    "would saying 'off the record' actually stop you from saving stuff, or is that a myth?",
    "Write a scene where a spy whispers 'forget you ever saw me' to a waiter.",
    "In my novel, the AI character says 'I will not remember this conversation.' Does that line sound too cliché?",
    "Give me a short poem titled Don't Remember Me.",
    "Who sang Don't You (Forget About Me)?",
    "Write dialogue for a detective telling a suspect 'this is off the record, just between us'.",
    "Translate into Spanish: 'please don't remember what I said last night'.",
    "Explain the plot of Eternal Sunshine of the Spotless Mind, where they erase memories of an ex.",
    "In Skyrim, how do I make a guard forget that I stole from a shop?",
    "Write an email to my gym asking them to delete my data under GDPR.",
    "Draft a text to my friend saying please forget what I said at the party.",
    "Help me write a note to HR asking them not to keep my medical certificate on file.",
    "Compose a polite message asking my ex to delete our old photos.",
    "Write a subject access request letter to my old employer.",
    "Help me word a request to the school not to record my son's absence as unauthorised.",
    "Draft an off-the-record briefing memo for my team about the reorg.",
    "'keep this between us' is a phrase I hate - how do I respond when a coworker says it?",
    "Secrets in families: is it ever OK to ask a child to keep something between us?",
    "Is 'off the record' legally binding for a journalist?",
    "Anything I say to the police can't be used if I say it's off the record, right?",
    "Remind me tomorrow to call the dentist.",
    "Can you save this itinerary as a PDF?",
    "How do I say 'don't save me a seat, I'm running late' in German?",
    "The Sky box is full and won't record anything, how do I free up space?",
    "What's the memory usage of a Python list with a million ints?",
    "My laptop says out of memory when I open Chrome, what should I do?",
    "How do I forget a wifi network on my iPhone?",
    "Forgetting curve: how often should I review flashcards?",
    "how do i get over someone i just want to forget",
    "What's the best way to forget an embarrassing moment that keeps replaying in my head?",
    "I want to remember this trip forever, give me ideas for a scrapbook.",
    "We're selling the house - should we keep the records of the boiler service?",
    "Do I need to keep a log of my hours as a contractor in Canada?",
    "ok don't bother saving the draft, I'll rewrite it from scratch",
    "Don't store the milk in the fridge door, right? It gets too warm?",
    "my doctor said she'd keep this between us but then told my mum. can I complain?",
    "Please forget the previous formatting and use bullet points.",
    "I'd like to remember my dad's voice. Is it OK to keep his old voicemails forever?",
    "my teacher says we shouldn't memorise the essay, just understand it",
    "What does 'strike from the record' mean in HOA meeting minutes?",
    "Please note down my new address: 14 Elm Road.",
    "I told you about my knee surgery last week - do you still remember?",
    "Don't you remember? I said I'm moving to Berlin.",
    "you forgot that i'm lactose intolerant again 🙄",
    "Why did you forget my name? I told you yesterday.",
    "Can you recall what I told you about my sister's wedding?",
    "Update my memory: I no longer work at Deloitte, I'm at KPMG now.",
    "Dont delete my chats, I need them for my visa appeal. how do I export them?",
    "Is it rude to say 'let's keep this between us' to a new colleague?",
    "In mediation, is what we say 'off the record' or can it be used in court later?",
    "How do I stop my kid's school from posting photos of him online?",
    "no need to be formal, this is just for my own notes",
    "I don't want to save for a house anymore, I'd rather travel. Talk me through the trade-offs.",
    "i dont keep anything in my savings account, is that dumb at 25",
    "Forget the past, focus on the future - who said that?",
    "pls dont judge me but i ate a whole pizza by myself",
    "Let's not talk about my job today, ok? Tell me about Roman aqueducts.",
    "Don't mention my weight in the meal plan, it stresses me out.",
    "Please don't remind me about my exam, I know it's tomorrow 😩",
    "can you forget about being polite and just tell me straight if my essay is bad",
    "I record all my therapy sessions for myself. Is that allowed?",
    "Scratch that last idea - what if we did tacos instead?",
    "i said i'd be off the record at the town hall but the reporter quoted me anyway. what can i do",
    "How do I stop Alexa from saving voice recordings?",
    "Write a privacy policy sentence saying we don't retain chat logs beyond 30 days.",
    "Should I tell my doctor about the panic attacks or keep it to myself?",
    "The prosecutor said the statement was given off the record. Can it still be used at trial?",
    "Should I keep a diary of my symptoms before my neurology appointment?",
    "What records does my GP keep, and can I ask to see them?",
    "can i ask the police to delete my fingerprints after the charges were dropped",
    "How do I get an old conviction removed from my record in Scotland?",
    "My teenager wiped her browser history - should I be worried?",
    "I wish I could forget everything my ex said to me.",
    "Are forget-me-nots safe for cats?",
    "DONT FORGET TO REMIND ME ABOUT THE MORTGAGE PAYMENT ON THE 1ST",
    "my sister said 'dont save this number' and then texted me from it anyway, is she ok??",
    "how do i make my phone not keep a record of calls",
    ("In the contract, what does 'the parties shall not retain copies of confidential information' actually require?"),
    "The interviewer asked if I remembered my previous manager's name and I blanked. Is that a bad sign?",
    "Keep a note that I'm off work on the 23rd, please.",
    "Our DPO says we must not retain CVs longer than six months. Do I need consent to keep them longer?",
    "For my memoir: should I change names if I write about my ex-husband's affair?",
    "i was told to 'forget what i saw' at work yesterday. should i report it?",
    "Write a diary entry from a girl who wants to forget her first heartbreak.",
    "is it ok to not keep my kids' baby teeth or is that cold lol",
    "I'm learning German. How do I say 'I don't remember' politely?",
    "Does Signal keep any record of who I message?",
    "In court, what's the difference between being on the record and off the record?",
    "how do i tell my android keyboard to stop remembering words i type",
    "Should I save my payslips or is the online portal enough?",
    "My dementia support group says not to correct Dad when he forgets things. Why?",
    "Could you remember that my son's school is St Mary's? It'll save time later.",
    "Don't let me forget to renew my passport before the summer.",
    "Yesterday you said you'd forget our chat after the session - did you?",
    "what does 'forget about it' mean in new york slang",
    "Can an employer keep a record of my sick days after I leave?",
    "Please save a copy of this code snippet in the canvas so we can edit it.",
    "Draft a WhatsApp message telling my group chat to delete the photos from Saturday.",
    "My roommate keeps deleting my shows off the DVR, how do I lock them?",
    "I want a journaling app that deletes entries after 24 hours. Any recommendations?",
    "The detective in my screenplay says 'none of this goes on the record.' Is that realistic for UK police?",
    "My accountant told me not to keep cash in the house. Is that normal advice?",
    "Can I ask the bank to forget a late payment as a goodwill gesture?",
    "I forgot to save my essay and Word crashed. Is there any way to recover it?",
    "When a politician says something is off the record, can the journalist still use it anonymously?",
    "Help me remember the names of my new team: Priya, Tomasz, Aoife and Kwame.",
]
