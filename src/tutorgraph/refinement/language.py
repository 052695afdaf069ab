"""Is the message English? A small, conservative detector: no network, no model, no data.

Only English is supported: the index, the spelling corrector and the rules read English.
The spelling corrector would rewrite other languages into English words (German ``eines``
became ``lines``, so "Wie berechne ich die Fläche eines Dreiecks?" searched for parallel
lines), so a message read as another language is not corrected, and its packet says so.

Two signals, each cheap and explainable:

- **Script.** Letters of another script (Cyrillic, Greek, Arabic, Hebrew, the Indian
  scripts, Thai, Hangul, kana, Chinese characters, ...) that outnumber the Latin letters
  of words: the script names the language where one language owns it (Hangul is Korean,
  Thai is Thai), a few letters or function words tell the others apart (Ukrainian ``ї``,
  Persian ``پ``, Russian ``что``), and where nothing does the code is left out. Greek
  letters alone or in pairs (``θ``, ``αβ``) are math, not Greek.
- **Function words.** For Spanish, German, French, Portuguese, Italian, Dutch, Polish,
  Turkish and Indonesian, the short words every sentence needs (articles, pronouns,
  prepositions, question words, number words) and a few words of school math. A word that
  is also English (German ``was``, ``in``, ``die``; Spanish ``no``; a name's ``de``, ``la``,
  ``van``) counts half, for both sides; single letters (``y``, ``e``, ``o``, ``a``: also
  variables) count for nothing, but for ``é``, ``è`` and ``à``. A message reads as another
  language when that language's words weigh at least 2 and at least twice the English
  function words. Vietnamese is read from its letters (``ư``, ``ơ``, ``ạ``...), in two
  words or more.

So math alone, misspelt English ("im so bored", "whats 3/4 of 12"), short messages and
names read as English: they hold too few foreign function words, or enough English ones.
A message that mixes English and another language reads as English when its English
function words weigh more than half as much as the other language's.
`research/scripts/language_check.py` measures both sides (`results/language_check.json`): the
English messages, questions and texts of the benchmarks and the bundle, and non-English
questions written for the check.

>>> detect_language("Wie berechne ich die Fläche eines Dreiecks?")
Language(english=False, code='de')
>>> detect_language("whats 3/4 of 12"), detect_language("x^2 - 5x + 6 = 0")
(Language(english=True, code='en'), Language(english=True, code='en'))
>>> detect_language("¿Cuánto es 3/4 más 1/2?").code, detect_language("Сколько будет 7 на 8?").code
('es', 'ru')
"""

from __future__ import annotations

import functools
import re
import unicodedata
from collections import Counter, defaultdict
from dataclasses import dataclass

__all__ = ["LANGUAGE_NAMES", "Language", "detect_language", "language_note"]

# The name of each language the detector can name, for the packet's note.
LANGUAGE_NAMES = {
    "en": "English",
    "es": "Spanish",
    "de": "German",
    "fr": "French",
    "pt": "Portuguese",
    "it": "Italian",
    "nl": "Dutch",
    "pl": "Polish",
    "tr": "Turkish",
    "id": "Indonesian",
    "vi": "Vietnamese",
    "ru": "Russian",
    "uk": "Ukrainian",
    "be": "Belarusian",
    "sr": "Serbian",
    "mk": "Macedonian",
    "el": "Greek",
    "ar": "Arabic",
    "fa": "Persian",
    "ur": "Urdu",
    "he": "Hebrew",
    "hi": "Hindi",
    "bn": "Bengali",
    "pa": "Punjabi",
    "gu": "Gujarati",
    "ta": "Tamil",
    "te": "Telugu",
    "kn": "Kannada",
    "ml": "Malayalam",
    "th": "Thai",
    "ko": "Korean",
    "ja": "Japanese",
    "zh": "Chinese",
    "hy": "Armenian",
    "ka": "Georgian",
    "km": "Khmer",
    "lo": "Lao",
    "my": "Burmese",
    "si": "Sinhala",
}

# A message longer than this is judged on its first this many characters (the reader's own
# limit is 2,000; a language shows in a sentence).
MAX_CHARS = 2000
# The weight of another language's words a message needs, and how many times its English
# function words' weight.
MIN_FOREIGN = 2.0
FOREIGN_OVER_ENGLISH = 2.0
# A word that is also English, or a particle of names (de, la, van, von), counts this much.
HALF = 0.5


@dataclass(frozen=True)
class Language:
    """The detector's verdict: `english`, and the ISO 639-1 `code` of the language the
    message reads as (``en`` for English; None when it is not English but the detector
    cannot tell which language it is)."""

    english: bool
    code: str | None

    @property
    def name(self) -> str | None:
        """The language's English name (None when the code is unknown)."""
        return LANGUAGE_NAMES.get(self.code) if self.code else None


ENGLISH = Language(english=True, code="en")


def language_note(language: Language) -> str | None:
    """The packet's note for a message that is not English (None for English).

    >>> language_note(Language(english=False, code="de"))  # doctest: +NORMALIZE_WHITESPACE
    'Only English is supported; the message reads as German, so it was not spell-corrected
    and the results, searched in English, may not fit'
    """
    if language.english:
        return None
    what = f"as {language.name}" if language.name else "as a language other than English"
    return (
        f"Only English is supported; the message reads {what}, so it was not "
        "spell-corrected and the results, searched in English, may not fit"
    )


# --- function words -------------------------------------------------------------------
# Each language's words, one space-separated string; a word in `_AMBIGUOUS` (also an
# English word, or a particle of names) counts half. Accents are listed as students type
# them both ways ("cuánto", "cuanto").
# fmt: off
_WORDS: dict[str, str] = {
    "es": """
        el la los las lo le les un una unos unas de del al que qué quien quién es son está
        esta estas estás este esto estos esa ese eso en con por para como cómo cuál cual
        cuáles cuales cuánto cuanto cuántos cuantos cuánta cuanta cuántas cuantas dónde
        donde cuándo cuando porque porqué pero más mas muy también tambien mi mis tu tus su
        sus yo usted ustedes nosotros tengo tiene tienen tenemos hay hacer hago hace hacen
        puedo puede pueden sé se sí si nos sin sobre entre hasta desde ayuda ayúdame
        ayudame entiendo sabes calcula calcular calculo cálculo resolver resuelve resuelvo
        triángulo triangulo rectángulo rectangulo fracción fraccion fracciones ecuación
        ecuacion número numero números numeros resultado respuesta hola gracias favor
        dividido multiplicado igual menos mitad cuadrado raíz raiz perímetro perimetro
        dos tres cuatro cinco seis siete ocho nueve diez veces
        """,
    "de": """
        der die das den dem des ein eine einen einem einer eines und ist sind nicht ich du
        er sie es wir ihr mit von vom zu zum zur auf für fur fuer auch noch nach bei beim
        aus oder aber wenn dass daß kann können koennen habe hat hast haben bist bin gibt
        wird werden mein meine meinen meiner dein deine wie was warum wieso weshalb wieviel
        wieviele viele viel welche welcher welches wo wer wann ob im ins über ueber unter
        zwischen jetzt dann weil mir mich dir dich uns hier ja nein bitte danke hallo kein
        keine keinen mal geteilt durch gleich rechne rechnet berechne berechnen löse loese
        lösen loesen lösung loesung aufgabe bruch brüche brueche fläche flaeche dreieck
        dreiecks rechteck gleichung gleichungen zahl zahlen ergebnis hilfe verstehe
        versteh wurzel hälfte haelfte umfang prozent zwei drei vier fünf fuenf sechs
        sieben acht neun zehn plus
        """,
    "fr": """
        le la les un une des du de au aux et est sont il elle ils elles je tu nous vous on en
        ce cette ces cet que qui quoi quel quelle quels quelles combien pourquoi où ou dans
        avec sur par pas ne plus mon ma mes ton ta tes son sa ses notre votre leur ai as
        avons avez ont suis sommes êtes fait faire peux peut comprends aide aidez
        bonjour merci font calcule calculer résoudre resoudre trouve trouver aire
        équation équations nombre nombres résultat resultat
        réponse reponse à divisé divise égal egal égale moins moitié moitie carré carre
        racine périmètre perimetre deux trois quatre cinq sept huit neuf dix fois
        l' d' j' qu' c' n' m' s'
        """,
    "pt": """
        os as um uma uns umas de do da dos das no na nos nas ao aos pelo pela em que para
        por com como não nao é mais mas muito também tambem quanto quantos quantas quanta
        qual quais onde quando porque porquê eu você voce vocês voces meu minha meus
        minhas seu sua ele ela eles elas tenho tem têm temos fazer faço faco posso pode
        sei ajuda ajude ajudar entendo calcule calcular calcula resolver resolva área
        triângulo triangulo retângulo retangulo fração fracao frações fracoes equação
        equacao à número numero números resultado resposta olá ola obrigado obrigada vezes
        dividido igual menos metade quadrado raiz perímetro isso isto esse essa este esta
        dois duas três tres quatro cinco seis sete oito nove dez
        """,
    "it": """
        il lo la gli le un una uno di del della dei delle dello degli che è non con cosa
        quanto quanti quanta quante quale quali quando perché perche anche più piu molto
        sono sei ho hai abbiamo fare faccio posso può puo aiuto aiutami capisco risolvere
        risolvi calcolare calcola triangolo rettangolo frazione frazioni equazione
        numero numeri risultato risposta ciao grazie volte diviso uguale meno metà meta
        quadrato radice perimetro al alla allo ai nel nella nei sul sulla da dal dalla
        questo questa quello quella mio mia tuo tua suo sua tre quattro cinque sette otto
        nove dieci adesso ora viene l' dell' all' un' nell' sull' dall'
        """,
    "nl": """
        de het een en van is dat die niet te op voor met zijn hoe wat waarom hoeveel welke
        welk ik je jij mijn ook maar als bij naar om uit er nog kan kun moet wordt worden
        heb heeft hebben deze dit dan wel geen breuk breuken oppervlakte driehoek
        vergelijking getal getallen bereken berekenen uitkomst antwoord keer gedeeld door
        gelijk plus los oplossen vereenvoudig reken uit help snap begrijp
        twee drie vier vijf zes zeven acht negen tien
        """,
    "pl": """
        jest nie się sie jak ile co to że ze czy dlaczego jaki jaka jakie który która które
        mam masz oblicz obliczyć obliczyc pole trójkąta trojkata trójkąt trojkat ułamek
        ulamek ułamki ulamki równanie rownanie liczba liczby wynik odpowiedź odpowiedz
        pomocy proszę prosze razy podzielić podzielic równa rowna rozwiąż rozwiaz
        dwa trzy cztery pięć piec sześć szesc siedem osiem dziewięć dziewiec dziesięć
        """,
    "tr": """
        bir ve bu ne kaç kac için icin nasıl nasil neden niçin mi mı mu mü ile ben sen var
        yok değil degil çok cok hesapla hesaplanır alanı alani alan üçgen ucgen üçgenin
        kesir denklem sayı sayi sonuç sonuc cevap yardım yardim eder kaçtır kactir nedir
        çarpı carpi bölü bolu eşittir esittir iki üç dört beş altı yedi sekiz dokuz on
        """,
    "id": """
        yang dan ini itu di ke dari untuk dengan adalah berapa bagaimana mengapa kenapa apa
        saya aku kamu tidak bisa luas segitiga pecahan persamaan bilangan hasil jawaban
        tolong bantu hitung hitunglah dikali dibagi sama jika tentukan berapakah
        dua tiga empat lima enam tujuh delapan sembilan sepuluh
        """,
}
# Words that are also English (a word, a name, a unit, "sin"), or particles of names: each
# counts half, for each side. Listed by reading, then by the words' document frequencies
# in the English curriculum bundle (`data/curriculum/documents.jsonl`); a word of
# `_ENGLISH` that another language lists is ambiguous too.
_AMBIGUOUS = frozenset(
    """
    de la le les del da di dos das du van von der den des al
    die was in im hat bin will man an am so also war hier mal ja
    no me son mi tu se si sin con come per ma ha mas las los favor
    on as ou plus pas sept ton au
    os um em eu sei ele pode ao do com fare dal non
    op dan wel om er te een die met door help
    var ben mu ve alan
    di apa sama bisa hasil
    co pole ze jak razy to
    """.split()  # noqa: SIM905 - a word list reads better as prose
)
# English words that few other languages share: the weight a message's English carries.
_ENGLISH = frozenset(
    """
    the and of to is are was were be been am in on at for with from by about into than
    then that this these those it its it's i'm im my me you your he she his her they
    them their we our us what whats what's how why when where which who many much do
    does did dont don't doesnt doesn't didnt didn't cant can't can could would should
    will have has had not no yes if so get got find there here each more less some any
    all one two three four five six seven eight nine ten times plus minus equals
    divided answer help please think know just like out up off left right same make
    need want because but or an as isnt isn't wont won't ive i've youre you're theyre
    """.split()  # noqa: SIM905 - a word list reads better as prose
)
# fmt: on
_AMBIGUOUS |= _ENGLISH & {w for words in _WORDS.values() for w in words.split()}


def _by_word() -> dict[str, list[tuple[str, float]]]:
    """Word -> the languages that list it, each with the word's weight."""
    out: dict[str, list[tuple[str, float]]] = defaultdict(list)
    for code, words in _WORDS.items():
        for word in dict.fromkeys(words.split()):
            out[word].append((code, HALF if word in _AMBIGUOUS else 1.0))
    return dict(out)


_FOREIGN = _by_word()

# Letters that point to one language among those that share function words (a tie-break,
# never evidence on their own: names carry them too).
_LETTERS = {
    "es": "ñ¿¡",
    "pt": "ãõ",
    "de": "äöüß",
    "fr": "œëïÿûî",
    "it": "ìò",
    "pl": "ąęłńśźż",
    "tr": "ığş",
    "nl": "ĳ",
}
# Vietnamese letters no other language uses (not ă: Romanian; not đ: Croatian).
_VIETNAMESE = re.compile(r"[ơư\u1ea0-\u1ef9]")

# A word: letters (and marks), with an inner apostrophe ("don't", "j'aime").
_TOKEN = re.compile(r"[^\W\d_]+(?:'[^\W\d_]+)*")


# --- scripts ----------------------------------------------------------------------------
# The script of a letter, from the first word of its Unicode name; scripts where each
# letter is a word or more count from one letter, the others from words of two.
_SCRIPT_CODES = {
    "GREEK": "el",
    "HEBREW": "he",
    "BENGALI": "bn",
    "GURMUKHI": "pa",
    "GUJARATI": "gu",
    "TAMIL": "ta",
    "TELUGU": "te",
    "KANNADA": "kn",
    "MALAYALAM": "ml",
    "THAI": "th",
    "HANGUL": "ko",
    "HIRAGANA": "ja",
    "KATAKANA": "ja",
    "ARMENIAN": "hy",
    "GEORGIAN": "ka",
    "KHMER": "km",
    "LAO": "lo",
    "MYANMAR": "my",
    "SINHALA": "si",
}
_SCRIPTS = frozenset(_SCRIPT_CODES) | {"CYRILLIC", "ARABIC", "DEVANAGARI", "CJK", "ETHIOPIC"}
_IDEOGRAPHIC = frozenset({"CJK", "HIRAGANA", "KATAKANA", "HANGUL"})
_RUSSIAN = frozenset(
    """и в не на что как это сколько будет я с по для если или почему какой равно
    помогите найдите найти реши решите дробь площадь треугольника""".split()  # noqa: SIM905
)
_UKRAINIAN = frozenset(
    """як що це скільки буде чому або та і в у на з до для мені знайти обчисли обчислити
    площа площу дріб рівняння допоможіть""".split()  # noqa: SIM905
)
# Words end at spaces and punctuation (the vowel signs of Indian scripts are not letters).
_SPACES = re.compile(r"[\s\d.,;:!?¿¡()\"'/+\-=*^×÷]+")
_HINDI = frozenset("है का की के में क्या कितना कैसे और से को मुझे हैं".split())  # noqa: SIM905


@functools.lru_cache(maxsize=1024)
def detect_language(text: str) -> Language:
    """The language `text` reads as (`Language`); English unless the evidence is clear.

    Cached: the refiner and the pipeline ask about the same message.
    """
    text = unicodedata.normalize("NFC", text[:MAX_CHARS]).replace("\u2019", "'").casefold()
    by_script = _by_script(text)
    if by_script is not None:
        return by_script
    return _by_words(text)


@functools.lru_cache(maxsize=4096)
def _script(ch: str) -> str:
    """The first word of a non-ASCII letter's Unicode name: its script (LATIN, GREEK...)."""
    return unicodedata.name(ch, "").split(" ", 1)[0]


def _by_script(text: str) -> Language | None:
    """Another script's letters, when they outnumber the Latin letters of words."""
    counts: Counter[str] = Counter()
    latin = 0
    for word in re.findall(r"[^\W\d_]+", text):
        runs: Counter[str] = Counter()
        for ch in word:
            s = "LATIN" if ch.isascii() else _script(ch)
            if s in _SCRIPTS:
                runs[s] += 1
            elif s == "LATIN":
                latin += len(word) > 1
        for s, n in runs.items():
            # Math writes Greek letters alone or in pairs (θ, αβ); a run of one letter
            # (ССС) is a look-alike of Latin.
            least = 3 if s == "GREEK" else 2
            if s in _IDEOGRAPHIC or (n >= least and len(set(word)) >= 2):
                counts[s] += n
    if not counts:
        return None
    script, n = counts.most_common(1)[0]
    if n < 2 or n < latin:
        return None
    return Language(english=False, code=_script_code(script, text))


def _script_code(script: str, text: str) -> str | None:
    if script in ("CJK", "HIRAGANA", "KATAKANA"):
        return "ja" if re.search(r"[\u3040-\u30ff]", text) else "zh"
    if script in _SCRIPT_CODES:
        return _SCRIPT_CODES[script]
    words = set(_SPACES.split(text))
    if script == "CYRILLIC":
        for code, letters in (("be", "ў"), ("uk", "іїєґ"), ("sr", "ђћџљњј"), ("mk", "ѓќѕ")):
            if any(c in text for c in letters):
                return code
        ukrainian, russian = len(words & _UKRAINIAN), len(words & _RUSSIAN)
        if ukrainian > russian:
            return "uk"
        return "ru" if russian or any(c in text for c in "ыэё") else None
    if script == "ARABIC":
        if any(c in text for c in "ٹڈڑںے"):
            return "ur"
        return "fa" if any(c in text for c in "پچژگ") else "ar"
    if script == "DEVANAGARI":
        return "hi" if words & _HINDI else None
    return None  # Ethiopic: Amharic or Tigrinya


def _by_words(text: str) -> Language:
    """Function words of the Latin-script languages against English ones."""
    english = 0.0
    scores: defaultdict[str, float] = defaultdict(float)
    vietnamese = 0
    for token in _TOKEN.findall(text):
        if _VIETNAMESE.search(token):
            vietnamese += 1
        words = [token]
        if "'" in token and token not in _ENGLISH:
            head, _, tail = token.partition("'")
            words = [head + "'", tail]
        for word in words:
            if len(word) < 2 and word not in ("é", "è", "à"):
                continue  # y, e, o, a, x: variables too
            if word in _AMBIGUOUS:
                english += HALF
            elif word in _ENGLISH:
                english += 1.0
            for code, w in _FOREIGN.get(word, ()):
                scores[code] += w
    if vietnamese >= 2 and vietnamese >= english:
        return Language(english=False, code="vi")
    if not scores:
        return ENGLISH
    best = max(scores.values())
    if best < MIN_FOREIGN or best < FOREIGN_OVER_ENGLISH * english:
        return ENGLISH
    leaders = [code for code, s in scores.items() if s == best]
    if len(leaders) > 1:
        # Letters break a tie between languages that share their function words.
        hinted = [c for c in leaders if any(ch in text for ch in _LETTERS.get(c, ""))]
        leaders = hinted or leaders
    return Language(english=False, code=leaders[0] if len(leaders) == 1 else None)
