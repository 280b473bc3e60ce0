"""Asking not to be remembered in Spanish, German, French, Portuguese, Italian and Dutch (issue 37),
and a few plain forms in Polish, Swedish and Turkish (the fifteenth set's).

People write to an assistant in their own language, and on the ninth and tenth blind sets most
of the requests both English readers missed were in these five (docs/measurements.md §25). Each
language has a few plain forms, written for the text as facts/consent.py normalises it
(casefolded, accents kept): a request about this message and one about the previous message.
A form names what is not to be kept ("esto", "das", "ça", "isso", "questo", a pronoun, "this
message", "in memory") or stands alone before a colon or at the end, so the same verbs about a
grudge, a file or the person's own memory are left out ("no guardes rencor", "die Datei nicht
speichern können", "je ne me souviens pas", "non salvare il file").
tests/facts/test_consent_languages.py holds each form with its look-alikes.
"""

from __future__ import annotations

from core.lazy_re import Patterns

# What a request points at: this message or its words, or nothing after it (end, colon, "please").
_ES_THIS = r"(?:esto|eso|nada(?: de esto)?|este mensaje|en (?:tu |la |mi )?(?:memoria|perfil|notas))"
_ES_VERB = r"(?:guardes|recuerdes|memorices|apuntes|almacenes|registres|anotes)"
_DE_VERB = r"(?:speichern|abspeichern|merken|notieren|aufschreiben|behalten)"
_FR_VERB = r"(?:retiens|garde|gardes|mémorise|mémorises|enregistre|enregistres|note|notes)"
_PT_VERB = r"(?:guarde|guardes|guardar|lembre|memorize|salve|grave|anote)"
_IT_VERB = r"(?:ricordare|salvare|memorizzare|registrare|annotare|tenere a mente)"
_END = r"(?=\s*(?:[,.:;!]|por favor|porfa|bitte|s'il te plaît|stp|per favore|alsjeblieft|aub|$))"
# Dutch: a request is an imperative; "ik onthoud dit niet" says what the person does.
_NL_NOT_SAID_OF_SELF = r"(?<!ik )(?<!je )(?<!jij )(?<!we )(?<!wij )(?<!hij )(?<!zij )(?<!ze )"
_NL_PLEASE = r"(?:\s+(?:alsjeblieft|alstublieft|aub|a\.u\.b\.|even|maar))?"
# Italian and French: this message's place in memory ("nella tua memoria", "dans ta mémoire").
_IT_PLACE = r"\s+(?:nella|nel) (?:tua |mia |tuo |mio )?(?:memoria|profilo|note)\b"
_FR_PLACE = r"\s+dans (?:ta|votre|ma|mon) (?:mémoire|profil|notes)\b"
# French: a request is an imperative; "je ne le note pas" says what the person does.
_FR_NOT_SAID_OF_SELF = r"(?<!je )(?<!j')(?<!tu )(?<!il )(?<!elle )(?<!on )(?<!nous )(?<!vous )"

# "Forget what I just said" may be a correction, as in English ("oublie ce que je viens de dire, je
# voulais dire mardi"): facts/consent.py reads these first ones as a request only when no correction
# follows (facts/consent_signs.CORRECTION knows the five languages' words for it).
SOFT_FORGET_FORMS = [
    # es: "olvida lo que te acabo de decir"
    r"\bolvid(?:a|e)\s+(?:todo\s+)?lo que (?:te |le )?acabo de\b",
    # de: "vergiss, was ich gerade gesagt habe"
    r"\bvergiss\b(?!\s+nicht\b)(?:\s+\w+){0,2},?\s+was ich (?:dir )?(?:gerade|eben|vorhin)\b",
    # fr: "oublie ce que je viens de dire"
    r"\boublie[zs]?\s+(?:tout\s+)?ce que je (?:viens|t'ai dit|vous ai dit)\b",
    # pt: "esquece o que eu acabei de falar"
    r"\besque(?:ce|ça)\s+(?:tudo\s+)?o que (?:eu )?(?:te )?acabei de\b",
    # it: "dimentica quello che ti ho appena scritto"
    r"\bdimentica\s+(?:tutto\s+)?(?:quello|ciò) che (?:ti )?ho appena\b",
    # pt, it: what was said before named by "before" or the previous message, not "just".
    r"\besque(?:ce|ça)\s+(?:tudo\s+)?o que (?:eu )?(?:te )?(?:disse|falei|escrevi)\b.{0,30}"
    r"\b(?:mensagem anterior|antes|agora há pouco|há pouco)\b",
    r"\bdimentica\s+(?:tutto\s+)?(?:quello|ciò) che (?:ti )?ho (?:detto|scritto)\b.{0,30}"
    r"\b(?:prima|poco fa|nel messaggio precedente)\b",
    # nl: "vergeet wat ik net zei"
    r"\bvergeet\s+(?:alles\s+)?wat ik (?:je |jou )?(?:net|zojuist|daarnet|eerder|vorige keer)\b",
]
FORGET_PREVIOUS_FORMS = SOFT_FORGET_FORMS + [
    # "mi último mensaje, no lo guardes": a keeping verb, no correction reads it away.
    r"\b(?:mi|el) (?:último|anterior) mensaje\b.{0,40}\bno (?:lo )?" + _ES_VERB + r"\b",
    r"\bmeine letzte nachricht\b.{0,40}\bnicht " + _DE_VERB + r"\b",
    r"\bmon (?:dernier|précédent) message\b.{0,40}\bne (?:le )?" + _FR_VERB + r" pas\b",
    r"\bmijn (?:vorige|laatste) bericht\b.{0,40}\bniet (?:opslaan|onthouden|bewaren)\b",
    # "Olvida lo que te dije sobre mi exnovia", "esquece o que eu falei sobre meu pai": what was told
    # about something, named; "borra de tu memoria", "lösch das ... aus deinem Gedächtnis".
    r"\bolvid(?:a|e)\s+(?:todo\s+)?lo que (?:te |le )?(?:dije|conté|escribí)\s+(?:antes\s+)?sobre\b",
    r"\besque(?:ce|ça)\s+(?:tudo\s+)?o que (?:eu )?(?:te )?(?:disse|falei|escrevi|contei) sobre\b",
    r"\bborra(?:r)? de tu memoria\b",
    # de: "vergiss bitte, was ich dir über meinen Chef erzählt habe": what was told about someone.
    # ("Vergiss nicht, was ...": don't forget it, the opposite.)
    r"\bvergiss\b(?!\s+nicht\b)(?:\s+\w+){0,2},?\s+was ich (?:dir )?(?:über|von)\b.{0,60}?"
    r"\b(?:erzählt|gesagt|geschrieben) habe\b",
    r"\blösch(?:e)?\b.{0,60}\baus deinem (?:gedächtnis|speicher)\b",
    # es "olvida lo último que dije"; pl "zapomnij, co ci przed chwilą napisałem"; sv "glöm det jag
    # skrev om min lön" (not "glöm inte": don't forget); tr "az önce söylediğimi unut".
    r"\bolvid(?:a|e)\s+lo último que (?:te |le )?(?:dije|escribí|conté|mencioné)\b",
    r"\bzapomnij,?\s+(?:o tym,?\s+)?(?:co|to,? co) (?:ci )?(?:przed chwilą|właśnie|wcześniej)\b",
    r"\bglöm (?:bort )?(?:det|vad) (?:som )?jag (?:just |nyss )?(?:skrev|sa|sade|berättade)\b",
    r"\baz önce (?:söylediğimi|yazdığımı|söylediklerimi|yazdıklarımı|anlattığımı|anlattıklarımı) unut\b",
    # The sixteenth set's: fr "oublie mon dernier message"; it "... che ti ho detto all'inizio"; pl "co
    # napisałem wcześniej"; id "lupakan pesan saya sebelumnya"; ro "șterge ce ți-am spus mai devreme";
    # Hindi in Latin script "jo maine abhi bola wo bhool jao".
    r"\boublie[zs]? (?:mon|le|ce) (?:dernier|précédent) message\b",
    r"\bdimentica\s+(?:tutto\s+)?(?:quello|ciò) che (?:ti )?ho (?:detto|scritto)\b.{0,30}\ball'inizio\b",
    r"\bzapomnij,?\s+(?:o tym,?\s+)?(?:co|to,? co) (?:ci )?\w+ (?:przed chwilą|wcześniej)\b",
    r"\blupakan (?:pesan|yang) (?:saya|aku|tadi)(?: \w+)? (?:sebelumnya|tadi)\b",
    r"\bșterge\b.{0,20}\bce ți-am (?:spus|scris) (?:mai devreme|adineauri|înainte)\b",
    r"\b(?:jo maine|maine jo) (?:abhi|pehle|abhi abhi) (?:bola|kaha|likha)\b.{0,20}\bbhool ja(?:o|na|iye)\b",
]

WITHHOLD_FORMS = [
    # es: "no guardes esto", "esto no lo guardes", "sin guardar nada", "no guardar por favor"
    r"\bno\s+" + _ES_VERB + r"\s+" + _ES_THIS + r"\b",
    r"\bno\s+(?:lo|la)\s+" + _ES_VERB + r"\b",  # not "no me lo recuerdes": don't remind me
    r"\bno\s+" + _ES_VERB + _END,
    r"\bsin guardar nada\b",
    r"\bno guardar" + _END,
    # de: "bitte nicht speichern", "merk dir das nicht", "kein speichern", "nicht in mein profil"
    r"\bbitte\s+(?:nichts davon |das |dies |es )?nicht\s+" + _DE_VERB + r"\b",
    r"(?:^|[:,.!]\s*)(?:nichts davon |das |dies )?nicht\s+" + _DE_VERB + _END,
    r"\bnichts davon\s+" + _DE_VERB + r"\b",
    r"\bmerk(?:e)?\s+(?:dir|es dir)\s+(?:das|dies|es)\s+(?:bitte\s+)?nicht\b",
    r"\bspeicher(?:e)?\s+(?:das|dies|es)\s+(?:bitte\s+)?nicht\b",
    r"\bkein speichern\b",
    r"\bnicht in (?:mein|meinem|dein|deinem) (?:profil|gedächtnis|speicher)\b",
    # fr: "ne retiens pas ça", "n'enregistre pas ce message", "mémoire off pour ce message"
    _FR_NOT_SAID_OF_SELF
    + r"\bne (?:le |la |l')?"
    + _FR_VERB
    + r" pas(?:\s+(?:ça|cela|ceci|ce message)\b|"
    + _END
    + "|"
    + _FR_PLACE
    + ")",
    _FR_NOT_SAID_OF_SELF + r"\bn'(?:enregistre|enregistrez|mémorise|mémorisez) pas\b",
    _FR_NOT_SAID_OF_SELF + r"\bne le (?:mémorise|retiens|garde|note) pas\b",
    # fr: the infinitive after a courtesy ("merci de ne pas enregistrer ce qui suit").
    r"\b(?:merci de|prière de|veuillez|je te demande de|peux-tu|pourrais-tu) ne pas (?:enregistrer|mémoriser|retenir"
    r"|garder|noter) (?:ça|cela|ceci|ce message|ce qui suit|cette conversation|ce que je (?:vais|dis))\b",
    r"\bmémoire off\b",
    # pt: "não guarde isso", "não quero que você lembre disso"
    r"\bnão\s+" + _PT_VERB + r"\s+(?:isso|isto|nada|(?:esta|essa) (?:mensagem|conversa))\b",
    r"\bnão quero que (?:você |voce )?(?:lembre|guarde|salve|grave) (?:disso|isso|disto)\b",
    # it: "non ricordare questo messaggio", "non salvare questo nella tua memoria"
    r"\bnon\s+" + _IT_VERB + r"\s+(?:nulla|niente)\b",
    r"\bnon\s+"
    + _IT_VERB
    + r"\s+(?:questo|questa)(?:\s+(?:messaggio|conversazione|chat|cosa|nella|in)\b|"
    + _END
    + ")",
    # it: "non ricordarti di questa cosa" (the reflexive: remember it yourself).
    r"\bnon ricordarti (?:di )?(?:questo|questa cosa|quello|ciò|nulla|niente)\b",
    # it: the pronoun joined to the verb ("non salvarlo nel mio profilo"; not "non salvarlo sul desktop").
    r"\bnon (?:salvar|ricordar|memorizzar|registrar|annotar)(?:lo|la|li|le)(?:" + _IT_PLACE + "|" + _END + ")",
    # nl: "onthoud dit niet", "sla dit niet op (in je geheugen)", "niet opslaan", "niet in mijn profiel"
    _NL_NOT_SAID_OF_SELF + r"\bonthoud (?:dit|dat|het|deze|dit bericht)" + _NL_PLEASE + r" niet\b",
    _NL_NOT_SAID_OF_SELF + r"\b(?:sla|bewaar) (?:dit|dat|het|deze|dit bericht)" + _NL_PLEASE + r" niet\b",
    r"(?:^|[:,.!]\s*)(?:(?:alsjeblieft|aub)\s+)?(?:dit |dat )?niet (?:opslaan|onthouden|bewaren)" + _END,
    r"\bniet in (?:je|jouw|mijn) (?:geheugen|profiel)\b",
    # es "que esto no quede en mi perfil", fr "sans l'enregistrer dans ta mémoire", pt "não guarda isso"
    # (the spoken imperative), it "non salvarlo da nessuna parte", nl "ik wil niet dat je dit onthoudt".
    r"\bque (?:esto|eso) no quede en (?:mi|tu) (?:perfil|memoria)\b",
    r"\bsans (?:l'|le |les )?(?:enregistrer|mémoriser|garder|retenir)" + _FR_PLACE,
    r"\bnão\s+(?:guarda|salva|grava)\s+(?:isso|isto|nada)\b",
    r"\bnon (?:salvar|ricordar|memorizzar|registrar)(?:lo|la|li|le) da nessuna parte\b",
    r"\bik wil niet dat je (?:dit|dat|het) (?:onthoudt|opslaat|bewaart)\b",
    # The fifteenth set's: fr "je préfère que tu ne gardes pas cette conversation en mémoire", "tu
    # n'enregistres rien de tout ça"; nl "dit hoef je niet te onthouden", "graag niet opslaan".
    r"\b(?:je (?:préfère|préférerais|veux|voudrais|souhaite)|j'aimerais|j'aime mieux) (?:que tu|qu'on) ne "
    r"(?:le |la |l')?(?:gardes|garde|retiennes|mémorises|enregistres|notes) (?:pas|rien)\b"
    r"(?: (?:ça|cela|ceci|cette (?:conversation|discussion)|ce message))?(?: en mémoire|"
    + _FR_PLACE
    + "|"
    + _END
    + ")",
    r"\btu n'(?:enregistres|mémorises|retiens|gardes|notes) rien de (?:tout )?(?:ça|cela|ceci)\b",
    r"\b(?:dit|dat|het) hoef je niet te (?:onthouden|bewaren|opslaan)\b|\bje hoeft (?:dit|dat|het) niet te"
    r" (?:onthouden|bewaren|op te slaan)\b",
    r"(?:^|[:,.!]\s*)graag (?:dit |dat )?niet (?:opslaan|onthouden|bewaren)" + _END,
    # pl "nie zapamiętuj tego, proszę"; sv "spara inte det här, tack"; tr "bunu kaydetme lütfen".
    r"\bnie (?:zapamiętuj|zapisuj|zachowuj|notuj)(?: tego| tej (?:wiadomości|rozmowy)| nic(?:zego)?)?"
    r"(?=\s*(?:[,.:;!]|proszę|$))",
    r"\b(?:spara|lagra|anteckna|kom ihåg) inte (?:det här|detta|det|den här|något av det här)(?=\s*(?:[,.:;!]|tack|$))",
    r"\b(?:bunu|bunları|bu mesajı|bu konuşmayı|bu sohbeti|şunu)"
    r" (?:kaydetme|hatırlama|saklama|not etme|aklında tutma)\b",
    # The sixteenth set's: fr "n'enregistre rien de ce que je vais dire"; id "jangan simpan pesan ini";
    # ro "să nu reții asta"; cs "tohle si nepamatuj"; da "lad være med at gemme det her"; no "ikke
    # lagre dette"; Hindi in Latin script "yaad mat rakhna", "ye save mat karna".
    _FR_NOT_SAID_OF_SELF + r"\bn'(?:enregistre|enregistrez|mémorise|mémorisez|retiens|retenez|garde|gardez) rien\b",
    r"\bjangan (?:simpan|disimpan|diingat|ingat|catat|dicatat)(?: (?:pesan|percakapan|obrolan) ini| ini| ya)?\b",
    r"\b(?:să nu|nu) (?:reții|reține|salva|salvezi|păstra|păstrezi|memora|memorezi) (?:asta|acest mesaj|nimic)\b",
    r"\b(?:tohle|to|toto) si (?:prosím )?nepamatuj\b|\bneukládej (?:to|tohle|toto)\b",
    r"\blad være med at (?:gemme|huske) (?:det her|dette|det)\b|\bgem ikke (?:det her|dette|det)\b",
    r"(?:^|[:,.!]\s*)ikke (?:lagre|husk|lagr|lagra) (?:dette|det her|det)\b|\blagre ikke (?:dette|det)\b",
    r"\b(?:yaad|save|store) mat (?:rakhna|karna|rakho|karo)\b",
]

FORGET_PREVIOUS_RE = Patterns(FORGET_PREVIOUS_FORMS)
WITHHOLD_RE = Patterns(WITHHOLD_FORMS)
