"""Sixth held-back labelled set for the "don't remember this" detector (issue 37).

Written on 2026-11-28 by someone who had seen neither the detector nor its other labelled sets,
so that these phrases are independent of its rules. The positives mix lowercase texting with typos, all caps,
very formal and non-native English, polite wishes and conditionals, requests buried at the start, middle or end
of longer messages about health, money, legal trouble, family, work and passwords, and requests that use no
memory verb at all. The negatives are look-alikes: the user's own memory, requests to remember or save,
"forget it" topic changes and corrections, everyday save/delete/record/log talk about files, food, money and code,
reported speech, questions about how the memory feature works, fiction and dialogue, and drafting instructions.
"""

WITHHOLD = "withhold"
FORGET_PREVIOUS = "forget_previous"

SIXTH_POSITIVE: list[tuple[str, str]] = [
    ("Quick heads up before I vent: none of this needs to go into your memory, okay?", WITHHOLD),
    (
        "i'd rather you didn't remember this one, its kind of embarrassing but i failed my driving test "
        "for the third time",
        WITHHOLD,
    ),
    (
        "Would you mind not holding on to this? My psychiatrist just upped my sertraline to 100mg and I want "
        "to understand the side effects.",
        WITHHOLD,
    ),
    ("PLEASE DONT SAVE THIS TO MY PROFILE. I OWE ABOUT 14K ON TWO CREDIT CARDS AND NEED A PAYOFF PLAN", WITHHOLD),
    (
        "If you can, leave this out of your memory: I'm thinking about leaving my husband and want to know "
        "how custody works in Ohio.",
        WITHHOLD,
    ),
    (
        "Treat this as a one-off and don't bring it up in future chats. I need a cover letter for a job my "
        "boss doesn't know I'm applying to.",
        WITHHOLD,
    ),
    (
        "This is a throwaway, no need to learn anything from it. What's a decent gift for a coworker I barely know?",
        WITHHOLD,
    ),
    ("Off the record: my brother got arrested last weekend. What actually happens at an arraignment?", WITHHOLD),
    ("this stays between us, dont file it away anywhere. i think i might have a gambling problem", WITHHOLD),
    ("Kindly refrain from retaining the contents of this message in any persistent form.", WITHHOLD),
    (
        "I would be grateful if the following information were not recorded in my personalization settings. "
        "I am currently undergoing fertility treatment and would like a list of questions for my next appointment.",
        WITHHOLD,
    ),
    ("pls dont log this convo just need help w a breakup text", WITHHOLD),
    (
        "Please don't jot this down for later. My Wi-Fi password is Tulip-Harbor-88 and I want to turn it into "
        "a QR code for guests.",
        WITHHOLD,
    ),
    ("Don't carry this over to any other chat. Asking about chlamydia symptoms.", WITHHOLD),
    ("no memory for this one pls", WITHHOLD),
    (
        "Dear assistant, I kindly ask you not keep this informations, it is very private for me. My son got "
        "autism diagnosis and I want learn how to speak with his teacher.",
        WITHHOLD,
    ),
    ("Can you not commit this to memory? I'm 6 weeks pregnant and haven't told anyone yet.", WITHHOLD),
    (
        "just for now dont hang onto any of it, im planning a surprise party for my wife and she uses this account too",
        WITHHOLD,
    ),
    (
        "Before anything else: I don't want this conversation kept. My supervisor keeps making comments about "
        "my body and I need to know my options.",
        WITHHOLD,
    ),
    (
        "Help me write a resignation email to my manager, short and polite. Also, keep this out of my chat "
        "history if that's something you can do.",
        WITHHOLD,
    ),
    (
        "I'm going to tell you something about my finances and I'd appreciate it if it didn't end up stored "
        "anywhere. I filed for bankruptcy in 2019 and I'm wondering if I can get a mortgage yet.",
        WITHHOLD,
    ),
    ("DO NOT REMEMBER THIS!!! need help reading my lab results, my A1C is 9.2", WITHHOLD),
    ("plz dont use this later on, its a one time question about my ex's new girlfriend", WITHHOLD),
    ("Let's keep this one ephemeral. Nothing from this chat should shape your future answers to me.", WITHHOLD),
    ("Incognito mode for this message please: how can I get tested for HIV anonymously?", WITHHOLD),
    (
        "Hey, can this be a no-memory conversation? I need to talk through some stuff about my dad's drinking.",
        WITHHOLD,
    ),
    ("i dont want u learning anything about me from this msg. how do i tell if a mole is cancerous", WITHHOLD),
    (
        "Not for your records: I was fired last month and my family still thinks I go to work every day. "
        "How do I tell them?",
        WITHHOLD,
    ),
    (
        "Could we do this one without you saving anything? I need to check the real interest rate on a payday loan.",
        WITHHOLD,
    ),
    (
        "Please don't keep this once we're done. I want to change my debit card PIN because it's my birthday "
        "and that feels unsafe.",
        WITHHOLD,
    ),
    ("Don't add this to what you know about me. I'm bi and not out to my family yet.", WITHHOLD),
    (
        "Dont put any of this in my profile ok? long story short my landlord is evicting me and I have 30 days",
        WITHHOLD,
    ),
    (
        "Sorry my English not so good. Please not save this in memory. I have problem with my visa and I am "
        "afraid to lose my job.",
        WITHHOLD,
    ),
    ("Can you not keep track of this one? I'm looking into rehab centers, for me.", WITHHOLD),
    (
        "I'm asking for a friend (really it's for me) and I'd prefer this wasn't retained: what are the early "
        "signs of bipolar disorder?",
        WITHHOLD,
    ),
    (
        "For this chat only, please don't update your memory about me. I'm pretending to be a different person "
        "for a writing exercise.",
        WITHHOLD,
    ),
    ("Don't take notes on this one. How much do divorce lawyers usually charge per hour?", WITHHOLD),
    (
        "Ok so long story. My mother-in-law moved in three months ago, she has been going through my mail, and "
        "my husband always takes her side. I'm at the end of my rope and I'd really rather none of this gets "
        "saved, I just need to vent. How do I set boundaries without blowing up the whole family?",
        WITHHOLD,
    ),
    (
        "Temporary-chat vibes please, nothing I say here should stick. I'm drafting a complaint about my "
        "manager for HR.",
        WITHHOLD,
    ),
    (
        "I know you keep a profile on me, leave this message out of it. My credit score is 512 and I want to fix it.",
        WITHHOLD,
    ),
    (
        "Hi! sorry in advance, this is sensitive so please dont store it. my daughter (14) was caught cutting "
        "herself and I don't know what to say to her",
        WITHHOLD,
    ),
    (
        "Could you please NOT remember that I asked this lol: how do you get over a crush on your best friend",
        WITHHOLD,
    ),
    ("i beg u dont record this anywhere. i cheated on my final exam and i feel horrible", WITHHOLD),
    (
        "Keep this between you and me and don't let it follow me into other conversations: I'm interviewing "
        "with a competitor on Friday.",
        WITHHOLD,
    ),
    (
        "Please make sure this doesn't become part of my personalization. I'm reading up on early-onset "
        "dementia because I think I have symptoms.",
        WITHHOLD,
    ),
    ("One favour before we start: whatever I share in this session, don't keep it.", WITHHOLD),
    (
        "This is sensitive legal stuff so please don't save any of it. I got a DUI and my court date is next "
        "Tuesday, what should I bring?",
        WITHHOLD,
    ),
    (
        "don't hang on to any of this btw, just need quick math on my alimony payments: 2300 a month for 4 years",
        WITHHOLD,
    ),
    (
        "Mind not saving this? It's my bank's routing number and I need to know if it works for wires or only ACH.",
        WITHHOLD,
    ),
    (
        "I'm about to paste my discharge summary from the hospital. I don't want it kept after this "
        "conversation ends, I just need it in plain English.",
        WITHHOLD,
    ),
    ("Could you make an exception and not memorize this one? My doctor found a lump and I'm scared.", WITHHOLD),
    ("dont remember this pls pls pls", WITHHOLD),
    (
        "Respectfully, I request that this exchange not be retained or used to personalise future responses.",
        WITHHOLD,
    ),
    (
        "I need help with a hard email to my sister about our dad's will. Whatever you do, don't keep any of "
        "the details afterwards.",
        WITHHOLD,
    ),
    (
        "Once we're done, could you act like you never saw this? I need to figure out how to tell my partner "
        "I have herpes.",
        WITHHOLD,
    ),
    ("Please exclude this conversation from memory.", WITHHOLD),
    (
        "Not something I want you to learn about me, but here goes: I started smoking again. Tips to quit for good?",
        WITHHOLD,
    ),
    (
        "Between us and not for the long-term memory: I'm 3 months behind on my mortgage. What are my options?",
        WITHHOLD,
    ),
    (
        "just a heads up id prefer you not log any of this to my account, its about my HIV meds schedule",
        WITHHOLD,
    ),
    ("no saving this to memory pls. whats the statute of limitations on unpaid taxes", WITHHOLD),
    (
        "Leave this out of whatever you know about me going forward: I was adopted and I just found my birth "
        "mother on Facebook.",
        WITHHOLD,
    ),
    ("This one's not for keeps. Can you help me draft a reply to a debt collector?", WITHHOLD),
    (
        "Please, do not store this message. I am asking for abortion clinics near me and it is private thing.",
        WITHHOLD,
    ),
    (
        "Quick one, and please don't let it shape how you talk to me later: is 38 too old to start a PhD?",
        WITHHOLD,
    ),
    (
        "I'd appreciate it if you didn't note this anywhere, but my password manager master password is "
        "expiring and I need help making a strong new one.",
        WITHHOLD,
    ),
    (
        "If it's possible, don't file this conversation under my profile. I've been having panic attacks at work.",
        WITHHOLD,
    ),
    (
        "Hey can you not bring this up again in later chats? I weigh 240 lbs and want a realistic diet plan.",
        WITHHOLD,
    ),
    (
        "I'm sharing this once and only once, so don't retain it: my ex threatened me last night. How do "
        "restraining orders work?",
        WITHHOLD,
    ),
    (
        "PLEASE do not keep a record of this chat. How do I report my employer for wage theft anonymously?",
        WITHHOLD,
    ),
    (
        "Before my question, a request: this shouldn't end up in your memory of me. Is it normal to still wet "
        "the bed at 25?",
        WITHHOLD,
    ),
    (
        "I'll be honest about my salary here but I don't want it remembered: 62k, and I want to negotiate for "
        "75k. What should I say?",
        WITHHOLD,
    ),
    (
        "My team lead wants a status update by Friday and I'm behind because I've been dealing with a family "
        "thing. Keep the family part to yourself and don't store it, please. Can you help me write an update "
        "that's honest but doesn't overshare?",
        WITHHOLD,
    ),
    (
        "Can you explain the difference between a Roth and a traditional IRA, and whether I can still "
        "contribute for last year if I made about 140k? I'd rather this not be saved to my profile.",
        WITHHOLD,
    ),
    ("forget what I told you about my sister, she asked me to keep it private", FORGET_PREVIOUS),
    ("Delete that last thing I said from your memory.", FORGET_PREVIOUS),
    ("I shouldn't have told you that. Please wipe it.", FORGET_PREVIOUS),
    ("Can you un-remember the part about my salary? I overshared.", FORGET_PREVIOUS),
    (
        "What I mentioned earlier about my diagnosis, please take it out of your memory. I'm not ready for that "
        "to be stored.",
        FORGET_PREVIOUS,
    ),
    ("please remove my home address from whatever you saved about me", FORGET_PREVIOUS),
    ("i take back what i said about my boss earlier, dont keep that", FORGET_PREVIOUS),
    ("That thing I told you yesterday about my credit card debt, can you erase it?", FORGET_PREVIOUS),
    (
        "Kindly purge the information I provided in my previous message regarding my medical history.",
        FORGET_PREVIOUS,
    ),
    ("oops i just pasted my password in the last message, pls forget the password i sent", FORGET_PREVIOUS),
    (
        "Earlier I mentioned my son's school and his full name. Please don't hold on to that, delete it.",
        FORGET_PREVIOUS,
    ),
    ("Go back and remove everything I said about my divorce from your memory.", FORGET_PREVIOUS),
    ("Can you delete what you know about my ex? I'd rather you didn't have that anymore.", FORGET_PREVIOUS),
    ("FORGET EVERYTHING I SAID ABOUT MY HEALTH LAST WEEK", FORGET_PREVIOUS),
    ("I regret telling you about my kid's diagnosis. Could you drop it from your memory?", FORGET_PREVIOUS),
    ("Wipe the stuff about my mortgage from earlier, please.", FORGET_PREVIOUS),
    ("Strike my phone number from your records, I gave it to you by mistake.", FORGET_PREVIOUS),
    (
        "would you mind forgetting what i told you about my dad's drinking? it felt like too much to share",
        FORGET_PREVIOUS,
    ),
    ("Remove the note you made about my anxiety.", FORGET_PREVIOUS),
    ("Sorry, that last message had my bank details in it. Please delete it from your memory.", FORGET_PREVIOUS),
    (
        "A while back I told you I was job hunting. Please get rid of that, my manager sometimes sees my screen.",
        FORGET_PREVIOUS,
    ),
    ("the part where i talked about my therapist pls erase it from ur memory", FORGET_PREVIOUS),
    ("I would like the personal details I shared in our previous conversation to be deleted.", FORGET_PREVIOUS),
    ("can u undo saving that? the thing about my weight", FORGET_PREVIOUS),
    ("Please clear whatever you learned about me from our chat about my pregnancy.", FORGET_PREVIOUS),
    ("Ugh, I said way too much about my friend's affair. Please forget I mentioned it.", FORGET_PREVIOUS),
    ("Whatever you stored about my court case, please remove it.", FORGET_PREVIOUS),
    ("I gave you my home address a few messages up. I'd like that forgotten.", FORGET_PREVIOUS),
    ("Please discard my earlier message about the loan, I don't want it in my profile.", FORGET_PREVIOUS),
    ("Take my religion off my profile please, I shouldn't have brought it up.", FORGET_PREVIOUS),
    (
        "I'm not comfortable with you knowing about my prescription anymore. Please delete what I told you.",
        FORGET_PREVIOUS,
    ),
    ("You know how I told you about my sister's rehab? Forget that, it wasn't mine to share.", FORGET_PREVIOUS),
    ("Could you unlearn what I said earlier about my political views?", FORGET_PREVIOUS),
    ("Pls dont remember what i said before about my ex, delete it", FORGET_PREVIOUS),
    ("Erase my last three messages from your memory.", FORGET_PREVIOUS),
    ("Remove the fact that I have diabetes from your memory of me.", FORGET_PREVIOUS),
    (
        "That earlier bit about my immigration status, I'd prefer you not keep it. Please remove it.",
        FORGET_PREVIOUS,
    ),
    ("Delete the salary info I gave you on Monday, I've changed my mind about sharing it.", FORGET_PREVIOUS),
    (
        "in my previous msg i wrote my full name and date of birth. pls wipe that, shouldnt have shared",
        FORGET_PREVIOUS,
    ),
    ("I would like that you forget the things I write yesterday about my health, please.", FORGET_PREVIOUS),
    ("Please don't carry over what I told you last time about my debt, just drop it from memory.", FORGET_PREVIOUS),
    (
        "Thanks for the help with the budget spreadsheet yesterday. One thing though: when I mentioned my "
        "gambling losses, that was more than I meant to share, so please delete that bit from what you remember "
        "about me. Anyway, can we add a column for savings?",
        FORGET_PREVIOUS,
    ),
]

SIXTH_NEGATIVE: list[str] = [
    "I can't remember where I left my keys, any tricks for finding them?",
    "Please remember that I'm allergic to peanuts.",
    "Forget it, let's talk about something else. What's the weather like in Denver this weekend?",
    "never mind, I figured it out",
    "scratch that, make it a 3-day itinerary instead of 5",
    "Forget Tuesday, let's do Wednesday at 3.",
    "Don't save the doc yet, I want to change the title first.",
    "My coworker keeps saving the shared file before I've checked the numbers. How do I lock a range in Google Sheets?",
    "Is it true you shouldn't store bananas in the fridge?",
    "How long should I keep receipts for tax purposes?",
    "My coworker told me not to record the meeting. Is that even legal for her to ask?",
    "Do you remember things between chats?",
    "How do I turn memory off in settings?",
    "Is my Gmail private?",
    "Don't remind me about the dentist, I already booked it.",
    "Don't use bullet points in your answer.",
    "Write a group text to my siblings planning mom's 60th, and don't tell mom anything in it obviously.",
    "Write a Python function that doesn't cache results between calls.",
    "In the movie she says 'Forget you ever saw me' and then vanishes. Which film is that?",
    "Can you remember that my son's birthday is March 12?",
    "Save this recipe for later, it looks great.",
    "Please add to your memory that I prefer metric units.",
    "How do I delete duplicate rows in Excel?",
    "How do I delete my Instagram account permanently?",
    "my memory has been terrible lately, is that a sign of stress or something worse?",
    "I forgot my Netflix password, how do I reset it?",
    "What's the safest way to keep my passwords?",
    "I won't record the stream until the mic is fixed. How do I mute a single source in OBS?",
    "Keep it short please.",
    "keep going with the story, this is good",
    "Write a scene where the detective leans in and says, 'This conversation never happened.'",
    "My therapist said everything in our sessions is confidential. Is that true for teenagers too?",
    "Is it safe to store my crypto seed phrase in Google Drive?",
    "Can you help me write a privacy policy for my bakery's website?",
    "What does 'off the record' mean for journalists, legally?",
    "Translate 'please don't forget me' into Spanish.",
    "Forget about the budget for a second, what's the cheapest flight to Lisbon in May?",
    "Remember when we talked about sourdough? Can you pick up from there?",
    "What do you have saved in your memory about me?",
    "Is there a way to see my chat history from last month?",
    "Does incognito mode in Chrome hide my browsing from my employer?",
    "Don't let me forget to call the vet tomorrow morning.",
    "Don't forget that I'm lactose intolerant when you suggest recipes.",
    "keep in mind I'm on a budget of $500",
    "How do I clear the cache in Safari on my iPhone?",
    "My grandma keeps forgetting names lately. Should we get her tested for dementia?",
    "What git command removes a file from the last commit without deleting it locally?",
    "How do I completely erase a hard drive before selling my laptop?",
    "The pharmacist said not to store insulin in the freezer. Where should I keep it while traveling?",
    "Can I legally record a phone call in California without telling the other person?",
    "Don't say 'delve' anywhere in the essay.",
    "Scratch the last paragraph and rewrite the conclusion so it's punchier.",
    "Ignore the typo in my last message, I meant fifteen not fifty.",
    "Forget the blue one, I'll take the green sweater. Does it come in medium?",
    "Never mind the dessert, what wine goes with salmon?",
    "Keep a running tally of the calories I list in this chat.",
    "Should I store my photos on iCloud or Google Photos?",
    "Write a SQL query that deletes users who haven't logged in for a year.",
    "How do I stop Windows from saving my search history?",
    "My friend asked me to delete the photos of her from the party. Can I remove them from a shared album?",
    "I'd rather you didn't use emojis.",
    "If you can, leave out the technical jargon.",
    "Treat this as a rough draft and don't polish it too much.",
    "Why does my laptop forget the Wi-Fi password every time it restarts?",
    "Log my run: 5k in 28 minutes.",
    "Note that the meeting moved to Friday.",
    "Can you learn my writing style from these three examples?",
    "Use this later when I ask for a cover letter: I have 5 years of Python experience.",
    "Bring this up again next week when I ask about the trip.",
    "How do I get my uncle to not bring up politics at Thanksgiving?",
    "Help me write a note to my roommate asking her not to keep leftovers in the fridge for more than a week.",
    "Draft a reply saying I'd prefer they didn't share my email address with vendors.",
    "In my novel the AI says 'I will not remember this conversation.' Does that line sound too cliche?",
    "What does GDPR say about the right to be forgotten?",
    "How long do you keep conversations on your servers?",
    "I keep forgetting to take my vitamins. Any tips?",
    "My landlord won't return my deposit. Should I keep a record of all our texts?",
    "Write an email to my team: 'Please don't record tomorrow's all-hands, legal hasn't approved it.'",
    "Can you forget the formal tone and just talk normally?",
    "I honestly don't remember if I turned off the stove before leaving.",
    "Did I already tell you my dog's name? I can't remember.",
    "what was that app you recommended last time, i forgot the name",
    "My wife deleted our wedding video by accident. Can it be recovered?",
    "How do I stop my iPhone from storing my location history?",
    "Don't cc my manager on this email draft.",
    "Write a JavaScript function that stores the user's theme choice in localStorage.",
    "Refactor this so it doesn't log the API key to the console.",
    "How do I make a Redis key expire after 10 minutes so it isn't kept forever?",
    "The nurse told me not to keep the leftover antibiotics. Should I throw them out or take them back?",
    "Store this in your memory: our anniversary is June 4th.",
    "Is WhatsApp really end-to-end encrypted?",
    "Is a shared Dropbox folder private by default, or can anyone with the link see it?",
    "Private browsing or a VPN, which one actually hides more?",
    "He whispered, 'Don't remember me like this,' and closed his eyes. Can you continue the story from there?",
    "What's a polite way to ask a coworker to stop recording our calls?",
    "My manager said the layoffs are off the record until Friday. What does that mean for me?",
    "Delete the second sentence and tighten up the rest.",
    "undo that last change to the code, the loop was fine",
    "Take back the apology line in the email, it sounds weak.",
    "ugh forget it ill just google it",
    "nvm",
    "SCRATCH THAT IDEA, LETS GO WITH THE RED LOGO INSTEAD",
    "Which is better for long-term storage of documents, SSD or HDD?",
    "Should I keep my old 401k or roll it into an IRA?",
    "How do I stop Alexa from keeping recordings of everything I say?",
    "Can you keep track of my water intake today? 2 glasses so far.",
    "I'm writing a poem called 'Don't Hold On To Me'. Can you suggest a rhyme for 'again'?",
    "How do I make Word stop remembering the last files I opened?",
    "Don't hold back, tell me honestly what you think of my essay.",
    "Remember to use British spelling from now on.",
    "Commit these changes with the message 'fix login bug' and push to main.",
    "Write a bash one-liner to delete log files older than 30 days.",
    "Can you explain how your memory feature decides what to save?",
    "What happens to my data if I delete my account?",
    "I deleted the app by accident. Will my conversations come back if I reinstall?",
    "My mom was just diagnosed with type 2 diabetes and she keeps forgetting to check her blood sugar. "
    "Can you help me set up a simple log she can fill in each morning, and tell me what numbers count as normal?",
    "I've been putting away $200 a month but I keep dipping into it for groceries. Should I open a separate "
    "high-yield account so I'm not tempted? Also, is it dumb to keep part of my emergency fund in cash at home?",
    "I'm keeping the surprise party a secret from my husband. Can you plan a menu for 20 people?",
    "How do I stop Outlook from filing newsletters under Focused?",
    "My lawyer told me not to post anything about the accident online and to keep every medical bill. "
    "Should I also be keeping a written diary of my pain levels?",
    "Is there a way to make you forget things, or is that not possible?",
    "I know you can't remember our last chat, so here's the context again: I'm building a budgeting app in Flutter.",
    "Quiz me on these Spanish flashcards until I have them memorized.",
    "Just for now, use Celsius. I'll switch back to Fahrenheit later.",
]
