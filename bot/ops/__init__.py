"""The operator's tools: the ``gamenight`` command, backups, the invite link, the settings check."""
