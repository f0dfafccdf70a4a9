/* Game Night's verification page: reads a Lotería, Housie or Bingo game from the URL fragment (or the form),
 * recomputes it with GamenightEngine and shows the result. The fragment format is in the
 * docs/FAIRNESS.md ("Verify it yourself"); bot/verify_link.py writes it.
 *
 * Exposed as the global `GamenightVerify` so the tests can call the same functions the page uses.
 */
"use strict";

const GamenightVerify = (() => {
  const E = GamenightEngine;
  const FORMAT_VERSION = "1";
  const LOTERIA_CALLS = 54;
  const HOUSIE_CALLS = 90;
  const BINGO_CALLS = 75;
  const MAX_TABLAS = 10000;
  const MAX_TICKETS = 6000;
  const MAX_TICKETS_PER_PLAYER = 6;
  const MAX_CARDS = 10000; // engine/bingo.py: MAX_CARDS
  const MAX_CARDS_PER_PLAYER = 1; // cogs/bingo: a player's one card, numbered by its deal

  // ----------------------------------------------------------------------------- languages

  const TEXT = {
    en: {
      title: "Verify a game",
      intro:
        "Recompute a Lotería, Housie or Bingo game from the seed revealed at its end: the commitment, " +
        "the order of the calls and every board. Everything is computed in this browser; " +
        "nothing is sent anywhere.",
      label_game: "Game",
      label_id: "Game number",
      help_id: "Optional; only shown in the title.",
      label_seed: "Seed",
      help_seed: "64 hexadecimal characters, revealed when the game ended.",
      label_commitment: "Commitment",
      help_commitment:
        "The SHA-256 posted in the lobby before the first call. Compare it with the lobby " +
        "message yourself.",
      label_deck: "Deck",
      deck_classic: "Classic",
      deck_family: "Family",
      label_prizes: "Prizes",
      help_prizes_loteria: "In the order played: line, corners, centre, square, full.",
      help_prizes_housie: "Codes: E5, TL, ML, BL, FC, FH, H2, H3.",
      help_prizes_bingo:
        "In the order played: line, corners, x, plus, stamp, any_stamp, small_diamond, " +
        "large_diamond, frame, inner_frame, letter_t, any_t, letter_l, any_l, letter_h, any_h, " +
        "blackout, or a custom pattern's code.",
      label_patterns: "Custom patterns",
      help_patterns:
        "Bingo: each custom pattern played, as the link carries it (code=name=cells+cells…), " +
        "comma-separated. Empty: none.",
      label_calls: "Calls made",
      help_calls: "How many calls the game made before it ended (empty: all of them).",
      label_boards: "Boards per player",
      help_boards:
        "In joining order, comma-separated: 2 = a player with 2 boards, 1*12 = twelve players " +
        "with 1 board each, -3 = 3 boards dealt to players who left.",
      button_verify: "Verify",
      results_title: "Result",
      footer:
        'How the draws work, and what this page can and cannot prove: the bot\'s ' +
        'docs/FAIRNESS.md.',
      working: "Computing…",
      verdict_title_ok: "Verified",
      verdict_title_bad: "Does not match",
      verdict_title_note: "Recomputed, with no commitment to check",
      verdict_ok:
        "Every call and board follows from this seed, and the seed matches the commitment. " +
        "Check that it is the commitment the lobby posted before the first call: {commitment}.",
      verdict_bad:
        "The seed does NOT match the commitment: SHA-256 of this seed is {computed}, but the " +
        "link's commitment is {commitment}. The calls and boards below follow from this seed, " +
        "which is not the one committed to before the game.",
      verdict_note:
        "Every call and board follows from this seed, but no commitment was given to check the " +
        "seed against: compare SHA-256(seed) = {computed} with the commitment the lobby posted " +
        "before the first call.",
      verdict_facts_one: "{calls} of {total} calls made · 1 board",
      verdict_facts_other: "{calls} of {total} calls made · {boards} boards",
      verdict_more: "The calls, the prizes and every board are below.",
      game_title: "{game} #{id}",
      commitment_ok:
        "The seed matches the commitment: SHA-256(seed) = {commitment}. Check that this is the " +
        "commitment posted in the lobby before the first call.",
      commitment_bad:
        "The seed does NOT match the commitment: SHA-256(seed) = {computed}, but the commitment " +
        "given is {commitment}.",
      commitment_missing:
        "No commitment given: SHA-256(seed) = {computed}. Compare it with the commitment posted " +
        "in the lobby before the first call.",
      computed_with: "Computed in this browser with {crypto} HMAC-SHA256.",
      crypto_webcrypto: "WebCrypto",
      crypto_fallback: "this page's own (this page is not in a secure context)",
      calls_title: "Call order",
      calls_made: "{calls} calls were made.",
      calls_cards: "Each card is shown with its number in the deck (1 to 54), then its name.",
      calls_bingo: "Each number is shown with its column's letter: B 1-15, I 16-30, N 31-45, G 46-60, O 61-75.",
      calls_not_made: "Not called (the game ended after call {calls}): {count} more",
      prizes_title: "Prizes",
      prize_header: "Prize",
      earliest_header: "Earliest possible win",
      boards_header: "Boards",
      prize_never: "not complete on any board when the game ended",
      prize_held_back: "not won: it is played after {prize}, which nobody won",
      prize_houses_only: "not won: only tickets that had already won a house were full",
      at_call: "call {call}",
      prizes_note:
        "A prize is won by whoever claims it in time, so the real winners (in the end-of-game " +
        "message) can be later than the earliest possible win.",
      prizes_note_loteria:
        "Lotería's prizes are played one after another: each one from the call the one before " +
        "it was won; a prize nobody wins holds back the ones after it.",
      prizes_note_houses:
        "The second and third houses go to tickets that have not won a house, each after the " +
        "one before; a player wins each prize once, with the first of their tickets that has it.",
      prizes_note_bingo:
        "Bingo's patterns are played one after another: each one from the call the one before " +
        "it was won; a pattern nobody wins holds back the ones after it. A player wins each " +
        "pattern once, with the first of their cards that has it.",
      patterns_custom: "Custom patterns: {patterns}.",
      pattern_ways_one: "{name} (1 way)",
      pattern_ways_other: "{name} (any of {count} ways)",
      boards_title: "Boards",
      find_label_housie: "Find your ticket by its code",
      find_help_housie:
        "The code printed on your ticket, after “Code”. Its signature is not checked here: " +
        "that needs the server's key (/housie check does it).",
      find_label_loteria: "Find your tabla by its number",
      find_help_loteria: "The number printed on your tabla's picture: 3 for “Tabla 3”.",
      find_label_bingo: "Find your card by its number or its numbers",
      find_help_bingo:
        "The number printed on your card's picture (17 for “CARD 17”), or a few of the numbers " +
        "on your card (such as its B column, 3 12 6): the card holding them all.",
      find_not_number_bingo:
        "A card is found by the number printed on its picture (17 for “CARD 17”) or by numbers " +
        "on it, such as 3 12 6.",
      find_no_card: "This game has no card {number}: its cards are numbered 1 to {last}.",
      find_no_numbers: "No card of this game holds {numbers}: check that they were typed right.",
      find_bad_numbers: "Bingo numbers go from 1 to 75: {value} is not one.",
      find_found: "Found: {board}. It is highlighted below.",
      find_left: "{board} went to a player who left: it is not shown.",
      find_none: "No ticket of this game has this code: check that it was typed right.",
      find_other_game: "This code is for game {codeGame}, not game {game}: open that game's link.",
      find_no_tabla: "This game has no tabla {number}: its tablas are numbered 1 to {last}.",
      find_not_number:
        "A tabla is found by the number printed on its picture: 3 for “Tabla 3” (a ticket " +
        "code is for Housie).",
      "code-length": "A ticket code has {shortest} to {longest} characters; this one has {length}.",
      "code-character":
        "Character {position} ({character}) cannot be in a ticket code: they use digits and " +
        "the letters A to Z but U.",
      "code-leading-zeros": "This code has extra zeros at the start: type it as it is printed.",
      filter_label: "Show the boards of player",
      filter_help: "Empty: every player.",
      left_note: "Deal positions that went to players who left (not shown): {count}.",
      positions_note:
        "Deal positions count from 0, as the engine and docs/FAIRNESS.md count them: position k is " +
        "ticket k % 6 of strip k // 6.",
      tabla_caption: "Tabla {tabla} · player {player}",
      tabla_caption_left: "Tabla {tabla} (a player who left)",
      card_caption: "Card {card} · player {player}",
      card_caption_left: "Card {card} (a player who left)",
      free_cell: "FREE",
      free_cell_long: "free centre, always marked",
      bingo_column: "Column {letter}, {first}-{last}",
      ticket_caption_left: "The ticket at deal position {deal} (a player who left)",
      ticket_caption: "Player {player} · ticket {index} of {count} (deal position {deal})",
      mark_complete: "{prize} at call {call}",
      mark_missing: "{prize}: not complete",
      called_at: "called at call",
      not_called: "not called",
      column: "Column {first}-{last}",
      column_cell: "column {column}",
      card_cell: "card",
      // Problems with the input
      "seed-not-hex": "The seed must be hexadecimal (0-9, a-f).",
      "seed-length": "The seed must be exactly 64 hexadecimal characters.",
      "seed-missing": "Enter the seed revealed at the end of the game.",
      "link-cut":
        "This link is incomplete: it stops before the seed, so it was probably cut when it was " +
        "copied. Copy the whole link again, or type the seed and the rest below.",
      "link-cut-seed":
        "This link stops inside the seed ({length} of 64 characters): it was probably cut when " +
        "it was copied.",
      "commitment-bad": "The commitment must be 64 hexadecimal characters (or empty).",
      "game-bad": "Choose Lotería, Housie or Bingo.",
      "deck-bad": "The deck must be classic or family.",
      "prizes-bad": "Unknown prize: {value}.",
      "prizes-missing": "Name at least one prize.",
      "prizes-repeat": "A prize is listed twice: {value}.",
      "prizes-needs": "{prize} needs {needed} in the same game.",
      "calls-bad": "Calls made must be a whole number from 0 to {most}.",
      "boards-bad": "Boards per player: {value} is not a count like 2, 1*12 or -3.",
      "boards-too-many":
        "A Lotería player has 1 tabla, a Housie player 1 to 6 tickets and a Bingo player 1 " +
        "card: {value}.",
      "boards-limit": "Too many boards: at most {most}.",
      "version-bad": "This link is for a newer version of the page (format {value}).",
      "tabla-repeats": "The deal stream kept repeating tablas; the seed cannot be right.",
      "card-repeats": "The deal stream kept repeating cards; the seed cannot be right.",
      "pattern-form":
        "Custom pattern {value} is not written as code=name=cells+cells… (each cells part 7 " +
        "hexadecimal digits): copy the whole link again.",
      "pattern-code":
        "Custom pattern {value}: its code must be 1 to 32 lower-case letters, digits, _ or -, " +
        "starting with a letter or digit.",
      "pattern-name":
        "Custom pattern {value}: its name must be 1 to 40 printable characters, without / , = + " +
        "or spaces around it.",
      "pattern-mask":
        "Custom pattern {value}: each of its ways must mark a cell of the card besides the free " +
        "centre, in increasing order without repeats.",
      "pattern-builtin": "Custom pattern {value} takes the code of a built-in pattern.",
      "patterns-repeat": "Two custom patterns have the code {value}.",
      "patterns-unused": "Custom pattern {value} is not among the prizes played.",
      unexpected: "Something went wrong computing this game: {value}",
    },
    es: {
      title: "Verifica una partida",
      intro:
        "Recalcula una partida de Lotería, Housie o Bingo con la semilla revelada al final: el " +
        "compromiso, el orden de las cantadas y cada tablero. Todo se calcula en este " +
        "navegador; no se envía nada a ninguna parte.",
      label_game: "Juego",
      label_id: "Número de partida",
      help_id: "Opcional; solo se muestra en el título.",
      label_seed: "Semilla",
      help_seed: "64 caracteres hexadecimales, revelados al terminar la partida.",
      label_commitment: "Compromiso",
      help_commitment:
        "El SHA-256 publicado en la sala antes de la primera cantada. Compáralo tú con el " +
        "mensaje de la sala.",
      label_deck: "Baraja",
      deck_classic: "Clásica",
      deck_family: "Familiar",
      label_prizes: "Premios",
      help_prizes_loteria: "En el orden jugado: line, corners, centre, square, full.",
      help_prizes_housie: "Códigos: E5, TL, ML, BL, FC, FH, H2, H3.",
      help_prizes_bingo:
        "En el orden jugado: line, corners, x, plus, stamp, any_stamp, small_diamond, " +
        "large_diamond, frame, inner_frame, letter_t, any_t, letter_l, any_l, letter_h, any_h, " +
        "blackout, o el código de un patrón propio.",
      label_patterns: "Patrones propios",
      help_patterns:
        "Bingo: cada patrón propio jugado, como lo lleva el enlace (código=nombre=casillas+" +
        "casillas…), separados por comas. Vacío: ninguno.",
      label_calls: "Cantadas hechas",
      help_calls: "Cuántas cantadas hubo antes de terminar la partida (vacío: todas).",
      label_boards: "Tableros por jugador",
      help_boards:
        "En orden de llegada, separados por comas: 2 = un jugador con 2 tableros, 1*12 = doce " +
        "jugadores con 1 tablero cada uno, -3 = 3 tableros de jugadores que se fueron.",
      button_verify: "Verificar",
      results_title: "Resultado",
      footer:
        'Cómo funcionan los sorteos, y qué puede y qué no puede probar esta página: ' +
        'docs/FAIRNESS.md del bot.',
      working: "Calculando…",
      verdict_title_ok: "Verificada",
      verdict_title_bad: "No coincide",
      verdict_title_note: "Recalculada, sin compromiso con que comprobarla",
      verdict_ok:
        "Todas las cantadas y todos los tableros salen de esta semilla, y la semilla coincide " +
        "con el compromiso. Comprueba que es el compromiso que publicó la sala antes de la " +
        "primera cantada: {commitment}.",
      verdict_bad:
        "La semilla NO coincide con el compromiso: el SHA-256 de esta semilla es {computed}, " +
        "pero el compromiso del enlace es {commitment}. Las cantadas y los tableros de abajo " +
        "salen de esta semilla, que no es la comprometida antes de la partida.",
      verdict_note:
        "Todas las cantadas y todos los tableros salen de esta semilla, pero no se dio ningún " +
        "compromiso con que comprobarla: compara SHA-256(semilla) = {computed} con el " +
        "compromiso que publicó la sala antes de la primera cantada.",
      verdict_facts_one: "{calls} de {total} cantadas hechas · 1 tablero",
      verdict_facts_other: "{calls} de {total} cantadas hechas · {boards} tableros",
      verdict_more: "Abajo: las cantadas, los premios y cada tablero.",
      game_title: "{game} n.º {id}",
      commitment_ok:
        "La semilla coincide con el compromiso: SHA-256(semilla) = {commitment}. Comprueba que " +
        "es el compromiso publicado en la sala antes de la primera cantada.",
      commitment_bad:
        "La semilla NO coincide con el compromiso: SHA-256(semilla) = {computed}, pero el " +
        "compromiso dado es {commitment}.",
      commitment_missing:
        "No se dio compromiso: SHA-256(semilla) = {computed}. Compáralo con el compromiso " +
        "publicado en la sala antes de la primera cantada.",
      computed_with: "Calculado en este navegador con HMAC-SHA256 de {crypto}.",
      crypto_webcrypto: "WebCrypto",
      crypto_fallback: "esta misma página (no está en un contexto seguro)",
      calls_title: "Orden de las cantadas",
      calls_made: "Se hicieron {calls} cantadas.",
      calls_cards: "Cada carta aparece con su número en la baraja (del 1 al 54) y su nombre.",
      calls_bingo: "Cada número aparece con la letra de su columna: B 1-15, I 16-30, N 31-45, G 46-60, O 61-75.",
      calls_not_made: "Sin cantar (la partida terminó tras la cantada {calls}): {count} más",
      prizes_title: "Premios",
      prize_header: "Premio",
      earliest_header: "Primer momento en que se pudo ganar",
      boards_header: "Tableros",
      prize_never: "ningún tablero lo completó antes del final",
      prize_held_back: "nadie lo ganó: se juega después de {prize}, que nadie ganó",
      prize_houses_only: "nadie lo ganó: solo estaban llenos cartones que ya habían ganado un cartón lleno",
      at_call: "cantada {call}",
      prizes_note:
        "Gana quien reclama a tiempo, así que los ganadores reales (en el mensaje final) pueden " +
        "ser posteriores al primer momento posible.",
      prizes_note_loteria:
        "En la Lotería los premios se juegan uno tras otro: cada uno desde la cantada en que " +
        "se ganó el anterior; un premio que nadie gana detiene los siguientes.",
      prizes_note_houses:
        "El segundo y el tercer cartón lleno son para cartones que no han ganado uno, cada uno " +
        "después del anterior; un jugador gana cada premio una vez, con el primero de sus " +
        "cartones que lo tenga.",
      prizes_note_bingo:
        "En el Bingo los patrones se juegan uno tras otro: cada uno desde la cantada en que se " +
        "ganó el anterior; un patrón que nadie gana detiene los siguientes. Un jugador gana cada " +
        "patrón una vez, con el primero de sus cartones que lo tenga.",
      patterns_custom: "Patrones propios: {patterns}.",
      pattern_ways_one: "{name} (1 forma)",
      pattern_ways_other: "{name} (vale de {count} formas)",
      boards_title: "Tableros",
      find_label_housie: "Encuentra tu cartón por su código",
      find_help_housie:
        "El código impreso en tu cartón, tras «Código». Aquí no se comprueba su firma: hace " +
        "falta la clave del servidor (lo hace /housie check).",
      find_label_loteria: "Encuentra tu tabla por su número",
      find_help_loteria: "El número impreso en la imagen de tu tabla: 3 para «Tabla 3».",
      find_label_bingo: "Encuentra tu cartón por su número o sus números",
      find_help_bingo:
        "El número impreso en la imagen de tu cartón (17 para «CARTÓN 17»), o algunos de los " +
        "números de tu cartón (como su columna B, 3 12 6): el cartón que los tiene todos.",
      find_not_number_bingo:
        "Un cartón se encuentra por el número impreso en su imagen (17 para «CARTÓN 17») o por " +
        "números que tiene, como 3 12 6.",
      find_no_card: "Esta partida no tiene cartón {number}: sus cartones van del 1 al {last}.",
      find_no_numbers:
        "Ningún cartón de esta partida tiene {numbers}: comprueba que están bien escritos.",
      find_bad_numbers: "Los números del bingo van del 1 al 75: {value} no es uno de ellos.",
      find_found: "Encontrado: {board}. Está resaltado abajo.",
      find_left: "{board} era de un jugador que se fue: no se muestra.",
      find_none: "Ningún cartón de esta partida tiene este código: comprueba que está bien escrito.",
      find_other_game:
        "Este código es de la partida {codeGame}, no de la {game}: abre el enlace de esa partida.",
      find_no_tabla: "Esta partida no tiene tabla {number}: sus tablas van de la 1 a la {last}.",
      find_not_number:
        "Una tabla se encuentra por el número impreso en su imagen: 3 para «Tabla 3» (un " +
        "código de cartón es de Housie).",
      "code-length":
        "Un código de cartón tiene de {shortest} a {longest} caracteres; este tiene {length}.",
      "code-character":
        "El carácter {position} ({character}) no puede estar en un código de cartón: llevan " +
        "cifras y letras de la A a la Z menos la U.",
      "code-leading-zeros": "Este código tiene ceros de más al principio: escríbelo tal como está impreso.",
      filter_label: "Mostrar los tableros del jugador",
      filter_help: "Vacío: todos los jugadores.",
      left_note: "Posiciones del reparto de jugadores que se fueron (no se muestran): {count}.",
      positions_note:
        "Las posiciones del reparto se cuentan desde 0, como en el motor y en docs/FAIRNESS.md: la " +
        "posición k es el cartón k % 6 de la tira k // 6.",
      tabla_caption: "Tabla {tabla} · jugador {player}",
      tabla_caption_left: "La tabla {tabla} (de un jugador que se fue)",
      card_caption: "Cartón {card} · jugador {player}",
      card_caption_left: "El cartón {card} (de un jugador que se fue)",
      free_cell: "LIBRE",
      free_cell_long: "centro libre, siempre marcado",
      bingo_column: "Columna {letter}, {first}-{last}",
      ticket_caption_left: "El cartón de la posición {deal} del reparto (de un jugador que se fue)",
      ticket_caption: "Jugador {player} · cartón {index} de {count} (posición {deal})",
      mark_complete: "{prize} en la cantada {call}",
      mark_missing: "{prize}: sin completar",
      called_at: "salió en la cantada",
      not_called: "no salió",
      column: "Columna {first}-{last}",
      column_cell: "columna {column}",
      card_cell: "carta",
      "seed-not-hex": "La semilla debe ser hexadecimal (0-9, a-f).",
      "seed-length": "La semilla debe tener exactamente 64 caracteres hexadecimales.",
      "seed-missing": "Escribe la semilla revelada al final de la partida.",
      "link-cut":
        "Este enlace está incompleto: se corta antes de la semilla, seguramente al copiarlo. " +
        "Vuelve a copiar el enlace entero, o escribe abajo la semilla y lo demás.",
      "link-cut-seed":
        "Este enlace se corta dentro de la semilla ({length} de 64 caracteres): seguramente se " +
        "cortó al copiarlo.",
      "commitment-bad": "El compromiso debe tener 64 caracteres hexadecimales (o quedar vacío).",
      "game-bad": "Elige Lotería, Housie o Bingo.",
      "deck-bad": "La baraja debe ser classic o family.",
      "prizes-bad": "Premio desconocido: {value}.",
      "prizes-missing": "Indica al menos un premio.",
      "prizes-repeat": "Un premio aparece dos veces: {value}.",
      "prizes-needs": "{prize} necesita {needed} en la misma partida.",
      "calls-bad": "Las cantadas hechas deben ser un número entero de 0 a {most}.",
      "boards-bad": "Tableros por jugador: {value} no es una cuenta como 2, 1*12 o -3.",
      "boards-too-many":
        "En la Lotería cada jugador tiene 1 tabla, en Housie de 1 a 6 cartones y en el Bingo " +
        "1 cartón: {value}.",
      "boards-limit": "Demasiados tableros: como mucho {most}.",
      "version-bad": "Este enlace es de una versión más nueva de la página (formato {value}).",
      "tabla-repeats": "El reparto repetía tablas sin parar; la semilla no puede ser correcta.",
      "card-repeats": "El reparto repetía cartones sin parar; la semilla no puede ser correcta.",
      "pattern-form":
        "El patrón propio {value} no está escrito como código=nombre=casillas+casillas… (cada " +
        "parte de casillas, 7 cifras hexadecimales): vuelve a copiar el enlace entero.",
      "pattern-code":
        "Patrón propio {value}: su código debe tener de 1 a 32 letras minúsculas, cifras, _ o -, " +
        "y empezar por una letra o una cifra.",
      "pattern-name":
        "Patrón propio {value}: su nombre debe tener de 1 a 40 caracteres imprimibles, sin / , = + " +
        "ni espacios alrededor.",
      "pattern-mask":
        "Patrón propio {value}: cada una de sus formas debe marcar una casilla además del centro " +
        "libre, en orden creciente y sin repetirse.",
      "pattern-builtin": "El patrón propio {value} usa el código de un patrón incorporado.",
      "patterns-repeat": "Dos patrones propios tienen el código {value}.",
      "patterns-unused": "El patrón propio {value} no está entre los premios jugados.",
      unexpected: "Algo falló al calcular esta partida: {value}",
    },
  };

  const LOTERIA_PRIZES = {
    line: { en: "Line", es: "Chorro" },
    corners: { en: "Four corners", es: "Cuatro esquinas" },
    centre: { en: "Centre", es: "Centrito" },
    square: { en: "Square", es: "Cuadrito" },
    full: { en: "Full tabla", es: "Llena" },
  };
  const HOUSIE_PRIZES = {
    E5: { en: "Early Five", es: "Cinco primeros" },
    TL: { en: "Top Line", es: "Línea de arriba" },
    ML: { en: "Middle Line", es: "Línea del medio" },
    BL: { en: "Bottom Line", es: "Línea de abajo" },
    FC: { en: "Four Corners", es: "Cuatro esquinas" },
    FH: { en: "Full House", es: "Cartón lleno" },
    H2: { en: "Second Full House", es: "Segundo cartón lleno" },
    H3: { en: "Third Full House", es: "Tercer cartón lleno" },
  };
  // engine/bingo.py's PATTERN_BOOK, by code (bot/render/bingo/words.py names them); a custom
  // pattern keeps the name its server gave it, in both languages.
  const BINGO_PRIZES = {
    line: { en: "Any line", es: "Cualquier línea" },
    corners: { en: "Four corners", es: "Cuatro esquinas" },
    x: { en: "X", es: "Equis" },
    plus: { en: "Plus", es: "Cruz" },
    stamp: { en: "Postage stamp", es: "Estampilla" },
    any_stamp: { en: "Postage stamp anywhere", es: "Estampilla en cualquier lugar" },
    small_diamond: { en: "Small diamond", es: "Diamante chico" },
    large_diamond: { en: "Large diamond", es: "Diamante grande" },
    frame: { en: "Picture frame", es: "Marco" },
    inner_frame: { en: "Inner frame", es: "Marco interior" },
    letter_t: { en: "Letter T", es: "Letra T" },
    any_t: { en: "Letter T any way round", es: "Letra T en cualquier sentido" },
    letter_l: { en: "Letter L", es: "Letra L" },
    any_l: { en: "Letter L any way round", es: "Letra L en cualquier sentido" },
    letter_h: { en: "Letter H", es: "Letra H" },
    any_h: { en: "Letter H any way round", es: "Letra H en cualquier sentido" },
    blackout: { en: "Blackout", es: "Cartón lleno" },
  };
  const HOUSES = ["FH", "H2", "H3"];
  const HOUSE_NEEDS = { H2: "FH", H3: "H2" }; // engine/housie/prizes.py: Prize.needs

  // Card n is CLASSIC[n - 1]: [Spanish, English]. The family deck swaps three cards.
  const CLASSIC = [
    ["El Gallo", "The Rooster"], ["El Diablito", "The Little Devil"], ["La Dama", "The Lady"],
    ["El Catrín", "The Dandy"], ["El Paraguas", "The Umbrella"], ["La Sirena", "The Mermaid"],
    ["La Escalera", "The Ladder"], ["La Botella", "The Bottle"], ["El Barril", "The Barrel"],
    ["El Árbol", "The Tree"], ["El Melón", "The Melon"], ["El Valiente", "The Brave One"],
    ["El Gorrito", "The Little Bonnet"], ["La Muerte", "Death"], ["La Pera", "The Pear"],
    ["La Bandera", "The Flag"], ["El Bandolón", "The Mandolin"], ["El Violoncello", "The Cello"],
    ["La Garza", "The Heron"], ["El Pájaro", "The Bird"], ["La Mano", "The Hand"],
    ["La Bota", "The Boot"], ["La Luna", "The Moon"], ["El Cotorro", "The Parrot"],
    ["El Borracho", "The Drunkard"], ["El Negrito", "The Little Black Man"],
    ["El Corazón", "The Heart"], ["La Sandía", "The Watermelon"], ["El Tambor", "The Drum"],
    ["El Camarón", "The Shrimp"], ["Las Jaras", "The Arrows"], ["El Músico", "The Musician"],
    ["La Araña", "The Spider"], ["El Soldado", "The Soldier"], ["La Estrella", "The Star"],
    ["El Cazo", "The Saucepan"], ["El Mundo", "The World"], ["El Apache", "The Apache"],
    ["El Nopal", "The Cactus"], ["El Alacrán", "The Scorpion"], ["La Rosa", "The Rose"],
    ["La Calavera", "The Skull"], ["La Campana", "The Bell"],
    ["El Cantarito", "The Water Pitcher"], ["El Venado", "The Deer"], ["El Sol", "The Sun"],
    ["La Corona", "The Crown"], ["La Chalupa", "The Canoe"], ["El Pino", "The Pine Tree"],
    ["El Pescado", "The Fish"], ["La Palma", "The Palm Tree"], ["La Maceta", "The Flowerpot"],
    ["El Arpa", "The Harp"], ["La Rana", "The Frog"],
  ];
  const FAMILY_SWAPS = {
    25: ["La Piñata", "The Piñata"],
    26: ["El Elote", "The Corn Cob"],
    38: ["La Mariposa", "The Butterfly"],
  };
  const DECKS = {
    classic: CLASSIC,
    family: CLASSIC.map((card, i) => FAMILY_SWAPS[i + 1] || card),
  };

  let language = "en";

  function say(key, values = {}) {
    const template = (TEXT[language] && TEXT[language][key]) || TEXT.en[key] || key;
    return template.replace(/\{(\w+)\}/g, (_, name) => String(values[name]));
  }

  /** A problem with the input: `key` names a message in TEXT. */
  class InputProblem extends Error {
    constructor(key, values = {}) {
      super(key);
      this.key = key;
      this.values = values;
    }
  }

  // -------------------------------------------------------------------------------- parsing

  const TOTAL_CALLS = { loteria: LOTERIA_CALLS, housie: HOUSIE_CALLS, bingo: BINGO_CALLS };

  /** The fragment's fields as a plain object of strings (see docs/FAIRNESS.md for the format). */
  function parseFragment(hash) {
    const text = String(hash || "").replace(/^#/, "");
    const params = new URLSearchParams(text);
    const fields = {};
    for (const [key, value] of params) fields[key] = value;
    return fields;
  }

  /**
   * "2,1*3,-2,1" -> the deal, in order: [{player, count}] runs of consecutive deal positions,
   * player null for positions dealt to someone who left.
   */
  function parseBoards(text, game) {
    const source = String(text || "").replace(/\s+/g, "");
    if (!source) return [];
    const most = { housie: MAX_TICKETS_PER_PLAYER, bingo: MAX_CARDS_PER_PLAYER }[game] || 1;
    const runs = [];
    let player = 0;
    let total = 0;
    for (const token of source.split(",")) {
      const match = /^(-?)([1-9]\d{0,4})(?:\*([1-9]\d{0,4}))?$/.exec(token);
      if (!match) throw new InputProblem("boards-bad", { value: token });
      const [, left, countText, repeatText] = match;
      const count = Number(countText);
      const repeat = repeatText ? Number(repeatText) : 1;
      if (!left && count > most) throw new InputProblem("boards-too-many", { value: token });
      total += count * repeat;
      const limit = { housie: MAX_TICKETS, bingo: MAX_CARDS }[game] || MAX_TABLAS;
      if (total > limit) throw new InputProblem("boards-limit", { most: limit });
      for (let i = 0; i < repeat; i += 1) {
        if (left) runs.push({ player: null, count });
        else runs.push({ player: (player += 1), count });
      }
    }
    return runs;
  }

  /**
   * Bingo's custom patterns from the link's `patterns` field: each one's text form
   * (code=name=mask+mask…, engine/bingo.py's Pattern.to_text), comma-separated. Returns
   * {code: {name, masks}}.
   */
  function parsePatterns(text) {
    const custom = {};
    const items = String(text || "").trim();
    if (!items) return custom;
    for (const item of items.split(",")) {
      let pattern;
      try {
        pattern = E.readPattern(item);
      } catch (error) {
        if (!error.key) throw error;
        throw new InputProblem(error.key, error.values);
      }
      if (pattern.code in custom) throw new InputProblem("patterns-repeat", { value: pattern.code });
      custom[pattern.code] = { name: pattern.name, masks: pattern.masks };
    }
    return custom;
  }

  function parsePrizes(text, game, custom = {}) {
    const known = { housie: HOUSIE_PRIZES, bingo: { ...BINGO_PRIZES, ...custom } }[game] || LOTERIA_PRIZES;
    const words = String(text || "")
      .split(/[\s,>→]+/)
      .filter((w) => w);
    if (!words.length) throw new InputProblem("prizes-missing");
    const prizes = [];
    for (const word of words) {
      const code = game === "housie" ? word.toUpperCase() : word.toLowerCase();
      if (!(code in known)) throw new InputProblem("prizes-bad", { value: word });
      if (prizes.includes(code)) throw new InputProblem("prizes-repeat", { value: word });
      prizes.push(code);
    }
    // As the engine's HousieGame refuses: a later house without the one before it.
    for (const prize of prizes) {
      const needed = game === "housie" ? HOUSE_NEEDS[prize] : undefined;
      if (needed && !prizes.includes(needed)) {
        throw new InputProblem("prizes-needs", {
          prize: prizeName(game, prize),
          needed: prizeName(game, needed),
        });
      }
    }
    for (const code of Object.keys(custom)) {
      if (!prizes.includes(code)) throw new InputProblem("patterns-unused", { value: code });
    }
    return prizes;
  }

  /** Validated game values from raw strings (the fragment's or the form's). */
  function readGame(fields) {
    if (fields.v && fields.v !== FORMAT_VERSION) {
      throw new InputProblem("version-bad", { value: fields.v });
    }
    const game = String(fields.game || "").toLowerCase();
    if (!(game in TOTAL_CALLS)) throw new InputProblem("game-bad");
    const seed = String(fields.seed || "").trim().toLowerCase();
    if (!seed) throw new InputProblem("seed-missing");
    if (!/^[0-9a-f]*$/.test(seed)) throw new InputProblem("seed-not-hex");
    if (seed.length !== 64) throw new InputProblem("seed-length");
    const commitment = String(fields.commitment || "").trim().toLowerCase();
    if (commitment && !/^[0-9a-f]{64}$/.test(commitment)) throw new InputProblem("commitment-bad");
    const deck = String(fields.deck || "classic").toLowerCase();
    if (game === "loteria" && !(deck in DECKS)) throw new InputProblem("deck-bad");
    const total = TOTAL_CALLS[game];
    const callsText = String(fields.calls || "").trim();
    let calls = total;
    if (callsText) {
      if (!/^\d+$/.test(callsText) || Number(callsText) > total) {
        throw new InputProblem("calls-bad", { most: total });
      }
      calls = Number(callsText);
    }
    const defaultPrizes = { housie: "E5,TL,ML,BL,FC,FH", bingo: "line" }[game] || "line,full";
    const custom = game === "bingo" ? parsePatterns(fields.patterns) : {};
    return {
      game,
      id: String(fields.id || "").trim(),
      seed,
      commitment,
      deck: game === "loteria" ? deck : "",
      custom,
      prizes: parsePrizes(fields.prizes || defaultPrizes, game, custom),
      calls,
      runs: parseBoards(fields.boards, game),
    };
  }

  // ------------------------------------------------------------------------------ computing

  /**
   * Recompute a game: the commitment, the call order, every board and when it completes each
   * prize, and the earliest call each prize could be won. Plain data (JSON-ready) for the page
   * and the tests.
   */
  async function verifyGame(fields) {
    const values = readGame(fields);
    const { game, seed, prizes, calls, runs } = values;
    const computed = await E.commitment(seed);
    const order = await E.drawOrder(seed, TOTAL_CALLS[game]);
    const positions = runs.reduce((n, run) => n + run.count, 0);
    const deal = { housie: E.dealTickets, bingo: E.dealCards }[game] || E.dealTablas;
    const dealt = await deal(seed, positions);
    // Bingo: each pattern played, by code, as its cell masks (a built-in's, or a custom one's).
    const masks = {};
    if (game === "bingo") for (const p of prizes) masks[p] = values.custom[p] ? values.custom[p].masks : E.BINGO_BOOK[p];
    const stateOf = { housie: E.ticketState, bingo: E.cardState }[game] || ((cells) => cells.join("."));
    const boards = [];
    let position = 0;
    for (const run of runs) {
      for (let index = 0; index < run.count; index += 1) {
        const cells = dealt[position];
        let completions;
        if (game === "housie") completions = E.ticketCompletions(cells, order, prizes);
        else if (game === "bingo") completions = E.cardCompletions(cells, order, masks);
        else completions = E.tablaCompletions(cells, order, prizes);
        boards.push({
          deal: position,
          player: run.player,
          index,
          count: run.count,
          cells,
          state: stateOf(cells),
          completions,
        });
        position += 1;
      }
    }
    return {
      ...values,
      runs: undefined,
      commitmentComputed: computed,
      commitmentOk: values.commitment ? values.commitment === computed : null,
      crypto: E.cryptoName(),
      order,
      boards,
      earliest: earliestWins(game, prizes, boards.filter((b) => b.player !== null), calls),
    };
  }

  /**
   * For each prize: the first call at which it could be won, and the boards that win it then,
   * replaying the game call by call as the bot judges it when every player claims every prize
   * as soon as they can. Lotería and Bingo play one prize at a time: a prize nobody wins holds
   * back the ones after it. Housie plays its prizes at once, a second or third house only once the one
   * before is won. A player wins a prize once, with the first of their boards that completes it
   * (valid claims on the same call share it), and a ticket that won a house wins no other.
   */
  function earliestWins(game, prizes, boards, calls) {
    const players = new Map(); // player -> their boards in deal order (the order they are judged)
    for (const board of boards) {
      if (!players.has(board.player)) players.set(board.player, []);
      players.get(board.player).push(board);
    }
    const won = new Map();
    const housed = new Set();
    const claimable = () => {
      if (game !== "housie") return prizes.filter((p) => !won.has(p)).slice(0, 1);
      return prizes.filter((p) => !won.has(p) && (!HOUSE_NEEDS[p] || won.has(HOUSE_NEEDS[p])));
    };
    for (let call = 1; call <= calls && won.size < prizes.length; call += 1) {
      let awarded = true;
      while (awarded) {
        // an award can open the next prize on the same call
        awarded = false;
        for (const prize of claimable()) {
          const house = game === "housie" && HOUSES.includes(prize);
          const deals = [];
          for (const held of players.values()) {
            const winner = held.find(
              (b) => b.completions[prize] <= call && !(house && housed.has(b.deal)),
            );
            if (winner) deals.push(winner.deal);
          }
          if (!deals.length) continue;
          won.set(prize, { prize, call, deals });
          if (house) deals.forEach((deal) => housed.add(deal));
          awarded = true;
          break;
        }
      }
    }
    return prizes.map((prize) => won.get(prize) || { prize, call: null, deals: [] });
  }

  // ------------------------------------------------------------------------------ rendering

  function element(tag, attributes = {}, ...children) {
    const node = document.createElement(tag);
    for (const [name, value] of Object.entries(attributes)) {
      if (value === null || value === undefined || value === false) continue;
      if (name === "text") node.textContent = value;
      else if (name === "className") node.className = value;
      else node.setAttribute(name, value === true ? "" : value);
    }
    for (const child of children.flat()) {
      if (child === null || child === undefined) continue;
      node.append(child instanceof Node ? child : document.createTextNode(String(child)));
    }
    return node;
  }

  const hidden = (text) => element("span", { className: "sr-only", text });

  /** A prize's name in the page's language; `custom` holds a game's own (Bingo's patterns). */
  function prizeName(game, prize, custom = {}) {
    if (custom[prize]) return custom[prize].name;
    const names = { housie: HOUSIE_PRIZES, bingo: BINGO_PRIZES }[game] || LOTERIA_PRIZES;
    return names[prize][language];
  }

  function cardName(deck, number) {
    const [spanish, english] = DECKS[deck][number - 1];
    return language === "es" ? spanish : `${spanish} (${english})`;
  }

  function boardLabel(result, board) {
    if (board.player === null) {
      const key = { housie: "ticket_caption_left", bingo: "card_caption_left" }[result.game] || "tabla_caption_left";
      return say(key, { tabla: board.deal + 1, card: board.deal + 1, deal: board.deal });
    }
    if (result.game === "bingo") {
      // As the card's picture prints it: a player's one card is numbered by its deal.
      return say("card_caption", { card: board.deal + 1, player: board.player });
    }
    if (result.game === "housie") {
      return say("ticket_caption", {
        player: board.player,
        index: board.index + 1,
        count: board.count,
        deal: board.deal, // from 0, as the engine (tickets_at) and docs/FAIRNESS.md count
      });
    }
    return say("tabla_caption", { tabla: board.deal + 1, player: board.player });
  }

  function renderChecks(result) {
    const list = element("ul", { className: "checks" });
    let key = "commitment_missing";
    if (result.commitmentOk === true) key = "commitment_ok";
    if (result.commitmentOk === false) key = "commitment_bad";
    const ok = result.commitmentOk;
    list.append(
      element(
        "li",
        { className: ok === true ? "ok" : ok === false ? "bad" : "note", id: "commitment-check" },
        element("span", { className: "mark", "aria-hidden": "true", text: ok === false ? "✗" : ok ? "✓" : "!" }),
        " ",
        say(key, { commitment: result.commitment, computed: result.commitmentComputed }),
      ),
    );
    list.append(
      element(
        "li",
        { className: "note" },
        say("computed_with", { crypto: say(`crypto_${result.crypto}`) }),
      ),
    );
    return list;
  }

  function renderCalls(result) {
    const section = element("section", { "aria-labelledby": "calls-title" });
    section.append(element("h3", { id: "calls-title", text: say("calls_title") }));
    section.append(element("p", { text: say("calls_made", { calls: result.calls }) }));
    if (result.game === "loteria") section.append(element("p", { className: "note", text: say("calls_cards") }));
    if (result.game === "bingo") section.append(element("p", { className: "note", text: say("calls_bingo") }));
    const made = result.order.slice(0, result.calls);
    const rest = result.order.slice(result.calls);
    const list = (values, start) => {
      const ol = element(
        "ol",
        { className: `calls ${result.game}`, start },
        values.map((value) =>
          result.game !== "loteria"
            ? element("li", { text: result.game === "bingo" ? E.callName(value) : String(value) })
            : element(
                "li",
                {},
                element("span", { className: "card-number", text: value }),
                " ",
                cardName(result.deck, value),
              ),
        ),
      );
      ol.style.counterReset = `call ${start - 1}`; // the numbers are drawn by CSS (flex layout)
      return ol;
    };
    section.append(list(made, 1));
    if (rest.length) {
      section.append(
        element(
          "details",
          {},
          element("summary", {
            text: say("calls_not_made", { calls: result.calls, count: rest.length }),
          }),
          list(rest, result.calls + 1),
        ),
      );
    }
    return section;
  }

  /** "call 17", or why nobody won the prize. */
  function whenWon(result, win) {
    if (win.call !== null) return say("at_call", { call: win.call });
    const complete = result.boards.some(
      (b) => b.player !== null && b.completions[win.prize] <= result.calls,
    );
    if (!complete) return say("prize_never");
    if (result.game === "housie") return say("prize_houses_only");
    const before = result.prizes[result.prizes.indexOf(win.prize) - 1];
    return say("prize_held_back", { prize: prizeName(result.game, before, result.custom) });
  }

  function renderPrizes(result) {
    const section = element("section", { "aria-labelledby": "prizes-title" });
    section.append(element("h3", { id: "prizes-title", text: say("prizes_title") }));
    const byDeal = new Map(result.boards.map((b) => [b.deal, b]));
    const rows = result.earliest.map((win) =>
      element(
        "tr",
        {},
        element("th", { scope: "row", text: prizeName(result.game, win.prize, result.custom) }),
        element("td", { text: whenWon(result, win) }),
        element("td", { text: win.deals.map((d) => boardLabel(result, byDeal.get(d))).join("; ") }),
      ),
    );
    section.append(
      element(
        "table",
        { className: "prizes", id: "prizes-table" },
        element(
          "thead",
          {},
          element(
            "tr",
            {},
            element("th", { scope: "col", text: say("prize_header") }),
            element("th", { scope: "col", text: say("earliest_header") }),
            element("th", { scope: "col", text: say("boards_header") }),
          ),
        ),
        element("tbody", {}, rows),
      ),
    );
    section.append(element("p", { className: "note", text: say("prizes_note") }));
    if (result.game === "loteria" && result.prizes.length > 1) {
      section.append(element("p", { className: "note", text: say("prizes_note_loteria") }));
    }
    if (result.game === "housie" && result.prizes.includes("H2")) {
      section.append(element("p", { className: "note", text: say("prizes_note_houses") }));
    }
    if (result.game === "bingo" && result.prizes.length > 1) {
      section.append(element("p", { className: "note", text: say("prizes_note_bingo") }));
    }
    const customs = Object.entries(result.custom || {});
    if (customs.length) {
      const named = customs.map(([, pattern]) => {
        const count = pattern.masks.length;
        return say(count === 1 ? "pattern_ways_one" : "pattern_ways_other", { name: pattern.name, count });
      });
      section.append(element("p", { className: "note", id: "custom-patterns", text: say("patterns_custom", { patterns: named.join("; ") }) }));
    }
    return section;
  }

  function cellContent(result, value, callOf) {
    const call = callOf[value];
    const called = call <= result.calls;
    const parts = [];
    if (result.game === "loteria") {
      const [spanish, english] = DECKS[result.deck][value - 1];
      parts.push(element("span", { className: "number", text: value }));
      parts.push(element("span", { className: "name", lang: "es", text: spanish }));
      if (language === "en") parts.push(element("span", { className: "english", lang: "en", text: english }));
    } else {
      parts.push(element("span", { className: "number", text: value }));
    }
    if (called) {
      parts.push(element("span", { className: "call" }, hidden(`${say("called_at")} `), String(call)));
    } else {
      parts.push(hidden(` ${say("not_called")}`));
    }
    return { called, parts };
  }

  function renderBoard(result, board, callOf) {
    const article = element("article", {
      className: "board",
      "data-player": board.player,
      "data-deal": board.deal,
      "data-state": board.state,
    });
    const caption = element("caption", { text: boardLabel(result, board) });
    const tableClass = { housie: "ticket", bingo: "card" }[result.game] || "tabla";
    const table = element("table", { className: tableClass }, caption);
    if (result.game === "bingo") {
      // Under B-I-N-G-O, as on the card's picture; each column's range said for screen readers.
      table.append(
        element(
          "thead",
          {},
          element(
            "tr",
            {},
            [..."BINGO"].map((letter, c) =>
              element(
                "th",
                { scope: "col" },
                element("span", { "aria-hidden": "true", text: letter }),
                hidden(say("bingo_column", { letter, first: 15 * c + 1, last: 15 * c + 15 })),
              ),
            ),
          ),
        ),
      );
    }
    if (result.game === "housie") {
      const firsts = [1, 10, 20, 30, 40, 50, 60, 70, 80];
      const lasts = [9, 19, 29, 39, 49, 59, 69, 79, 90];
      table.append(
        element(
          "thead",
          { className: "sr-only" },
          element(
            "tr",
            {},
            firsts.map((first, c) =>
              element("th", { scope: "col", text: say("column", { first, last: lasts[c] }) }),
            ),
          ),
        ),
      );
    }
    const body = element("tbody");
    let rows = [0, 1, 2, 3].map((r) => board.cells.slice(4 * r, 4 * r + 4));
    if (result.game === "housie") rows = board.cells;
    if (result.game === "bingo") rows = [0, 1, 2, 3, 4].map((r) => board.cells.slice(5 * r, 5 * r + 5));
    for (const row of rows) {
      const tr = element("tr");
      for (const value of row) {
        if (!value && result.game === "bingo") {
          tr.append(
            element(
              "td",
              { className: "free called" },
              element("span", { className: "number", "aria-hidden": "true", text: say("free_cell") }),
              hidden(say("free_cell_long")),
            ),
          );
          continue;
        }
        if (!value) {
          tr.append(element("td", { className: "blank" }));
          continue;
        }
        const { called, parts } = cellContent(result, value, callOf);
        tr.append(element("td", { className: called ? "called" : "open" }, parts));
      }
      body.append(tr);
    }
    table.append(body);
    article.append(table);
    const marks = element("ul", { className: "marks" });
    for (const prize of result.prizes) {
      const call = board.completions[prize];
      if (prize === "H2" || prize === "H3") continue; // a ticket's full house is one mark
      const name = prizeName(result.game, prize, result.custom);
      const done = call <= result.calls;
      marks.append(
        element("li", {
          className: done ? "done" : "missing",
          "data-prize": prize,
          "data-call": done ? call : null,
          text: done ? say("mark_complete", { prize: name, call }) : say("mark_missing", { prize: name }),
        }),
      );
    }
    article.append(marks);
    return article;
  }

  function renderBoards(result) {
    const section = element("section", { "aria-labelledby": "boards-title" });
    section.append(element("h3", { id: "boards-title", text: say("boards_title") }));
    const inPlay = result.boards.filter((b) => b.player !== null);
    const left = result.boards.length - inPlay.length;
    if (left) section.append(element("p", { className: "note", text: say("left_note", { count: left }) }));
    if (result.game === "housie") section.append(element("p", { className: "note", text: say("positions_note") }));
    const find = element("input", {
      id: "f-find",
      autocomplete: "off",
      spellcheck: "false",
      inputmode: result.game === "loteria" ? "numeric" : null,
      "aria-describedby": "h-find find-result",
    });
    find.value = findText;
    section.append(
      element(
        "div",
        { className: "field find" },
        element("label", { for: "f-find", text: say(`find_label_${result.game}`) }),
        find,
        element("p", { className: "help", id: "h-find", text: say(`find_help_${result.game}`) }),
        element("p", { className: "find-result", id: "find-result", role: "status" }),
      ),
    );
    const filter = element("input", {
      id: "f-player",
      inputmode: "numeric",
      autocomplete: "off",
      "aria-describedby": "h-player",
    });
    section.append(
      element(
        "div",
        { className: "field filter" },
        element("label", { for: "f-player", text: say("filter_label") }),
        filter,
        element("p", { className: "help", id: "h-player", text: say("filter_help") }),
      ),
    );
    const callOf = [];
    result.order.forEach((value, i) => {
      callOf[value] = i + 1;
    });
    const grid = element("div", { className: `boards ${result.game}` });
    for (const board of inPlay) grid.append(renderBoard(result, board, callOf));
    section.append(grid);
    filter.addEventListener("input", () => {
      const wanted = filter.value.trim();
      for (const article of grid.children) {
        article.hidden = Boolean(wanted) && article.dataset.player !== wanted;
      }
    });
    const show = (scroll) => {
      findText = find.value;
      const { key, values, deals } = findBoard(result, find.value);
      const box = section.querySelector("#find-result");
      box.textContent = key ? say(key, values) : "";
      box.className = `find-result ${deals.length ? "found" : "problem-text"}`;
      for (const article of grid.children) {
        const mine = deals.includes(Number(article.dataset.deal));
        article.classList.toggle("found", mine);
        if (mine) article.hidden = false;
      }
      if (deals.length && scroll) {
        filter.value = "";
        for (const article of grid.children) article.hidden = false;
        grid.querySelector("article.found").scrollIntoView({ block: "center" });
      }
    };
    find.addEventListener("input", () => show(true));
    if (findText) show(false);
    return section;
  }

  /**
   * The board `text` names: a Housie ticket code (the game and the ticket it names, read as the
   * engine reads them), or a Lotería tabla's number as its picture prints it (deal position + 1).
   * Returns the message to show and the deal positions to highlight.
   */
  function findBoard(result, text) {
    const typed = String(text || "").trim();
    if (!typed) return { key: null, values: {}, deals: [] };
    const label = (board) => boardLabel(result, board);
    if (result.game === "bingo") return findCard(result, typed);
    if (result.game === "loteria") {
      const number = /^(?:tabla\s*)?#?(\d{1,6})$/i.exec(typed);
      if (!number) return { key: "find_not_number", values: {}, deals: [] };
      const board = result.boards[Number(number[1]) - 1];
      if (!board) {
        return { key: "find_no_tabla", values: { number: number[1], last: result.boards.length }, deals: [] };
      }
      if (board.player === null) return { key: "find_left", values: { board: label(board) }, deals: [] };
      return { key: "find_found", values: { board: label(board) }, deals: [board.deal] };
    }
    let code;
    try {
      code = E.readTicketCode(typed);
    } catch (error) {
      if (!error.key) throw error;
      return { key: error.key, values: error.values, deals: [] };
    }
    if (/^\d+$/.test(result.id) && code.game !== BigInt(result.id)) {
      return { key: "find_other_game", values: { codeGame: String(code.game), game: result.id }, deals: [] };
    }
    const matching = result.boards.filter((b) => E.ticketRank(b.cells) === code.rank);
    const held = matching.filter((b) => b.player !== null);
    if (held.length) {
      return { key: "find_found", values: { board: held.map(label).join("; ") }, deals: held.map((b) => b.deal) };
    }
    if (matching.length) return { key: "find_left", values: { board: label(matching[0]) }, deals: [] };
    return { key: "find_none", values: {}, deals: [] };
  }

  /**
   * A Bingo card: one number is the card's number as its picture prints it ("CARD 17": deal
   * position + 1, as a tabla's); several are numbers on the card (the cards holding them all).
   */
  function findCard(result, typed) {
    const label = (board) => boardLabel(result, board);
    const words = typed.replace(/^(?:card|cart[oó]n)\s*#?/i, "").split(/[\s,;.\-]+/).filter((w) => w);
    if (!words.every((w) => /^\d{1,6}$/.test(w))) return { key: "find_not_number_bingo", values: {}, deals: [] };
    const numbers = words.map(Number);
    if (numbers.length === 1) {
      const [number] = numbers;
      const board = result.boards[number - 1];
      if (!board) return { key: "find_no_card", values: { number, last: result.boards.length }, deals: [] };
      if (board.player === null) return { key: "find_left", values: { board: label(board) }, deals: [] };
      return { key: "find_found", values: { board: label(board) }, deals: [board.deal] };
    }
    const bad = numbers.find((n) => n < 1 || n > BINGO_CALLS);
    if (bad !== undefined) return { key: "find_bad_numbers", values: { value: bad }, deals: [] };
    const matching = result.boards.filter((b) => numbers.every((n) => b.cells.includes(n)));
    const held = matching.filter((b) => b.player !== null);
    if (held.length) {
      return { key: "find_found", values: { board: held.map(label).join("; ") }, deals: held.map((b) => b.deal) };
    }
    if (matching.length) return { key: "find_left", values: { board: label(matching[0]) }, deals: [] };
    return { key: "find_no_numbers", values: { numbers: numbers.join(" ") }, deals: [] };
  }

  function gameHeading(result) {
    const gameName = { housie: "Housie", bingo: "Bingo" }[result.game] || "Lotería";
    return result.id ? say("game_title", { game: gameName, id: result.id }) : gameName;
  }

  /** The one summary at the top: whether the seed is the committed one, in a sentence. */
  function renderVerdict(result) {
    const box = document.getElementById("verdict");
    const ok = result.commitmentOk;
    const state = ok === true ? "ok" : ok === false ? "bad" : "note";
    const boards = result.boards.filter((b) => b.player !== null).length;
    const facts = say(boards === 1 ? "verdict_facts_one" : "verdict_facts_other", {
      calls: result.calls,
      total: result.order.length,
      boards,
    });
    const more = element("a", { href: "#results", text: say("verdict_more") });
    more.addEventListener("click", (event) => {
      event.preventDefault(); // not a new fragment: that would be read as another game
      document.getElementById("results").scrollIntoView({ block: "start" });
    });
    box.className = `verdict ${state}`;
    box.replaceChildren(
      element(
        "h2",
        { id: "verdict-title" },
        element("span", { className: "mark", "aria-hidden": "true", text: { ok: "✓", bad: "✗", note: "!" }[state] }),
        " ",
        say(`verdict_title_${state}`),
      ),
      element("p", { className: "verdict-game", text: `${gameHeading(result)} · ${facts}` }),
      element("p", {
        className: "verdict-text",
        text: say(`verdict_${state}`, { commitment: result.commitment, computed: result.commitmentComputed }),
      }),
      element("p", { className: "verdict-more" }, more),
    );
    box.hidden = false;
  }

  function renderResult(result) {
    const body = document.getElementById("results-body");
    const heading = gameHeading(result);
    renderVerdict(result);
    body.replaceChildren(
      element("p", { className: "game-name", text: heading }),
      renderChecks(result),
      renderCalls(result),
      renderPrizes(result),
      renderBoards(result),
    );
    document.getElementById("results").hidden = false;
  }

  // ------------------------------------------------------------------------------ the page

  const FIELDS = ["game", "id", "seed", "commitment", "deck", "prizes", "patterns", "calls", "boards"];

  function formFields() {
    const fields = { v: FORMAT_VERSION };
    for (const name of FIELDS) fields[name] = document.getElementById(`f-${name}`).value;
    return fields;
  }

  const FIELD_DEFAULTS = { game: "loteria", deck: "classic" };

  /** The form holding exactly the link's values: a field the link leaves out is emptied. */
  function fillForm(fields) {
    for (const name of FIELDS) {
      const value = fields[name] !== undefined ? fields[name] : FIELD_DEFAULTS[name] || "";
      document.getElementById(`f-${name}`).value = value;
    }
    showGameFields();
  }

  function showGameFields() {
    const game = document.getElementById("f-game").value;
    document.getElementById("deck-field").hidden = game !== "loteria";
    document.getElementById("patterns-field").hidden = game !== "bingo";
    const help = document.getElementById("h-prizes");
    help.dataset.text = `help_prizes_${game in TOTAL_CALLS ? game : "loteria"}`;
    help.textContent = say(help.dataset.text);
  }

  function setLanguage(lang) {
    language = lang === "es" ? "es" : "en";
    document.documentElement.lang = language;
    document.title = `${say("title")} · Game Night`;
    for (const node of document.querySelectorAll("[data-text]")) node.textContent = say(node.dataset.text);
    for (const button of document.querySelectorAll("[data-lang]")) {
      button.setAttribute("aria-pressed", String(button.dataset.lang === language));
    }
    showGameFields();
  }

  function showProblem(error, cutSeed = null) {
    const box = document.getElementById("problem");
    delete box.dataset.text;
    box.textContent =
      error instanceof InputProblem || (error && TEXT.en[error.message])
        ? say(error.key || error.message, error.values || {})
        : say("unexpected", { value: error && error.message });
    if (cutSeed !== null && error && error.key === "seed-length") {
      box.textContent += ` ${say("link-cut-seed", { length: cutSeed })}`;
    }
    box.hidden = false;
    box.scrollIntoView({ block: "nearest" });
  }

  let lastResult = null;
  let running = 0;
  let findText = ""; // what was typed to find a board: kept when the language changes

  /** Recompute the game `fields` describe; `cutSeed` is the length of a seed a link ends in the
   * middle of (the link was cut), else null. */
  async function run(fields, cutSeed = null) {
    const ticket = (running += 1);
    const status = document.getElementById("status");
    document.getElementById("problem").hidden = true;
    document.getElementById("verdict").hidden = true;
    status.textContent = say("working");
    delete document.body.dataset.verified;
    try {
      const result = await verifyGame(fields);
      if (ticket !== running) return;
      lastResult = result;
      findText = "";
      renderResult(result);
      status.textContent = "";
      document.getElementById("verdict").scrollIntoView({ block: "nearest" });
      document.body.dataset.verified = result.commitmentOk === false ? "mismatch" : "yes";
    } catch (error) {
      if (ticket !== running) return;
      document.getElementById("results").hidden = true;
      status.textContent = "";
      document.body.dataset.verified = "error";
      showProblem(error, cutSeed);
    }
  }

  /** The fragment for the form's values (written back to the address bar, no request made). */
  function fragmentFor(fields) {
    const params = new URLSearchParams();
    for (const [key, value] of Object.entries(fields)) {
      if (value !== "" && value !== undefined && value !== null) params.set(key, value);
    }
    if (language) params.set("lang", language);
    return `#${params.toString().replace(/%2C/g, ",").replace(/%2A/g, "*")}`;
  }

  /** Show the game in the address's fragment: at load, and whenever only the fragment changes
   * (another link pasted into the same tab, an edited `calls=` or `lang=`), which reloads
   * nothing by itself. */
  function loadFragment(initial) {
    if (!initial && !window.location.hash.includes("=")) return; // an anchor, not a game
    const fields = parseFragment(window.location.hash);
    if (fields.lang || initial) {
      const browser = (navigator.language || "en").toLowerCase().startsWith("es") ? "es" : "en";
      setLanguage(fields.lang || browser);
    }
    fillForm(fields);
    const keys = Object.keys(fields);
    if (fields.seed) {
      const seed = fields.seed.trim();
      const cutSeed = keys[keys.length - 1] === "seed" && seed.length < 64 ? seed.length : null;
      run({ ...fields }, cutSeed);
    } else {
      running += 1; // a computation still under way is for the link before
      lastResult = null;
      document.getElementById("results").hidden = true;
      document.getElementById("verdict").hidden = true;
      document.getElementById("problem").hidden = true;
      document.getElementById("status").textContent = "";
      delete document.body.dataset.verified;
      if (keys.length) {
        // A link with a game but no seed: cut when it was copied (the bot's links have one).
        const box = document.getElementById("problem");
        box.dataset.text = "link-cut"; // redrawn in the other language by its button
        box.textContent = say("link-cut");
        box.hidden = false;
        document.body.dataset.verified = "incomplete";
      }
    }
  }

  function start() {
    loadFragment(true);
    window.addEventListener("hashchange", () => loadFragment(false));
    document.getElementById("f-game").addEventListener("change", showGameFields);
    for (const button of document.querySelectorAll("[data-lang]")) {
      button.addEventListener("click", () => {
        setLanguage(button.dataset.lang);
        if (lastResult) renderResult(lastResult);
      });
    }
    document.getElementById("game").addEventListener("submit", (event) => {
      event.preventDefault();
      const values = formFields();
      history.replaceState(null, "", fragmentFor(values));
      run(values);
    });
  }

  if (typeof document !== "undefined" && document.getElementById("game")) {
    if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
    else start();
  }

  return { DECKS, LOTERIA_PRIZES, HOUSIE_PRIZES, BINGO_PRIZES, TEXT, parseFragment, parseBoards, readGame, verifyGame, earliestWins };
})();
