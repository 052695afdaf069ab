"""Does a message in another language read as maths? The signals that survive the language.

The scope model reads English: a maths question in Spanish ("¿cuánto es 3/4 más 1/2?") is
far from every message it was fitted on, so it reads as off-topic. What says maths in any
language is read here instead, each signal cheap and explainable:

- **An expression** (`mathtext.spans.math_spans`: ``3/4``, ``2x + 3 = 11``) or a maths sign
  (``²``, ``√``, ``π``, ``≤``, a percentage of a number...).
- **An operation between numbers**: an operation word of the language with a number (digits
  or a number word) on each side, within two words (``7 por 8``, ``drei mal vier``,
  ``12 dividido por 4``). A lone number is not maths ("tengo 12 años").
- **A maths word** of the language: the words of school maths that few other sentences
  use (``fracciones``, ``Gleichung``, ``périmètre``, ``triângulo``), accents optional; in
  the scripts that do not split words with spaces, or whose terms are several words
  (Chinese, Japanese, Korean, Vietnamese, Arabic, Persian, Hindi, Hebrew, Thai, Greek), a
  few terms found as substrings (area, perimeter, triangle, fraction, equation).
- **A word problem's numbers**: two numbers and a "how many" of the language
  (``cuántas``, ``combien``, ``wie viele``) or a measure (``8 cm``).

The language is the detector's (`refinement/language.py`); where it names none, the words
of every language listed count. A message with none of these reads as not maths, and the
scope model's reading of it stands.

>>> reads_as_maths("¿cuánto es 3/4 más 1/2?", "es"), reads_as_maths("cuánto es 7 por 8", "es")
(True, True)
>>> reads_as_maths("no entiendo cómo dividir fracciones", "es")
True
>>> reads_as_maths("tengo 12 años y vivo en madrid", "es"), reads_as_maths("wie spät ist es", "de")
(False, False)
"""

from __future__ import annotations

import functools
import re
import unicodedata

from tutorgraph.mathtext.spans import math_spans, plain_text

__all__ = ["reads_as_maths"]

# A message longer than this is read on its first this many characters (as the detector).
MAX_CHARS = 2000
# How many words away from an operation word its numbers may stand ("7 multiplicado por 8").
REACH = 2

# fmt: off
# Words of school maths that few other sentences use, per language, written as students
# type them: a word matches as typed or without its accents ("fracción", "fraccion"), so
# German words keep their umlauts here (the plain "flache" is "flat", not "Fläche").
_MATHS_WORDS: dict[str, str] = {
    "es": """
        fraccion fracciones fraccionario fraccionarios decimal decimales ecuacion
        ecuaciones inecuacion inecuaciones sumar suma sumas sumando restar resta restas
        multiplicar multiplicacion multiplicaciones multiplica dividir division divisiones
        divide potencia potencias raiz porcentaje porcentajes area perimetro triangulo
        triangulos rectangulo rectangulos circulo circunferencia angulo angulos volumen
        denominador numerador algebra geometria matematicas mates calcular calcula calculo
        teorema pitagoras hipotenusa simplificar despejar incognita exponente logaritmo
        derivada diametro mcm mcd multiplo multiplos
        """,
    "fr": """
        fraction fractions decimal decimale decimales decimaux equation equations
        inequation additionner addition additions soustraire soustraction soustractions
        multiplier multiplication multiplications diviser division divisions puissance
        puissances racine pourcentage pourcentages aire perimetre triangle triangles
        rectangle rectangles cercle angle angles volume denominateur numerateur algebre
        geometrie mathematiques maths calcul calculer calcule theoreme pythagore hypotenuse
        simplifier exposant logarithme derivee diametre ppcm pgcd
        """,
    "de": """
        bruch brüche brueche brüchen bruechen bruchrechnung bruchrechnen bruchzahl
        dezimalzahl dezimalzahlen kommazahl kommazahlen gleichung gleichungen ungleichung
        addieren addition subtrahieren subtraktion multiplizieren multiplikation
        dividieren division potenz potenzen wurzel quadratwurzel prozent prozente
        prozentrechnung fläche flaeche flächeninhalt flaecheninhalt dreieck dreiecks
        dreiecke rechteck rechtecks kreis kreises kreisumfang winkel volumen nenner zähler
        zaehler algebra geometrie mathe mathematik berechnen berechne ausrechnen
        pythagoras hypotenuse einmaleins textaufgabe kopfrechnen ableitung
        """,
    "pt": """
        fracao fracoes decimal decimais equacao equacoes inequacao somar soma somas
        subtrair subtracao multiplicar multiplicacao dividir divisao divisoes potencia
        potencias raiz porcentagem percentagem area perimetro triangulo triangulos
        retangulo retangulos circulo circunferencia angulo angulos volume denominador
        numerador algebra geometria matematica calcular calcule calculo teorema pitagoras
        hipotenusa simplificar expoente logaritmo derivada diametro tabuada mmc mdc
        multiplo multiplos
        """,
    "it": """
        frazione frazioni decimale decimali equazione equazioni disequazione sommare
        somma sottrarre sottrazione moltiplicare moltiplicazione dividere divisione
        potenza potenze radice percentuale percentuali area perimetro triangolo triangoli
        rettangolo cerchio circonferenza angolo angoli volume denominatore numeratore
        algebra geometria matematica calcolare calcola calcolo teorema pitagora ipotenusa
        semplificare esponente logaritmo derivata diametro tabellina tabelline
        """,
    "nl": """
        breuk breuken decimaal decimale vergelijking vergelijkingen optellen aftrekken
        vermenigvuldigen vermenigvuldiging deling procent procenten oppervlakte omtrek
        driehoek driehoeken rechthoek cirkel noemer algebra meetkunde wiskunde rekenen
        uitrekenen berekenen bereken stelling pythagoras som sommen
        """,
    "pl": """
        ułamek ulamek ułamki ulamki ułamków ulamkow równanie rownanie równania rownania
        trójkąt trojkat trójkąta trojkata obwód obwod procent procenty mnożenie mnozenie
        dzielenie dodawanie odejmowanie matematyka
        """,
    "tr": """
        kesir kesirler denklem denklemi üçgen ucgen üçgenin ucgenin yüzde yuzde çarpma
        carpma bölme bolme toplama çıkarma cikarma matematik
        """,
    "id": """
        pecahan persamaan segitiga luas keliling persen perkalian pembagian penjumlahan
        pengurangan matematika
        """,
    "ru": """
        дробь дроби дробей уравнение уравнения площадь периметр треугольник треугольника
        умножить умножение разделить деление сложение вычитание процент процентов корень
        математика
        """,
    "uk": """
        дріб дроби рівняння площа площу периметр трикутник трикутника помножити множення
        ділення додавання віднімання відсоток корінь математика
        """,
}
# Operation words, counted only with a number on each side ("7 por 8", not "por favor").
_OPERATIONS: dict[str, str] = {
    "es": "mas menos por entre dividido multiplicado x",
    "fr": "plus moins fois divise multiplie sur x",
    "de": "plus minus mal durch geteilt x",
    "pt": "mais menos vezes por dividido multiplicado x",
    "it": "piu meno per diviso moltiplicato x",
    "nl": "plus min keer maal gedeeld door x",
    "pl": "plus minus razy przez x",
    "tr": "artı arti eksi çarpı carpi bölü bolu x",
    "id": "tambah kurang kali dibagi x",
    "ru": "плюс минус умножить разделить на x",
    "uk": "плюс мінус помножити поділити на x",
}
# Number words up to twelve (and the numbers these languages say as words most).
_NUMBERS: dict[str, str] = {
    "es": "uno dos tres cuatro cinco seis siete ocho nueve diez once doce cien mil",
    "fr": "un deux trois quatre cinq six sept huit neuf dix onze douze cent mille",
    "de": "eins zwei drei vier fünf fuenf sechs sieben acht neun zehn elf zwölf zwoelf hundert",
    "pt": "um dois duas tres quatro cinco seis sete oito nove dez onze doze cem mil",
    "it": "uno due tre quattro cinque sei sette otto nove dieci undici dodici cento mille",
    "nl": "twee drie vier vijf zes zeven acht negen tien elf twaalf honderd",
    "pl": "jeden dwa trzy cztery pięć piec sześć szesc siedem osiem dziewięć dziewiec",
    "tr": "bir iki üç uc dört dort beş bes altı alti yedi sekiz dokuz on",
    "id": "satu dua tiga empat lima enam tujuh delapan sembilan sepuluh",
    "ru": "один два три четыре пять шесть семь восемь девять десять",
    "uk": "один два три чотири пʼять шість сім вісім девʼять десять",
}
# "How many / how much": with two numbers, a word problem ("Maria tiene 24 manzanas y
# regala 9. ¿Cuántas le quedan?").
_HOW_MANY: dict[str, str] = {
    "es": "cuanto cuantos cuanta cuantas",
    "fr": "combien",
    "de": "wieviel wieviele viele",
    "pt": "quanto quantos quanta quantas",
    "it": "quanto quanti quanta quante",
    "nl": "hoeveel",
    "pl": "ile",
    "tr": "kaç kac kaçtır",
    "id": "berapa",
    "ru": "сколько",
    "uk": "скільки",
}
# Scripts that do not split words with spaces, or whose maths terms are several words:
# the words of area, perimeter, triangle, rectangle, fraction, equation and the operations,
# found as substrings.
_PHRASES: dict[str, tuple[str, ...]] = {
    "zh": ("分数", "方程", "面积", "周长", "三角形", "长方形", "百分", "乘以", "除以", "等于"),
    "ja": ("分数", "方程式", "面積", "三角形", "長方形", "割り算", "掛け算", "足し算", "引き算"),
    "ko": ("분수", "방정식", "넓이", "면적", "둘레", "삼각형", "직사각형", "곱하기", "나누기",
           "더하기", "빼기"),
    "vi": ("phân số", "phương trình", "diện tích", "chu vi", "tam giác", "hình chữ nhật"),
    "ar": ("مساحة", "محيط", "مثلث", "مستطيل", "كسر", "كسور", "معادلة", "قسمة"),
    "fa": ("مساحت", "محیط", "مثلث", "مستطیل", "کسر", "معادله", "تقسیم"),
    "hi": ("क्षेत्रफल", "परिमाप", "त्रिभुज", "आयत", "भिन्न", "समीकरण", "गुणा"),
    "he": ("שטח", "היקף", "משולש", "מלבן", "שבר", "שברים", "משוואה", "כפל", "חילוק"),
    "th": ("พื้นที่", "เส้นรอบรูป", "สามเหลี่ยม", "สี่เหลี่ยม", "เศษส่วน", "สมการ", "คูณ"),
    "el": ("εμβαδ", "περίμετρ", "τρίγων", "ορθογώνι", "κλάσμα", "εξίσωση", "πολλαπλασ", "διαίρεσ"),
}
# fmt: on
# Signs of maths in any language, beside the expressions `math_spans` reads: not a lone
# "=" (the smiley "=)") or "%" ("100% seguro"), but a percentage of a number ("20% de 50").
_SIGNS = re.compile(r"[²³√π≤≥≠∑∫÷×]|\d\s*%\D{0,12}\d|\d\s*[*^]\s*\d")
# A number with a unit of length, mass or volume ("8 cm", "5cmの").
_MEASURE = re.compile(r"\d\s*(?:mm|cm|dm|km|m|kg|g|ml|l)(?![a-z])")
# A word (letters, marks and the apostrophe of "pʼять") or a number.
_TOKEN = re.compile(r"\d+(?:[.,]\d+)?|[^\W\d_](?:[^\W\d_]|[\u02bc'])*")


def _fold(word: str) -> str:
    """`word` without its accents ("fracción" -> "fraccion", "più" -> "piu")."""
    decomposed = unicodedata.normalize("NFKD", word)
    return "".join(c for c in decomposed if not unicodedata.combining(c))


@functools.lru_cache(maxsize=1)
def _tables() -> tuple[dict[str, frozenset[str]], ...]:
    """The word tables as sets, each with the union of its languages under "" (for a
    message whose language the detector could not name)."""

    def split(table: dict[str, str]) -> dict[str, frozenset[str]]:
        out = {code: frozenset(words.split()) for code, words in table.items()}
        out[""] = frozenset().union(*out.values())
        return out

    phrases = {code: frozenset(words) for code, words in _PHRASES.items()}
    phrases[""] = frozenset().union(*phrases.values())
    return (
        split(_MATHS_WORDS),
        split(_OPERATIONS),
        split(_NUMBERS),
        split(_HOW_MANY),
        phrases,
    )


def reads_as_maths(text: str, code: str | None) -> bool:
    """Whether `text`, read as the language `code` (ISO 639-1; None: unknown), carries a
    maths signal that survives the language: an expression or a maths sign, an operation
    word between numbers, a maths word of the language, or a word problem's numbers (see
    the module's docstring)."""
    text = unicodedata.normalize("NFC", text[:MAX_CHARS]).casefold()
    if _SIGNS.search(text) or math_spans(plain_text(text)):
        return True
    tables = _tables()
    maths_words, operations, numbers, how_many, phrases = (
        table.get(code or "", frozenset()) for table in tables
    )
    folded_text = _fold(text)
    if any(p in text or p in folded_text for p in phrases):
        return True
    words = [(t, _fold(t)) for t in _TOKEN.findall(text)]

    def among(i: int, table: frozenset[str]) -> bool:
        return 0 <= i < len(words) and (words[i][0] in table or words[i][1] in table)

    def number(i: int) -> bool:
        return 0 <= i < len(words) and (words[i][0][0].isdigit() or among(i, numbers))

    if any(among(i, maths_words) for i in range(len(words))):
        return True
    if any(
        among(i, operations)
        and any(number(i - k) for k in range(1, REACH + 1))
        and any(number(i + k) for k in range(1, REACH + 1))
        for i in range(len(words))
    ):
        return True
    # A word problem: two numbers, and a question of how many or a measure.
    digits = sum(t[0].isdigit() for t, _ in words)
    return digits >= 2 and (
        any(among(i, how_many) for i in range(len(words))) or bool(_MEASURE.search(text))
    )
