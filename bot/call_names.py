"""Call names: a nickname for every number 1..90, in English and Spanish, for the games that
call numbers (each game chooses whether and where to show them; 75-ball games use 1..75).

In the manner of Indian Tambola and British bingo callers, who never just say "twenty-two" but
"two little ducks, twenty-two": rhymes with the number, the shapes of its digits (2 a swan, 6 a
snail, 7 a walking stick, 8 a snowman), dates and sums. A few are the old folk calls everyone
knows (Kelly's eye, legs eleven, two little ducks); the rest are written for this bot. The
Spanish names are their own calls, not word-for-word translations, so they rhyme in Spanish.

Each is one line of at most ``NICKNAME_CHARS`` characters, shown beside the number.
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.i18n import LocaleLike, is_spanish

HIGHEST_NICKNAMED = 90  # the numbers with a call name: 1..90
NICKNAME_CHARS = 32
# How a game calls its numbers (its ``calls`` option): each with its nickname, or plainly.
CALLS_CLASSIC, CALLS_PLAIN = "classic", "plain"


@dataclass(frozen=True, slots=True)
class Nickname:
    """One number's call name in English and in Spanish."""

    english: str
    spanish: str

    def text(self, locale: LocaleLike = None) -> str:
        """The call name in the player's language (Spanish for Spanish locales)."""
        return self.spanish if is_spanish(locale) else self.english


# NICKNAMES[n - 1] is number n's.
NICKNAMES: tuple[Nickname, ...] = (
    Nickname("Kelly's eye", "La velita solita"),  # 1
    Nickname("Swan on the lake", "El cisne en el lago"),
    Nickname("Chai for three", "Tres tristes tigres"),
    Nickname("Four on the floor", "Las patas de la mesa"),
    Nickname("Give me five", "Choca esos cinco"),
    Nickname("Pick up sticks", "Media docena"),
    Nickname("Lucky seven", "El siete de la suerte"),
    Nickname("Little snowman", "El muñeco de nieve"),
    Nickname("A cat's nine lives", "Nueve, ¡nadie se mueve!"),
    Nickname("Perfect ten", "Un diez en el examen"),  # 10
    Nickname("Legs eleven", "Los dos palillos"),
    Nickname("A dozen eggs", "Una docena de huevos"),
    Nickname("Baker's dozen", "Martes trece"),
    Nickname("Valentine's Day", "San Valentín"),
    Nickname("Teen dream", "La quinceañera"),
    Nickname("Sweet sixteen", "Dulces dieciséis"),
    Nickname("Almost grown", "Casi mayor de edad"),
    Nickname("Voting age", "Mayoría de edad"),
    Nickname("Last of the teens", "Adiós, adolescencia"),
    Nickname("Twenty plenty", "Veinte, ¡y de frente!"),  # 20
    Nickname("Gun salute", "La veintiuna"),
    Nickname("Two little ducks", "Los dos patitos"),
    Nickname("Jordan's jersey", "La camiseta de Jordan"),
    Nickname("Hours in a day", "Las horas del día"),
    Nickname("Silver jubilee", "Bodas de plata"),
    Nickname("Republic Day", "El abecedario sin eñe"),
    Nickname("Cube of three", "El abecedario con eñe"),
    Nickname("Days in February", "Los días de febrero"),
    Nickname("Leap-year day", "Año bisiesto"),
    Nickname("A month of days", "Un mes entero"),  # 30
    Nickname("New Year's Eve", "Nochevieja"),
    Nickname("A full set of teeth", "Sonrisa completa"),
    Nickname("Spin of a record", "Disco de vinilo"),
    Nickname("Shut the door", "Treinta y cuatro, ¡al teatro!"),
    Nickname("Bees in the hive", "Treinta y cinco, ¡un brinco!"),
    Nickname("Six times six", "Seis por seis"),
    Nickname("Body heat", "Temperatura del cuerpo"),
    Nickname("Don't be late", "Treinta y ocho, ¡qué bizcocho!"),
    Nickname("Feeling fine", "Treinta y nueve, ¡cómo llueve!"),
    Nickname("Life begins", "Cantar las cuarenta"),  # 40
    Nickname("Just begun", "Cuarenta y uno, ¡como ninguno!"),
    Nickname("Answer to everything", "La respuesta a todo"),
    Nickname("Climb a tree", "Cuarenta y tres, ¡al revés!"),
    Nickname("Two little chairs", "Dos sillitas"),
    Nickname("Halfway home", "A mitad del camino"),
    Nickname("Bag of tricks", "Bolsa de trucos"),
    Nickname("Year of Independence", "Independencia de la India"),
    Nickname("Two whole days", "Dos días enteros"),
    Nickname("Seven sevens", "Siete por siete"),
    Nickname("Half-century, raise the bat", "Medio siglo"),  # 50
    Nickname("One more run", "Cincuenta y uno, ¿hay alguno?"),
    Nickname("Weeks in a year", "Semanas del año"),
    Nickname("Home free", "Cincuenta y tres, ¡otra vez!"),
    Nickname("Cards in a Lotería deck", "Las cartas de la Lotería"),
    Nickname("Double high five", "Dos manos, diez dedos"),
    Nickname("Pick and mix", "Surtido de dulces"),
    Nickname("Nearly heaven", "Cincuenta y siete, ¡ramillete!"),
    Nickname("Pass the plate", "Pásame el plato"),
    Nickname("Last minute", "El último minuto"),
    Nickname("Minutes in an hour", "Minutos en una hora"),  # 60
    Nickname("Setting sun", "Se pone el sol"),
    Nickname("Cock-a-doodle-doo", "Sesenta y dos, ¡adiós!"),
    Nickname("Family tree", "Árbol genealógico"),
    Nickname("Squares on a chessboard", "Casillas del ajedrez"),
    Nickname("Time to retire", "Hora de jubilarse"),
    Nickname("Two curly pig tails", "Dos colitas de cochino"),
    Nickname("Rocket to heaven", "Sesenta y siete, ¡un cohete!"),
    Nickname("Stay up late", "Sesenta y ocho, ¡trasnocho!"),
    Nickname("Either way up", "Da igual de cabeza"),
    Nickname("Platinum jubilee", "Setenta, ¿quién lo cuenta?"),  # 70
    Nickname("Young at heart", "Joven de corazón"),
    Nickname("Six dozen", "Seis docenas"),
    Nickname("Sail the sea", "A navegar el mar"),
    Nickname("Knock once more", "Toca otra vez"),
    Nickname("Diamond jubilee", "Bodas de diamante"),
    Nickname("Stick and snail", "Bastón y caracol"),
    Nickname("Two walking sticks", "Los dos bastones"),
    Nickname("Stick beside a snowman", "Bastón y muñeco"),
    Nickname("Wine and dine", "A comer y a brindar"),
    Nickname("Around the world", "La vuelta al mundo"),  # 80
    Nickname("Snowman and a candle", "Muñeco y velita"),
    Nickname("Snowman and a swan", "El muñeco y el cisne"),
    Nickname("India lifts the Cup", "La copa de la India"),
    Nickname("Seven dozen", "Siete docenas"),
    Nickname("Still dancing", "Y sigue bailando"),
    Nickname("Snowman and a snail", "Muñeco y caracol"),
    Nickname("Snowman with a stick", "Muñeco con bastón"),
    Nickname("Two snowmen", "Dos muñecos de nieve"),
    Nickname("Almost the top", "Casi en la cima"),
    Nickname("Top of the pile", "Fin del bombo"),  # 90
)


def nickname_of(number: int) -> Nickname:
    """Number ``number``'s call name (``ValueError`` outside 1..90)."""
    if type(number) is not int or not 1 <= number <= HIGHEST_NICKNAMED:
        raise ValueError(f"no call name for {number!r} (1..{HIGHEST_NICKNAMED})")
    return NICKNAMES[number - 1]


def nickname(number: int, locale: LocaleLike = None) -> str:
    """Number ``number``'s call name in the player's language: Spanish for Spanish locales (what
    a game shows beside a call, or speaks)."""
    return nickname_of(number).text(locale)
