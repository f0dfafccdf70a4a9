"""The cantor's verses: a short riddle for every Lotería card, in Spanish with an English rendering.

A cantor at a Lotería night never just names the card: he sings a line or two about it first,
and the quickest players mark their tablas before the name comes. Every verse here is written
for this bot (none is one of the verses printed with the commercial decks). Each hints at its
card without naming it in either language, so a riddle can be posted before the card's name.

A verse is one or two lines (``VERSE_LINES``) of at most ``VERSE_LINE_CHARS`` characters, joined
by a newline: short enough for a Discord message and for the call picture, under the card.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType

from bot.i18n import LocaleLike, is_spanish
from engine.loteria import Card, deck_named

VERSE_LINES = 2
VERSE_LINE_CHARS = 44


@dataclass(frozen=True, slots=True)
class Verse:
    """One card's verse: the Spanish the cantor sings and its English rendering."""

    spanish: str
    english: str

    def text(self, locale: LocaleLike = None) -> str:
        """The verse in the player's language (Spanish for Spanish locales), lines split by ``\\n``."""
        return self.spanish if is_spanish(locale) else self.english

    def lines(self, locale: LocaleLike = None) -> tuple[str, ...]:
        """The verse's lines (one or two) in the player's language."""
        return tuple(self.text(locale).split("\n"))


# Keyed by the card's Spanish name, so the family deck's substitutes (which keep the numbers of
# the cards they replace) find their own verses.
_VERSES: dict[str, Verse] = {
    "El Gallo": Verse(
        "Cresta roja y espuela afilada:\nsu grito abre la madrugada.",
        "Red crest and a sharpened spur:\nhis cry breaks open the dawn.",
    ),
    "El Diablito": Verse(
        "Colorado, con cola y tridente,\nte tienta si andas imprudente.",
        "Red all over, with a tail and a fork,\nhe tempts you when you're careless.",
    ),
    "La Dama": Verse(
        "Con su abanico y su paso fino\nroba suspiros en todo el camino.",
        "With her fan and her graceful stride\nshe steals sighs on every side.",
    ),
    "El Catrín": Verse(
        "Sombrero de copa y bastón de plata,\npresume su traje y su corbata.",
        "Top hat and a silver-topped cane,\nhe shows off his suit, oh so vain.",
    ),
    "El Paraguas": Verse(
        "Abre sus alas cuando llueve,\ny en el rincón ni se mueve.",
        "It spreads its wings when rain comes down,\nthen sleeps in a corner without a sound.",
    ),
    "La Sirena": Verse(
        "Mitad mujer y mitad de mar,\ncon su canto te hace naufragar.",
        "Half a woman and half the sea,\nher song will wreck you, wait and see.",
    ),
    "La Escalera": Verse(
        "Por sus peldaños se sube al tejado,\ny se baja despacio y con cuidado.",
        "Rung by rung up to the roof you go,\nand back down careful, nice and slow.",
    ),
    "La Botella": Verse(
        "Cuello largo y panza de vidrio:\nsalta el corcho y viene el brindis.",
        "A long glass neck and a round glass waist;\nthe cork pops out and a toast is raised.",
    ),
    "El Barril": Verse(
        "Panza de roble y cinchos de acero,\nguarda en la bodega el vino entero.",
        "An oak belly with iron belts around,\nit keeps the wine safe underground.",
    ),
    "El Árbol": Verse(
        "Raíces abajo, ramas arriba,\nsu sombra fresca a todos convida.",
        "Roots below and branches high,\nits cool shade welcomes passers-by.",
    ),
    "El Melón": Verse(
        "Piel de red y pulpa anaranjada,\ndulce y fresco en la mañana.",
        "Netted rind and orange flesh,\nsweet at breakfast, cool and fresh.",
    ),
    "El Valiente": Verse(
        "Ni se raja ni se echa pa' atrás;\ncon su puñal defiende a los demás.",
        "He never backs down, he never flees;\nhis blade stands up for those in need.",
    ),
    "El Gorrito": Verse(
        "Con un listón bajo la barbilla,\nabriga la cabeza de la chiquilla.",
        "A ribbon tied beneath the chin\nkeeps a small head snug within.",
    ),
    "La Muerte": Verse(
        "Con su guadaña y sin ninguna prisa,\na ricos y pobres les hace visita.",
        "Scythe on her shoulder, in no hurry at all,\non rich and poor she'll come to call.",
    ),
    "La Pera": Verse(
        "Cintura estrecha y cadera ancha,\nverde o dorada, jugosa y sin mancha.",
        "A narrow waist and rounded hips,\ngreen or gold, with juice for your lips.",
    ),
    "La Bandera": Verse(
        "Águila al centro, tres franjas al viento;\nen septiembre se iza con sentimiento.",
        "Three bands and an eagle up in the breeze,\nraised each September for all to see.",
    ),
    "El Bandolón": Verse(
        "Lleva doble cuerda y panza redonda;\ncon su plumilla alegra la ronda.",
        "Paired strings and a belly round;\nits pick sets the dancers spinning around.",
    ),
    "El Violoncello": Verse(
        "Se toca sentado, entre las rodillas,\ny su voz grave te hace cosquillas.",
        "Played sitting down between the knees,\nits deep, low voice will tickle and please.",
    ),
    "La Garza": Verse(
        "En una pata espera en la laguna,\ny atrapa su cena sin prisa ninguna.",
        "On one leg she waits in the lagoon,\npatient for supper to come along soon.",
    ),
    "El Pájaro": Verse(
        "Pico y plumas, canta en la rama,\ny por la mañana a su pareja llama.",
        "Beak and feathers on a swaying bough,\nit calls to its sweetheart: come here now!",
    ),
    "La Mano": Verse(
        "Cinco hermanos en una casa\nsaludan a todo el que pasa.",
        "Five brothers sharing a single home\nwave hello to all who roam.",
    ),
    "La Bota": Verse(
        "Tacón y cuero, siempre en pareja,\npisa el estribo y el polvo deja.",
        "Leather and heel, they come in a pair;\nin the stirrup they ride, dust in the air.",
    ),
    "La Luna": Verse(
        "Cambia de cara cada semana\ny espía a los novios por la ventana.",
        "Each week it wears another face\nand peeks at lovers from its place.",
    ),
    "El Cotorro": Verse(
        "Verde y chismoso, todo lo repite;\ncuenta tus secretos en cada convite.",
        "Green and gossipy, it echoes all you say,\nand tells your secrets at parties next day.",
    ),
    "El Borracho": Verse(
        "Camina en zigzag y canta desafinado;\nmañana no recuerda lo que ha cantado.",
        "He walks in zigzags and sings off-key,\nand by morning forgets his melody.",
    ),
    "El Negrito": Verse(
        "Zapatea el son con mucho salero;\nel último en irse, en llegar el primero.",
        "He stamps out the son with style and grace,\nfirst in and last out of the place.",
    ),
    "El Corazón": Verse(
        "Tun tun en el pecho, noche y día;\nel amor lo llena, la ausencia lo enfría.",
        "Thump-thump in the chest, night and day;\nlove warms it, and absence chills it away.",
    ),
    "La Sandía": Verse(
        "Rayas verdes, pulpa colorada,\npepitas negras en cada tajada.",
        "Green stripes outside, red flesh within,\nblack seeds in every slice's grin.",
    ),
    "El Tambor": Verse(
        "Por más que le pegan, nunca se queja,\ny con su cuero marca el paso a la orquesta.",
        "Beat it all day and it won't complain;\nits hide keeps the band in step again.",
    ),
    "El Camarón": Verse(
        "Jorobado y con bigotes largos,\nse pone colorado en el caldo.",
        "A hunchback with whiskers long and fine,\nhe blushes pink in the soup at dinnertime.",
    ),
    "Las Jaras": Verse(
        "Vuelan derechas, con punta y plumas;\nel blanco es suyo si bien apuntas.",
        "Feathered and sharp, they fly fast and true;\naim well and the target belongs to you.",
    ),
    "El Músico": Verse(
        "Guitarra en brazos, de cantina en cantina,\nte canta de amores por una propina.",
        "Guitar in his arms, from bar to bar,\nhe'll sing of love for a coin in the jar.",
    ),
    "La Araña": Verse(
        "Teje sin aguja y sin telar;\nen su red la mosca viene a parar.",
        "She weaves with no needle and no loom;\nin her web the fly will meet its doom.",
    ),
    "El Soldado": Verse(
        "Con casco y fusil, firme en su puesto,\nmarcha al compás y saluda dispuesto.",
        "Helmet and rifle, standing tall,\nhe marches in step at the bugle's call.",
    ),
    "La Estrella": Verse(
        "Cinco puntas tiene y no pica,\ny de noche te guiña desde arriba.",
        "Five points it has, yet none will prick;\nat night it winks from way up high.",
    ),
    "El Cazo": Verse(
        "De cobre y con asa, vive en el fogón;\nahí se hacen las carnitas del patrón.",
        "Copper and handled, it lives on the stove;\ncarnitas simmer in it, cooked with love.",
    ),
    "El Mundo": Verse(
        "Redondo y azul, gira sin parar,\ny en él nos tocó vivir y bailar.",
        "Round and blue, it spins nonstop,\nand we all ride it, bottom to top.",
    ),
    "El Apache": Verse(
        "Jinete libre de las sierras del norte,\nlleva una pluma con orgullo y porte.",
        "Free rider of the mountains of the north,\nhis feather worn proudly as he rides forth.",
    ),
    "El Nopal": Verse(
        "Sus pencas con espinas van al comal,\ny el águila lo escoge para descansar.",
        "Its spiny paddles go on the grill,\nand the eagle rests there, proud and still.",
    ),
    "El Alacrán": Verse(
        "Tenazas al frente y aguijón atrás;\nsacude el huarache, si no, lo verás.",
        "Pincers in front and a sting in the rear:\nshake out your sandals, it's hiding in here!",
    ),
    "La Rosa": Verse(
        "Reina del jardín, espinas en el tallo;\nla regalan los novios en el mes de mayo.",
        "Queen of the garden with thorns on her stem,\nsweethearts in May send a dozen of them.",
    ),
    "La Calavera": Verse(
        "Sonríe sin labios, sin piel ni pelo,\ny en noviembre es de azúcar y caramelo.",
        "It grins with no lips, no skin and no hair;\ncome November, it's sugar at every fair.",
    ),
    "La Campana": Verse(
        "Tiene lengua y no platica;\ndesde la torre a misa te invita.",
        "It has a tongue but never chats;\nfrom the tower it calls you to Mass.",
    ),
    "El Cantarito": Verse(
        "Panza de barro, boca chiquita,\nguarda el agua siempre fresquita.",
        "A belly of clay and a tiny mouth,\nit keeps drinks cool down in the south.",
    ),
    "El Venado": Verse(
        "Le crecen ramas en la frente,\ny de un salto cruza la corriente.",
        "Branches sprout above its eyes;\none leap, and over the stream it flies.",
    ),
    "El Sol": Verse(
        "Todos lo ven y nadie lo mira de frente;\nsale por el oriente y calienta a la gente.",
        "All can see it, none can stare it down;\nit rises in the east and warms the town.",
    ),
    "La Corona": Verse(
        "Oro y rubíes sobre la cabeza;\nquien la porta manda con firmeza.",
        "Gold and rubies set upon the head;\nwho wears it rules: what it says is said.",
    ),
    "La Chalupa": Verse(
        "Por los canales de Xochimilco va,\ncon flores y remo, de acá para allá.",
        "Down Xochimilco's canals it glides,\nflowers aboard and an oar besides.",
    ),
    "El Pino": Verse(
        "Tiene agujas y no sabe coser;\nen diciembre lo visten de oropel.",
        "It has needles but cannot sew;\nin December it's dressed in tinsel's glow.",
    ),
    "El Pescado": Verse(
        "Sin patas nada, sin párpados duerme;\nvestido de escamas, en el río se pierde.",
        "Legless it swims, lidless it sleeps;\ndressed in scales, it hides in the deeps.",
    ),
    "La Palma": Verse(
        "Despeinada en la playa, alta y delgada,\nregala cocos y sombra en la ensenada.",
        "Tall and thin, tousled on the beach,\nwith shade and coconuts within reach.",
    ),
    "La Maceta": Verse(
        "Casita de arcilla para una mata;\nvive en el balcón y nunca se escapa.",
        "A small clay house where a plant can stay;\nit lives on the balcony, never runs away.",
    ),
    "El Arpa": Verse(
        "Muchas cuerdas en un marco de madera;\nsuena en Veracruz con el son de la ribera.",
        "A wooden frame with rows of strings:\nin Veracruz it's the son it sings.",
    ),
    "La Rana": Verse(
        "Croa en el charco, brinca en la orilla,\ny atrapa moscas con su lengüilla.",
        "It croaks in the pond and hops on the shore,\ncatching flies with its tongue by the score.",
    ),
    # The family deck's substitutes.
    "La Piñata": Verse(
        "Con los ojos tapados le das con un palo,\ny sus tripas de dulce son el regalo.",
        "Blindfolded, you whack it with a stick,\nand candy rains down: grab it quick!",
    ),
    "El Elote": Verse(
        "Pelos de seda y dientes de oro;\ncon chile y limón es un tesoro.",
        "Silken hair and golden teeth;\nwith chili and lime, a street-cart treat.",
    ),
    "La Mariposa": Verse(
        "Fue gusano y hoy tiene alas pintadas;\nllega a Michoacán en grandes bandadas.",
        "It once crawled; now painted wings it shows,\nand each winter to Michoacán it goes.",
    ),
}

VERSES: Mapping[str, Verse] = MappingProxyType(_VERSES)


def verse_of_card(card: Card) -> Verse:
    """The verse of ``card`` (of any deck: verses follow the card's name)."""
    try:
        return VERSES[card.spanish]
    except KeyError:
        raise ValueError(f"card {card.number} {card.spanish!r} has no verse") from None


def verse_of(card_number: int, deck_name: str = "classic") -> Verse:
    """The verse of card ``card_number`` (1..54) of the deck ``deck_name`` (``GameError`` if
    either is unknown)."""
    return verse_of_card(deck_named(deck_name).card(card_number))


def verse(card_number: int, deck_name: str = "classic", locale: LocaleLike = None) -> str:
    """The verse of card ``card_number`` of ``deck_name`` in the player's language: Spanish for
    Spanish locales, else English; one or two lines joined by ``\\n``."""
    return verse_of(card_number, deck_name).text(locale)
