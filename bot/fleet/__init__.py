"""Many processes, one bot: shards, gateway sessions handed over, the shared REST proxy."""
