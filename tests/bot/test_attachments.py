import gc
import weakref

from bot.attachments import attachment
from bot.render import Rendered

PICTURE = Rendered(b"\x89PNG not really", "A picture.", "picture.png")


def test_an_attachment_carries_the_picture_its_name_and_alt_text():
    file = attachment(PICTURE)
    assert file.fp.read() == PICTURE.png
    assert file.filename == "picture.png"
    assert file.description == "A picture."


def test_a_sent_attachment_frees_its_buffer_without_the_cyclic_collector():
    file = attachment(PICTURE)
    buffer = weakref.ref(file.fp)
    file.fp.close()  # what aiohttp does while sending: discord.File makes it do nothing
    assert not file.fp.closed
    gc.disable()
    try:
        file.close()  # what discord.py does once the request is over
        del file
        assert buffer() is None
    finally:
        gc.enable()


def test_closing_twice_is_harmless():
    file = attachment(PICTURE)
    file.close()
    file.close()
    assert not vars(file.fp)
