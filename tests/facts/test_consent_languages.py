"""Requests not to be remembered in Spanish, German, French, Portuguese and Italian
(facts/consent_languages.py, issue 37), each with look-alikes in the same language. Written for
the forms the ninth and tenth blind sets showed both readers missing; none is a sentence of
those sets."""

from __future__ import annotations

import pytest

from facts.consent import FORGET_PREVIOUS, WITHHOLD, detect

# Words only: the SQLite run has it; PostgreSQL would repeat it for nothing.
pytestmark = pytest.mark.no_database

REQUESTS = [
    # Spanish
    ("No guardes esto, es sobre mi trabajo: ¿cómo pido un aumento?", WITHHOLD),
    ("Te cuento algo pero no lo recuerdes después, ¿vale?", WITHHOLD),
    ("Sin guardar nada de lo que sigue: tengo una deuda con Hacienda.", WITHHOLD),
    ("no memorices esto porfa, mi hija está en terapia", WITHHOLD),
    ("Olvida lo que te acabo de escribir sobre mi exnovio.", FORGET_PREVIOUS),
    # German
    ("Bitte nicht speichern: ich habe Schulden bei meinem Bruder.", WITHHOLD),
    ("Merk dir das bitte nicht, es geht um meine Diagnose.", WITHHOLD),
    ("Speicher es nicht, okay? Mein Visum läuft bald ab.", WITHHOLD),
    ("Das gehört nicht in mein Profil. Wie beantrage ich Elternzeit?", WITHHOLD),
    ("Vergiss, was ich dir eben über meine Nachbarin erzählt habe.", FORGET_PREVIOUS),
    # French
    ("Ne retiens pas ça : je cherche un avocat pour mon divorce.", WITHHOLD),
    ("N'enregistre pas ce que je vais dire sur ma santé.", WITHHOLD),
    ("Oublie ce que je t'ai dit sur mon salaire.", FORGET_PREVIOUS),
    # Portuguese
    ("Não guarde isto, por favor: estou pensando em sair do emprego.", WITHHOLD),
    ("Não quero que você guarde isso na memória.", WITHHOLD),
    ("Esqueça o que eu acabei de contar sobre a minha irmã.", FORGET_PREVIOUS),
    # Italian
    ("Non salvare nulla di questo: ho un problema con il gioco.", WITHHOLD),
    ("Per favore, non memorizzare questa conversazione.", WITHHOLD),
    ("Dimentica quello che ti ho appena detto sul mio capo.", FORGET_PREVIOUS),
]

LOOK_ALIKES = [
    # The person's own memory, a grudge, a file, a reminder.
    "No recuerdo dónde dejé las llaves del coche.",
    "Mi abuela dice: no guardes rencor a nadie.",
    "No me lo recuerdes, que me pongo triste.",
    "¿Por qué no se guardan mis fotos en la galería?",
    "Ich kann mich nicht an ihren Namen erinnern.",
    "Warum kann ich die Datei nicht speichern?",
    "Bitte nicht vergessen: morgen ist Elternabend.",
    "Merk dir das: ich bin Vegetarierin.",
    "Je ne me souviens pas du titre de ce film.",
    "Je ne le note pas, je m'en souviens très bien.",
    "N'oublie pas le pain en rentrant.",
    "Ne garde pas rancune à ton frère.",
    "Não lembro onde deixei o meu casaco.",
    "Por que o aplicativo não salva as minhas fotos?",
    "Non ricordo la password del wifi.",
    "Non salvare questo file sul desktop, usa la cartella condivisa.",
    "Ricordati che sono allergico alle noci.",
    "Olvida lo que te dije del color: mejor azul.",
]


@pytest.mark.parametrize(("text", "kind"), REQUESTS)
def test_a_request_in_another_language_is_read_with_its_kind(text, kind):
    request = detect(text)

    assert request is not None and request.kind == kind


@pytest.mark.parametrize("text", LOOK_ALIKES)
def test_the_same_verbs_about_a_grudge_a_file_or_ones_own_memory_ask_nothing(text):
    assert detect(text) is None
