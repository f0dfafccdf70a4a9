"""A local Discord emulator on loopback for end-to-end tests and the offline sandbox."""
