from tests.emulator.fixtures import emulator

__all__ = ["emulator"]
