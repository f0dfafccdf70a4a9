"""One cog per game: Discord glue only, the rules live in ``engine``."""
