"""What the Dots and Boxes tests share: the board sizes, lines by position, and a line's boxes."""

from engine.dots import DotsGame, Line, Orientation

SIZES = [(rows, columns) for rows in range(2, 6) for columns in range(2, 6)]


def across(row: int, column: int) -> Line:
    return Line(Orientation.ACROSS, row, column)


def down(row: int, column: int) -> Line:
    return Line(Orientation.DOWN, row, column)


def sides(game: DotsGame, line: Line) -> list[int]:
    """Sides already drawn on each box beside ``line``."""
    (row, column), _ = line.dots
    boxes = (
        [(row - 1, column), (row, column)]
        if line.orientation is Orientation.ACROSS
        else [(row, column - 1), (row, column)]
    )
    return [
        game.sides_drawn(r, c) for r, c in boxes if 0 <= r < game.rows and 0 <= c < game.columns
    ]


def is_capture(game: DotsGame, line: Line) -> bool:
    return 3 in sides(game, line)


def is_safe(game: DotsGame, line: Line) -> bool:
    return all(count <= 1 for count in sides(game, line))
