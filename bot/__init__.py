"""The Discord side of the game-night bot: start-up, settings, storage and rendering."""
